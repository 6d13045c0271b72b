"""Type checking of the statements of pure helpers and model methods: what javac says of them.

Why: a spec's helpers are code the spec calls, and before this pass a type error in one
(``return n % d;`` in a ``boolean`` helper, ``if (n % 2)``) reached javac inside rac and became
``unknown`` for every case, so the spec still scored (issue 20). OpenJML type-checks them as
Java, so the front end does too, with the clause checker's expression types.

There is no Java statement parser here: the body's tokens are scanned for the places Java
fixes a type (JLS 14): ``return e;`` against the declared return type (14.17), the conditions
of ``if``/``while``/``do``/``for`` (14.9, 14.12-14.14), and ``x = e;`` / ``T x = e;`` for a
local of a known type (5.2). Each expression is read with the JML expression parser; one it
cannot read (a lambda, ``new``, ``x++``, a switch expression) is skipped, and a local whose type
is not a plain primitive, ``String``, the class or an array of them is ``?``, compatible with
everything: the checker reports only what it can prove wrong.
"""

from __future__ import annotations

from adequacy.errors import SpecInvalid

from . import ast as A
from .lexer import Token
from .members import JavaClass, JavaMethod, SpecFile
from .parser import parse_expression
from .purity import body_tokens, local_names
from .typecheck import UNKNOWN, Checker, norm, widens

_SIMPLE = {"int", "long", "short", "byte", "char", "boolean", "double", "float", "String"}
_CONSTANT_NARROWING = {"byte", "short", "char"}
"""JLS 5.2: an int constant may be assigned to these when it fits; not worked out here."""
_NOT_TYPES = {"return", "new", "throw", "case", "else", "do", "yield", "assert", "instanceof",
              "this", "super", "break", "continue", "final"}


def check_bodies(src: SpecFile, cls: JavaClass, file: str | None) -> None:
    """Raise ``SpecInvalid`` (file:line) at the first statement of a pure or model method of
    ``cls`` that breaks a typing rule this pass knows."""
    for m in cls.methods + cls.models:
        if not (m.is_pure or m.model) or not m.has_body or m.return_type is None:
            continue
        toks = body_tokens(src, m, file)
        if toks:
            _Body(cls, m, toks, file).check()


def _close(toks: list[Token], k: int, open_: str, close: str) -> int:
    """Index of the token closing the ``open_`` at ``k`` (len(toks) when unbalanced)."""
    depth = 0
    for j in range(k, len(toks)):
        if toks[j].is_op(open_):
            depth += 1
        elif toks[j].is_op(close):
            depth -= 1
            if depth == 0:
                return j
    return len(toks)


def _statement_end(toks: list[Token], k: int) -> int:
    """Index of the ``;`` ending the statement that goes on at ``k`` (nesting respected)."""
    depth = 0
    for j in range(k, len(toks)):
        t = toks[j]
        if t.is_op("(", "[", "{"):
            depth += 1
        elif t.is_op(")", "]", "}"):
            depth -= 1
            if depth < 0:
                return len(toks)
        elif t.is_op(";") and depth == 0:
            return j
    return len(toks)


