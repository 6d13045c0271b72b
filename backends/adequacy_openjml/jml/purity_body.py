"""Reading a pure method's body for the purity rules (``purity``): its locals, which of them
hold only what the method allocated, and the shape of the expression at a token (its root
variable, where a primary ends, whether a call is a builder's)."""

from __future__ import annotations

from .freshness import creates_builder, is_fresh
from .lexer import Token
from .members import JavaClass, JavaField, JavaMethod
from .scopes import Scopes

ASSIGN = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", ">>>="}
SELF_RETURNING = frozenset({"append", "insert", "reverse", "delete", "deleteCharAt",
                            "replace"})
"""StringBuilder methods that return their receiver: ``new StringBuilder(s).reverse()``
and ``sb.append(a).append(b)`` change only what was allocated."""
NEW = "\0new"
"""The root of a receiver that is a constructor call."""
KEYWORDS_BEFORE_NAME = {"return", "new", "throw", "case", "else", "do", "yield", "assert",
                        "instanceof", "this", "super", "break", "continue"}
def _full_dims(rhs: list[Token]) -> bool:
    """``new T[a][b]`` with every dimension given (so every inner array is new) and at
    least two of them."""
    if len(rhs) < 2 or not rhs[0].is_ident("new"):
        return False
    dims = 0
    k = 2
    while k < len(rhs) and rhs[k].is_op("."):
        k += 2
    while k < len(rhs) and rhs[k].is_op("["):
        if k + 1 < len(rhs) and rhs[k + 1].is_op("]"):
            return False
        nest = 0
        while k < len(rhs):
            if rhs[k].is_op("["):
                nest += 1
            elif rhs[k].is_op("]"):
                nest -= 1
                if nest == 0:
                    break
            k += 1
        dims += 1
        k += 1
    return dims >= 2 and k == len(rhs)


