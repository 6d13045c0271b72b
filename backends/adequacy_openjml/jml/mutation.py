"""Spec mutants of JML specs, made on our JML syntax tree and written back as text edits.

The clauses of the method under specification (``requires`` and ``ensures`` of every spec
case) are parsed with span recording (``SpanParser``: the token range of every expression
node), and each token's offset in the file is known from the annotation it sits in, so each
mutant replaces exactly one node's text and the rest of the file stays as written. Grouping
is explicit in every replacement (``(a) || (b)``, ``!(c)``, ``(n + 1)``). A whole clause
(``clause.true``) is its expression replaced by ``true``. Java code (the method's body, pure
helpers, model methods) is never changed: only the spec is mutated.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Any

from adequacy.plugin import (
    COMPARISONS,
    SPEC_OPERATORS,
    STRONGER_COMPARISONS,
    WEAKER_COMPARISONS,
    SpecInvalid,
    SpecMutant,
    Task,
    check_operators,
    numbered,
)

from . import ast as A
from .lexer import Token
from .load import find_target
from .members import JmlClause
from .parser import Parser
from .reader import _Reader
from .unicode import java_input

OPERATORS = list(SPEC_OPERATORS)
_WEAKER = WEAKER_COMPARISONS
_STRONGER = STRONGER_COMPARISONS
_CMP = COMPARISONS


class SpanParser(Parser):
    """The JML parser, noting for every expression node the token range of the node itself
    (``inner``: the first range it was returned with) and of the node with its parentheses
    (``outer``: the last), so an operand's extent is known when only its parent was noted."""

    def __init__(self, toks: list[Token]) -> None:
        super().__init__(toks, None)
        self.inner: dict[int, tuple[A.Expr, int, int]] = {}
        self.outer: dict[int, tuple[int, int]] = {}

    def note(self, start: int, node: Any) -> Any:
        if isinstance(node, A.Expr):
            if id(node) not in self.inner:
                self.inner[id(node)] = (node, start, self.i)
            self.outer[id(node)] = (start, self.i)
        return node

    def postfix(self, e: A.Expr) -> A.Expr:
        got = self.inner.get(id(e))
        start = got[1] if got is not None else self.i
        return self.note(start, super().postfix(e))


def _recording(name: str) -> Any:
    orig = getattr(Parser, name)

    def wrapped(self: SpanParser, *args: Any, **kwargs: Any) -> Any:
        start = self.i
        return self.note(start, orig(self, *args, **kwargs))

    wrapped.__name__ = name
    return wrapped


# not ``quantifier_rest``: it starts after ``(\forall``, inside the quantifier's own text
for _name in ("expr", "_expr", "equiv", "implies", "binary", "relational", "shift", "additive",
              "multiplicative", "unary", "_unary", "primary", "backslash", "new", "quantifier"):
    setattr(SpanParser, _name, _recording(_name))


class _Clause:
    """One parsed clause: its tree, its parser's ranges and the file offset of each token."""

    def __init__(self, clause: JmlClause, offsets: dict[int, int]) -> None:
        self.clause = clause
        self.parser = SpanParser(list(clause.tokens))
        self.tree = self.parser.parse_all()
        self.toks = self.parser.toks
        self.offsets = [offsets.get(id(t), -1) for t in clause.tokens]

    def _outer(self, e: A.Expr) -> tuple[int, int] | None:
        got = self.parser.outer.get(id(e))
        return got if got is not None else self.span(e)

    def span(self, e: A.Expr) -> tuple[int, int] | None:
        got = self.parser.inner.get(id(e))
        if got is not None:
            return got[1], got[2]
        first: A.Expr | None = None
        last: A.Expr | None = None
        if isinstance(e, A.Binary):
            first, last = e.left, e.right
        elif isinstance(e, A.Chain):
            first, last = e.operands[0], e.operands[-1]
        elif isinstance(e, A.Cond):
            first, last = e.cond, e.other
        if first is None or last is None:
            return None
        a, b = self._outer(first), self._outer(last)
        return (a[0], b[1]) if a is not None and b is not None else None

    def chars(self, a: int, b: int) -> tuple[int, int] | None:
        if not (0 <= a < b <= len(self.offsets)):
            return None
        s, last = self.offsets[a], self.offsets[b - 1]
        if s < 0 or last < 0:
            return None
        return s, last + len(self.toks[b - 1].text)

    def source(self, text: str, e: A.Expr) -> str | None:
        sp = self.span(e)
        rng = self.chars(*sp) if sp is not None else None
        return text[rng[0]:rng[1]] if rng is not None else None

    def replace(self, e: A.Expr, new: str) -> tuple[int, int, str] | None:
        sp = self.span(e)
        rng = self.chars(*sp) if sp is not None else None
        return (rng[0], rng[1], new) if rng is not None else None

    def op_token(self, left: A.Expr, op: str) -> int | None:
        """Index of the operator token right after ``left`` (with its parentheses)."""
        sp = self._outer(left)
        if sp is None or sp[1] >= len(self.offsets) or self.toks[sp[1]].text != op:
            return None
        return sp[1]

    def replace_token(self, i: int | None, new: str) -> tuple[int, int, str] | None:
        if i is None or self.offsets[i] < 0:
            return None
        return self.offsets[i], self.offsets[i] + len(self.toks[i].text), new


