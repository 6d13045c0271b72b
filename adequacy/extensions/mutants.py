"""Mutants of specs and of programs: the shared vocabulary a backend's mutators speak.

A task's cases are as strong as the wrong specs they reject. Two kinds of wrong thing measure
that (docs/cases.md, "How strong are a task's cases?"):

- **spec mutants**: one small change to a known-good spec (``Backend.spec_mutants``), made on
  the language's own syntax tree; a mutant the task's cases do not reject is either
  equivalent to the original or a blind spot of the cases;
- **program mutants**: one small change to the task's runnable reference
  (``Backend.program_mutants`` for a language's own reference, ``python_program_mutants``
  for a ``reference.py`` of any language); a mutant that gives a wrong output on a valid
  input is a realistic wrong program, and that output a realistic wrong answer.

Operator names are shared across languages (``SPEC_OPERATORS``, ``PROGRAM_OPERATORS``), so a
table per operator means the same thing for Verus, JML and Python; a backend offers the
subset its syntax has. ``python_program_mutants`` lives here, in the plugin API, because a
Python reference exists for tasks of every language and the Python backend mutates its own
references with the same operators.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Collection, Iterator
from typing import TypeVar

from pydantic import BaseModel, ConfigDict

__all__ = ["COMPARISONS", "PROGRAM_OPERATORS", "SPEC_OPERATORS", "STRONGER_COMPARISONS",
           "WEAKER_COMPARISONS", "ProgramMutant", "SpecMutant",
           "apply_python_edit", "check_operators", "numbered", "python_program_mutants",
           "spread"]

SPEC_OPERATORS: dict[str, str] = {
    "conjunct.drop": "drop one conjunct of a conjunction",
    "clause.true": "replace a whole clause (a requires or ensures clause, a precondition's or "
                   "postcondition's body, an assertion) by true",
    "cmp.weaken": "weaken a comparison: < to <=, > to >=, == to <= or >=",
    "cmp.strengthen": "strengthen a comparison: <= to <, >= to >, <= or >= to ==",
    "quant.range": "shift one bound of a quantifier's range by one",
    "logic.swap": "swap a conjunction and a disjunction (&& and ||, and and or)",
    "quant.body_true": "replace a quantifier's body by true",
    "guard.negate": "negate a guard (the condition of an if, a conditional expression, an "
                    "implication's premise, a match arm's guard)",
    "const.shift": "change an integer constant by one (up or down)",
    "result.input": "replace the result by an input of the same type",
}
"""Spec mutation operators every backend names the same way (a backend offers those its
syntax has)."""

COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")
WEAKER_COMPARISONS: dict[str, tuple[str, ...]] = {"<": ("<=",), ">": (">=",), "==": ("<=", ">=")}
STRONGER_COMPARISONS: dict[str, tuple[str, ...]] = {"<=": ("<", "=="), ">=": (">", "==")}
"""What ``cmp.weaken`` and ``cmp.strengthen`` turn each comparison into, in the C-family
spelling Verus, JML and Python share, so every language mutates the same way."""

PROGRAM_OPERATORS: dict[str, str] = {
    "arith.swap": "swap an arithmetic operator (+ and -, * and / or //, % to *)",
    "cmp.boundary": "move a comparison's boundary (< and <=, > and >=)",
    "cmp.negate": "negate a comparison (== and !=, < and >=, > and <=)",
    "logic.swap": "swap and/or (&& and ||)",
    "cond.negate": "negate the condition of an if or a while",
    "const.shift": "change an integer constant by one (up or down)",
    "loop.bound": "move a loop's bound by one (range(a, b) to range(a, b - 1), range(a + 1, b), "
                  "..., a for loop's condition)",
    "index.shift": "read a neighbouring element: a[i] to a[i + 1] or a[i - 1]",
    "return.early": "return from inside the first loop (it runs one round)",
}
"""Program mutation operators (nl2postcond's kinds of wrong programs) every language names
the same way."""


class SpecMutant(BaseModel):
    """One changed copy of a spec: ``text`` is the whole spec file with one change."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    operator: str
    """A key of ``SPEC_OPERATORS``."""
    line: int
    """Line of the change in the original text."""
    description: str
    """The change in a few words (``< -> <=``, ``drop a[i] > 0``)."""
    text: str
    index: int = 1
    """Tells apart mutants of one operator on one line (``numbered``)."""

    @property
    def label(self) -> str:
        """``operator@line`` (``#2`` for the second of its operator on that line): names the
        mutant in tables and in the ``made_by`` of the cases that kill it."""
        return f"{self.operator}@{self.line}" + (f"#{self.index}" if self.index > 1 else "")


class ProgramMutant(BaseModel):
    """One changed copy of a reference program: ``source`` is the whole file with one change."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    operator: str
    """A key of ``PROGRAM_OPERATORS``."""
    file: str
    """The program's file as the task names it (``reference/reference.py``)."""
    line: int
    description: str
    source: str
    index: int = 1
    """Tells apart mutants of one operator on one line (``numbered``)."""

    @property
    def label(self) -> str:
        """``operator@file:line`` (``#2`` for the second of its operator on that line): what
        a case made from this mutant records in ``made_by``."""
        return f"{self.operator}@{self.file}:{self.line}" + (
            f"#{self.index}" if self.index > 1 else "")


M = TypeVar("M", SpecMutant, ProgramMutant)


def numbered(mutants: list[M]) -> list[M]:
    """The mutants with ``index`` set so that every label is unique (the second mutant of an
    operator on a line is ``#2``); backends return their lists through it."""
    seen: dict[tuple[str, str, int], int] = {}
    out: list[M] = []
    for m in mutants:
        key = (m.operator, getattr(m, "file", ""), m.line)
        seen[key] = seen.get(key, 0) + 1
        out.append(m if seen[key] == m.index else m.model_copy(update={"index": seen[key]}))
    return out


def check_operators(operators: Collection[str] | None, known: dict[str, str]) -> set[str]:
    """The operators asked for (all of ``known`` for None); ``ValueError`` naming an unknown
    one and the known ones, so that a typo never silently mutates nothing."""
    if operators is None:
        return set(known)
    bad = sorted(set(operators) - set(known))
    if bad:
        raise ValueError(f"unknown mutation operator(s) {', '.join(bad)} (known: "
                         f"{', '.join(sorted(known))})")
    return set(operators)


# -- Python programs -----------------------------------------------------------------------

_ARITH: dict[type[ast.AST], list[type[ast.AST]]] = {ast.Add: [ast.Sub], ast.Sub: [ast.Add], ast.Mult: [ast.FloorDiv, ast.Add],
          ast.FloorDiv: [ast.Mult], ast.Div: [ast.Mult], ast.Mod: [ast.FloorDiv]}
_BOUNDARY: dict[type[ast.AST], type[ast.AST]] = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt}
_NEGATE: dict[type[ast.AST], type[ast.AST]] = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.GtE, ast.GtE: ast.Lt,
           ast.Gt: ast.LtE, ast.LtE: ast.Gt, ast.In: ast.NotIn, ast.NotIn: ast.In,
           ast.Is: ast.IsNot, ast.IsNot: ast.Is}
