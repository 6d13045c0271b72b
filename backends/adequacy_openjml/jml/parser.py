"""JML expressions to our AST, with JML's precedence.

From loosest to tightest: ``? :``; ``<==>`` ``<=!=>`` (left-assoc); ``==>`` (right-assoc) and
``<==`` (left-assoc); ``||``; ``&&``; ``|``; ``^``; ``&``; ``==`` ``!=``; relational (chained:
``a < b <= c``), ``instanceof``, ``<:``; shifts; ``+ -``; ``* / %``; unary and casts; postfix.
"""

from __future__ import annotations

from adequacy.plugin import SpecInvalid

from . import ast as A
from .lexer import Token, tokenize

PRIMITIVES = {"int", "long", "short", "byte", "char", "boolean", "double", "float"}
QUANTIFIERS = {"\\forall": "forall", "\\exists": "exists", "\\num_of": "num_of",
               "\\sum": "sum", "\\product": "product", "\\max": "max", "\\min": "min"}
SPECIAL_TYPES = {"\\bigint": "\\bigint", "\\real": "\\real", "\\TYPE": "\\TYPE"}
MAX_NESTING = 40
"""Deepest nesting of sub-expressions the parser follows (parentheses, unary operators,
arguments, ``==>`` chains). Each level costs the recursive-descent parser about 16 Python
frames; deeper input is refused as invalid, with its line, before any recursion limit can turn
it into an internal error."""
MAX_DEPTH = 200
"""Deepest expression tree any later pass walks (a left-nested chain of 300 ``+`` is 300 deep;
``&&`` and ``||`` chains are rebalanced and never come near it)."""
BALANCED = ("&&", "||")
"""Operators whose chains are rebuilt as balanced trees: associative, and the balanced tree
evaluates the operands in the same order with the same short-circuits, so the value and the
well-definedness are those of the left-nested chain Java would build."""