Edit = tuple[str, int, str, tuple[int, int, str] | None]


def _conjuncts(e: A.Expr) -> list[A.Expr]:
    if isinstance(e, A.Binary) and e.op == "&&":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _mentions(e: A.Expr, names: set[str]) -> bool:
    return any(isinstance(x, A.Name) and x.id in names for x in A.walk(e))


def _short(text: str | None) -> str:
    t = " ".join((text or "a conjunct").split())
    return t if len(t) <= 60 else t[:57] + "..."


def _parents(tree: A.Expr) -> dict[int, A.Expr]:
    out: dict[int, A.Expr] = {}
    for x in A.walk(tree):
        for v in x.__dict__.values():
            if isinstance(v, A.Expr):
                out[id(v)] = x
            elif isinstance(v, tuple):
                for y in v:
                    if isinstance(y, A.Expr):
                        out[id(y)] = x
    return out


def _edits(text: str, c: _Clause, result_alts: list[str]) -> Iterator[Edit]:
    kw = c.clause.keyword
    tree = c.tree
    if not (isinstance(tree, A.Lit) and tree.value is True):
        yield ("clause.true", c.clause.line, f"{kw} clause -> true", c.replace(tree, "true"))
    parents = _parents(tree)
    for node in A.walk(tree):
        parent = parents.get(id(node))
        line = node.line
        if isinstance(node, A.Binary) and node.op == "&&" and not (
                isinstance(parent, A.Binary) and parent.op == "&&"):
            parts = _conjuncts(node)
            texts = [c.source(text, p) for p in parts]
            if len(parts) > 1 and all(texts):
                for k, p in enumerate(parts):
                    rest = [f"({t})" for j, t in enumerate(texts) if j != k]
                    yield ("conjunct.drop", p.line, f"drop {_short(texts[k])}",
                           c.replace(node, "(" + " && ".join(rest) + ")"))
        if isinstance(node, A.Binary) and node.op in ("&&", "||"):
            lt, rt = c.source(text, node.left), c.source(text, node.right)
            other = "||" if node.op == "&&" else "&&"
            if lt and rt:
                yield ("logic.swap", line, f"{node.op} -> {other}",
                       c.replace(node, f"(({lt}) {other} ({rt}))"))
        if isinstance(node, A.Binary) and node.op in _CMP:
            at = c.op_token(node.left, node.op)
            for table, name in ((_WEAKER, "cmp.weaken"), (_STRONGER, "cmp.strengthen")):
                for new in table.get(node.op, []):
                    yield (name, line, f"{node.op} -> {new}", c.replace_token(at, new))
        if isinstance(node, A.Chain):
            for k, op in enumerate(node.ops):
                at = c.op_token(node.operands[k], op)
                for table, name in ((_WEAKER, "cmp.weaken"), (_STRONGER, "cmp.strengthen")):
                    for new in table.get(op, []):
                        yield (name, line, f"{op} -> {new}", c.replace_token(at, new))
        if isinstance(node, A.Binary) and node.op == "==>":
            a = c.source(text, node.left)
            if a:
                yield ("guard.negate", line, "negate an implication's premise",
                       c.replace(node.left, f"!({a})"))
        if isinstance(node, A.Cond):
            g = c.source(text, node.cond)
            if g:
                yield ("guard.negate", line, "negate a conditional's condition",
                       c.replace(node.cond, f"!({g})"))
        if isinstance(node, A.Lit) and node.kind in ("int", "long") and isinstance(node.value,
                                                                                   int):
            suffix = "L" if node.kind == "long" else ""
            for d in (1, -1):
                v = node.value + d
                lit = f"{v}{suffix}"
                yield ("const.shift", line, f"{node.value} -> {v}",
                       c.replace(node, f"({lit})" if v < 0 else lit))
        if isinstance(node, A.Quant) and node.kind in ("forall", "exists"):
            yield from _quant_edits(text, c, node)
        if isinstance(node, A.Result):
            for alt in result_alts:
                yield ("result.input", line, f"\\result -> {alt}", c.replace(node, alt))


