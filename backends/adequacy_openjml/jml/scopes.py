"""Java's scopes of local variables in a method body (JLS 6.3), read from its tokens.

Why: the body type checker (``jml.bodies``) and the purity rules (``jml.purity``) must know
whether a name at a given place is a local or the field of the same name. Before this module
they scanned for declarations without scopes, missed C-style array declarators (``int a[]``)
and ``\\bigint`` locals, and so read such a local as the field: a valid helper was called
invalid ("array required, but int found"). A local shadows a field from its declarator to the
end of its scope, and only there (JLS 6.4.1):

- a local variable declaration statement: to the end of the enclosing block (JLS 6.3);
- a ``for`` init or enhanced-``for`` variable: the whole ``for`` statement (JLS 6.3);
- a ``catch`` parameter: its catch block; a try-with-resources variable: the try block;
- a lambda parameter: the lambda body (JLS 6.3, 15.27.2);
- a pattern variable (``instanceof T x``, ``case T x``): flow-scoped (JLS 6.3.1), so it is
  taken as in scope, with an unknown type, to the end of the enclosing block.

There is still no Java statement parser: statements are delimited by their brackets and
``;``, with ``if``/``else``, loops, ``try`` and labels followed so that a ``for`` without a
block ends where Java ends it. A declared type the checker does not model is ``""``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from .lexer import Token

_NOT_TYPES = {"return", "new", "throw", "case", "else", "do", "yield", "assert", "instanceof",
              "this", "super", "break", "continue", "if", "while", "for", "switch", "try",
              "catch", "finally", "synchronized", "default", "true", "false", "null"}
_MODIFIERS = {"final"}
_SPEC_TYPES = {"\\bigint", "\\real", "\\TYPE"}


@dataclass(frozen=True)
class Decl:
    name: str
    type: str
    """The declared type as written (``int[]``, ``\\bigint``), ``""`` when not modelled."""
    start: int
    """Index of the declarator's name: the scope begins there (JLS 6.3)."""
    end: int
    """Index just past the scope's last token."""


