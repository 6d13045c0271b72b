"""Spec mutants of Verus specs, made on our own syntax tree and written back as text edits.

The parser is run with span recording (``SpanParser``: the token range of every expression
node), and each mutant replaces exactly one node's text in the file, so the rest of the spec
stays as written (comments, layout, the skeleton's structs that the front end compares). A
replacement that needs grouping is parenthesised (``(a) || (b)``, ``!(c)``, ``(n - 1)``), so
precedence can never make an edit mean something other than its description.

Where: the bodies of every ``spec fn`` (``pre_spec``, ``post_spec`` and their helpers).
Clauses (``clause.true``): the tail of ``pre_spec``'s and ``post_spec``'s bodies, and, when
that tail is a ``match`` or an ``if``, each arm or branch.
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

from .syntax import ast as A
from .syntax.lexer import Token, tokenize
from .syntax.parser import Parser

OPERATORS = list(SPEC_OPERATORS)
_WEAKER = WEAKER_COMPARISONS
_STRONGER = STRONGER_COMPARISONS
_CMP = COMPARISONS
_CLAUSE_FNS = ("pre_spec", "post_spec")


class SpanParser(Parser):
    """The parser, noting the token range ``[start, end)`` of every expression it returns
    (each node is kept alive with its range, so an ``id`` is never reused)."""

    def __init__(self, toks: list[Token], path: str | None) -> None:
        super().__init__(toks, path)
        self.spans: dict[int, tuple[A.Expr, int, int]] = {}

    def note(self, start: int, node: Any) -> Any:
        if isinstance(node, A.Expr) and id(node) not in self.spans:
            self.spans[id(node)] = (node, start, self.pos)
        return node

    def parse_postfix(self, e: A.Expr, no_struct: bool) -> A.Expr:
        got = self.spans.get(id(e))
        start = got[1] if got is not None else self.pos
        return self.note(start, super().parse_postfix(e, no_struct))


def _recording(name: str) -> Any:
    orig = getattr(Parser, name)

    def wrapped(self: SpanParser, *args: Any, **kwargs: Any) -> Any:
        start = self.pos
        return self.note(start, orig(self, *args, **kwargs))

    wrapped.__name__ = name
    return wrapped


for _name in ("parse_expr", "parse_and_prefix", "parse_binary", "parse_cast_level",
              "parse_unary", "parse_primary", "parse_if", "parse_block", "parse_macro",
              "parse_struct_lit"):
    setattr(SpanParser, _name, _recording(_name))


class _Spec:
    """A parsed spec with the text and token ranges its edits are made on."""

    def __init__(self, text: str) -> None:
        if text.startswith("\ufeff"):
            text = text[1:]
        self.text = text.replace("\r\n", "\n")
        self.toks = tokenize(self.text)
        self.parser = SpanParser(self.toks, None)
        self.items, _ = self.parser.parse_file()

    def span(self, e: A.Expr) -> tuple[int, int] | None:
        got = self.parser.spans.get(id(e))
        if got is not None:
            return got[1], got[2]
        if isinstance(e, A.Binary) and e.span is not None:
            return e.span[0], e.span[2]
        if isinstance(e, A.Chain) and e.spans:
            return e.spans[0][0], e.spans[-1][1]
        if isinstance(e, A.Field):
            inner = self.span(e.e)
            if inner is not None and inner[1] + 1 < len(self.toks) \
                    and self.toks[inner[1]].is_p(".") and self.toks[inner[1] + 1].text == e.name:
                return inner[0], inner[1] + 2
        return None

    def chars(self, a: int, b: int) -> tuple[int, int]:
        """Character range of tokens ``[a, b)``."""
        first, last = self.toks[a], self.toks[b - 1]
        return first.start, last.start + len(last.text)

    def source(self, e: A.Expr) -> str | None:
        sp = self.span(e)
        if sp is None or sp[0] >= sp[1] or self.toks[sp[0]].start < 0 \
                or self.toks[sp[1] - 1].start < 0:
            return None
        a, b = self.chars(*sp)
        return self.text[a:b]

    def replace(self, e: A.Expr, new: str) -> tuple[int, int, str] | None:
        sp = self.span(e)
        if sp is None or self.toks[sp[0]].start < 0 or self.toks[sp[1] - 1].start < 0:
            return None
        a, b = self.chars(*sp)
        return a, b, new

    def replace_token(self, i: int, new: str) -> tuple[int, int, str] | None:
        t = self.toks[i]
        if t.start < 0:
            return None
        return t.start, t.start + len(t.text), new


Edit = tuple[str, int, str, tuple[int, int, str] | None]
"""(operator, line, description, (char start, char end, replacement) or None)."""


def _conjuncts(e: A.Expr) -> list[A.Expr]:
    if isinstance(e, A.Binary) and e.op == "&&":
        return _conjuncts(e.l) + _conjuncts(e.r)
    return [e]


def _mentions(e: object, names: set[str]) -> bool:
    if isinstance(e, A.Path) and len(e.segs) == 1 and e.segs[0] in names:
        return True
    return any(_mentions(c, names) for c in A.children(e))


def _short(text: str | None) -> str:
    t = " ".join((text or "a conjunct").split())
    return t if len(t) <= 60 else t[:57] + "..."


def _walk(e: object, parent: object | None, out: list[tuple[A.Expr, object | None]]) -> None:
    stack = [(e, parent)]
    while stack:
        x, p = stack.pop()
        if isinstance(x, A.Expr):
            out.append((x, p))
        for c in reversed(A.children(x)):
            stack.append((c, x))


def _clause_roots(fn: A.FnItem) -> list[A.Expr]:
    body = fn.body
    tail = body.tail if isinstance(body, A.Block) else body
    if tail is None:
        return []
    out = [tail]
    if isinstance(tail, A.Match):
        out += [arm.body for arm in tail.arms]
    elif isinstance(tail, A.If):
        x: A.Expr | None = tail
        while isinstance(x, A.If):
            out.append(x.then.tail if isinstance(x.then, A.Block) and x.then.tail else x.then)
            x = x.els
        if x is not None:
            out.append(x.tail if isinstance(x, A.Block) and x.tail is not None else x)
    return out


def _edits(spec: _Spec, task: Task) -> Iterator[Edit]:
    out_types = {p.name: p.type_text for p in task.outputs}
    in_by_type: dict[str, list[str]] = {}
    for p in task.inputs:
        in_by_type.setdefault(p.type_text, []).append(p.name)
    fns: list[A.FnItem] = []
    for item in spec.items:
        if isinstance(item, A.FnItem):
            fns.append(item)
        elif isinstance(item, A.ImplItem):
            fns += item.fns
    for fn in fns:
        if fn.mode != "spec" or fn.body is None:
            continue
        if fn.name in _CLAUSE_FNS:
            for root in _clause_roots(fn):
                if not (isinstance(root, A.Lit) and root.value is True):
                    yield ("clause.true", root.line, f"{fn.name}: a clause -> true",
                           spec.replace(root, "true"))
        nodes: list[tuple[A.Expr, object | None]] = []
        _walk(fn.body, None, nodes)
        for node, parent in nodes:
            yield from _node_edits(spec, node, parent, out_types, in_by_type)
        for node, _ in nodes:
            if isinstance(node, A.Match):
                for arm in node.arms:
                    if arm.guard is not None:
                        g = spec.source(arm.guard)
                        yield ("guard.negate", arm.line, "negate a match arm's guard",
                               spec.replace(arm.guard, f"!({g})") if g else None)


def _node_edits(spec: _Spec, node: A.Expr, parent: object | None, out_types: dict[str, str],
                in_by_type: dict[str, list[str]]) -> Iterator[Edit]:
    line = node.line
    if isinstance(node, A.Binary) and node.op == "&&" and not (
            isinstance(parent, A.Binary) and parent.op == "&&"):
        parts = _conjuncts(node)
        texts = [spec.source(p) for p in parts]
        if len(parts) > 1 and all(texts):
            for k, p in enumerate(parts):
                rest = [f"({t})" for j, t in enumerate(texts) if j != k]
                yield ("conjunct.drop", p.line, f"drop {_short(texts[k])}",
                       spec.replace(node, "(" + " && ".join(rest) + ")"))
    if isinstance(node, A.Binary) and node.op in ("&&", "||"):
        lt, rt = spec.source(node.l), spec.source(node.r)
        other = "||" if node.op == "&&" else "&&"
        if lt and rt:
            yield ("logic.swap", line, f"{node.op} -> {other}",
                   spec.replace(node, f"(({lt}) {other} ({rt}))"))
    if isinstance(node, A.Binary) and node.op in _CMP and node.span is not None:
        for table, name in ((_WEAKER, "cmp.weaken"), (_STRONGER, "cmp.strengthen")):
            for new in table.get(node.op, []):
                yield (name, line, f"{node.op} -> {new}", spec.replace_token(node.span[1], new))
    if isinstance(node, A.Chain) and node.spans:
        for k, op in enumerate(node.ops):
            at = node.spans[k][1]
            if not (0 <= at < len(spec.toks)) or spec.toks[at].text != op:
                continue
            for table, name in ((_WEAKER, "cmp.weaken"), (_STRONGER, "cmp.strengthen")):
                for new in table.get(op, []):
                    yield (name, line, f"{op} -> {new}", spec.replace_token(at, new))
    if isinstance(node, A.Binary) and node.op == "==>":
        a = spec.source(node.l)
        if a:
            yield ("guard.negate", line, "negate an implication's premise",
                   spec.replace(node.l, f"!({a})"))
    if isinstance(node, A.If) and node.let_pat is None:
        c = spec.source(node.cond)
        if c:
            yield ("guard.negate", line, "negate an if condition", spec.replace(node.cond,
                                                                                f"!({c})"))
    if isinstance(node, A.Lit) and node.kind == "int" and isinstance(node.value, int):
        for d in (1, -1):
            v = node.value + d
            lit = f"{v}{node.suffix or ''}"
            yield ("const.shift", line, f"{node.value} -> {v}",
                   spec.replace(node, f"({lit})" if v < 0 else lit))
    if isinstance(node, A.Quant) and node.kind in ("forall", "exists"):
        yield from _quant_edits(spec, node)
    if isinstance(node, A.Field) and isinstance(node.e, A.Path) and node.e.segs == ("output",) \
            and node.name in out_types:
        for alt in in_by_type.get(out_types[node.name], []):
            yield ("result.input", line, f"output.{node.name} -> input.{alt}",
                   spec.replace(node, f"input.{alt}"))


def _quant_edits(spec: _Spec, q: A.Quant) -> Iterator[Edit]:
    names = {n for n, _ in q.params}
    body = q.body
    premise: A.Expr | None = None
    consequent: A.Expr = body
    if isinstance(body, A.Binary) and body.op == "==>":
        premise, consequent = body.l, body.r
    elif q.kind == "exists" and isinstance(body, A.Binary) and body.op == "&&":
        parts = _conjuncts(body)
        premise, consequent = (parts[0] if len(parts) > 1 else None), parts[-1]
    if not (isinstance(consequent, A.Lit) and consequent.value is True):
        yield ("quant.body_true", q.line, f"the body of {q.kind} -> true",
               spec.replace(consequent, "true"))
    if premise is None:
        return
    for part in _conjuncts(premise):
        operands: list[A.Expr] = []
        if isinstance(part, A.Binary) and part.op in ("<", "<=", ">", ">="):
            operands = [part.l, part.r]
        elif isinstance(part, A.Chain):
            operands = list(part.operands)
        if not any(_mentions(o, names) for o in operands):
            continue
        for o in operands:
            if _mentions(o, names):
                continue
            t = spec.source(o)
            if not t:
                continue
            for d in (1, -1):
                yield ("quant.range", o.line, f"bound {_short(t)} -> {_short(t)} {'+' if d > 0 else '-'} 1",
                       spec.replace(o, f"({t} {'+' if d > 0 else '-'} 1)"))


def spec_mutants(task: Task, text: str, operators: Collection[str] | None = None
                 ) -> list[SpecMutant]:
    """One-change mutants of a Verus spec (the text the front end accepted)."""
    ops = check_operators(operators, SPEC_OPERATORS)
    try:
        spec = _Spec(text)
    except (SpecInvalid, RecursionError, ValueError, IndexError):
        return []
    seen = {spec.text}
    out: list[SpecMutant] = []
    for op, line, what, edit in _edits(spec, task):
        if op not in ops or edit is None:
            continue
        a, b, new = edit
        mutated = spec.text[:a] + new + spec.text[b:]
        if mutated in seen:
            continue
        seen.add(mutated)
        out.append(SpecMutant(operator=op, line=line, description=what, text=mutated))
    return numbered(out)
