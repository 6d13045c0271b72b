"""One Java compilation unit per spec: the class's own code, its model methods, and one
generated method per JML clause (compiled once, evaluated for every case)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from adequacy.plugin import SpecInvalid

from ...jml import ast as A
from ...jml.members import JavaClass, JavaMethod, SpecFile, result_types
from ...jml.returns import returned_parameter
from ...jml.semantics import DesugaredCase
from .model_math import checked_body
from .translate import SIGNATURE, Context, Env, translate

JAVA_ONLY = {"public", "private", "protected", "static", "final", "strictfp", "synchronized"}


@dataclass
class Unit:
    """What the worker compiles, and how to read its errors back."""

    class_name: str
    source: str
    plan: list[dict[str, object]]
    """Per spec case: ``{"normal": bool, "req": [[method, line]], "ens": [...]}``."""
    first_generated_line: int
    generated_lines: list[int]
    """JML line of each generated line (the model methods' declaration lines too)."""
    params: list[tuple[str, str]]
    result: str
    method: str
    static: bool
    result_param: int = -1
    post_fields: list[tuple[str, str]] = field(default_factory=list)
    """(Java type, name) of each receiver field whose value after the call the case's output
    holds (``[jml] post_fields``): the reference reports them, the clauses read them."""
    """Index of the parameter the method provably returns (``returned_parameter``), else -1:
    when a case's output holds that parameter's post-state but no ``result``, ``\\result`` is
    that post-state object."""
    checked: bool = False
    """Compile with every int and long ``+ - * /``, negation and increment checked for
    overflow (``Checked.java``): the task's reference runs so, a spec's helpers never."""

    def spec_line(self, java_line: int) -> int:
        k = java_line - self.first_generated_line
        if 0 <= k < len(self.generated_lines):
            return self.generated_lines[k]
        return java_line


def _model_source(m: JavaMethod, cls: JavaClass) -> str:
    mods = " ".join(x for x in ("public", "private", "protected", "static", "final")
                    if x in m.modifiers)
    params = ", ".join(f"{t} {n}" for t, n in m.params)
    body = (checked_body(m, {f.name: f.type for f in cls.fields}, result_types(cls.methods + cls.models)) or m.source) \
        if m.has_body else \
        '{ throw new adequacy.rac.R.Undefined("model method ' + m.name + ' has no body"); }'
    return f"{mods} {m.return_type} {m.name}({params}) {body}".replace("\n", " ")


def whole_post_state(spec: SpecFile, cls: JavaClass, target: JavaMethod,
                     post_fields: Sequence[str]) -> bool:
    """Whether the receiver rac builds from a case (a fresh object with the ``post_fields``
    set) holds the whole state after the call: an instance method, every instance field that
    may change named, no static field that may change (rac never runs the method, so static
    fields keep their value from before it) and no superclass (whose fields no case records).
    Then a pure helper called on the object after the call reads what the call left."""
    if target.is_static or not post_fields:
        return False
    start = 0
    for _ in range(cls.line - 1):  # the class's declaration starts on its line
        start = spec.java_text.find("\n", start) + 1
    if re.search(r"\bextends\b", spec.java_text[start:cls.body_open]):
        return False
    return all(f.name in post_fields for f in cls.fields
               if f.may_change and "static" not in f.modifiers) and \
        not any(f.may_change for f in cls.fields if "static" in f.modifiers)


def build_unit(spec: SpecFile, cls: JavaClass, target: JavaMethod,
               cases: list[DesugaredCase], post_fields: Sequence[str] = ()) -> Unit:
    """Translate every clause of the front end's spec cases. The front end has resolved every
    name already; a ``SpecInvalid`` from here is rac's own gap (``engine="rac"``)."""
    ctx = Context(cls, target, spec.file, post_fields=tuple(post_fields),
                  whole_post_state=whole_post_state(spec, cls, target, post_fields))
    lines: list[str] = []
    jml_lines: list[int] = []
    for m in cls.models:
        lines.append(_model_source(m, cls))
        jml_lines.append(m.line)
    plan: list[dict[str, object]] = []

    def clauses(prefix: str, clause: str, exprs: list[tuple[A.Expr, int]]) -> list[list[object]]:
        """One static method per clause; the plan names it with the clause's JML line."""
        out: list[list[object]] = []
        for j, (e, line) in enumerate(exprs):
            name = f"{prefix}{j}"
            body = translate(e, Env(clause), ctx)
            lines.append(f'@SuppressWarnings("unchecked") static Object {name}{SIGNATURE} '
                         f"{{ return {body}; }}")
            jml_lines.append(line)
            out.append([name, line])
        return out

    for i, case in enumerate(cases):
        req = clauses(f"__adq_r{i}_", "requires", case.requires)
        ens = clauses(f"__adq_e{i}_", "ensures", case.ensures)
        # every case constrains normal returns, an exceptional one through its implicit
        # ``ensures false`` (``jml.semantics``)
        plan.append({"normal": True, "req": req, "ens": ens})
    for source, line in ctx.helpers:
        lines.append(source)
        jml_lines.append(line)
    text = spec.java_text
    close_line = text.count("\n", 0, cls.body_close) + 1
    source = text[:cls.body_close] + "\n" + "\n".join(lines) + "\n" + text[cls.body_close:]
    package = _package(spec)
    return Unit(
        class_name=(package + "." if package else "") + cls.name, source=source, plan=plan,
        first_generated_line=close_line + 1, generated_lines=jml_lines,
        params=list(target.params), result=target.return_type or "void", method=target.name,
        static=target.is_static, result_param=_result_param(spec, target),
        post_fields=[(f.type, f.name) for n in post_fields for f in cls.fields if f.name == n],
    )


def _result_param(spec: SpecFile, target: JavaMethod) -> int:
    p = returned_parameter(spec, target)
    names = [n for _t, n in target.params]
    return names.index(p) if p is not None else -1


def _package(spec: SpecFile) -> str:
    toks = spec.java_tokens
    if toks and toks[0].is_ident("package"):
        name = []
        for t in toks[1:]:
            if t.is_op(";"):
                break
            name.append(t.text)
        return "".join(name)
    return ""


def compile_errors(unit: Unit, errors: list[dict[str, object]], file: str | None) -> SpecInvalid:
    """The first javac error as a ``SpecInvalid`` pointing at the spec's own line."""
    first = errors[0] if errors else {"line": None, "message": "compilation failed"}
    raw_line = first.get("line")
    line = unit.spec_line(int(raw_line)) if isinstance(raw_line, int) and raw_line > 0 else None
    msg = str(first.get("message", "")).splitlines()[0]
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return SpecInvalid(f"javac: {msg}{more}", file=file, line=line, engine="rac")