_SYMBOL: dict[type[ast.AST], str] = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Div: "/",
           ast.Mod: "%", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==",
           ast.NotEq: "!=", ast.In: "in", ast.NotIn: "not in", ast.Is: "is",
           ast.IsNot: "is not", ast.And: "and", ast.Or: "or"}

Edit = Callable[[ast.AST], ast.AST | None]
"""Given the node (in a fresh copy of the tree), the node that replaces it (or None: the
change was made in place)."""


def _nodes(tree: ast.AST) -> list[ast.AST]:
    return list(ast.walk(tree))


def _parents(tree: ast.AST) -> dict[int, tuple[ast.AST, str, int | None]]:
    out: dict[int, tuple[ast.AST, str, int | None]] = {}
    for node in ast.walk(tree):
        for name, value in ast.iter_fields(node):
            if isinstance(value, ast.AST):
                out[id(value)] = (node, name, None)
            elif isinstance(value, list):
                for i, v in enumerate(value):
                    if isinstance(v, ast.AST):
                        out[id(v)] = (node, name, i)
    return out


def apply_python_edit(tree: ast.Module, index: int, edit: Edit) -> str | None:
    """The source of ``tree`` with the node at ``ast.walk`` position ``index`` edited in a
    copy (``tree`` is left as it was); None when the result does not compile: an edit that
    makes no program is no mutant."""
    t2 = copy.deepcopy(tree)
    nodes = _nodes(t2)
    target = nodes[index]
    new = edit(target)
    if new is not None and new is not target:
        parent, name, at = _parents(t2)[id(target)]
        if at is None:
            setattr(parent, name, new)
        else:
            getattr(parent, name)[at] = new
    ast.fix_missing_locations(t2)
    try:
        text = ast.unparse(t2)
        compile(text, "<mutant>", "exec")
    except (SyntaxError, ValueError, RecursionError, AttributeError, TypeError):
        return None
    return text + "\n"