class Parser:
    def __init__(self, toks: list[Token], file: str | None = None) -> None:
        self.toks = toks if toks and toks[-1].kind == "eof" else toks + [
            Token("eof", "", toks[-1].line if toks else 0)]
        self.i = 0
        self.depth = 0
        self.file = file
        self.parenthesised: set[int] = set()
        self.unnegated: dict[int, tuple[A.Lit, Token]] = {}
        """MIN_VALUE magnitudes (2147483648) not yet seen under a unary minus"""
        """ids of sub-expressions written inside their own parentheses"""

    # -- helpers -------------------------------------------------------------------------
    @property
    def t(self) -> Token:
        return self.toks[self.i]

    def peek(self, k: int = 1) -> Token:
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def err(self, msg: str, tok: Token | None = None) -> SpecInvalid:
        tok = tok or self.t
        return SpecInvalid(msg, file=self.file, line=tok.line)

    def eat_op(self, *ops: str) -> Token | None:
        if self.t.is_op(*ops):
            tok = self.t
            self.i += 1
            return tok
        return None

    def expect_op(self, op: str, what: str = "") -> Token:
        tok = self.eat_op(op)
        if tok is None:
            found = self.t.text or "end of clause"
            raise self.err(f"expected {op!r}{' ' + what if what else ''} but found {found!r}")
        return tok

    def expect_ident(self) -> Token:
        if self.t.kind != "ident":
            raise self.err(f"expected a name but found {self.t.text or 'end of clause'!r}")
        tok = self.t
        self.i += 1
        return tok

    # -- grammar ---------------------------------------------------------------------------
    def parse_all(self) -> A.Expr:
        e = self.expr()
        if self.t.kind != "eof":
            raise self.err(f"unexpected {self.t.text!r} after the expression")
        for lit, tok in self.unnegated.values():
            raise self.err(f"integer literal {lit.text} is too large (only -{lit.text} is a "
                           "valid literal)", tok)
        if tree_depth(e) > MAX_DEPTH:
            raise self.err(f"nesting deeper than {MAX_DEPTH} (a long chain of an operator "
                           "other than && and || nests one level per operand; split the "
                           "clause)", self.toks[0])
        return e

    def nested(self) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise self.err(f"nesting deeper than {MAX_NESTING} (parentheses, operators or "
                           "calls inside each other)")

    def expr(self) -> A.Expr:
        self.nested()
        try:
            return self._expr()
        finally:
            self.depth -= 1

    def _expr(self) -> A.Expr:
        c = self.equiv()
        if self.t.is_op("?"):
            line = self.t.line
            self.i += 1
            a = self.expr()
            self.expect_op(":", "in a conditional expression")
            b = self.expr()
            return A.Cond(line, c, a, b)
        return c

    def equiv(self) -> A.Expr:
        e = self.implies()
        while self.t.is_op("<==>", "<=!=>"):
            op = self.t
            self.i += 1
            e = A.Binary(op.line, op.text, e, self.implies())
        return e

    def implies(self) -> A.Expr:
        e = self.binary(0)
        if self.t.is_op("==>"):
            op = self.t
            self.i += 1
            self.nested()
            try:
                right = self.implies()
            finally:
                self.depth -= 1
            if isinstance(right, A.Binary) and right.op == "<==" and not self._paren(right):
                raise self.err(_MIXED, op)
            e = A.Binary(op.line, "==>", e, right)
            return e
        while self.t.is_op("<=="):
            op = self.t
            self.i += 1
            e = A.Binary(op.line, "<==", e, self.binary(0))
            if self.t.is_op("==>"):
                raise self.err(_MIXED)
        return e

    def _paren(self, e: A.Expr) -> bool:
        return id(e) in self.parenthesised

    LEVELS: tuple[tuple[str, ...], ...] = (
        ("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="),
    )

    def binary(self, level: int) -> A.Expr:
        if level == len(self.LEVELS):
            return self.relational()
        e = self.binary(level + 1)
        if self.LEVELS[level][0] in BALANCED:
            operands, ops = [e], []
            while self.t.is_op(*self.LEVELS[level]):
                ops.append(self.t)
                self.i += 1
                operands.append(self.binary(level + 1))
            return _balanced(operands, ops)
        while self.t.is_op(*self.LEVELS[level]):
            op = self.t
            self.i += 1
            e = A.Binary(op.line, op.text, e, self.binary(level + 1))
        return e

    def relational(self) -> A.Expr:
        first = self.shift()
        ops: list[str] = []
        operands = [first]
        line = self.t.line
        while True:
            if self.t.is_op("<", "<=", ">", ">="):
                ops.append(self.t.text)
                self.i += 1
                operands.append(self.shift())
            elif self.t.is_ident("instanceof"):
                self.i += 1
                ty = self.type_name()
                if ops:
                    raise self.err("instanceof inside a comparison chain")
                operands = [A.InstanceOf(line, operands[-1], ty)]
            elif self.t.is_op("<:"):
                op = self.t
                self.i += 1
                operands = [A.Binary(op.line, "<:", operands[-1], self.shift())]
            else:
                break
        if not ops:
            return operands[0]
        if len(ops) == 1:
            return A.Binary(line, ops[0], operands[0], operands[1])
        return A.Chain(line, tuple(ops), tuple(operands))

    def shift(self) -> A.Expr:
        e = self.additive()
        while self.t.is_op("<<", ">>", ">>>"):
            op = self.t
            self.i += 1
            e = A.Binary(op.line, op.text, e, self.additive())
        return e

    def additive(self) -> A.Expr:
        e = self.multiplicative()
        while self.t.is_op("+", "-"):
            op = self.t
            self.i += 1
            e = A.Binary(op.line, op.text, e, self.multiplicative())
        return e

    def multiplicative(self) -> A.Expr:
        e = self.unary()
        while self.t.is_op("*", "/", "%"):
            op = self.t
            self.i += 1
            e = A.Binary(op.line, op.text, e, self.unary())
        return e

    def unary(self) -> A.Expr:
        self.nested()
        try:
            return self._unary()
        finally:
            self.depth -= 1

    def _unary(self) -> A.Expr:
        t = self.t
        if t.is_op("+", "-", "!", "~"):
            self.i += 1
            operand = self.unary()
            if t.text == "-" and isinstance(operand, A.Lit) and operand.kind in ("int", "long") \
                    and isinstance(operand.value, int) and not self._paren(operand):
                self.unnegated.pop(id(operand), None)
                return A.Lit(t.line, operand.kind, -operand.value, "-" + operand.text)
            return A.Unary(t.line, t.text, operand)
        if t.is_op("++", "--"):
            raise self.err(f"{t.text} has a side effect, which a specification may not have")
        if t.is_op("(") and self._is_cast():
            self.i += 1
            ty = self.type_name()
            self.expect_op(")")
            return A.Cast(t.line, ty, self.unary())
        return self.postfix(self.primary())

    def _is_cast(self) -> bool:
        j = self.i + 1
        toks = self.toks
        first = toks[j]
        if first.kind == "backslash" and first.text in SPECIAL_TYPES:
            return toks[j + 1].is_op(")")
        if first.kind != "ident":
            return False
        prim = first.text in PRIMITIVES
        j += 1
        while toks[j].is_op(".") and toks[j + 1].kind == "ident":
            j += 2
        if toks[j].is_op("<"):
            depth = 0
            while toks[j].kind != "eof":
                if toks[j].is_op("<"):
                    depth += 1
                elif toks[j].is_op(">"):
                    depth -= 1
                    if depth == 0:
                        j += 1
                        break
                elif toks[j].is_op(">>"):
                    depth -= 2
                    if depth <= 0:
                        j += 1
                        break
                elif not (toks[j].kind == "ident" or toks[j].is_op(",", ".", "?", "[", "]")):
                    return False
                j += 1
        while toks[j].is_op("[") and toks[j + 1].is_op("]"):
            j += 2
        if not toks[j].is_op(")"):
            return False
        if prim:
            return True
        nxt = toks[j + 1]
        return nxt.kind in ("ident", "int", "float", "char", "string", "backslash") or \
            nxt.is_op("(", "!", "~")

    def type_name(self) -> str:
        t = self.t
        if t.kind == "backslash" and t.text in SPECIAL_TYPES:
            self.i += 1
            name = t.text
        else:
            name = self.expect_ident().text
            while self.t.is_op(".") and self.peek().kind == "ident":
                self.i += 1
                name += "." + self.expect_ident().text
            if self.t.is_op("<"):
                depth = 0
                while self.t.kind != "eof":
                    if self.t.is_op("<"):
                        depth += 1
                    elif self.t.is_op(">"):
                        depth -= 1
                    elif self.t.is_op(">>"):
                        depth -= 2
                    name += self.t.text
                    self.i += 1
                    if depth <= 0:
                        break
        while self.t.is_op("[") and self.peek().is_op("]"):
            self.i += 2
            name += "[]"
        return name

    def args(self) -> tuple[A.Expr, ...]:
        self.expect_op("(")
        out: list[A.Expr] = []
        if self.eat_op(")"):
            return ()
        while True:
            out.append(self.expr())
            if self.eat_op(")"):
                return tuple(out)
            self.expect_op(",", "between arguments")

    def postfix(self, e: A.Expr) -> A.Expr:
        while True:
            t = self.t
            if t.is_op("."):
                self.i += 1
                if self.t.kind == "backslash":
                    raise self.err(f"unexpected {self.t.text!r} after '.'")
                name = self.expect_ident()
                if self.t.is_op("("):
                    e = A.Call(name.line, e, name.text, self.args())
                else:
                    e = A.Field(name.line, e, name.text)
            elif t.is_op("["):
                self.i += 1
                if self.t.is_op("*") or self.t.is_op("..") or self.peek().is_op(".."):
                    raise self.err("array ranges (a[*], a[i..j]) are not supported in "
                                   "expressions")
                idx = self.expr()
                self.expect_op("]")
                e = A.Index(t.line, e, idx)
            elif t.is_op("++", "--"):
                raise self.err(f"{t.text} has a side effect, which a specification may not have")
            elif t.is_op("=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=",
                         ">>>="):
                raise self.err(f"assignment {t.text!r} in a specification (did you mean '=='?)")
            else:
                return e

    def primary(self) -> A.Expr:
        t = self.t
        k = t.kind
        if k == "int":
            self.i += 1
            kind = "long" if t.text[-1] in "lL" else "int"
            lit = A.Lit(t.line, kind, _int_value(t, self), t.text)
            if lit.value == _MIN_MAGNITUDES[kind] and _is_decimal(t.text):
                self.unnegated[id(lit)] = (lit, t)
            return lit
        if k == "float":
            self.i += 1
            kind = "float" if t.text[-1] in "fF" else "double"
            try:
                v = float(t.text.rstrip("fFdD").replace("_", ""))
            except ValueError as e:
                raise self.err(f"bad number {t.text!r}") from e
            return A.Lit(t.line, kind, v, t.text)
        if k == "char":
            self.i += 1
            s = _unescape(t.text[1:-1], self, t)
            if len(s) != 1:
                raise self.err(f"bad character literal {t.text}")
            return A.Lit(t.line, "char", s, t.text)
        if k == "string":
            self.i += 1
            return A.Lit(t.line, "string", _unescape(t.text[1:-1], self, t), t.text)
        if k == "ident":
            if t.text in ("true", "false"):
                self.i += 1
                return A.Lit(t.line, "bool", t.text == "true", t.text)
            if t.text == "null":
                self.i += 1
                return A.Lit(t.line, "null", None, "null")
            if t.text == "new":
                return self.new()
            if t.text in PRIMITIVES and self.peek().is_op(".") and \
                    self.peek(2).is_ident("class"):
                raise self.err("class literals are not supported")
            self.i += 1
            if self.t.is_op("("):
                return A.Call(t.line, None, t.text, self.args())
            return A.Name(t.line, t.text)
        if k == "backslash":
            return self.backslash()
        if t.is_op("("):
            if self.peek().kind == "backslash" and self.peek().text in QUANTIFIERS:
                return self.quantifier()
            if self.peek().kind == "backslash" and self.peek().text in ("\\lblpos", "\\lblneg",
                                                                        "\\lbl"):
                self.i += 2
                self.expect_ident()
                inner = self.expr()
                self.expect_op(")")
                return inner
            self.i += 1
            inner = self.expr()
            self.expect_op(")", "closing the parenthesis")
            self.parenthesised.add(id(inner))
            return inner
        if k == "eof":
            raise self.err("expression expected but the clause ends")
        raise self.err(f"unexpected {t.text!r} in an expression")

    def backslash(self) -> A.Expr:
        t = self.t
        self.i += 1
        name = t.text
        if name == "\\result":
            return A.Result(t.line)
        if name in ("\\old", "\\pre"):
            self.expect_op("(")
            e = self.expr()
            if self.eat_op(","):
                self.expect_ident()  # label: only the pre-state exists for our stubs
            self.expect_op(")")
            return A.Old(t.line, e)
        if name in QUANTIFIERS:
            # OpenJML's form without parentheses: the body extends as far right as it can
            return self.quantifier_rest(t, t)
        if name in ("\\nothing", "\\everything", "\\not_specified", "\\same"):
            return A.Special(t.line, name, ())
        if name == "\\type":
            self.expect_op("(")
            ty = self.type_name()
            self.expect_op(")")
            return A.Special(t.line, name, (A.TypeRef(t.line, ty),))
        if self.t.is_op("("):
            return A.Special(t.line, name, self.args())
        raise self.err(f"unknown JML keyword {name}")

    def new(self) -> A.Expr:
        """``new T(args)``, ``new T[n]...[]`` or ``new T[]{e, ...}`` (JLS 15.9, 15.10)."""
        kw = self.t
        self.i += 1
        t = self.t
        if t.kind == "ident" and t.text in PRIMITIVES:
            self.i += 1
            ty = t.text
        else:
            ty = self.expect_ident().text
            while self.t.is_op(".") and self.peek().kind == "ident":
                self.i += 1
                ty += "." + self.expect_ident().text
            if self.t.is_op("<"):
                raise self.err("generic type arguments after 'new' are not supported", kw)
        if self.t.is_op("("):
            if ty in PRIMITIVES:
                raise self.err(f"'new {ty}(...)': a primitive type has no constructor", kw)
            args = self.args()
            if self.t.is_op("{"):
                raise self.err("an anonymous class in a specification is not supported", kw)
            return A.New(kw.line, ty, args)
        dims: list[A.Expr] = []
        brackets = 0
        while self.t.is_op("["):
            self.i += 1
            if self.eat_op("]"):
                brackets += 1
                continue
            if brackets > len(dims):
                raise self.err("an array length after an empty [] (JLS 15.10.1)")
            dims.append(self.expr())
            self.expect_op("]", "closing the array length")
            brackets += 1
        if not brackets:
            raise self.err(f"expected '(' or '[' after 'new {ty}'")
        elements: tuple[A.Expr, ...] | None = None
        if self.t.is_op("{"):
            if dims:
                raise self.err("an array initializer with a length (JLS 15.10.1)")
            elements = self.initializer()
        elif not dims:
            raise self.err(f"'new {ty}[]' needs a length or an initializer")
        return A.New(kw.line, ty, (), tuple(dims), brackets, elements)

    def initializer(self) -> tuple[A.Expr, ...]:
        self.expect_op("{")
        out: list[A.Expr] = []
        while not self.eat_op("}"):
            if self.t.is_op("{"):
                raise self.err("nested array initializers are not supported")
            out.append(self.expr())
            if not self.eat_op(","):
                self.expect_op("}", "closing the array initializer")
                break
        return tuple(out)

    def quantifier(self) -> A.Expr:
        open_ = self.expect_op("(")
        q = self.t
        self.i += 1
        quant = self.quantifier_rest(open_, q)
        self.expect_op(")", f"closing {q.text}")
        return quant

    def quantifier_rest(self, open_: Token, q: Token) -> A.Quant:
        """After the quantifier keyword: ``T x, y; [range;] body`` (JML RM 12.4.24.2: the range
        may be empty, ``(\\forall int i; ; P)``)."""
        kind = QUANTIFIERS[q.text]
        while self.t.is_ident("non_null", "nullable", "final"):
            self.i += 1
        ty = self.type_name()
        names = [self.expect_ident().text]
        while self.eat_op(","):
            names.append(self.expect_ident().text)
        self.expect_op(";", f"after the variables of {q.text}")
        rng: A.Expr | None = None
        if self.eat_op(";"):
            body = self.expr()
        else:
            first = self.expr()
            if self.eat_op(";"):
                rng = first
                if self.t.is_op(")") or self.t.kind == "eof":
                    raise self.err(f"{q.text} has a range but no body")
                body = self.expr()
            else:
                body = first
        return A.Quant(open_.line, kind, ty, tuple(names), rng, body)


