"""Whether an expression's value is an object the method allocated, by its shape.

A pure method may assign only what it allocated (JML RM 7.1.1.3). "Allocated" means the object
the expression's *outermost* operation creates, nothing reached from it: ``new int[][]{a}[0]``
starts with ``new`` but its value is ``a``, an argument; ``flag ? a : a.clone()`` ends with a
clone but may be ``a``. So an expression is fresh only when its last operation allocates:

- a class instance creation ``new T(...)`` or an array creation ``new T[n]...`` /
  ``new T[]{...}``, with nothing after it but calls a string builder returns itself from
  (``new StringBuilder(s).reverse()``) or a final ``.clone()``;
- an array initializer ``{...}`` (a declaration's right-hand side);
- a primary chain ending in ``.clone()`` (``a.clone()``, ``g[i].clone()``): the copy is new;
- ``Arrays.copyOf(...)`` / ``Arrays.copyOfRange(...)`` as the whole expression;
- any of those in parentheses.

Everything else (a conditional, a cast, an index or field of a fresh object, a call's result,
a name) is not fresh. Inner arrays of a fresh array are a separate question (``grids`` in
``purity``): a clone or an initializer shares them.
"""

from __future__ import annotations

from collections.abc import Sequence

from .lexer import BRACKETS, Token, matching_bracket

BUILDERS = frozenset({"StringBuilder", "StringBuffer"})
BUILDER_SELF = frozenset({"append", "insert", "reverse", "delete", "deleteCharAt", "replace",
                          "setLength"})
"""StringBuilder methods that return their receiver (``setLength`` is void: harmless)."""


def _strip_parens(toks: Sequence[Token]) -> Sequence[Token]:
    while toks and toks[0].is_op("(") and matching_bracket(toks, 0) == len(toks) - 1:
        toks = toks[1:-1]
    return toks


def _primary_chain(toks: Sequence[Token]) -> bool:
    """Names, ``.``, ``this`` and bracketed groups only at the top level: no operator that
    could choose between values or compute one."""
    k = 0
    while k < len(toks):
        t = toks[k]
        if t.kind == "op" and t.text in BRACKETS:
            end = matching_bracket(toks, k)
            if end is None:
                return False
            k = end + 1
            continue
        if not (t.kind == "ident" or t.is_op(".")):
            return False
        k += 1
    return True


def _creation_end(toks: Sequence[Token]) -> tuple[int, str] | None:
    """``toks[0]`` is ``new``: the index just after the creation expression, and the simple
    name of the type created; None for a shape not understood (an anonymous class)."""
    k = 1
    if k >= len(toks) or toks[k].kind != "ident":
        return None
    ty = toks[k].text
    k += 1
    while k + 1 < len(toks) and toks[k].is_op(".") and toks[k + 1].kind == "ident":
        ty = toks[k + 1].text
        k += 2
    if k < len(toks) and toks[k].is_op("<"):
        depth = 0
        while k < len(toks):
            if toks[k].is_op("<"):
                depth += 1
            elif toks[k].is_op(">"):
                depth -= 1
            elif toks[k].is_op(">>"):
                depth -= 2
            k += 1
            if depth <= 0:
                break
        if depth != 0:
            return None
    if k < len(toks) and toks[k].is_op("("):
        end = matching_bracket(toks, k)
        if end is None or (end + 1 < len(toks) and toks[end + 1].is_op("{")):
            return None
        return end + 1, ty
    if k < len(toks) and toks[k].is_op("["):
        while k < len(toks) and toks[k].is_op("["):
            end = matching_bracket(toks, k)
            if end is None:
                return None
            k = end + 1
        if k < len(toks) and toks[k].is_op("{"):
            end = matching_bracket(toks, k)
            if end is None:
                return None
            k = end + 1
        return k, ty + "[]"
    return None


def _builder_calls(rest: Sequence[Token]) -> bool:
    """``rest`` is only ``.m(...)`` calls of builder methods that return their receiver."""
    k = 0
    while k < len(rest):
        if not (rest[k].is_op(".") and k + 2 < len(rest) and rest[k + 1].kind == "ident"
                and rest[k + 1].text in BUILDER_SELF and rest[k + 2].is_op("(")):
            return False
        end = matching_bracket(rest, k + 2)
        if end is None:
            return False
        k = end + 1
    return True


def _ends_in_clone(toks: Sequence[Token]) -> bool:
    return (len(toks) >= 4 and toks[-1].is_op(")") and toks[-2].is_op("(")
            and toks[-3].is_ident("clone") and toks[-4].is_op("."))


def is_fresh(rhs: Sequence[Token]) -> bool:
    """Whether the value of the expression ``rhs`` is an object it allocates itself."""
    toks = _strip_parens(rhs)
    if not toks:
        return False
    if toks[0].is_op("{"):
        return matching_bracket(toks, 0) == len(toks) - 1
    if toks[0].is_ident("new"):
        got = _creation_end(toks)
        if got is None:
            return False
        end, ty = got
        rest = toks[end:]
        if not rest:
            return True
        if ty in BUILDERS and _builder_calls(rest):
            return True
    if not _primary_chain(toks):
        return False
    if _ends_in_clone(toks):
        return True
    k = 0
    while k + 2 < len(toks) and toks[k].kind == "ident" and toks[k].text[:1].islower() \
            and toks[k + 1].is_op("."):
        k += 2  # a package prefix: java.util.Arrays.copyOf
    head = toks[k:k + 4]
    if len(head) == 4 and head[0].is_ident("Arrays") and head[1].is_op(".") \
            and head[2].text in ("copyOf", "copyOfRange") and head[3].is_op("("):
        return matching_bracket(toks, k + 3) == len(toks) - 1
    return False


def creates_builder(rhs: Sequence[Token]) -> bool:
    """A fresh expression whose value is a ``StringBuilder``/``StringBuffer``."""
    toks = _strip_parens(rhs)
    if not (toks and toks[0].is_ident("new") and is_fresh(toks)):
        return False
    got = _creation_end(toks)
    return got is not None and got[1] in BUILDERS


__all__ = ["creates_builder", "is_fresh"]
