"""From spec text to a checked, parsed spec bound to its task (the backend's ``load_spec``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from adequacy.plugin import BackendError, LoadedSpec, SpecInvalid, Task, TaskError, key_line

from ..signature import JavaSignatureError, java_type_to_schema, normalise_java_type
from .bodies import check_bodies
from .clause_checks import check_invariants, check_signals
from .identity import identity_gap
from .members import JavaClass, JavaMethod, SpecFile
from .policy import check_code
from .purity import check_purity
from .quant_types import check_quantifier_types
from .reader import read_source
from .resolve import check_names
from .returns import returned_parameter
from .semantics import DesugaredCase, math_gap, spec_cases
from .typecheck import check_assignable, check_types
from .unicode import java_input

_ORIGINALS: dict[tuple[str, float], SpecFile] = {}


@dataclass
class JmlSpec:
    """The backend's parse of one spec (``LoadedSpec.data``)."""

    file: str | None
    source: SpecFile
    cls: JavaClass
    method: JavaMethod
    cases: list[DesugaredCase]
    """Spec cases with JML's implicit clauses made explicit (``jml.semantics``)."""
    math_gap: str | None = None
    """Why the spec's arithmetic is outside bigint spec math, which KeY computes
    (``semantics.math_gap``), or None; rac computes every mode."""
    gap: str | None = None
    """What a pure helper does that no engine can vouch for (``purity.check_purity``), or a
    clause whose value may come from an object's identity (``identity.identity_gap``), or
    None. Every engine answers unknown for every case then."""
    compiled: dict[str, Any] = field(default_factory=dict)
    """Each engine's own compiled form of the spec (e.g. rac's Java unit), made once on the
    engine's first ``check`` and kept with the loaded spec so it is not rebuilt per call."""

    @property
    def result_param(self) -> int:
        """Index of the parameter the method provably returns (``returned_parameter``), else
        -1: when a case's output holds that parameter's post-state but no ``result``,
        ``\\result`` is that post-state object."""
        p = returned_parameter(self.source, self.method)
        names = [n for _t, n in self.method.params]
        return names.index(p) if p is not None else -1


def original_source(task: Task) -> SpecFile:
    """The task's Solution.java, read once per modification time."""
    path = task.skeleton_path
    try:
        key = (str(path), path.stat().st_mtime)
    except OSError as e:
        raise TaskError(f"cannot read {path.name}: {e}", file=str(path)) from e
    if key not in _ORIGINALS:
        try:
            _ORIGINALS[key] = read_source(path.read_text(encoding="utf-8"), str(path))
        except SpecInvalid as e:
            raise TaskError(f"the task's own Java does not read: {e.message}", file=str(path),
                            line=e.line) from e
    return _ORIGINALS[key]


def target_names(task: Task) -> tuple[str, str]:
    """The class and the method's bare name (``[jml] method`` may carry a signature)."""
    name, _types = method_selector(task)
    return str(task.settings.get("class", "Solution")), name


def method_selector(task: Task) -> tuple[str, list[str] | None]:
    """``[jml] method``: a bare name (``solve``) or a signature (``Perimeter(short)``), whose
    parameter types are normalised (``java.lang.String`` is ``String``, ``int...`` is
    ``int[]``)."""
    raw = str(task.settings.get("method", "solve")).strip()
    if "(" not in raw:
        return raw, None
    m = re.fullmatch(r"([A-Za-z_$][\w$]*)\s*\((.*)\)", raw, re.S)
    if m is None:
        raise TaskError(f"[jml] method = {raw!r} is neither a method name nor a signature such "
                        "as 'Perimeter(short)'", file=str(task.root / "task.toml"),
                        field="jml.method")
    inner = m.group(2).strip()
    return m.group(1), [normalise_java_type(t) for t in _split_types(inner)] if inner else []