class Scopes:
    """The locals of one body and where each is in scope."""

    def __init__(self, toks: list[Token]) -> None:
        self.t = toks
        self.match, self.enclosing = _matches(toks)
        self.opener = {c: o for o, c in self.match.items()}
        self.decls: list[Decl] = []
        self._by_name: dict[str, list[Decl]] | None = None
        self._indexed = 0
        self.deep = False
        """Set when the nesting was too deep to follow: the callers then decide nothing."""
        try:
            self._scan()
        except RecursionError:
            self.deep = True

    # ------------------------------------------------------------------ queries
    def at(self, k: int) -> dict[str, str]:
        """The locals in scope at token ``k``, each with its declared type. Java forbids a
        local shadowing a local in scope (JLS 6.4), so the innermost declaration wins only
        where two overlap through this reader's approximations."""
        out: dict[str, tuple[int, str]] = {}
        for d in self.decls:
            if d.start <= k < d.end and (d.name not in out or out[d.name][0] < d.start):
                out[d.name] = (d.start, d.type)
        return {n: ty for n, (_s, ty) in out.items()}

    def lookup(self, name: str, k: int) -> str | None:
        """The declared type of the local ``name`` in scope at ``k`` (innermost), or None."""
        best: Decl | None = None
        for d in self.by_name().get(name, ()):
            if d.start <= k < d.end and (best is None or best.start < d.start):
                best = d
        return None if best is None else best.type

    def is_local(self, name: str, k: int) -> bool:
        return self.lookup(name, k) is not None

    def names(self) -> set[str]:
        return set(self.by_name())

    def by_name(self) -> dict[str, list[Decl]]:
        if self._by_name is None or self._indexed != len(self.decls):
            self._by_name = {}
            for d in self.decls:
                self._by_name.setdefault(d.name, []).append(d)
            self._indexed = len(self.decls)
        return self._by_name

    # ------------------------------------------------------------------ helpers
    def tok(self, k: int) -> Token:
        return self.t[k] if 0 <= k < len(self.t) else Token("eof", "", 0)

    def close(self, k: int) -> int:
        """Index of the bracket closing the one at ``k`` (the last token when unbalanced)."""
        return self.match.get(k, len(self.t) - 1)

    def block_end(self, k: int) -> int:
        """Index of the ``}`` closing the innermost block holding ``k`` (or the end)."""
        o = self.enclosing[k] if 0 <= k < len(self.enclosing) else -1
        return self.match.get(o, len(self.t)) if o >= 0 else len(self.t)

    def statement_end(self, k: int) -> int:
        """Index just past the statement starting at ``k`` (JLS 14.5), following blocks,
        ``if``/``else``, loops, ``do``, ``try`` and labels."""
        x = self.tok(k)
        if x.kind == "eof":
            return len(self.t)
        if x.is_op("{"):
            return self.close(k) + 1
        if x.is_op(";"):
            return k + 1
        if x.is_ident("if") and self.tok(k + 1).is_op("("):
            end = self.statement_end(self.close(k + 1) + 1)
            if self.tok(end).is_ident("else"):
                end = self.statement_end(end + 1)
            return end
        if x.kind == "ident" and x.text in ("while", "for", "synchronized") \
                and self.tok(k + 1).is_op("("):
            return self.statement_end(self.close(k + 1) + 1)
        if x.is_ident("switch") and self.tok(k + 1).is_op("("):
            body = self.close(k + 1) + 1
            return self.close(body) + 1 if self.tok(body).is_op("{") else body
        if x.is_ident("do"):
            end = self.statement_end(k + 1)
            if self.tok(end).is_ident("while") and self.tok(end + 1).is_op("("):
                end = self.close(end + 1) + 1
            return end + 1 if self.tok(end).is_op(";") else end
        if x.is_ident("try"):
            j = k + 1
            if self.tok(j).is_op("("):
                j = self.close(j) + 1
            j = self.statement_end(j)
            while self.tok(j).is_ident("catch") and self.tok(j + 1).is_op("("):
                j = self.statement_end(self.close(j + 1) + 1)
            if self.tok(j).is_ident("finally"):
                j = self.statement_end(j + 1)
            return j
        if x.kind == "ident" and self.tok(k + 1).is_op(":") and x.text not in _NOT_TYPES:
            return self.statement_end(k + 2)  # a labeled statement
        j = k
        while j < len(self.t):
            y = self.t[j]
            if y.is_op("(", "[", "{"):
                j = self.close(j) + 1
                continue
            if y.is_op(")", "]", "}"):
                return j  # the statement was cut short by its enclosing bracket
            if y.is_op(";"):
                return j + 1
            j += 1
        return len(self.t)

    # ------------------------------------------------------------------ the scan
    def _scan(self) -> None:
        t = self.t
        for k, x in enumerate(t):
            if x.is_op("->"):
                self._lambda(k)
            elif x.is_ident("for") and self.tok(k + 1).is_op("("):
                end = self.statement_end(k)
                self._declaration(k + 2, end, in_header=True)
            elif x.is_ident("catch") and self.tok(k + 1).is_op("("):
                close = self.close(k + 1)
                name = self.tok(close - 1)
                if name.kind == "ident":
                    ty = _type_text(t[k + 2:close - 1])
                    body_end = self.statement_end(close + 1)
                    self.decls.append(Decl(name.text, ty, close - 1, body_end))
            elif x.is_ident("try") and self.tok(k + 1).is_op("("):
                close = self.close(k + 1)
                end = self.statement_end(close + 1)
                j = k + 2
                while j < close:
                    j = max(self._declaration(j, end, in_header=True), j + 1)
                    while j < close and not t[j - 1].is_op(";"):
                        j += 1
            elif x.is_ident("instanceof") or x.is_ident("case"):
                self._pattern(k)
            elif self._statement_start(k):
                self._declaration(k, self.block_end(k), in_header=False)

    def _statement_start(self, k: int) -> bool:
        if k == 0:
            return True
        prev = self.t[k - 1]
        if prev.is_op(";", "{", "}"):
            return True
        # ``case 1: int x = ...;`` / ``default: ...`` and ``final int x``
        return prev.is_op(":") and self.tok(k - 2).kind in ("ident", "int", "char", "string")

    def _declaration(self, k: int, end: int, in_header: bool) -> int:
        """Read a local variable declaration at ``k`` (``T a = e, b[];``); record each
        declarator with its scope ending at ``end``. Returns the index after it (``k`` when
        there is none)."""
        t = self.t
        while self.tok(k).kind == "ident" and self.tok(k).text in _MODIFIERS or \
                self.tok(k).is_op("@") and self.tok(k + 1).kind == "ident":
            k += 1 if self.tok(k).kind == "ident" else 2
            if self.tok(k).is_op("("):
                k = self.close(k) + 1
        ty_end = self._type_end(k)
        if ty_end is None:
            return k
        name = self.tok(ty_end)
        if name.kind != "ident" or name.text in _NOT_TYPES:
            return k
        after = self.tok(ty_end + 1)
        if not (after.is_op("=", ";", ",", ":") or after.is_op("[") and
                self.tok(ty_end + 2).is_op("]") or in_header and after.is_op(")")):
            return k
        base = _type_text(t[k:ty_end])
        j = ty_end
        while True:
            name = self.tok(j)
            if name.kind != "ident":
                return j
            j += 1
            dims = ""
            while self.tok(j).is_op("[") and self.tok(j + 1).is_op("]"):
                dims += "[]"
                j += 2
            self.decls.append(Decl(name.text, base + dims if base else "", j - 1 - len(dims),
                                   end))
            if self.tok(j).is_op("="):
                j += 1
                while j < len(t) and not t[j].is_op(",", ";", ")", "}"):
                    if t[j].is_op("(", "[", "{"):
                        j = self.close(j)
                    elif t[j].is_ident("new"):
                        j = (self._type_end(j + 1) or j + 1) - 1  # ``new Map<K, V>()``
                    j += 1
            if not self.tok(j).is_op(","):
                return j + 1 if self.tok(j).is_op(";") else j
            j += 1

    def _type_end(self, k: int) -> int | None:
        """Index just past a type starting at ``k`` (``int``, ``a.B<C>[]``, ``\\bigint``)."""
        x = self.tok(k)
        if x.kind == "backslash":
            if x.text not in _SPEC_TYPES:
                return None
            j = k + 1
        elif x.kind == "ident" and x.text not in _NOT_TYPES:
            j = k + 1
            while self.tok(j).is_op(".") and self.tok(j + 1).kind == "ident":
                j += 2
            if self.tok(j).is_op("<"):
                depth = 0
                while j < len(self.t):
                    y = self.t[j]
                    if y.is_op("<"):
                        depth += 1
                    elif y.is_op(">"):
                        depth -= 1
                        if depth == 0:
                            break
                    elif y.is_op(">>"):
                        depth -= 2
                        if depth <= 0:
                            break
                    elif not (y.kind == "ident" or y.is_op(",", ".", "?", "[", "]", "&")):
                        return None
                    j += 1
                j += 1
                while self.tok(j).is_op(".") and self.tok(j + 1).kind == "ident":
                    j += 2
        else:
            return None
        while self.tok(j).is_op("[") and self.tok(j + 1).is_op("]"):
            j += 2
        return j

    def _lambda(self, k: int) -> None:
        """Lambda parameters, in scope in the lambda's body."""
        body = k + 1
        if self.tok(body).is_op("{"):
            end = self.close(body) + 1
        else:
            end = body
            while end < len(self.t):
                y = self.t[end]
                if y.is_op("(", "[", "{"):
                    end = self.close(end) + 1
                    continue
                if y.is_op(")", "]", "}", ",", ";"):
                    break
                end += 1
        prev = self.tok(k - 1)
        if prev.kind == "ident" and prev.text not in _NOT_TYPES and \
                not self.tok(k - 2).is_ident("case") and not self.tok(k - 2).is_op(","):
            self.decls.append(Decl(prev.text, "", k - 1, end))
            return
        if not prev.is_op(")"):
            return
        open_ = self.opener.get(k - 1)
        if open_ is None:
            return
        inner = self.t[open_ + 1:k - 1]
        slots: list[list[Token]] = [[]]
        for y in inner:
            if y.is_op(","):
                slots.append([])
            else:
                slots[-1].append(y)
        for slot in slots:
            if slot and slot[-1].kind == "ident":
                ty = _type_text(slot[:-1]) if len(slot) > 1 else ""
                self.decls.append(Decl(slot[-1].text, ty, open_ + 1, end))

    def _pattern(self, k: int) -> None:
        """``x instanceof T v`` / ``case T v``: ``v`` is flow-scoped (JLS 6.3.1); taken as in
        scope, type unknown, from here to the end of the enclosing block."""
        end = self._type_end(k + 1)
        if end is None:
            return
        name = self.tok(end)
        if name.kind == "ident" and name.text not in _NOT_TYPES and end > k + 1:
            self.decls.append(Decl(name.text, "", end, self.block_end(k)))