class _Body:
    def __init__(self, cls: JavaClass, m: JavaMethod, toks: list[Token], file: str | None) -> None:
        self.cls, self.m, self.t, self.file = cls, m, toks, file
        self.c = Checker(cls, m, file)
        self.returns = norm(m.return_type, cls.name)
        self.locals = self._locals()
        self.skip = _lambda_bodies(toks)

    def _locals(self) -> dict[str, str]:
        """Each local's type, ``?`` unless every declaration of the name is one simple type
        (scopes are not tracked: a name declared twice with two types is ``?``)."""
        out: dict[str, str] = {}
        t = self.t
        for k, x in enumerate(t):
            if x.kind != "ident" or k + 1 >= len(t):
                continue
            nxt = t[k + 1]
            if nxt.is_op("->") or nxt.is_op(",", ")") and self._lambda_param(k):
                out[x.text] = UNKNOWN
                continue
            if not nxt.is_op("=", ";", ",", ":", ")"):
                continue
            typ = self._type_before(k)
            if typ is None:
                continue
            if nxt.is_op(",") and typ == "":
                continue  # ``f(a, b)``: not a declaration
            if x.text in out and out[x.text] != typ:
                typ = UNKNOWN
            out[x.text] = typ if typ else UNKNOWN
        # every other local (``b`` in ``int a = 1, b;``) and any local named like a field or
        # parameter (scopes are not tracked, so the name's type elsewhere is unsure) is ``?``
        shadowing = {f.name for f in self.cls.fields} | {n for _t, n in self.m.params}
        for name in local_names(self.m, self.t, self.cls, self.file):
            if name not in out or name in shadowing:
                out[name] = UNKNOWN
        return out

    def _lambda_param(self, k: int) -> bool:
        j = k
        while j >= 0 and not self.t[j].is_op("("):
            if not (self.t[j].kind == "ident" or self.t[j].is_op(",")):
                return False
            j -= 1
        close = _close(self.t, j, "(", ")") if j >= 0 else len(self.t)
        return close + 1 < len(self.t) and self.t[close + 1].is_op("->")

    def _type_before(self, k: int) -> str | None:
        """The declared type of a name at ``k`` that follows one (``int x``, ``int[] x``):
        the type string, ``""`` for a name after a type the checker does not model
        (``List<T> x``, ``var x``), None when ``k`` is no declaration."""
        t = self.t
        j, dims = k - 1, ""
        while j >= 1 and t[j].is_op("]") and t[j - 1].is_op("["):
            j, dims = j - 2, dims + "[]"
        if j < 0:
            return None
        prev = t[j]
        if prev.is_op(">"):
            return ""  # a generic type, or ``a > x`` (then harmless: ``?`` is accepted)
        if prev.kind != "ident" or prev.text in _NOT_TYPES:
            return None
        if j >= 1 and t[j - 1].is_op("."):
            return ""  # a qualified type, or ``a.b x`` (not Java)
        if prev.text in _SIMPLE or prev.text == self.cls.name:
            return norm(prev.text + dims, self.cls.name)
        return ""

    def expr(self, toks: list[Token]) -> A.Expr | None:
        if not toks:
            return None
        try:
            return parse_expression(toks, self.file)
        except (SpecInvalid, RecursionError):
            return None  # Java the JML expression grammar lacks: not checked here

    def type(self, e: A.Expr) -> str:
        return self.c.type(e, self.locals)

    def convertible(self, e: A.Expr, src: str, dst: str, what: str) -> None:
        if src == "int" and dst in _CONSTANT_NARROWING:
            return
        if dst != "void" and not widens(src, dst):
            raise SpecInvalid(f"incompatible types: {src} cannot be converted to {dst} "
                              f"({what} in {self.m.name})", file=self.file, line=e.line)

    def condition(self, toks: list[Token], what: str) -> None:
        e = self.expr(toks)
        if e is not None:
            self.c.expect_bool(e, self.locals, f"the condition of {what} in {self.m.name}")

    def check(self) -> None:
        t, k = self.t, 0
        while k < len(t):
            x = t[k]
            if k in self.skip:
                pass  # a lambda's block: its returns are the lambda's
            elif x.kind == "ident" and x.text == "return":
                end = _statement_end(t, k + 1)
                e = self.expr(t[k + 1:end])
                if e is not None:
                    self.convertible(e, self.type(e), self.returns, "a returned value")
            elif x.kind == "ident" and x.text in ("if", "while") and k + 1 < len(t) \
                    and t[k + 1].is_op("("):
                close = _close(t, k + 1, "(", ")")
                self.condition(t[k + 2:close], f"'{x.text}'")
            elif x.kind == "ident" and x.text == "for" and k + 1 < len(t) and t[k + 1].is_op("("):
                close = _close(t, k + 1, "(", ")")
                head = t[k + 2:close]
                semis = [i for i, h in enumerate(head) if h.is_op(";")
                         and _depth(head, i) == 0]
                if len(semis) == 2:
                    self.condition(head[semis[0] + 1:semis[1]], "'for'")
            elif x.kind == "ident" and k + 1 < len(t) and t[k + 1].is_op("=") and \
                    (k == 0 or not t[k - 1].is_op(".")) and self.locals.get(x.text, UNKNOWN) \
                    != UNKNOWN and self._statement_start(k):
                end = _statement_end(t, k + 2)
                e = self.expr(t[k + 2:end])
                if e is not None:
                    self.convertible(e, self.type(e), self.locals[x.text],
                                     f"the value given to {x.text}")
            k += 1

    def _statement_start(self, k: int) -> bool:
        """Whether the name at ``k`` begins a statement or a declarator (``x = e;``,
        ``int x = e;``), not an assignment nested in an expression."""
        j = k - 1
        while j >= 1 and self.t[j].is_op("]") and self.t[j - 1].is_op("["):
            j -= 2
        if j < 0:
            return True
        prev = self.t[j]
        return prev.is_op(";", "{", "}") or prev.kind == "ident" and prev.text not in _NOT_TYPES


def _lambda_bodies(toks: list[Token]) -> set[int]:
    """Indices of the tokens inside ``-> { ... }`` blocks."""
    out: set[int] = set()
    for k, t in enumerate(toks):
        if t.is_op("->") and k + 1 < len(toks) and toks[k + 1].is_op("{"):
            out.update(range(k + 1, _close(toks, k + 1, "{", "}") + 1))
    return out


def _depth(toks: list[Token], i: int) -> int:
    d = 0
    for t in toks[:i]:
        if t.is_op("(", "[", "{"):
            d += 1
        elif t.is_op(")", "]", "}"):
            d -= 1
    return d