def _quant_edits(text: str, c: _Clause, q: A.Quant) -> Iterator[Edit]:
    names = set(q.vars)
    if not (isinstance(q.body, A.Lit) and q.body.value is True):
        body = q.body
        if q.range is None and isinstance(body, A.Binary) and body.op in ("==>", "&&"):
            body = body.right
        yield ("quant.body_true", q.line, f"the body of \\{q.kind} -> true",
               c.replace(body, "true"))
    rng = q.range
    if rng is None and isinstance(q.body, A.Binary) and q.body.op in ("==>", "&&"):
        rng = q.body.left
    if rng is None:
        return
    for part in _conjuncts(rng):
        operands: list[A.Expr] = []
        if isinstance(part, A.Binary) and part.op in ("<", "<=", ">", ">="):
            operands = [part.left, part.right]
        elif isinstance(part, A.Chain):
            operands = list(part.operands)
        if not any(_mentions(o, names) for o in operands):
            continue
        for o in operands:
            if _mentions(o, names):
                continue
            t = c.source(text, o)
            if not t:
                continue
            for d in (1, -1):
                if isinstance(o, A.Lit) and isinstance(o.value, int):
                    v = o.value + d
                    new = f"({v})" if v < 0 else str(v)
                else:
                    new = f"({t} {'+' if d > 0 else '-'} 1)"
                yield ("quant.range", o.line, f"bound {_short(t)} -> {_short(new)}",
                       c.replace(o, new))


def spec_mutants(task: Task, text: str, operators: Collection[str] | None = None
                 ) -> list[SpecMutant]:
    """One-change mutants of the requires/ensures clauses of the task's method."""
    ops = check_operators(operators, SPEC_OPERATORS)
    try:
        base = java_input(text)
        reader = _Reader(base, None)
        src = reader.read()
        _cls, method = find_target(src, task, None)
    except (SpecInvalid, RecursionError, ValueError, IndexError):
        return []
    offsets: dict[int, int] = {}
    for pos, toks in reader.jml_of.items():
        for t in toks:
            offsets[id(t)] = pos + 3 + t.pos
    rtype = (method.return_type or "").replace(" ", "")
    alts = [n for t, n in method.params if t.replace(" ", "") == rtype] if rtype else []
    seen = {base}
    out: list[SpecMutant] = []
    done: set[int] = set()
    for case in method.spec:
        for clause in case.requires + case.ensures:
            if id(clause) in done:  # nested cases share their enclosing clauses
                continue
            done.add(id(clause))
            try:
                c = _Clause(clause, offsets)
            except (SpecInvalid, RecursionError, IndexError):
                continue
            for op, line, what, edit in _edits(base, c, alts if clause.keyword == "ensures"
                                               else []):
                if op not in ops or edit is None:
                    continue
                a, b, new = edit
                mutated = base[:a] + new + base[b:]
                if mutated in seen:
                    continue
                seen.add(mutated)
                out.append(SpecMutant(operator=op, line=line, description=what, text=mutated))
    return numbered(out)