def _split_types(text: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += (ch == "<") - (ch == ">")
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    return out + [cur]


def param_types(method: JavaMethod) -> list[str]:
    return [normalise_java_type(t) for t, _n in method.params]


def signature_text(method: JavaMethod) -> str:
    return f"{method.name}({', '.join(param_types(method))})"


def select_method(cls: JavaClass, task: Task, file: str | None) -> JavaMethod:
    """The method under specification, by its full signature: the one ``[jml] method`` names,
    or, for a bare name with overloads, the one whose parameters have the task's input types
    (never simply the first with the name: ``Perimeter(short)`` beside ``Perimeter(long)``)."""
    name, types = method_selector(task)
    methods = [m for m in cls.methods if m.name == name]
    if not methods:
        raise SpecInvalid(f"class {cls.name} has no method {name}", file=file, line=cls.line)
    if types is not None:
        chosen = [m for m in methods if param_types(m) == types]
        if not chosen:
            have = ", ".join(signature_text(m) for m in methods)
            raise SpecInvalid(f"class {cls.name} has no method {name}({', '.join(types)}) "
                              f"(it has {have})", file=file, line=cls.line)
        return chosen[0]
    if len(methods) == 1:
        return methods[0]
    fitting = [m for m in methods if _fits(m, task)]
    if len(fitting) == 1:
        return fitting[0]
    have = ", ".join(signature_text(m) for m in methods)
    raise TaskError(f"[jml] method = {name!r} names {len(methods)} overloads ({have}) and the "
                    "task's input types do not tell them apart: write the signature, e.g. "
                    f"method = {signature_text(methods[0])!r}",
                    file=str(task.root / "task.toml"), field="jml.method")


def _fits(method: JavaMethod, task: Task) -> bool:
    """Whether the method's parameters have the schema types of the task's inputs."""
    if len(method.params) != len(task.inputs):
        return False
    try:
        mine = [java_type_to_schema(t) for t, _n in method.params]
    except JavaSignatureError:
        return False
    theirs = [str(p.type) for p in task.inputs]
    return [x.replace(" ", "") for x in mine] == [x.replace(" ", "") for x in theirs]


def find_target(src: SpecFile, task: Task, file: str | None) -> tuple[JavaClass, JavaMethod]:
    cname, _name = target_names(task)
    cls = src.find_class(cname)
    if cls is None:
        raise SpecInvalid(f"no class {cname} in the spec", file=file, line=1)
    method = select_method(cls, task, file)
    check_settings(task, method, cls)
    return cls, method


def check_settings(task: Task, method: JavaMethod, cls: JavaClass | None = None) -> None:
    """The ``[jml]`` table must describe the code: ``static`` (instance methods are called on a
    fresh object), ``post_state`` (outputs that are parameters' values after the call) and
    ``post_fields`` (outputs that are the receiver's fields after the call). Each error names
    task.toml and the key's line."""
    where = str(task.root / "task.toml")
    try:
        toml_text = (task.root / "task.toml").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        toml_text = ""

    def fail(msg: str, key: str) -> TaskError:
        return TaskError(msg, file=where, line=key_line(toml_text, key, "jml"),
                         field=f"jml.{key}")

    static = task.settings.get("static")
    if static is not None and bool(static) != method.is_static:
        raise fail(f"[jml] static = {str(bool(static)).lower()} but {method.name} is "
                   f"{'' if method.is_static else 'not '}static in Solution.java", "static")
    post = task.settings.get("post_state", [])
    names = [n for _t, n in method.params]
    outputs = {p.name: p for p in task.outputs}
    for n in post if isinstance(post, list) else [post]:
        if n not in names or n not in outputs:
            raise fail(f"[jml] post_state names {n!r}, which is not both a parameter of "
                       f"{method.name} and an output field", "post_state")
    fields = task.settings.get("post_fields", [])
    for n in fields if isinstance(fields, list) else [fields]:
        what = f"[jml] post_fields names {n!r}"
        if method.is_static:
            raise fail(f"{what}, but {method.name} is static: only an instance method has a "
                       "receiver whose fields change", "post_fields")
        if n not in outputs or n in names or n == "result":
            raise fail(f"{what}, which is not an output field named like it (or is named like "
                       f"a parameter of {method.name} or the result)", "post_fields")
        if cls is None:
            continue
        decl = next((f for f in cls.fields if f.name == n), None)
        if decl is None or "static" in decl.modifiers:
            raise fail(f"{what}, which is not an instance field that class {cls.name} "
                       "declares", "post_fields")
        try:
            schema = java_type_to_schema(decl.type)
        except JavaSignatureError as e:
            raise fail(f"{what}, whose type {decl.type} the task schema cannot express "
                       f"({e})", "post_fields") from None
        # the reference writes the field's value in its own type and rac reads the case's
        # value back into it: an output of another type would be converted or rejected there
        have = str(outputs[n].type).replace(" ", "")
        if have not in (schema.replace(" ", ""), f"nullable<{schema}>".replace(" ", "")):
            raise fail(f"{what}, a {decl.type} field, but the output field {n} has type "
                       f"{outputs[n].type} (a {decl.type} is {schema})", "post_fields")


def load(task: Task, text: str, path: str | None = None, check: bool = True) -> JmlSpec:
    """Parse, check against the task's code, make JML's implicit clauses explicit and resolve
    every name; every problem is a ``SpecInvalid``. No engine is consulted: what an engine
    cannot compute is its own gap, decided in its ``check``."""
    file = path or "spec.java"
    src = read_source(text, file)
    if check:
        check_code(src, original_source(task))
    cls, method = find_target(src, task, file)
    cases = spec_cases(cls, method, file)
    for c in cases:
        check_names(cls, method, c.requires, c.ensures, file)
        check_types(cls, method, c.requires, c.ensures, file)
    check_quantifier_types(src, cases, file)
    check_assignable(cls, method, file)
    check_signals(cls, method, file)
    check_invariants(cls, file)
    check_bodies(src, cls, file)
    gap = check_purity(src, cls, file) or identity_gap(cls, method, cases)
    return JmlSpec(file, src, cls, method, cases, math_gap(cls, method, cases), gap)


def check_task(task: Task) -> None:
    """What ``load`` checks in the task before the spec, as ``TaskError``: the task's own
    Solution.java reads (JML it carries included), holds the class and the method ``[jml]``
    names (one overload), and the ``[jml]`` table describes that method."""
    src = original_source(task)
    path = str(task.skeleton_path)
    try:
        find_target(src, task, path)
    except SpecInvalid as e:
        raise TaskError(f"the task's own Java: {e.message}", file=path, line=e.line) from e


def spec_data(spec: LoadedSpec, task: Task) -> JmlSpec:
    """The front end's parse kept in a loaded spec (parsed again if a caller built the
    ``LoadedSpec`` by hand): what every engine's ``check`` starts from."""
    data = spec.data
    return data if isinstance(data, JmlSpec) else load(task, spec.text, spec.path)


def ordered_args(task: Task, params: list[tuple[str, str]], method: str,
                 inputs: dict[str, Any]) -> list[Any]:
    """Arguments in the Java method's order: by name when the task's names are the Java names,
    else by position (importers may name parameters differently)."""
    java_names = [n for _t, n in params]
    if set(java_names) <= set(inputs):
        return [inputs[n] for n in java_names]
    task_names = [p.name for p in task.inputs]
    if len(task_names) != len(java_names):
        raise BackendError(f"task {task.id} has {len(task_names)} inputs but the Java method "
                           f"{method} has {len(java_names)} parameters")
    return [inputs[n] for n in task_names]


def annotated(task: Task, jml_lines: list[str]) -> str:
    """The task's Solution.java with ``//@`` lines put just above the method under
    specification (indented like it): the shape of the simplest spec a model could write."""
    text = java_input(task.skeleton_path.read_text(encoding="utf-8"), str(task.skeleton_path))
    _cls, method = find_target(original_source(task), task, str(task.skeleton_path))
    # by line: the front end's offsets are into its rebuilt text, its lines are the file's
    lines = text.split("\n")
    at = method.line - 1
    first = lines[at] if at < len(lines) else ""
    indent = first[:len(first) - len(first.lstrip())]
    block = [f"{indent}//@ {ln}" for ln in jml_lines]
    return "\n".join(lines[:at] + block + lines[at:])
