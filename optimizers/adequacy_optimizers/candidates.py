"""Candidate clauses from a task's type schema, language-neutral, with their value on a case.

This is the Daikon half of the classical baselines: enumerate relations the schema makes
possible (bounds, relations between output and inputs, lengths, orderedness, element-wise
relations, membership, nullness) and keep those true on every visible valid case. Atoms are
plain data (``adequacy.model.clauses``) so one enumeration serves every language; ``holds`` evaluates an atom on JSON values
with mathematical integers (the semantics of both languages' spec arithmetic), and the writer
re-checks the assembled spec with the real engine before trusting this evaluation.
"""

from __future__ import annotations

from itertools import combinations, permutations
from typing import Any

from adequacy.errors import BackendError
from adequacy.extensions import registry
from adequacy.model.clauses import (
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
    Side,
    Sorted,
    Term,
    Var,
)
from adequacy.model.task import Case, Task
from adequacy.model.types import BoolType, IntType, SeqType, StringType, Type


class Undefined(Exception):
    """The atom has no value on the case (a null array, a missing field)."""


def _is_int(t: Type) -> bool:
    return isinstance(t, IntType)


def _is_int_seq(t: Type) -> bool:
    return isinstance(t, SeqType) and isinstance(t.elem, IntType)


def _has_len(t: Type) -> bool:
    return isinstance(t, (SeqType, StringType))


def _nullable(t: Type, language: str) -> bool:
    """Whether the language lets a value of ``t`` be null (its backend's ``may_be_null``)."""
    try:
        return registry.registry().owner(language).may_be_null(t)
    except BackendError:
        return False


OPS = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, "==": lambda a, b: a == b,
       "!=": lambda a, b: a != b, ">=": lambda a, b: a >= b, ">": lambda a, b: a > b}


def _term(t: Term, inp: dict[str, Any], out: dict[str, Any] | None) -> Any:
    if isinstance(t, Const):
        return t.value
    if isinstance(t, Len):
        v = _term(t.of, inp, out)
        if v is None:
            raise Undefined("length of null")
        return len(v)
    src = inp if t.side == "in" else out
    if src is None or t.name not in src:
        raise Undefined(f"no value for {t.name}")
    v = src[t.name]
    if isinstance(v, bool) and _is_int(t.type):
        raise Undefined("bool where an int was expected")
    return v


def _seq(v: Var, inp: dict[str, Any], out: dict[str, Any] | None) -> list[Any]:
    s = _term(v, inp, out)
    if s is None:
        raise Undefined("null sequence")
    return list(s)


def holds(a: Atom, inp: dict[str, Any], out: dict[str, Any] | None = None) -> bool:
    """The atom's value on one case; raises ``Undefined`` where the spec would be undefined."""
    if isinstance(a, Cmp):
        return bool(OPS[a.op](_term(a.left, inp, out), _term(a.right, inp, out)))
    if isinstance(a, Sorted):
        s = _seq(a.seq, inp, out)
        return all(s[i - 1] <= s[i] for i in range(1, len(s)))
    if isinstance(a, AllElems):
        r = _term(a.right, inp, out)
        return all(OPS[a.op](x, r) for x in _seq(a.seq, inp, out))
    if isinstance(a, Member):
        return _term(a.item, inp, out) in _seq(a.seq, inp, out)
    if isinstance(a, IndexIn):
        i = _term(a.index, inp, out)
        return 0 <= i < len(_seq(a.seq, inp, out))
    if isinstance(a, Pointwise):
        left, right = _seq(a.left, inp, out), _seq(a.right, inp, out)
        return len(left) == len(right) and all(OPS[a.op](x, y) for x, y in zip(left, right, strict=True))
    if isinstance(a, AllIn):
        outer = _seq(a.outer, inp, out)
        return all(x in outer for x in _seq(a.inner, inp, out))
    if isinstance(a, NonNull):
        return _term(a.var, inp, out) is not None
    if isinstance(a, Iff):
        return bool(_term(a.out, inp, out)) == holds(a.atom, inp, out)
    raise TypeError(a)


