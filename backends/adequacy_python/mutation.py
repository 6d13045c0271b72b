"""Spec mutants of Python specs, made on Python's own ``ast``; program mutants of solution.py.

Where a change may be made: the bodies of the spec's functions (``pre``, ``post``, helpers,
an assert block's function) and the lambdas of icontract/deal decorators; never the task's
function stub (its signature and docstring), imports, annotations or docstrings. Each mutant
is the module printed back (``ast.unparse``) with one change: comments and layout go, the
meaning of the rest stays (the front end reads the same tree).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Collection, Iterator

from adequacy.plugin import (
    SPEC_OPERATORS,
    STRONGER_COMPARISONS,
    WEAKER_COMPARISONS,
    ProgramMutant,
    SpecMutant,
    Task,
    apply_python_edit,
    check_operators,
    numbered,
    python_program_mutants,
)

from .runtime.rewrite import RESULT_ALIASES

Edit = Callable[[ast.AST], ast.AST | None]

OPERATORS = list(SPEC_OPERATORS)

_SYMBOL: dict[type[ast.AST], str] = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==",
           ast.NotEq: "!="}
_NODE = {v: k for k, v in _SYMBOL.items()}
_WEAKER = {_NODE[a]: [_NODE[b] for b in bs] for a, bs in WEAKER_COMPARISONS.items()}
_STRONGER = {_NODE[a]: [_NODE[b] for b in bs] for a, bs in STRONGER_COMPARISONS.items()}
_PREDICATE_NAMES = ("pre", "post")


def _is_predicate(e: ast.expr | None) -> bool:
    """Whether a returned expression reads as a truth value (so ``True`` may stand for it)."""
    if isinstance(e, (ast.Compare, ast.BoolOp)):
        return True
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
        return True
    if isinstance(e, ast.Constant) and isinstance(e.value, bool):
        return True
    return isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id in (
        "all", "any", "isinstance")


def _regions(tree: ast.Module, task_function: str) -> tuple[set[int], set[int]]:
    """(ids of nodes a mutant may change, ids of the roots of whole clauses)."""
    inside: set[int] = set()
    clauses: set[int] = set()
    for f in tree.body:
        if not isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for dec in f.decorator_list:
            for n in ast.walk(dec):
                if isinstance(n, ast.Lambda):
                    for m in ast.walk(n.body):
                        inside.add(id(m))
                    clauses.add(id(n.body))
        if f.name == task_function:
            continue
        body = f.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            body = body[1:]
        returns_bool = isinstance(f.returns, ast.Name) and f.returns.id == "bool"
        for stmt in body:
            for n in ast.walk(stmt):
                if isinstance(n, ast.AnnAssign):
                    continue
                inside.add(id(n))
                if isinstance(n, ast.Assert):
                    clauses.add(id(n.test))
                elif isinstance(n, ast.Return) and n.value is not None and (
                        returns_bool or f.name in _PREDICATE_NAMES or _is_predicate(n.value)):
                    clauses.add(id(n.value))
            for n in ast.walk(stmt):
                if isinstance(n, ast.AnnAssign) and n.annotation is not None:
                    for m in ast.walk(n.annotation):
                        inside.discard(id(m))
    for stmt in tree.body:  # a top-level assert block
        if isinstance(stmt, ast.Assert):
            for n in ast.walk(stmt):
                inside.add(id(n))
            clauses.add(id(stmt.test))
    return inside, clauses


def _true() -> ast.expr:
    return ast.Constant(True)


def _to_true(_n: ast.AST) -> ast.AST:
    return _true()


def _to_int(v: int) -> Edit:
    return lambda _n: _int(v)


def _to_name(name: str) -> Edit:
    return lambda _n: ast.Name(name, ast.Load())


def _int(v: int) -> ast.expr:
    return ast.Constant(v) if v >= 0 else ast.UnaryOp(ast.USub(), ast.Constant(-v))


def _shift(e: ast.expr, d: int) -> ast.expr:
    if isinstance(e, ast.Constant) and type(e.value) is int:
        return _int(e.value + d)
    return ast.BinOp(e, ast.Add() if d > 0 else ast.Sub(), ast.Constant(abs(d)))


def _edits(tree: ast.Module, task: Task, task_function: str
           ) -> Iterator[tuple[str, int, str, int, Edit]]:
    nodes = list(ast.walk(tree))
    inside, clauses = _regions(tree, task_function)
    outputs = [p.name for p in task.outputs]
    result_names = set(outputs) | (set(RESULT_ALIASES) if len(outputs) == 1 else set())
    out_type = {p.name: p.type_text for p in task.outputs}
    same_type: dict[str, list[str]] = {}
    for name in result_names:
        t = out_type.get(name, task.outputs[0].type_text if len(outputs) == 1 else None)
        same_type[name] = [p.name for p in task.inputs if p.type_text == t]
    for idx, node in enumerate(nodes):
        if id(node) not in inside:
            continue
        line = getattr(node, "lineno", 0)
        if id(node) in clauses and not (isinstance(node, ast.Constant) and node.value is True):
            yield ("clause.true", line, "the clause -> True", idx, _to_true)
        if isinstance(node, ast.BoolOp):
            if isinstance(node.op, ast.And):
                for k, v in enumerate(node.values):
                    def drop(n: ast.AST, k: int = k) -> ast.AST:
                        assert isinstance(n, ast.BoolOp)
                        rest = n.values[:k] + n.values[k + 1:]
                        return rest[0] if len(rest) == 1 else ast.BoolOp(ast.And(), rest)
                    yield ("conjunct.drop", getattr(v, "lineno", line),
                           f"drop {_short(v)}", idx, drop)
            other = ast.Or if isinstance(node.op, ast.And) else ast.And
            def swap(n: ast.AST, op: type = other) -> None:
                assert isinstance(n, ast.BoolOp)
                n.op = op()
            yield ("logic.swap", line, f"{'and -> or' if other is ast.Or else 'or -> and'}",
                   idx, swap)
        elif isinstance(node, ast.Compare):
            for k, op in enumerate(node.ops):
                for table, name in ((_WEAKER, "cmp.weaken"), (_STRONGER, "cmp.strengthen")):
                    for new in table.get(type(op), []):
                        def cmp(n: ast.AST, k: int = k, new: type = new) -> None:
                            assert isinstance(n, ast.Compare)
                            n.ops[k] = new()
                        yield (name, line, f"{_SYMBOL[type(op)]} -> {_SYMBOL[new]}", idx, cmp)
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            for d in (1, -1):
                yield ("const.shift", line, f"{node.value} -> {node.value + d}", idx,
                       _to_int(node.value + d))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("all", "any") and len(node.args) == 1 \
                and isinstance(node.args[0], (ast.GeneratorExp, ast.ListComp, ast.SetComp)):
            def body(n: ast.AST) -> None:
                assert isinstance(n, ast.Call)
                g = n.args[0]
                assert isinstance(g, (ast.GeneratorExp, ast.ListComp, ast.SetComp))
                g.elt = _true()
            yield ("quant.body_true", line, f"the body of {node.func.id}(...) -> True", idx,
                   body)
        elif isinstance(node, ast.comprehension):
            it = node.iter
            if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) \
                    and it.func.id == "range" and 1 <= len(it.args) <= 2 and not it.keywords:
                stop = len(it.args) - 1
                variants = [(stop, 1, "stop + 1"), (stop, -1, "stop - 1")]
                if len(it.args) == 2:
                    variants += [(0, 1, "start + 1"), (0, -1, "start - 1")]
                for at, d, what in variants:
                    def rng(n: ast.AST, at: int = at, d: int = d) -> None:
                        assert isinstance(n, ast.comprehension)
                        call = n.iter
                        assert isinstance(call, ast.Call)
                        call.args[at] = _shift(call.args[at], d)
                    yield ("quant.range", getattr(it, "lineno", line), f"range: {what}", idx,
                           rng)
            for k in range(len(node.ifs)):
                def guard_if(n: ast.AST, k: int = k) -> None:
                    assert isinstance(n, ast.comprehension)
                    n.ifs[k] = ast.UnaryOp(ast.Not(), n.ifs[k])
                yield ("guard.negate", line, "negate the comprehension's if", idx, guard_if)
        elif isinstance(node, (ast.IfExp, ast.If)):
            def guard(n: ast.AST) -> None:
                assert isinstance(n, (ast.IfExp, ast.If))
                n.test = ast.UnaryOp(ast.Not(), n.test)
            yield ("guard.negate", line, "negate the if condition", idx, guard)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) \
                and node.id in result_names:
            for alt in same_type.get(node.id, []):
                yield ("result.input", line, f"{node.id} -> {alt}", idx, _to_name(alt))


def _short(e: ast.AST) -> str:
    try:
        text = ast.unparse(e)
    except (ValueError, RecursionError, AttributeError):
        return "a conjunct"
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."


def spec_mutants(task: Task, text: str, task_function: str,
                 operators: Collection[str] | None = None) -> list[SpecMutant]:
    ops = check_operators(operators, SPEC_OPERATORS)
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return []
    seen = {ast.unparse(tree) + "\n"}
    out: list[SpecMutant] = []
    for op, line, what, idx, edit in _edits(tree, task, task_function):
        if op not in ops:
            continue
        new = apply_python_edit(tree, idx, edit)
        if new is None or new in seen:
            continue
        seen.add(new)
        out.append(SpecMutant(operator=op, line=line, description=what, text=new))
    return numbered(out)


def program_mutants(task: Task, source: str, file: str, function: str,
                    operators: Collection[str] | None = None) -> list[ProgramMutant]:
    return python_program_mutants(source, file, function, operators)
