"""Type checking of the statements of pure helpers and model methods: what javac says of them.

Why: a spec's helpers are code the spec calls, and before this pass a type error in one
(``return n % d;`` in a ``boolean`` helper, ``if (n % 2)``) reached javac inside rac and became
``unknown`` for every case, so the spec still scored. OpenJML type-checks them as
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

from collections.abc import Mapping

from adequacy.plugin import SpecInvalid

from . import ast as A
from .lexer import Token, closing
from .members import JavaClass, JavaMethod, SpecFile
from .parser import parse_expression
from .purity import body_tokens
from .scopes import Scopes, Visible
from .signatures import LIBRARY_CLASSES
from .typecheck import UNKNOWN, Checker, norm, widens

_CONSTANT_NARROWING = {"byte", "short", "char"}
"""JLS 5.2: an int constant may be assigned to these when it fits; not worked out here."""
_NOT_TYPES = {"return", "new", "throw", "case", "else", "do", "yield", "assert", "instanceof",
              "this", "super", "break", "continue", "final"}


def check_bodies(src: SpecFile, cls: JavaClass, file: str | None) -> None:
    """Raise ``SpecInvalid`` (file:line) at the first statement of a pure or model method of
    ``cls`` that breaks a typing rule this pass knows."""
    known: bool | None = None  # once per class: it reads the whole file
    for m in cls.methods + cls.models:
        if not (m.is_pure or m.model) or not m.has_body or m.return_type is None:
            continue
        toks = body_tokens(src, m, file)
        if toks:
            if known is None:
                known = _names_known(src, cls)
            _Body(cls, m, toks, file, known).check()


def _names_known(src: SpecFile, cls: JavaClass) -> bool:
    """Whether every name a body may read is a local, a parameter or a field of ``cls``:
    not when the class extends or implements a type (inherited fields and interface
    constants), is nested in another (the outer class's fields), is no plain class (a
    record's components), or the file imports static members."""
    if any(o is not cls and o.body_open < cls.body_open < o.body_close for o in src.classes):
        return False
    if "import static" in " ".join(src.java_text.split()):
        return False  # a statically imported field is a simple name too
    head = src.java_text[:cls.body_open]
    at = head.rfind(f"class {cls.name}")
    return at >= 0 and not {"extends", "implements"} & set(head[at:].split())


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
    def __init__(self, cls: JavaClass, m: JavaMethod, toks: list[Token], file: str | None,
                 names_known: bool = False) -> None:
        self.cls, self.m, self.t, self.file = cls, m, toks, file
        # a model method may read ghost and model fields, which the parser sets aside
        self.names_known = names_known and not m.model and not _record_patterns(toks)
        self.c = Checker(cls, m, file)
        self.returns = norm(m.return_type, cls.name)
        self.scopes = Scopes(toks)
        self.locals: Mapping[str, str] = {}
        """The locals in scope at the statement being checked (set by ``check``)."""
        self.skip = _lambda_bodies(toks)

    def env(self, k: int) -> Mapping[str, str]:
        """The locals in scope at token ``k`` with their types (JLS 6.3): a local shadows a
        field or parameter of its name only there; a type not modelled is ``?``."""
        own = self.cls.name
        return Visible(self.scopes, k, lambda ty: norm(ty, own) if ty else UNKNOWN)

    def expr(self, toks: list[Token]) -> A.Expr | None:
        if not toks:
            return None
        try:
            e = parse_expression(toks, self.file)
        except (SpecInvalid, RecursionError):
            return None  # Java the JML expression grammar lacks: not checked here
        if self.names_known:
            self.names(e)
        return e

    def names(self, e: A.Expr) -> None:
        """javac's "cannot find symbol": a plain lower-case name read as a value that is no
        local in scope (JLS 6.3), parameter or field. A name before ``.`` may be a package
        and a capitalised one a class, so neither is judged; quantifier binders are names."""
        nodes = A.walk(e)
        skip = {id(x.obj) for x in nodes if isinstance(x, A.Field)} | {
            id(x.target) for x in nodes if isinstance(x, A.Call) and x.target is not None}
        bound = {v for x in nodes if isinstance(x, A.Quant) for v in x.vars}
        for x in nodes:
            if not isinstance(x, A.Name) or id(x) in skip or not x.id[:1].islower():
                continue
            n = x.id
            if n in bound or n in self.locals or n in self.c.params or n in self.c.fields \
                    or n in ("this", "super") or n in LIBRARY_CLASSES:
                continue
            raise SpecInvalid(f"cannot find symbol: variable {n} (in {self.m.name})",
                              file=self.file, line=x.line)

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
        if self.scopes.deep:
            return  # nested too deeply to follow: nothing is proved wrong
        t, k = self.t, 0
        while k < len(t):
            x = t[k]
            if x.kind == "ident" and (x.text in ("return", "if", "while") or
                                      t[k + 1:k + 2] and t[k + 1].is_op("=")):
                self.locals = self.env(k + 1)  # where the expression starts
            if k in self.skip:
                pass  # a lambda's block: its returns are the lambda's
            elif x.kind == "ident" and x.text == "return":
                end = _statement_end(t, k + 1)
                e = self.expr(t[k + 1:end])
                if e is not None:
                    self.convertible(e, self.type(e), self.returns, "a returned value")
            elif x.kind == "ident" and x.text in ("if", "while") and k + 1 < len(t) \
                    and t[k + 1].is_op("("):
                close = closing(t, k + 1, "(", ")")  # None: the rest of the body
                self.condition(t[k + 2:close], f"'{x.text}'")
            elif x.kind == "ident" and x.text == "for" and k + 1 < len(t) and t[k + 1].is_op("("):
                close = closing(t, k + 1, "(", ")")
                head = t[k + 2:close]
                semis = [i for i, h in enumerate(head) if h.is_op(";")
                         and _depth(head, i) == 0]
                if len(semis) == 2:
                    self.locals = self.env(k + 2 + semis[0] + 1)  # the for-init is in scope
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


def _record_patterns(toks: list[Token]) -> bool:
    """Whether the body has a record pattern (``instanceof Point(int x, int y)``, ``case
    P(var a)``), whose bindings the scope reader does not know."""
    for k, t in enumerate(toks):
        if t.kind == "ident" and t.text in ("instanceof", "case"):
            for j in range(k + 1, min(k + 8, len(toks))):
                if toks[j].is_op("("):
                    return True
                if toks[j].is_op(")", ";", "{", "->", ":", "&&", "||"):
                    break
    return False


def _lambda_bodies(toks: list[Token]) -> set[int]:
    """Indices of the tokens inside ``-> { ... }`` blocks."""
    out: set[int] = set()
    for k, t in enumerate(toks):
        if t.is_op("->") and k + 1 < len(toks) and toks[k + 1].is_op("{"):
            end = closing(toks, k + 1, "{", "}")
            out.update(range(k + 1, len(toks) if end is None else end + 1))
    return out


def _depth(toks: list[Token], i: int) -> int:
    d = 0
    for t in toks[:i]:
        if t.is_op("(", "[", "{"):
            d += 1
        elif t.is_op(")", "]", "}"):
            d -= 1
    return d