def _num(n: int) -> ast.expr:
    return ast.Constant(n) if n >= 0 else ast.UnaryOp(ast.USub(), ast.Constant(-n))


def _int_const(node: ast.AST) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


def _program_edits(tree: ast.Module, function: str | None
                   ) -> Iterator[tuple[str, int, str, int, Edit]]:
    """(operator, line, description, walk index, edit) of every one-change mutant of the
    functions of ``tree`` (only ``function`` and what it calls by name in the module, when
    given; everything else of the module is left alone)."""
    nodes = _nodes(tree)
    funcs = [n for n in nodes if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if function is not None:
        names = {f.name for f in funcs}
        keep = {function}
        todo = [function]
        by_name = {f.name: f for f in funcs}
        while todo:
            f = by_name.get(todo.pop())
            if f is None:
                continue
            for n in ast.walk(f):
                if isinstance(n, ast.Name) and n.id in names and n.id not in keep:
                    keep.add(n.id)
                    todo.append(n.id)
        funcs = [f for f in funcs if f.name in keep]
    inside: set[int] = set()
    for f in funcs:
        for stmt in f.body:
            for n in ast.walk(stmt):
                inside.add(id(n))
    first_loop_done: set[int] = set()
    for idx, node in enumerate(nodes):
        if id(node) not in inside:
            continue
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.BinOp) and type(node.op) in _ARITH:
            for new_op in _ARITH[type(node.op)]:
                def edit(n: ast.AST, op: type = new_op) -> None:
                    assert isinstance(n, ast.BinOp)
                    n.op = op()
                yield ("arith.swap", line, f"{_SYMBOL[type(node.op)]} -> {_SYMBOL[new_op]}",
                       idx, edit)
        elif isinstance(node, ast.AugAssign) and type(node.op) in _ARITH:
            for new_op in _ARITH[type(node.op)]:
                def edit_aug(n: ast.AST, op: type = new_op) -> None:
                    assert isinstance(n, ast.AugAssign)
                    n.op = op()
                yield ("arith.swap", line, f"{_SYMBOL[type(node.op)]}= -> {_SYMBOL[new_op]}=",
                       idx, edit_aug)
        elif isinstance(node, ast.Compare):
            for k, op in enumerate(node.ops):
                if type(op) in _BOUNDARY:
                    new_b = _BOUNDARY[type(op)]
                    def edit_b(n: ast.AST, k: int = k, op2: type = new_b) -> None:
                        assert isinstance(n, ast.Compare)
                        n.ops[k] = op2()
                    yield ("cmp.boundary", line, f"{_SYMBOL[type(op)]} -> {_SYMBOL[new_b]}",
                           idx, edit_b)
                if type(op) in _NEGATE:
                    new_n = _NEGATE[type(op)]
                    def edit_n(n: ast.AST, k: int = k, op2: type = new_n) -> None:
                        assert isinstance(n, ast.Compare)
                        n.ops[k] = op2()
                    yield ("cmp.negate", line, f"{_SYMBOL[type(op)]} -> {_SYMBOL[new_n]}",
                           idx, edit_n)
        elif isinstance(node, ast.BoolOp):
            other = ast.Or if isinstance(node.op, ast.And) else ast.And
            def edit_l(n: ast.AST, op: type = other) -> None:
                assert isinstance(n, ast.BoolOp)
                n.op = op()
            yield ("logic.swap", line, f"{_SYMBOL[type(node.op)]} -> {_SYMBOL[other]}", idx,
                   edit_l)
        elif isinstance(node, (ast.If, ast.While, ast.IfExp)):
            def edit_c(n: ast.AST) -> None:
                assert isinstance(n, (ast.If, ast.While, ast.IfExp))
                n.test = ast.UnaryOp(ast.Not(), n.test)
            kind = {ast.If: "if", ast.While: "while", ast.IfExp: "conditional"}[type(node)]
            yield ("cond.negate", line, f"negate the {kind} condition", idx, edit_c)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id == "range" and 1 <= len(node.args) <= 3 and not node.keywords:
            args = node.args
            lo_at = 0 if len(args) >= 2 else None
            hi_at = 1 if len(args) >= 2 else 0
            variants = [(hi_at, -1, "stop - 1"), (hi_at, 1, "stop + 1")]
            if lo_at is not None:
                variants += [(lo_at, 1, "start + 1"), (lo_at, -1, "start - 1")]
            for at, d, what in variants:
                def edit_r(n: ast.AST, at: int = at, d: int = d) -> None:
                    assert isinstance(n, ast.Call)
                    a = n.args[at]
                    c = _int_const(a)
                    n.args[at] = _num(c + d) if c is not None else ast.BinOp(
                        a, ast.Add() if d > 0 else ast.Sub(), ast.Constant(abs(d)))
                yield ("loop.bound", line, f"range: {what}", idx, edit_r)
        elif isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice) \
                and isinstance(node.ctx, ast.Load) and not isinstance(node.slice, ast.Constant):
            for d in (1, -1):
                def edit_i(n: ast.AST, d: int = d) -> None:
                    assert isinstance(n, ast.Subscript)
                    n.slice = ast.BinOp(n.slice, ast.Add() if d > 0 else ast.Sub(),
                                        ast.Constant(1))
                yield ("index.shift", line, f"[i] -> [i {'+' if d > 0 else '-'} 1]", idx,
                       edit_i)
        elif (c := _int_const(node)) is not None:
            for d in (1, -1):
                def edit_k(n: ast.AST, v: int = c + d) -> ast.AST:
                    return _num(v)
                yield ("const.shift", line, f"{c} -> {c + d}", idx, edit_k)
        if isinstance(node, (ast.For, ast.While)):
            owner = next((f for f in funcs if any(n is node for n in ast.walk(f))), None)
            if owner is None or id(owner) in first_loop_done:
                continue
            first_loop_done.add(id(owner))
            last = next((s for s in reversed(owner.body) if isinstance(s, ast.Return)), None)
            if last is None or last.value is None:
                continue
            ret = last

            def edit_e(n: ast.AST, ret: ast.Return = ret) -> None:
                assert isinstance(n, (ast.For, ast.While))
                n.body = [*n.body, copy.deepcopy(ret)]
            yield ("return.early", line, "return at the end of the first loop's first round",
                   idx, edit_e)


