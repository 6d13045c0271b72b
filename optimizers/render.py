"""Candidate clauses as Verus or JML text, and whole spec files built from them."""

from __future__ import annotations

from collections.abc import Sequence

from adequacy.tasks import Task
from adequacy.types import IntType, SeqType, StringType

from .candidates import (
    AllElems,
    AllIn,
    Atom,
    Clause,
    Cmp,
    Const,
    Iff,
    IndexIn,
    Len,
    Member,
    NonNull,
    Pointwise,
    Sorted,
    Term,
    Var,
)
from .extract import fill_skeleton, jml_annotate


def _int_kind(t: Term) -> str:
    """The Verus integer type of a term, to know when a comparison needs ``as int``."""
    if isinstance(t, Const):
        return "lit"
    if isinstance(t, Len):
        return "usize"
    if isinstance(t.type, IntType):
        return t.type.name
    return "other"


class Verus:
    @staticmethod
    def term(t: Term) -> str:
        if isinstance(t, Const):
            return ("true" if t.value else "false") if isinstance(t.value, bool) else str(t.value)
        if isinstance(t, Len):
            return f"{Verus.term(t.of)}.len()"
        return f"{'input' if t.side == 'in' else 'output'}.{t.name}"

    @staticmethod
    def cmp(left: Term | str, op: str, right: Term | str, kinds: tuple[str, str]) -> str:
        lt = left if isinstance(left, str) else Verus.term(left)
        rt = right if isinstance(right, str) else Verus.term(right)
        if "lit" not in kinds and kinds[0] != kinds[1]:
            lt, rt = f"({lt}) as int", f"({rt}) as int"
        return f"{lt} {op} {rt}"

    @staticmethod
    def elem_kind(s: Var) -> str:
        assert isinstance(s.type, SeqType)
        return s.type.elem.name if isinstance(s.type.elem, IntType) else "other"

    @staticmethod
    def atom(a: Atom) -> str:
        if isinstance(a, Cmp):
            return Verus.cmp(a.left, a.op, a.right, (_int_kind(a.left), _int_kind(a.right)))
        if isinstance(a, Sorted):
            s = Verus.term(a.seq)
            return (f"(forall|i: usize| 1 <= i < {s}.len() ==> "
                    f"{s}[(i - 1) as int] <= {s}[i as int])")
        if isinstance(a, AllElems):
            s = Verus.term(a.seq)
            body = Verus.cmp(f"{s}[i as int]", a.op, a.right,
                             (Verus.elem_kind(a.seq), _int_kind(a.right)))
            return f"(forall|i: usize| 0 <= i < {s}.len() ==> {body})"
        if isinstance(a, Member):
            s = Verus.term(a.seq)
            body = Verus.cmp(f"{s}[i as int]", "==", a.item,
                             (Verus.elem_kind(a.seq), _int_kind(a.item)))
            return f"(exists|i: usize| 0 <= i < {s}.len() && ({body}))"
        if isinstance(a, IndexIn):
            s = Verus.term(a.seq)
            lo = Verus.cmp("0", "<=", a.index, ("lit", _int_kind(a.index)))
            hi = Verus.cmp(a.index, "<", f"{s}.len()", (_int_kind(a.index), "usize"))
            return f"({lo} && {hi})"
        if isinstance(a, Pointwise):
            left, right = Verus.term(a.left), Verus.term(a.right)
            body = Verus.cmp(f"{left}[i as int]", a.op, f"{right}[i as int]",
                             (Verus.elem_kind(a.left), Verus.elem_kind(a.right)))
            return (f"({left}.len() == {right}.len() && (forall|i: usize| "
                    f"0 <= i < {left}.len() ==> {body}))")
        if isinstance(a, AllIn):
            inner, outer = Verus.term(a.inner), Verus.term(a.outer)
            body = Verus.cmp(f"{outer}[j as int]", "==", f"{inner}[i as int]",
                             (Verus.elem_kind(a.outer), Verus.elem_kind(a.inner)))
            return (f"(forall|i: usize| 0 <= i < {inner}.len() ==> (exists|j: usize| "
                    f"0 <= j < {outer}.len() && ({body})))")
        if isinstance(a, Iff):
            return f"({Verus.term(a.out)} == {Verus.atom(a.atom)})"
        raise ValueError(f"no Verus form for {a}")