def _balanced(operands: list[A.Expr], ops: list[Token]) -> A.Expr:
    """``a && b && c && d`` as ``(a && b) && (c && d)``: depth log2(n) instead of n, so no
    later pass recurses once per term (one operator throughout: ``BALANCED`` are levels)."""
    if len(operands) == 1:
        return operands[0]
    mid = len(operands) // 2
    op = ops[mid - 1]
    return A.Binary(op.line, op.text, _balanced(operands[:mid], ops[:mid - 1]),
                    _balanced(operands[mid:], ops[mid:]))


def tree_depth(e: A.Expr) -> int:
    """Depth of the tree, without recursion (the tree may be too deep to recurse over)."""
    deepest = 0
    stack: list[tuple[A.Expr, int]] = [(e, 1)]
    while stack:
        x, d = stack.pop()
        deepest = max(deepest, d)
        stack.extend((y, d + 1) for y in A.children(x))
    return deepest


_MIXED = ("==> and <== mixed without parentheses (OpenJML: jml.mixed.implies); write "
          "(a ==> b) <== c or a ==> (b <== c)")
_MIN_MAGNITUDES = {"int": 2**31, "long": 2**63}


def _is_decimal(text: str) -> bool:
    s = text.replace("_", "").rstrip("lL")
    return not (len(s) > 1 and s[0] == "0")