class Visible(Mapping[str, str]):
    """The locals in scope at one token, looked up by name on demand (a body of thousands
    of locals is checked at thousands of places: building each place's whole map was
    quadratic). Values are what ``convert`` makes of the declared type."""

    def __init__(self, scopes: Scopes, k: int, convert: Callable[[str], str]) -> None:
        self.s, self.k, self.convert = scopes, k, convert

    def __getitem__(self, name: str) -> str:
        ty = self.s.lookup(name, self.k)
        if ty is None:
            raise KeyError(name)
        return self.convert(ty)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.s.lookup(name, self.k) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self.s.at(self.k))

    def __len__(self) -> int:
        return len(self.s.at(self.k))


def _type_text(toks: list[Token]) -> str:
    """The type as the checker's string when it is a plain one (``int[]``, ``\\bigint``,
    ``String``, a class name); ``""`` for generic, qualified, ``var`` and union types."""
    texts = [x.text for x in toks if not (x.kind == "ident" and x.text in _MODIFIERS)]
    if not texts or texts[0] == "var" or any(x in ("<", ".", "|", "&", "@") for x in texts):
        return ""
    return "".join(texts)


def _matches(toks: list[Token]) -> tuple[dict[int, int], list[int]]:
    """Each opening bracket's index mapped to its closing one's, and for each token the
    index of the innermost ``{`` holding it (-1 outside every block)."""
    out: dict[int, int] = {}
    stack: list[int] = []
    braces: list[int] = []
    enclosing: list[int] = []
    pairs = {")": "(", "]": "[", "}": "{"}
    for k, x in enumerate(toks):
        enclosing.append(braces[-1] if braces else -1)
        if x.kind != "op":
            continue
        if x.text in ("(", "[", "{"):
            stack.append(k)
            if x.text == "{":
                braces.append(k)
        elif x.text in pairs:
            while stack and toks[stack[-1]].text != pairs[x.text]:
                stack.pop()
            if stack:
                o = stack.pop()
                out[o] = k
                if x.text == "}":
                    while braces and braces[-1] >= o:
                        braces.pop()
    return out, enclosing