class Jml:
    @staticmethod
    def term(t: Term, single_output: bool = True) -> str:
        if isinstance(t, Const):
            return ("true" if t.value else "false") if isinstance(t.value, bool) else str(t.value)
        if isinstance(t, Len):
            of = Jml.term(t.of)
            return f"{of}.length()" if isinstance(t.of.type, StringType) else f"{of}.length"
        return t.name if t.side == "in" else "\\result"

    @staticmethod
    def atom(a: Atom) -> str:
        t = Jml.term
        if isinstance(a, Cmp):
            return f"{t(a.left)} {a.op} {t(a.right)}"
        if isinstance(a, Sorted):
            s = t(a.seq)
            return f"(\\forall int i; 0 < i && i < {s}.length; {s}[i - 1] <= {s}[i])"
        if isinstance(a, AllElems):
            s = t(a.seq)
            return f"(\\forall int i; 0 <= i && i < {s}.length; {s}[i] {a.op} {t(a.right)})"
        if isinstance(a, Member):
            s = t(a.seq)
            return f"(\\exists int i; 0 <= i && i < {s}.length; {s}[i] == {t(a.item)})"
        if isinstance(a, IndexIn):
            return f"0 <= {t(a.index)} && {t(a.index)} < {t(a.seq)}.length"
        if isinstance(a, Pointwise):
            x, y = t(a.left), t(a.right)
            return (f"{x}.length == {y}.length && (\\forall int i; 0 <= i && i < {x}.length; "
                    f"{x}[i] {a.op} {y}[i])")
        if isinstance(a, AllIn):
            x, y = t(a.inner), t(a.outer)
            return (f"(\\forall int i; 0 <= i && i < {x}.length; (\\exists int j; 0 <= j && "
                    f"j < {y}.length; {y}[j] == {x}[i]))")
        if isinstance(a, NonNull):
            return f"{t(a.var)} != null"
        if isinstance(a, Iff):
            return f"\\result == ({Jml.atom(a.atom)})"
        raise ValueError(f"no JML form for {a}")


def _vars(x: object) -> list[Var]:
    if isinstance(x, Var):
        return [x]
    if isinstance(x, Len):
        return [x.of]
    if hasattr(x, "__dataclass_fields__"):
        return [v for f in x.__dataclass_fields__ for v in _vars(getattr(x, f))]
    return []


def _jml_ok(a: Atom) -> bool:
    """JML renders arrays and strings only (a ``seq``/``list`` input is a Java collection whose
    API the templates do not model)."""
    return all(not isinstance(v.type, SeqType) or v.type.kind == "array" for v in _vars(a))


def renderable(task: Task, clauses: Sequence[Clause]) -> list[Clause]:
    if task.language == "jml":
        if len(task.outputs) != 1:
            clauses = [c for c in clauses if c.where == "pre"]
        return [c for c in clauses if _jml_ok(c.atom)]
    return [c for c in clauses if not isinstance(c.atom, NonNull)]


def verus_file(task: Task, clauses: Sequence[Clause]) -> str:
    pre = [Verus.atom(c.atom) for c in clauses if c.where == "pre"]
    post = [Verus.atom(c.atom) for c in clauses if c.where == "post"]

    def body(parts: list[str]) -> str:
        return "\n    && ".join(parts) if parts else "true"

    fns = {"pre_spec": f"spec fn pre_spec(input: Input) -> bool {{\n    {body(pre)}\n}}",
           "post_spec": "spec fn post_spec(input: Input, output: Output) -> bool {\n    "
                        f"{body(post)}\n}}"}
    return fill_skeleton(task.skeleton, fns)


def jml_file(task: Task, clauses: Sequence[Clause]) -> str:
    lines = [f"requires {Jml.atom(c.atom)};" for c in clauses if c.where == "pre"]
    lines += [f"ensures {Jml.atom(c.atom)};" for c in clauses if c.where == "post"]
    if not lines:
        lines = ["requires true;", "ensures true;"]
    method = str(task.settings.get("method", "solve")).split("(", 1)[0].strip()
    return jml_annotate(task.skeleton, method, lines)


def spec_file(task: Task, clauses: Sequence[Clause]) -> str:
    return verus_file(task, clauses) if task.language == "verus" else jml_file(task, clauses)


__all__ = ["spec_file", "renderable", "Verus", "Jml"]
