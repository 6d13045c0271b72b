"""Pieces of Java member declarations read from tokens: types, parameters, field declarators.

Shared by the class reader (methods and fields written in Java) and the annotation parser
(``model`` methods written inside JML), which read the same declaration syntax.
"""

from __future__ import annotations

from .keywords import JML_MODIFIERS
from .lexer import Token


def skip_balanced(toks: list[Token], i: int, open_: str, close: str) -> int:
    """Index just after the token closing the bracket opened at ``toks[i]``."""
    depth = 0
    while i < len(toks) and toks[i].kind != "eof":
        t = toks[i]
        if t.is_op(open_):
            depth += 1
        elif t.is_op(close):
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


def join_type(toks: list[Token]) -> str:
    out = ""
    for t in toks:
        if out and t.kind == "ident" and (out[-1].isalnum() or out[-1] in "_$>]"):
            out += " "
        out += t.text
    return out.replace(" [", "[")


def declarators(header: list[Token], rest: list[Token]) -> list[tuple[str, str]]:
    """(name, type) of each variable a field declaration declares (JLS 8.3): ``int a, b[];``
    and C-style ``long fib[]`` (the brackets belong to that variable's type). ``header`` is
    the declaration up to its first ``=`` or ``;``, ``rest`` the tokens from there to the ``;``
    (initializers, later declarators)."""
    h = [t for t in header if t.kind != "jml"]
    first, level = len(h), 0
    for k, t in enumerate(h):
        level += t.is_op("<") - t.is_op(">")
        if t.is_op(",") and level == 0:
            first = k
            break
    head, tail = h[:first], h[first:]
    dims = ""
    while len(head) >= 3 and head[-1].is_op("]") and head[-2].is_op("["):
        dims += "[]"
        head = head[:-2]
    if len(head) < 2:
        return []
    base = join_type(head[:-1])
    out = [(head[-1].text, base + dims)]
    # later declarators: after each comma at depth 0, a name and its own brackets
    depth = generics = 0
    toks = tail + rest
    for k, t in enumerate(toks):
        if t.is_op("(", "[", "{"):
            depth += 1
        elif t.is_op(")", "]", "}"):
            depth -= 1
        elif t.is_op("<") and k and toks[k - 1].kind == "ident" and toks[k - 1].text[:1].isupper():
            generics += 1  # new HashMap<K, V>(): type arguments, not a less-than
        elif t.is_op(">") and generics:
            generics -= 1
        elif t.is_op(",") and generics:
            continue
        elif t.is_op(",") and depth == 0 and k + 1 < len(toks) and toks[k + 1].kind == "ident":
            extra = ""
            m = k + 2
            while m + 1 < len(toks) and toks[m].is_op("[") and toks[m + 1].is_op("]"):
                extra += "[]"
                m += 2
            out.append((toks[k + 1].text, base + extra))
    return out


def parameters(toks: list[Token]) -> list[tuple[str, str]]:
    groups: list[list[Token]] = [[]]
    depth = 0
    for t in toks:
        if t.is_op("<"):
            depth += 1
        elif t.is_op(">"):
            depth -= 1
        if t.is_op(",") and depth == 0:
            groups.append([])
        else:
            groups[-1].append(t)
    params: list[tuple[str, str]] = []
    for g in groups:
        g = [t for t in g if not (t.kind == "ident" and t.text in {"final"} | JML_MODIFIERS)]
        # drop annotations like @NonNull
        h: list[Token] = []
        k = 0
        while k < len(g):
            if g[k].is_op("@"):
                k += 2
                continue
            h.append(g[k])
            k += 1
        if not h:
            continue
        dims = ""
        while len(h) >= 2 and h[-1].is_op("]") and h[-2].is_op("["):
            dims += "[]"
            h = h[:-2]
        name = h[-1].text
        ty = join_type(h[:-1]) + dims
        params.append((ty.replace("...", "[]"), name))
    return params
