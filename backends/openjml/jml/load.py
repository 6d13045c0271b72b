"""From spec text to a checked, parsed spec bound to its task (the backend's ``load_spec``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adequacy.backend import LoadedSpec
from adequacy.errors import BackendError, SpecInvalid, TaskError
from adequacy.tasks import Task

from .purity import check_purity
from .resolve import check_names
from .semantics import Case, math_gap, spec_cases
from .source import (
    JavaClass,
    JavaMethod,
    SpecFile,
    check_code,
    read_source,
    returned_parameter,
)
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
    cases: list[Case]
    """Spec cases with JML's implicit clauses made explicit (``jml.semantics``)."""
    math_gap: str | None = None
    """Why the spec's arithmetic is outside bigint spec math, which KeY computes
    (``semantics.math_gap``), or None; rac computes every mode."""
    gap: str | None = None
    """What a pure helper does that no engine can vouch for (``purity.check_purity``), or
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
    return str(task.settings.get("class", "Solution")), str(task.settings.get("method", "solve"))


def find_target(src: SpecFile, task: Task, file: str | None) -> tuple[JavaClass, JavaMethod]:
    cname, mname = target_names(task)
    cls = src.find_class(cname)
    if cls is None:
        raise SpecInvalid(f"no class {cname} in the spec", file=file, line=1)
    methods = [m for m in cls.methods if m.name == mname]
    if not methods:
        raise SpecInvalid(f"class {cname} has no method {mname}", file=file, line=cls.line)
    check_settings(task, methods[0])
    return cls, methods[0]


def check_settings(task: Task, method: JavaMethod) -> None:
    """The ``[jml]`` table must describe the code: ``static`` (instance methods are called on a
    fresh object) and ``post_state`` (outputs that are parameters' values after the call)."""
    where = str(task.root / "task.toml")
    static = task.settings.get("static")
    if static is not None and bool(static) != method.is_static:
        raise TaskError(f"[jml] static = {str(bool(static)).lower()} but {method.name} is "
                        f"{'' if method.is_static else 'not '}static in Solution.java",
                        file=where, field="jml.static")
    post = task.settings.get("post_state", [])
    names = [n for _t, n in method.params]
    outputs = {p.name for p in task.outputs}
    for n in post if isinstance(post, list) else [post]:
        if n not in names or n not in outputs:
            raise TaskError(f"[jml] post_state names {n!r}, which is not both a parameter of "
                            f"{method.name} and an output field", file=where,
                            field="jml.post_state")


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
    check_assignable(cls, method, file)
    purity = check_purity(src, cls, file)
    return JmlSpec(file, src, cls, method, cases, math_gap(cls, method, cases), purity)


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