def _input_atoms(task: Task, side: Side = "in") -> list[Atom]:
    """Properties of the inputs alone: preconditions, and what a boolean output may equal."""
    ins = [Var(side, p.name, p.type) for p in task.inputs]
    ints = [v for v in ins if _is_int(v.type)]
    seqs = [v for v in ins if _is_int_seq(v.type)]
    lens = [v for v in ins if _has_len(v.type)]
    zero = Const(0)
    atoms: list[Atom] = []
    for v in ins:
        if _nullable(v.type, task.language):
            atoms.append(NonNull(v))
    for x in ints:
        atoms += [Cmp(x, ">=", zero), Cmp(x, ">", zero), Cmp(x, "!=", zero)]
    for x, y in combinations(ints, 2):
        atoms += [Cmp(x, "<=", y), Cmp(x, "<", y), Cmp(x, ">=", y), Cmp(x, ">", y)]
    for s in lens:
        atoms.append(Cmp(Len(s), ">", zero))
    for s in seqs:
        atoms += [Sorted(s), AllElems(s, ">=", zero), AllElems(s, ">", zero)]
        for x in ints:
            atoms += [IndexIn(x, s), Cmp(x, "<=", Len(s)), Member(s, x)]
    for s, t in permutations(lens, 2):
        atoms.append(Cmp(Len(s), "==", Len(t)))
    return atoms


def _output_atoms(task: Task) -> list[Atom]:
    ins = [Var("in", p.name, p.type) for p in task.inputs]
    outs = [Var("out", p.name, p.type) for p in task.outputs]
    zero = Const(0)
    atoms: list[Atom] = []
    int_ins = [v for v in ins if _is_int(v.type)]
    seq_ins = [v for v in ins if _is_int_seq(v.type)]
    len_ins = [v for v in ins if _has_len(v.type)]
    for r in outs:
        if _nullable(r.type, task.language):
            atoms.append(NonNull(r))
        if _is_int(r.type):
            atoms += [Cmp(r, ">=", zero), Cmp(r, ">", zero), Cmp(r, ">=", Const(-1))]
            for x in int_ins:
                atoms += [Cmp(r, "==", x), Cmp(r, ">=", x), Cmp(r, "<=", x)]
            for s in len_ins:
                atoms += [Cmp(r, "==", Len(s)), Cmp(r, "<=", Len(s))]
            for s in seq_ins:
                atoms += [IndexIn(r, s), Member(s, r), AllElems(s, "<=", r),
                          AllElems(s, ">=", r)]
        elif isinstance(r.type, BoolType):
            atoms += [Cmp(r, "==", Const(True)), Cmp(r, "==", Const(False))]
            atoms += [Iff(r, a) for a in _input_atoms(task) if not isinstance(a, NonNull)]
        elif _has_len(r.type):
            for s in len_ins:
                atoms += [Cmp(Len(r), "==", Len(s)), Cmp(Len(r), "<=", Len(s))]
            if _is_int_seq(r.type):
                atoms += [Sorted(r), AllElems(r, ">=", zero)]
                for s in seq_ins:
                    atoms += [Pointwise(r, "==", s), AllIn(r, s), AllIn(s, r)]
                for x in int_ins:
                    atoms.append(AllElems(r, "<=", x))
    return list(dict.fromkeys(atoms))


def candidate_clauses(task: Task) -> list[Clause]:
    """Every clause the schema suggests, preconditions first."""
    return ([Clause("pre", a) for a in dict.fromkeys(_input_atoms(task))]
            + [Clause("post", a) for a in _output_atoms(task)])


def _true_on(atom: Atom, cases: list[Case], with_output: bool) -> bool:
    if not cases:
        return False
    try:
        return all(holds(atom, c.input, c.output if with_output else None) for c in cases)
    except (Undefined, TypeError):
        return False


def daikon_clauses(task: Task) -> list[Clause]:
    """Candidates true on every visible valid case (pre: valid inputs; post: correct pairs).

    With no visible case of a kind nothing of that kind is kept: an invariant needs at least
    one observation, as in Daikon.
    """
    valid_inputs = [c for c in task.all_cases() if c.visible
                    and c.bucket.value in ("pre_complete", "post_complete")]
    correct = [c for c in task.all_cases() if c.visible and c.bucket.value == "post_complete"]
    kept: list[Clause] = []
    for cl in candidate_clauses(task):
        pre = cl.where == "pre"
        if _true_on(cl.atom, valid_inputs if pre else correct, not pre):
            kept.append(cl)
    return kept