def _int_value(t: Token, p: Parser) -> int:
    """The literal's value as Java reads it (JLS 3.10.1): hex, octal and binary literals are
    the two's-complement bits of an ``int`` (``long`` with an L suffix), so ``0xFFFFFFFF`` is
    -1; a decimal literal must fit, except the magnitude of MIN_VALUE under a unary minus
    (``unary`` checks that it is negated)."""
    text = t.text
    long_ = text[-1] in "lL"
    s = text.rstrip("lL")
    if s.endswith("_") or s[:2].lower() in ("0x", "0b") and s[2:3] == "_":
        raise p.err(f"bad integer literal {text!r} (misplaced '_')")
    s = s.replace("_", "")
    bits = 64 if long_ else 32
    try:
        if s[:2].lower() == "0x":
            v, radix = int(s[2:], 16), 16
        elif s[:2].lower() == "0b":
            v, radix = int(s[2:], 2), 2
        elif len(s) > 1 and s[0] == "0":
            v, radix = int(s, 8), 8
        else:
            v, radix = int(s), 10
    except ValueError as e:
        raise p.err(f"bad integer literal {text!r}") from e
    kind = "long" if long_ else "int"
    if radix == 10:
        if v > _MIN_MAGNITUDES[kind]:
            raise p.err(f"integer literal {text} is out of range for {kind}")
        return v
    if v >= 2**bits:
        raise p.err(f"integer literal {text} does not fit in {bits} bits")
    return v - 2**bits if v >= 2**(bits - 1) else v


_ESC = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "0": "\0", "s": " ",
        "'": "'", '"': '"', "\\": "\\"}


def _unescape(s: str, p: Parser, t: Token) -> str:
    out = []
    i = 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            d = s[i + 1]
            if d == "u":
                j = i + 1
                while j < len(s) and s[j] == "u":
                    j += 1
                try:
                    out.append(chr(int(s[j:j + 4], 16)))
                except ValueError as e:
                    raise p.err(f"bad unicode escape in {t.text}", t) from e
                i = j + 4
                continue
            if d in "01234567":
                j = i + 1
                while j < len(s) and j < i + 4 and s[j] in "01234567":
                    j += 1
                out.append(chr(int(s[i + 1:j], 8)))
                i = j
                continue
            if d not in _ESC:
                raise p.err(f"bad escape \\{d} in {t.text}", t)
            out.append(_ESC[d])
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def parse_expression(toks: list[Token] | str, file: str | None = None, line: int = 1) -> A.Expr:
    """Parse one JML expression from tokens (or text); ``SpecInvalid`` with file:line on error."""
    tokens = tokenize(toks, line, file) if isinstance(toks, str) else toks
    return Parser(tokens, file).parse_all()
