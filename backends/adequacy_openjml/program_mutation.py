"""Program mutants of a JML task's Java method, run by the task's own reference runner.

The task's ``Solution.java`` is read as the front end reads it (``jml.reader``: the text the
engines get, its Java tokens with their offsets), and each mutant changes one token or one
small span inside the body of the method under specification (PIT's and nl2postcond's kinds:
arithmetic and comparison operators, ``&&``/``||``, negated ``if``/``while`` conditions,
integer constants, a ``for`` loop's bound, an array index, a ``return`` at the end of the
first loop's first round). Nothing outside that method's body changes. A mutant runs like the
reference itself (``engines.rac``: compiled by javac with the reference's checked arithmetic,
in a sandboxed JVM); one that javac refuses gives ``failed`` outcomes saying so.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Any

from adequacy.plugin import (
    PROGRAM_OPERATORS,
    Limits,
    ProgramMutant,
    ReferenceOutcome,
    SpecInvalid,
    Task,
    TaskError,
    check_operators,
    numbered,
)

from .jml.lexer import Token, closing

_ARITH = {"+": ["-"], "-": ["+"], "*": ["/"], "/": ["*"], "%": ["/"],
          "+=": ["-="], "-=": ["+="], "*=": ["/="], "/=": ["*="]}
_BOUNDARY = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}
_NEGATE = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}
_TYPES = {"int", "long", "short", "byte", "char", "boolean", "double", "float", "String",
          "void", "var"}
_OPERAND_END = {")", "]"}
"""Tokens after which a ``-`` or ``+`` is binary (with identifiers and literals)."""

Edit = tuple[str, int, str, int, int, str]
"""(operator, line, description, start offset, end offset, replacement)."""


def _is_operand_end(t: Token) -> bool:
    return t.kind in ("ident", "int", "float", "char", "string") and t.text not in (
        "return", "new", "case") or t.is_op(*_OPERAND_END)


def _end(t: Token) -> int:
    return t.pos + len(t.text)


def _edits(text: str, toks: list[Token]) -> Iterator[Edit]:
    """Edits of the body tokens ``toks`` (from the method's ``{`` to its ``}``)."""
    first_loop = True
    returns = [k for k, t in enumerate(toks) if t.is_ident("return")]
    last_return = None
    if returns:
        r = returns[-1]
        semi = next((j for j in range(r, len(toks)) if toks[j].is_op(";")), -1)
        if semi > r + 1:
            last_return = text[toks[r].pos:_end(toks[semi])]
    for k, t in enumerate(toks):
        prev = toks[k - 1] if k > 0 else None
        nxt = toks[k + 1] if k + 1 < len(toks) else None
        if t.kind == "op" and t.text in _ARITH and (
                t.text.endswith("=") or (prev is not None and _is_operand_end(prev))):
            for new in _ARITH[t.text]:
                yield ("arith.swap", t.line, f"{t.text} -> {new}", t.pos, _end(t), new)
        if t.kind == "op" and t.text in _NEGATE:
            generic = (t.text == "<" and prev is not None and prev.kind == "ident"
                       and prev.text[:1].isupper())
            if not generic:
                if t.text in _BOUNDARY:
                    new = _BOUNDARY[t.text]
                    yield ("cmp.boundary", t.line, f"{t.text} -> {new}", t.pos, _end(t), new)
                new = _NEGATE[t.text]
                yield ("cmp.negate", t.line, f"{t.text} -> {new}", t.pos, _end(t), new)
        if t.is_op("&&", "||"):
            new = "||" if t.text == "&&" else "&&"
            yield ("logic.swap", t.line, f"{t.text} -> {new}", t.pos, _end(t), new)
        if t.is_ident("if", "while") and nxt is not None and nxt.is_op("("):
            close = closing(toks, k + 1, "(", ")")
            if close is not None and close > k + 2:
                inner = text[toks[k + 2].pos:_end(toks[close - 1])]
                yield ("cond.negate", t.line, f"negate the {t.text} condition",
                       toks[k + 2].pos, _end(toks[close - 1]), f"!({inner})")
        if t.kind == "int" and t.text.isdigit():
            v = int(t.text)
            for d in (1, -1):
                new_v = v + d
                if new_v < 0 and prev is not None and prev.is_op("-"):
                    continue  # "- -1": the same as +1 of the negated literal, which is kept
                yield ("const.shift", t.line, f"{v} -> {new_v}", t.pos, _end(t),
                       f"({new_v})" if new_v < 0 else str(new_v))
        if t.is_ident("for") and nxt is not None and nxt.is_op("("):
            close = closing(toks, k + 1, "(", ")")
            semis = [j for j in range(k + 2, close) if toks[j].is_op(";")] \
                if close is not None else []
            if len(semis) == 2:
                a, b = semis
                cond = toks[a + 1:b]
                rel = [j for j in range(a + 1, b) if toks[j].text in ("<", "<=", ">", ">=")]
                if len(rel) == 1 and not any(x.text in ("&&", "||", "?") for x in cond) \
                        and rel[0] + 1 < b:
                    lo, hi = toks[rel[0] + 1].pos, _end(toks[b - 1])
                    bound = text[lo:hi]
                    for step in ("+ 1", "- 1"):
                        yield ("loop.bound", t.line, f"for bound {bound} -> ({bound}) {step}",
                               lo, hi, f"({bound}) {step}")
        if t.is_op("[") and prev is not None and (prev.kind == "ident" and prev.text not in
                                                  _TYPES or prev.is_op("]", ")")) \
                and nxt is not None and not nxt.is_op("]"):
            close = closing(toks, k, "[", "]")
            before = toks[k - 2] if k >= 2 else None
            if close is not None and close > k + 1 and not (before is not None and before.is_ident("new")):
                idx = text[toks[k + 1].pos:_end(toks[close - 1])]
                for step in ("+ 1", "- 1"):
                    yield ("index.shift", t.line, f"[{idx}] -> [({idx}) {step}]",
                           toks[k + 1].pos, _end(toks[close - 1]), f"({idx}) {step}")
        if first_loop and t.is_ident("for", "while") and nxt is not None and nxt.is_op("(") \
                and last_return is not None:
            close = closing(toks, k + 1, "(", ")")
            if close is not None and close + 1 < len(toks) and toks[close + 1].is_op("{"):
                first_loop = False
                end = closing(toks, close + 1, "{", "}")
                if end is not None:
                    at = toks[end].pos
                    yield ("return.early", t.line, "return at the end of the first loop's "
                           "first round", at, at, f"{last_return} ")


def program_mutants(task: Task, operators: Collection[str] | None = None
                    ) -> list[ProgramMutant]:
    """One-change mutants of the task's method body in ``Solution.java`` (the text the
    engines get), in source order, without duplicates."""
    from .jml.load import find_target, original_source

    ops = check_operators(operators, PROGRAM_OPERATORS)
    try:
        src = original_source(task)
        _cls, method = find_target(src, task, str(task.skeleton_path))
    except (SpecInvalid, TaskError):
        return []
    if not method.has_body:
        return []
    text = src.text
    lo, hi = method.tok_range
    toks = src.java_tokens[lo:hi]
    open_at = next((k for k, t in enumerate(toks) if t.is_op("{")), -1)
    if open_at < 0:
        return []
    body = toks[open_at:]
    name = task.skeleton_path.name
    seen = {text}
    out: list[ProgramMutant] = []
    for op, line, what, a, b, new in _edits(text, body):
        if op not in ops:
            continue
        mutated = text[:a] + new + text[b:]
        if mutated in seen:
            continue
        seen.add(mutated)
        out.append(ProgramMutant(operator=op, file=name, line=line,
                                 description=f"{method.name}: {what}", source=mutated))
    return numbered(out)


def program_outcomes(task: Task, mutant: ProgramMutant, inputs: list[dict[str, Any]],
                     limits: Limits) -> list[ReferenceOutcome]:
    """The mutant's method on each input, run as the reference is (checked arithmetic,
    sandboxed JVM); ``failed`` for every input when the mutant does not read or compile."""
    import dataclasses

    from .engines.rac import engine as rac
    from .engines.rac.build import build_unit
    from .jml.load import find_target
    from .jml.reader import read_source

    try:
        src = read_source(mutant.source, str(task.skeleton_path))
        cls, method = find_target(src, task, str(task.skeleton_path))
        unit = dataclasses.replace(build_unit(src, cls, method, [], rac.post_fields(task)),
                                   checked=True)
    except (SpecInvalid, TaskError) as e:
        return [ReferenceOutcome(kind="failed", reason=f"the mutant does not compile: {e}")
                ] * len(inputs)
    outs = rac.reference_outcomes(unit, task, inputs, limits)
    return [ReferenceOutcome(kind="failed", reason=o.reason.replace(
        "the reference did not compile", "the mutant does not compile"))
            if o.kind == "failed" and "did not compile" in o.reason else o for o in outs]