def python_program_mutants(source: str, file: str, function: str | None = None,
                           operators: Collection[str] | None = None,
                           limit: int | None = None) -> list[ProgramMutant]:
    """One-change mutants of a Python program (``PROGRAM_OPERATORS``), in source order, each
    a whole file that compiles; duplicates (two edits making the same text) and edits that
    leave the text as it was are left out. ``function``: mutate only it and the module's
    functions it calls (a reference's helpers); ``limit``: at most this many, spread evenly
    over the list (deterministic), for a program with very many."""
    ops = check_operators(operators, PROGRAM_OPERATORS)
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return []
    original = ast.unparse(tree) + "\n"
    seen = {original}
    out: list[ProgramMutant] = []
    for op, line, what, idx, edit in _program_edits(tree, function):
        if op not in ops:
            continue
        text = apply_python_edit(tree, idx, edit)
        if text is None or text in seen:
            continue
        seen.add(text)
        out.append(ProgramMutant(operator=op, file=file, line=line, description=what,
                                 source=text))
    return spread(numbered(out), limit)


def spread(items: list[M], limit: int | None) -> list[M]:
    """At most ``limit`` of ``items``, taken at even steps (every operator and every part of
    the program keeps a share, unlike the first ``limit``)."""
    if limit is None or len(items) <= limit:
        return items
    step = len(items) / limit
    return [items[int(k * step)] for k in range(limit)]