class MethodBody:
    """The tokens of one method's body and what its locals hold."""

    def __init__(self, m: JavaMethod, toks: list[Token], cls: JavaClass, file: str | None,
                 own: dict[str, list[JavaMethod]], fields: dict[str, JavaField]) -> None:
        self.m, self.t, self.cls, self.file = m, toks, cls, file
        self.fields = fields
        self.params = {n for _t, n in m.params}
        self.own = own
        self.locals: set[str] = set()
        self.unfresh: set[str] = set()
        self.builders: set[str] = set()
        self.grids: set[str] = set()
        """Locals only ever holding ``new T[n][m]...`` (every inner array allocated with it)
        and never given another inner array: their inner elements may be assigned."""
        self.gap: str | None = None
        self.scopes = Scopes(toks)
        """Where each local is in scope (JLS 6.3): a local named like a field is the local
        only there."""
        self.starts = {d.start for d in self.scopes.decls}
        self.at = {id(x): k for k, x in enumerate(toks)}
        self._declarations()

    def tok(self, k: int) -> Token:
        return self.t[k] if 0 <= k < len(self.t) else Token("eof", "", 0)

    # ------------------------------------------------------------------ locals and freshness
    def _declarations(self) -> None:
        """Locals (declared in the body, lambda parameters) and whether each only ever holds
        what the method allocated (``new``, an array initializer, a ``clone``)."""
        t = self.t
        for k, x in enumerate(t):
            if x.kind != "ident":
                continue
            nxt = self.tok(k + 1)
            if nxt.is_op("->") or (nxt.is_op(",", ")") and self._in_lambda_params(k)):
                self.locals.add(x.text)
                self.unfresh.add(x.text)
                continue
            if self._after_type(k) and nxt.is_op("=", ";", ",", ":", ")"):
                self.locals.add(x.text)
                if nxt.is_op(":", ")"):
                    self.unfresh.add(x.text)  # for-each variable, catch parameter
        # what the token scan above misses: C-style declarators (``int a[]``), ``\bigint``
        # locals, declarators after the first; a name read only there is not trusted fresh
        for d in self.scopes.decls:
            if d.name not in self.locals:
                self.locals.add(d.name)
                if not self.tok(d.start + 1).is_op("=", "["):
                    self.unfresh.add(d.name)
        spoiled: set[str] = set()
        for k, x in enumerate(t):
            if x.kind == "ident" and x.text in self.locals and self.tok(k + 1).is_op("=") and \
                    not self.tok(k - 1).is_op("."):
                self._holds(x.text, k + 2, spoiled)
            elif x.kind == "ident" and x.text in self.locals and k in self.starts and \
                    self.tok(k + 1).is_op("[") and self.tok(k + 2).is_op("]"):
                j = k + 1
                while self.tok(j).is_op("[") and self.tok(j + 1).is_op("]"):
                    j += 2
                if self.tok(j).is_op("="):
                    self._holds(x.text, j + 1, spoiled)  # ``int a[] = {...}``
            elif x.kind == "ident" and self.tok(k + 1).is_op("[") and \
                    not self.tok(k - 1).is_op(".") and self._one_index_assigned(k + 1):
                spoiled.add(x.text)  # given another inner array: ``g[0] = memo``
        self.grids -= spoiled

    def _holds(self, name: str, k: int, spoiled: set[str]) -> None:
        """Classify the value given to the local ``name`` by the expression at ``k``."""
        rhs = self._until_end(k)
        if is_fresh(rhs):
            if creates_builder(rhs):
                self.builders.add(name)
            if _full_dims(rhs):
                self.grids.add(name)
            else:
                spoiled.add(name)
        else:
            self.unfresh.add(name)

    def _one_index_assigned(self, k: int) -> bool:
        """Whether the ``[`` at ``k`` closes into a direct assignment (``g[i] = ...``)."""
        nest = 0
        while k < len(self.t):
            if self.t[k].is_op("["):
                nest += 1
            elif self.t[k].is_op("]"):
                nest -= 1
                if nest == 0:
                    break
            k += 1
        nxt = self.tok(k + 1)
        return nxt.kind == "op" and nxt.text in ASSIGN

    def _after_type(self, k: int) -> bool:
        """Whether the name at ``k`` follows a type (``int x``, ``int[] x``, ``List<T> x``),
        i.e. is being declared; ``a > x`` and ``a[i] x`` are not declarations."""
        prev = self.tok(k - 1)
        if prev.kind == "ident":
            return prev.text not in KEYWORDS_BEFORE_NAME
        if prev.is_op("]"):
            return self.tok(k - 2).is_op("[") and self._after_type(k - 2)
        if prev.is_op(">"):
            j, depth = k - 1, 0
            while j >= 0:
                x = self.t[j]
                if x.is_op(">"):
                    depth += 1
                elif x.is_op("<"):
                    depth -= 1
                    if depth == 0:
                        return self.tok(j - 1).kind == "ident"
                elif not (x.kind == "ident" or x.is_op(",", ".", "?", "[", "]")):
                    return False
                j -= 1
        return False

    def _in_lambda_params(self, k: int) -> bool:
        j = k
        while j >= 0 and not self.t[j].is_op("("):
            if not (self.t[j].kind == "ident" or self.t[j].is_op(",")):
                return False
            j -= 1
        close = k
        while close < len(self.t) and not self.t[close].is_op(")"):
            close += 1
        return self.tok(close + 1).is_op("->")

    def _until_end(self, k: int) -> list[Token]:
        out: list[Token] = []
        depth = 0
        while k < len(self.t):
            x = self.t[k]
            if x.is_op("(", "[", "{"):
                depth += 1
            elif x.is_op(")", "]", "}"):
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and x.is_op(";", ","):
                break
            out.append(x)
            k += 1
        return out

    def allocated(self, name: str, at: int | Token | None = None) -> bool:
        if name == NEW:
            return True
        return self._allocated_local(name, self.at.get(id(at)) if isinstance(at, Token) else at)

    def _allocated_local(self, name: str, at: int | None) -> bool:
        """Whether ``name`` at token ``at`` is a local that only ever holds what the method
        allocated. A name that is also a field's is the local only inside the local's scope
        (JLS 6.4.1); where the place is not known it is not trusted."""
        if name not in self.locals or name in self.unfresh:
            return False
        return name not in self.fields or at is not None and self.scopes.is_local(name, at)

    def _declared_type(self, name: str, k: int) -> str | None:
        """The declared type of a local (in scope at ``k``), parameter or field."""
        local = self.scopes.lookup(name, k)
        if local is not None:
            return local
        if name in self.locals:
            return ""  # declared where the scope reader does not model the type
        for ty, n in self.m.params:
            if n == name:
                return ty
        f = self.fields.get(name)
        return f.type if f is not None else None

    def _is_builder(self, name: str, k: int) -> bool:
        return name in self.builders

    def _is_local_declaration(self, k: int) -> bool:
        j = k - 1
        while self.tok(j).is_op("]") and self.tok(j - 1).is_op("["):
            j -= 2
        if self.t[k].text == "=" and j in self.starts and self.tok(j).kind == "ident":
            return True  # a declarator (``int a[] = ...``, ``\bigint b = ...``)
        name, prev = self.tok(k - 1), self.tok(k - 2)
        return name.kind == "ident" and self.t[k].text == "=" and (
            (prev.kind == "ident" and prev.text not in KEYWORDS_BEFORE_NAME)
            or prev.is_op(">", "]")) and name.text in self.locals

    def _end_of_primary(self, k: int) -> int:
        """Index of the last token of the primary starting at ``k`` (``a``, ``a.b``, ``a[i]``)."""
        j = k
        while j + 1 < len(self.t):
            nxt = self.t[j + 1]
            if nxt.is_op(".") and self.tok(j + 2).kind == "ident":
                j += 2
            elif nxt.is_op("["):
                depth = 0
                j += 1
                while j < len(self.t):
                    if self.t[j].is_op("["):
                        depth += 1
                    elif self.t[j].is_op("]"):
                        depth -= 1
                        if depth == 0:
                            break
                    j += 1
            else:
                break
        return j

    def _built_as_builder(self, k: int) -> bool:
        """Whether the receiver chain of the call at ``k`` starts with ``new StringBuilder``
        (or ``StringBuffer``)."""
        j = k
        while j >= 0 and not self.t[j].is_ident("new"):
            j -= 1
        return self.tok(j + 1).text in ("StringBuilder", "StringBuffer") or (
            self.tok(j + 1).text == "java" and self.tok(j + 5).text in
            ("StringBuilder", "StringBuffer"))

    def _package_before(self, k: int) -> bool:
        """Whether the class name at ``k`` is qualified by a package (``java.util.Arrays``)
        whose first name is no variable."""
        j = k
        while self.tok(j - 1).is_op(".") and self.tok(j - 2).kind == "ident" and \
                self.tok(j - 2).text[:1].islower():
            j -= 2
        first = self.tok(j).text
        return j < k and first not in self.locals and first not in self.params and \
            first not in self.fields and not self.tok(j - 1).is_op(".")

    def _root(self, k: int) -> Token | None:
        """The name a receiver expression ending at ``k`` starts from (``a`` in ``a.b[i]``),
        or None when it starts with a call or a parenthesis. A chain through calls that return
        their receiver (``sb.append(x).reverse()``) counts only on a string builder: on a map,
        ``replace`` returns a stored value, not the map."""
        root, through = self._root_of(k)
        if root is not None and through and not (
                root.text in self.builders or root.text == NEW and self._built_as_builder(k)):
            return None
        return root

    def _root_of(self, k: int) -> tuple[Token | None, bool]:
        j = k
        through = False
        while j >= 0:
            x = self.t[j]
            if x.is_op("]", ")"):
                close, open_ = x.text, "[" if x.text == "]" else "("
                depth = 0
                while j >= 0:
                    if self.t[j].is_op(close):
                        depth += 1
                    elif self.t[j].is_op(open_):
                        depth -= 1
                        if depth == 0:
                            break
                    j -= 1
                if open_ == "(":
                    callee = self.tok(j - 1)
                    q = j - 1
                    while self.tok(q - 1).is_op(".") and self.tok(q - 2).kind == "ident":
                        q -= 2
                    if callee.kind == "ident" and self.tok(q - 1).is_ident("new"):
                        # new T(...): allocated here
                        return Token("ident", NEW, callee.line), through
                    if callee.text in SELF_RETURNING and self.tok(j - 2).is_op("."):
                        j -= 3  # sb.append(x).reverse(): the receiver is sb again
                        through = True
                        continue
                    return None, through
                j -= 1
                continue
            if x.kind == "ident" and self.tok(j - 1).is_op("."):
                j -= 2
                continue
            return (x if x.kind == "ident" else None), through
        return None, through
