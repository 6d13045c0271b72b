"""Recursive-descent parser of Verus files into ``ast`` nodes.

Spec functions are parsed completely; exec and proof function bodies are skipped by matching
braces (their signatures and ``requires``/``ensures`` clauses are parsed), because the tool
only ever evaluates spec code and must still read whole skeletons and real Verus programs.
Expression precedence follows the Verus guide's table (``spec-operator-precedence.md``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast

from adequacy.plugin import SpecInvalid

from . import ast as A
from .lexer import Token, normalize_tokens, tokenize

T = TypeVar("T")

WRAPPER_MACROS = ("verus", "exec_spec_unverified", "exec_spec_verified", "exec_spec")
CLAUSE_KWS = ("requires", "ensures", "recommends", "decreases", "via", "when", "returns",
              "opens_invariants", "no_unwind", "default_ensures", "invariant", "with")
PRIMITIVE_TYPES = {"int", "nat", "bool", "char", "u8", "u16", "u32", "u64", "u128", "usize",
                   "i8", "i16", "i32", "i64", "i128", "isize", "f32", "f64", "str"}
CMP_OPS = ("==", "!=", "===", "!==", "<", "<=", ">", ">=", "=~=", "=~~=")
# binary operator -> (precedence, right associative); higher binds tighter
BINOPS: dict[str, tuple[int, bool]] = {
    "<==>": (1, False), "<==": (2, False), "==>": (3, True), "||": (4, False),
    "&&": (5, False),
    # 6: comparisons (chained, handled separately)
    "|": (7, False), "^": (8, False), "&": (9, False), "<<": (10, False), ">>": (10, False),
    "+": (11, False), "-": (11, False), "*": (12, False), "/": (12, False), "%": (12, False),
}
CMP_PREC = 6
MAX_NESTING = 256
"""Deepest nesting of expressions (parentheses, blocks, call arguments, method and field
chains, prefix operators), types and patterns a spec may have. Every pass over the tree
(parser, compiler, evaluator, exec_spec's checks) recurses once per level, so the depth must
be bounded for them to stay safe; associative chains (``a && b && ...``, ``a + b + ...``,
``a ==> b ==> ...``, ``else if``) and sequences (match arms, items, statements) are not
nesting and cost no depth. Real specs stay far below this (the verus-bench corpus: under 40)."""


class Parser:
    def __init__(self, toks: list[Token], path: str | None) -> None:
        self.toks = toks
        self.pos = 0
        self.path = path
        self.skipped: list[tuple[str, int]] = []
        """Constructs read past without a tree (what, line): the policy refuses them."""
        self.depth = 0
        """Current nesting (see ``MAX_NESTING``)."""

    def enter(self, k: int = 1) -> None:
        """Go ``k`` levels deeper; a spec nested past ``MAX_NESTING`` is invalid, at the line
        where it gets too deep (the caller undoes the depth on its way out)."""
        self.depth += k
        if self.depth > MAX_NESTING:
            raise SpecInvalid(f"nesting deeper than {MAX_NESTING} levels (expressions, types or "
                              "patterns inside each other)", file=self.path, line=self.tok.line)

    # ------------------------------------------------------------ helpers
    @property
    def tok(self) -> Token:
        return self.toks[self.pos]

    def peek(self, k: int = 1) -> Token:
        return self.toks[min(self.pos + k, len(self.toks) - 1)]

    def err(self, msg: str, tok: Token | None = None) -> SpecInvalid:
        t = tok or self.tok
        found = t.text or "end of file"
        return SpecInvalid(f"{msg} (found {found!r})", file=self.path, line=t.line)

    def at_p(self, p: str) -> bool:
        t = self.toks[self.pos]
        return t.kind == "punct" and t.value == p

    def at_kw(self, k: str) -> bool:
        return self.toks[self.pos].is_kw(k)

    def eat_p(self, p: str) -> bool:
        if self.at_p(p):
            self.pos += 1
            return True
        return False

    def eat_kw(self, k: str) -> bool:
        if self.at_kw(k):
            self.pos += 1
            return True
        return False

    def comma_list(self, item: Callable[[], T], close: str = ")") -> tuple[list[T], bool]:
        """Comma-separated items up to ``close`` (consumed; the opener already was), and
        whether a comma came last: ``(x,)`` is a one-tuple where ``(x)`` is just ``x``."""
        elems: list[T] = []
        while not self.at_p(close):
            elems.append(item())
            if not self.eat_p(","):
                break
        trailing = bool(elems) and self.toks[self.pos - 1].is_p(",")
        self.expect_p(close)
        return elems, trailing

    def expect_p(self, p: str) -> Token:
        if not self.at_p(p):
            # split '>>' / '>=' / '>>=' when a generic list closes
            if p == ">" and self.tok.kind == "punct" and str(self.tok.value).startswith(">"):
                t = self.tok
                rest = str(t.value)[1:]
                self.toks[self.pos] = Token("punct", rest, rest, t.line, t.col + 1)
                return Token("punct", ">", ">", t.line, t.col)
            raise self.err(f"expected '{p}'")
        t = self.tok
        self.pos += 1
        return t

    def ident(self, what: str = "an identifier") -> str:
        t = self.tok
        if t.kind != "ident":
            raise self.err(f"expected {what}")
        self.pos += 1
        return str(t.value)

    def skip_delimited(self) -> int:
        """Skip a balanced (), [] or {} group starting at the current token; return end index."""
        open_t = self.tok
        pairs = {"(": ")", "[": "]", "{": "}"}
        if open_t.kind != "punct" or open_t.value not in pairs:
            raise self.err("expected '(', '[' or '{'")
        stack = [pairs[str(open_t.value)]]
        self.pos += 1
        while stack:
            t = self.tok
            if t.kind == "eof":
                raise self.err(f"unclosed '{open_t.value}' opened at line {open_t.line}")
            if t.kind == "punct":
                if t.value in pairs:
                    stack.append(pairs[str(t.value)])
                elif t.value in (")", "]", "}"):
                    if t.value != stack[-1]:
                        raise self.err(f"mismatched '{t.value}'")
                    stack.pop()
            self.pos += 1
        return self.pos

    # ------------------------------------------------------------ items
    def parse_file(self) -> tuple[list[A.Item], list[tuple[str, int]]]:
        items: list[A.Item] = []
        wrappers: list[tuple[str, int]] = []
        self.parse_items(items, wrappers, closer=None)
        return items, wrappers

    def parse_attrs(self) -> list[A.Attr]:
        attrs: list[A.Attr] = []
        while self.at_p("#"):
            start = self.pos
            line = self.tok.line
            self.pos += 1
            inner = self.eat_p("!")
            if not self.at_p("["):
                raise self.err("expected '[' after '#'")
            self.skip_delimited()
            attrs.append(A.Attr(normalize_tokens(self.toks[start:self.pos]), line, inner))
        return attrs

    def stray_attrs(self, where: str) -> None:
        """Attributes where no item stands (a field, a variant, a parameter, a match arm, a
        statement): only triggers and lint levels mean anything there; any other is
        recorded as refused (``#[verifier::external_body]`` on a field means nothing)."""
        for a in self.parse_attrs():
            self._stray(a.text, a.line, where)

    def _stray(self, text: str, line: int, where: str) -> None:
        t = text.replace(" ", "")
        if not t.startswith(("#[trigger", "#![trigger", "#![auto]", "#[allow(")):
            self.skipped.append((f"attribute {t} on {where}", line))

    def parse_items(self, items: list[A.Item], wrappers: list[tuple[str, int]],
                    closer: str | None) -> None:
        while True:
            if closer and self.at_p(closer):
                return
            if self.tok.kind == "eof":
                if closer:
                    raise self.err(f"expected '{closer}' to close a block")
                return
            if self.eat_p(";"):
                continue
            start = self.pos
            attrs = self.parse_attrs()
            if closer and self.at_p(closer) or self.tok.kind == "eof":
                # trailing inner attributes
                if attrs:
                    items.append(A.OtherItem(attrs[0].line, attrs[-1].line, attrs,
                                             normalize_tokens(self.toks[start:self.pos]),
                                             "attribute"))
                continue
            t = self.tok
            # macro blocks at item level
            if t.kind == "ident" and self.peek().is_p("!") and t.value != "macro_rules":
                name = str(t.value)
                self.pos += 2
                if name in WRAPPER_MACROS and self.at_p("{"):
                    wrappers.append((name, t.line))
                    self.pos += 1
                    self.parse_items(items, wrappers, "}")
                    self.expect_p("}")
                    continue
                if self.tok.kind == "punct" and self.tok.value in ("(", "[", "{"):
                    self.skip_delimited()
                else:
                    raise self.err("expected a macro body")
                self.eat_p(";")
                items.append(A.OtherItem(t.line, self.toks[self.pos - 1].line, attrs,
                                         normalize_tokens(self.toks[start:self.pos]),
                                         "macro", name))
                continue
            items.append(self.parse_item(start, attrs))

    def parse_item(self, start: int, attrs: list[A.Attr]) -> A.Item:
        quals: list[str] = []
        vis = ""
        line = self.tok.line
        while True:
            if self.at_kw("pub"):
                self.pos += 1
                vis = "pub"
                if self.at_p("("):
                    self.skip_delimited()
                continue
            if self.tok.kind == "ident" and self.tok.value in (
                    "open", "closed", "spec", "proof", "exec", "const", "unsafe", "extern",
                    "async", "broadcast", "uninterp", "tracked", "ghost", "default"):
                if self.tok.value == "const" and self.peek().kind == "ident" \
                        and self.peek().value not in ("fn", "unsafe", "extern"):
                    break  # a `const X: T = ...;` item
                quals.append(str(self.tok.value))
                self.pos += 1
                if quals[-1] == "extern" and self.tok.kind == "str":
                    self.pos += 1
                if quals[-1] == "spec" and self.at_p("("):  # spec(checked)
                    self.skip_delimited()
                continue
            break
        t = self.tok
        if t.is_kw("fn"):
            return self.parse_fn(start, attrs, quals, vis, None)
        if t.is_kw("use"):
            self.pos += 1
            ps = self.pos
            while not self.at_p(";"):
                if self.tok.kind == "eof":
                    raise self.err("expected ';' after use")
                self.pos += 1
            path = "".join(x.text for x in self.toks[ps:self.pos])
            words = tuple(str(x.value) if x.kind == "ident" else x.text
                          for x in self.toks[ps:self.pos])
            self.pos += 1
            return A.UseItem(line, t.line, attrs, normalize_tokens(self.toks[start:self.pos]),
                             path, words)
        if t.is_kw("struct"):
            return self.parse_struct(start, attrs)
        if t.is_kw("enum"):
            return self.parse_enum(start, attrs)
        if t.is_kw("impl"):
            return self.parse_impl(start, attrs)
        if t.kind == "ident" and t.value in ("mod", "trait", "const", "static", "type", "union",
                                             "macro_rules", "extern", "impl"):
            kind = str(t.value)
            self.pos += 1
            name = ""
            if self.at_p("!"):
                self.pos += 1
            if self.tok.kind == "ident":
                name = str(self.tok.value)
            while not (self.at_p(";") or self.at_p("{")):
                if self.tok.kind == "eof":
                    raise self.err(f"unterminated {kind} item")
                if self.tok.kind == "punct" and self.tok.value in ("(", "["):
                    self.skip_delimited()
                    continue
                self.pos += 1
            if self.at_p("{"):
                self.skip_delimited()
                self.eat_p(";")
            else:
                self.pos += 1
            return A.OtherItem(line, self.toks[self.pos - 1].line, attrs,
                               normalize_tokens(self.toks[start:self.pos]),
                               kind + ("" if not quals else ""), name)
        raise self.err("expected an item (fn, struct, enum, impl, use)")

    def parse_generic_params(self) -> list[str]:
        names: list[str] = []
        if not self.at_p("<"):
            return names
        self.pos += 1
        depth = 1
        expect_name = True
        while depth:
            t = self.tok
            if t.kind == "eof":
                raise self.err("unclosed generic parameter list")
            if t.is_p("<"):
                depth += 1
            elif t.kind == "punct" and str(t.value).startswith(">") and t.value in (">", ">>"):
                depth -= len(str(t.value))
            elif t.is_p(","):
                expect_name = depth == 1
                self.pos += 1
                continue
            elif t.kind == "ident" and expect_name and depth == 1 and t.value != "const":
                names.append(str(t.value))
                expect_name = False
            self.pos += 1
        return names

    def skip_where(self) -> None:
        if self.at_kw("where"):
            self.skipped.append(("a where clause", self.tok.line))
            self.pos += 1
            while not (self.at_p("{") or self.at_p(";") or self.tok.kind == "eof"
                       or (self.tok.kind == "ident" and self.tok.value in CLAUSE_KWS)):
                self.pos += 1

    def parse_struct(self, start: int, attrs: list[A.Attr]) -> A.StructItem:
        line = self.tok.line
        self.pos += 1
        name = self.ident("a struct name")
        gens = self.parse_generic_params()
        self.skip_where()
        fields: list[tuple[str, A.TypeRef]] = []
        field_lines: list[int] = []
        tuple_struct = False
        if self.eat_p("{"):
            while not self.at_p("}"):
                self.stray_attrs("a field")
                field_lines.append(self.tok.line)
                if self.eat_kw("pub") and self.at_p("("):
                    self.skip_delimited()
                while self.tok.kind == "ident" and self.tok.value in ("ghost", "tracked"):
                    self.pos += 1
                fname = self.ident("a field name")
                self.expect_p(":")
                fields.append((fname, self.parse_type()))
                if not self.eat_p(","):
                    break
            self.expect_p("}")
        elif self.eat_p("("):
            tuple_struct = True
            k = 0
            while not self.at_p(")"):
                self.stray_attrs("a field")
                field_lines.append(self.tok.line)
                if self.eat_kw("pub") and self.at_p("("):
                    self.skip_delimited()
                fields.append((str(k), self.parse_type()))
                k += 1
                if not self.eat_p(","):
                    break
            self.expect_p(")")
            self.skip_where()
            self.expect_p(";")
        else:
            self.expect_p(";")
        return A.StructItem(line, self.toks[self.pos - 1].line, attrs,
                            normalize_tokens(self.toks[start:self.pos]), name, fields,
                            tuple_struct, gens, field_lines)

    def parse_enum(self, start: int, attrs: list[A.Attr]) -> A.EnumItem:
        line = self.tok.line
        self.pos += 1
        name = self.ident("an enum name")
        gens = self.parse_generic_params()
        self.skip_where()
        self.expect_p("{")
        variants: list[A.Variant] = []
        while not self.at_p("}"):
            self.stray_attrs("an enum variant")
            vline = self.tok.line
            vname = self.ident("a variant name")
            fields: list[tuple[str, A.TypeRef]] = []
            kind = "unit"
            if self.eat_p("("):
                kind = "tuple"
                k = 0
                while not self.at_p(")"):
                    fields.append((str(k), self.parse_type()))
                    k += 1
                    if not self.eat_p(","):
                        break
                self.expect_p(")")
            elif self.eat_p("{"):
                kind = "struct"
                while not self.at_p("}"):
                    fname = self.ident("a field name")
                    self.expect_p(":")
                    fields.append((fname, self.parse_type()))
                    if not self.eat_p(","):
                        break
                self.expect_p("}")
            if self.at_p("="):
                self.skipped.append(("an enum discriminant", self.tok.line))
                self.pos += 1
                self.parse_expr()
            variants.append(A.Variant(vname, kind, fields, vline))
            if not self.eat_p(","):
                break
        self.expect_p("}")
        return A.EnumItem(line, self.toks[self.pos - 1].line, attrs,
                          normalize_tokens(self.toks[start:self.pos]), name, variants, gens)

    def parse_impl(self, start: int, attrs: list[A.Attr]) -> A.ImplItem:
        line = self.tok.line
        self.pos += 1
        self.parse_generic_params()
        ty = self.parse_type()
        trait = None
        if self.eat_kw("for"):
            trait = ty.name
            ty = self.parse_type()
        self.skip_where()
        self.expect_p("{")
        fns: list[A.FnItem] = []
        while not self.at_p("}"):
            if self.tok.kind == "eof":
                raise self.err("unclosed impl block")
            s = self.pos
            fattrs = self.parse_attrs()
            if self.at_p("}"):
                break
            item = self.parse_item(s, fattrs)
            if isinstance(item, A.FnItem):
                item.self_type = ty.name
                fns.append(item)
            else:
                # associated consts/types: kept out of fns; the policy sees the text
                fns.append(A.FnItem(item.line, item.end_line, item.attrs, item.text,
                                    getattr(item, "name", ""), "other", [], None, None))
        self.expect_p("}")
        return A.ImplItem(line, self.toks[self.pos - 1].line, attrs,
                          normalize_tokens(self.toks[start:self.pos]), ty.name, trait, fns)

    def parse_fn(self, start: int, attrs: list[A.Attr], quals: list[str], vis: str,
                 self_type: str | None) -> A.FnItem:
        line = self.tok.line
        self.pos += 1
        name = self.ident("a function name")
        gens = self.parse_generic_params()
        self.expect_p("(")
        params: list[A.Param] = []
        has_self = False
        while not self.at_p(")"):
            self.stray_attrs("a parameter")
            pline = self.tok.line
            while self.tok.kind == "ident" and self.tok.value in ("tracked", "ghost", "mut"):
                self.pos += 1
            # self, &self, &mut self
            save = self.pos
            self.eat_p("&")
            if self.tok.kind == "lifetime":
                self.pos += 1
            self.eat_kw("mut")
            if self.at_kw("self"):
                self.pos += 1
                has_self = True
                ty = A.TypeRef(self_type or "Self")
                if self.eat_p(":"):
                    ty = self.parse_type()
                params.append(A.Param("self", ty, pline))
            else:
                self.pos = save
                pat = self.parse_pattern()
                if isinstance(pat, A.PVariant) and len(pat.path) == 1 and pat.elems is None \
                        and pat.fields is None:
                    pat = A.PBind(pat.line, pat.path[0])
                self.expect_p(":")
                ty = self.parse_type()
                pname = pat.name if isinstance(pat, A.PBind) else f"_arg{len(params)}"
                params.append(A.Param(pname, ty, pline,
                                      None if isinstance(pat, A.PBind) else pat))
            if not self.eat_p(","):
                break
        self.expect_p(")")
        ret_name: str | None = None
        ret_type: A.TypeRef | None = None
        if self.eat_p("->"):
            while self.tok.kind == "ident" and self.tok.value in ("tracked", "ghost"):
                self.pos += 1
            if (self.at_p("(") and self.peek().kind == "ident" and self.peek(2).is_p(":")
                    and not self.peek(3).is_p(":")):
                self.pos += 1
                ret_name = self.ident()
                self.expect_p(":")
                ret_type = self.parse_type()
                self.expect_p(")")
            else:
                ret_type = self.parse_type()
        self.skip_where()
        mode = "spec" if "spec" in quals else "proof" if "proof" in quals else "exec"
        fn = A.FnItem(line, line, attrs, "", name, mode, params, ret_name, ret_type,
                      visibility=vis, generics=gens, self_type=self_type, has_self=has_self,
                      qualifiers=[q for q in quals if q not in ("spec", "proof", "exec")])
        for q in ("open", "closed", "uninterp"):
            if q in quals:
                fn.openness = q
        # clauses
        while self.tok.kind == "ident" and self.tok.value in CLAUSE_KWS:
            kw = str(self.tok.value)
            self.pos += 1
            if kw in ("no_unwind", "via", "with", "opens_invariants"):
                fn.unparsed_clauses.append(kw)
            if kw in ("no_unwind",):
                if self.eat_kw("when"):
                    self.parse_expr(no_struct=True)
                continue
            if kw == "via" or kw == "with":
                while not (self.at_p("{") or self.at_p(";") or self.tok.kind == "eof"
                           or (self.tok.kind == "ident" and self.tok.value in CLAUSE_KWS)):
                    self.pos += 1
                continue
            if kw == "opens_invariants":
                while not (self.at_p("{") or self.at_p(";") or self.tok.kind == "eof"
                           or (self.tok.kind == "ident" and self.tok.value in CLAUSE_KWS)):
                    if self.at_p("["):
                        self.skip_delimited()
                    else:
                        self.pos += 1
                continue
            exprs = self.parse_clause_list()
            target = {"requires": fn.requires, "ensures": fn.ensures,
                      "recommends": fn.recommends, "decreases": fn.decreases}.get(kw)
            if target is not None:
                target.extend(exprs)
            else:
                fn.unparsed_clauses.append(kw)
        if self.eat_p(";"):
            pass
        elif self.at_p("{"):
            if mode == "spec":
                fn.body = self.parse_block()
            else:
                b0 = self.pos
                self.skip_delimited()
                fn.body_span = (b0, self.pos)
        else:
            raise self.err("expected a function body '{' or ';'")
        fn.end_line = self.toks[self.pos - 1].line
        fn.text = normalize_tokens(self.toks[start:self.pos])
        return fn

    def parse_clause_list(self) -> list[A.Expr]:
        out: list[A.Expr] = []
        while not (self.at_p("{") or self.at_p(";") or self.tok.kind == "eof"
                   or (self.tok.kind == "ident" and self.tok.value in CLAUSE_KWS)):
            out.append(self.parse_expr(no_struct=True))
            if not self.eat_p(","):
                break
        return out

    # ------------------------------------------------------------ types
    def parse_type(self) -> A.TypeRef:
        self.enter()
        try:
            return self._type()
        finally:
            self.depth -= 1

    def _type(self) -> A.TypeRef:
        t = self.tok
        if t.is_p("&") or t.is_p("&&"):
            self.pos += 1
            if self.tok.kind == "lifetime":
                self.pos += 1
            self.eat_kw("mut")
            return self.parse_type()
        if t.is_p("*"):
            self.pos += 1
            if not (self.eat_kw("const") or self.eat_kw("mut")):
                raise self.err("expected const or mut after '*' in a type")
            return A.TypeRef("ptr", [self.parse_type()])
        if t.is_p("("):
            self.pos += 1
            elems, trailing = self.comma_list(self.parse_type)
            if not elems:
                return A.TypeRef("unit")
            if len(elems) == 1 and not trailing:
                return elems[0]
            return A.TypeRef("tuple", elems)
        if t.is_p("["):
            self.pos += 1
            el = self.parse_type()
            if self.at_p(";"):
                self.skipped.append(("an array length", self.tok.line))
                self.pos += 1
                self.parse_expr()
            self.expect_p("]")
            return A.TypeRef("Seq", [el], ("array",))
        if t.is_kw("dyn") or t.is_kw("impl"):
            self.pos += 1
            return self.parse_type()
        if t.kind == "ident" and t.value in ("spec_fn", "FnSpec", "Fn", "FnOnce", "FnMut"):
            self.pos += 1
            self.expect_p("(")
            args, _ = self.comma_list(self.parse_type)
            ret = A.TypeRef("unit")
            if self.eat_p("->"):
                ret = self.parse_type()
            return A.TypeRef("spec_fn", args + [ret])
        if t.is_p("!"):
            self.pos += 1
            return A.TypeRef("never")
        if t.is_p("_"):
            self.pos += 1
            return A.TypeRef("_")
        segs = [self.ident("a type")]
        args = []
        while True:
            if self.at_p("::") and self.peek().kind == "ident":
                self.pos += 1
                segs.append(self.ident())
                continue
            if self.at_p("<") and segs[-1] not in PRIMITIVE_TYPES:
                self.pos += 1
                while not (self.at_p(">") or (self.tok.kind == "punct"
                                              and str(self.tok.value).startswith(">"))):
                    if self.tok.kind == "lifetime":
                        self.pos += 1
                    else:
                        args.append(self.parse_type())
                    if not self.eat_p(","):
                        break
                self.expect_p(">")
                if self.at_p("::") and self.peek().kind == "ident":
                    continue
            break
        return A.TypeRef(segs[-1], args, tuple(segs))

    # ------------------------------------------------------------ expressions
    def parse_expr(self, no_struct: bool = False) -> A.Expr:
        """Lowest level: ``|||`` then ``&&&`` (infix or the prefix forms), looser than all."""
        self.enter()
        line = self.tok.line
        self.eat_p("|||")
        e = self.parse_and_prefix(no_struct)
        while self.eat_p("|||"):
            e = A.Binary(line, "||", e, self.parse_and_prefix(no_struct))
        self.depth -= 1
        return e

    def parse_and_prefix(self, no_struct: bool) -> A.Expr:
        line = self.tok.line
        self.eat_p("&&&")
        e = self.parse_quant_level(no_struct)
        while self.eat_p("&&&"):
            e = A.Binary(line, "&&", e, self.parse_quant_level(no_struct))
        return e

    def parse_quant_level(self, no_struct: bool) -> A.Expr:
        return self.parse_binary(1, no_struct)

    def parse_binary(self, min_prec: int, no_struct: bool) -> A.Expr:
        start = self.pos
        left = self.parse_cast_level(no_struct)
        while True:
            t = self.tok
            if t.kind != "punct":
                break
            op = str(t.value)
            if op in CMP_OPS:
                if min_prec > CMP_PREC:
                    break
                ops: list[str] = []
                operands = [left]
                spans = [(start, self.pos)]
                while self.tok.kind == "punct" and self.tok.value in CMP_OPS:
                    ops.append(str(self.tok.value))
                    self.pos += 1
                    first = self.pos
                    operands.append(self.parse_binary(CMP_PREC + 1, no_struct))
                    spans.append((first, self.pos))
                if len(ops) == 1:
                    left = A.Binary(t.line, ops[0], operands[0], operands[1],
                                    (start, spans[0][1], self.pos))
                else:
                    left = A.Chain(t.line, ops, operands, spans)
                continue
            if op not in BINOPS:
                break
            prec, right = BINOPS[op]
            if prec < min_prec:
                break
            op_at = self.pos
            self.pos += 1
            if right:
                left = self.right_chain(left, start, (t.line, op, op_at), prec, no_struct)
                continue
            rhs = self.parse_binary(prec + 1, no_struct)
            left = A.Binary(t.line, op, left, rhs, (start, op_at, self.pos))
        return left

    def right_chain(self, first: A.Expr, start: int, op0: tuple[int, str, int], prec: int,
                    no_struct: bool) -> A.Expr:
        """``a ==> b ==> c`` is ``a ==> (b ==> c)``: the operands are read in a loop and
        folded from the right, so a long chain costs no parser recursion per link."""
        operands = [(first, start)]
        ops = [op0]
        while True:
            at = self.pos
            operands.append((self.parse_binary(prec + 1, no_struct), at))
            t = self.tok
            if t.kind == "punct" and BINOPS.get(str(t.value)) == (prec, True):
                ops.append((t.line, str(t.value), self.pos))
                self.pos += 1
                continue
            break
        end = self.pos
        acc = operands[-1][0]
        for k in range(len(ops) - 1, -1, -1):
            line, op, op_at = ops[k]
            acc = A.Binary(line, op, operands[k][0], acc, (operands[k][1], op_at, end))
        return acc

    def parse_cast_level(self, no_struct: bool) -> A.Expr:
        start = self.pos
        e = self.parse_unary(no_struct)
        while True:
            if self.at_kw("as"):
                line = self.tok.line
                as_at = self.pos
                self.pos += 1
                ty = self.parse_type()
                e = A.Cast(line, e, ty, (start, as_at, self.pos))
            elif self.at_kw("is"):
                line = self.tok.line
                self.pos += 1
                segs = [self.ident("a variant name")]
                while self.eat_p("::"):
                    segs.append(self.ident())
                e = A.Is(line, e, segs[-1])
            elif self.at_kw("matches"):
                line = self.tok.line
                self.pos += 1
                e = A.Matches(line, e, self.parse_pattern())
            else:
                return e

    def parse_unary(self, no_struct: bool) -> A.Expr:
        while self.at_p("#") and self.peek().is_p("["):  # #[trigger] on a subterm
            start, line = self.pos, self.tok.line
            self.pos += 1
            self.skip_delimited()
            self._stray(normalize_tokens(self.toks[start:self.pos]), line, "an expression")
        t = self.tok
        if t.kind == "punct" and t.value in ("!", "-", "*", "&", "&&"):
            self.pos += 1
            self.enter()
            if t.value in ("&", "&&"):
                self.eat_kw("mut")
                e = self.parse_unary(no_struct)
                self.depth -= 1
                return e
            e = self.parse_unary(no_struct)
            self.depth -= 1
            if t.value == "-" and isinstance(e, A.Lit) and e.kind == "int":
                return A.Lit(t.line, -cast(int, e.value), "int", e.suffix)
            if t.value == "*":
                return e  # deref is the identity on spec values
            return A.Unary(t.line, str(t.value), e)
        return self.parse_postfix(self.parse_primary(no_struct), no_struct)

    def parse_call_args(self, close: str = ")",
                        spans: list[tuple[int, int]] | None = None) -> list[A.Expr]:
        args: list[A.Expr] = []
        while not self.at_p(close):
            first = self.pos
            args.append(self.parse_expr())
            if spans is not None:
                spans.append((first, self.pos))
            if not self.eat_p(","):
                break
        self.expect_p(close)
        return args

    def parse_postfix(self, e: A.Expr, no_struct: bool) -> A.Expr:
        """Postfix chains (``s.push(1).push(2)``, ``a[i][j]``, ``x.f.g``) nest their receiver
        one level per link, which is what the tree's passes recurse on."""
        base = self.depth
        try:
            return self._postfix(e)
        finally:
            self.depth = base

    def _postfix(self, e: A.Expr) -> A.Expr:
        while True:
            self.enter()
            t = self.tok
            if t.is_p("."):
                self.pos += 1
                nt = self.tok
                if nt.kind == "int":
                    self.pos += 1
                    e = A.Field(nt.line, e, str(nt.value[0]))
                    continue
                if nt.kind == "float":  # `x.0.1` lexed as float after '.' is avoided; be safe
                    self.pos += 1
                    a, b = nt.text.split(".")
                    e = A.Field(nt.line, A.Field(nt.line, e, a), b)
                    continue
                name = self.ident("a field or method name")
                if self.at_p("::"):  # turbofish on a method
                    self.pos += 1
                    self.expect_p("<")
                    while not self.at_p(">") and not (self.tok.kind == "punct" and str(
                            self.tok.value).startswith(">")):
                        self.parse_type()
                        if not self.eat_p(","):
                            break
                    self.expect_p(">")
                if self.at_p("("):
                    self.pos += 1
                    e = A.MethodCall(nt.line, e, name, self.parse_call_args())
                else:
                    e = A.Field(nt.line, e, name)
            elif t.is_p("->"):
                self.pos += 1
                nt = self.tok
                if nt.kind == "int":
                    self.pos += 1
                    e = A.Arrow(nt.line, e, str(nt.value[0]))
                else:
                    e = A.Arrow(nt.line, e, self.ident("a field name"))
            elif t.is_p("["):
                self.pos += 1
                idx = self.parse_expr()
                self.expect_p("]")
                e = A.Index(t.line, e, idx)
            elif t.is_p("("):
                self.pos += 1
                spans: list[tuple[int, int]] = []
                e = A.Call(t.line, e, self.parse_call_args(spans=spans), spans)
            elif t.is_p("@"):
                self.pos += 1
                e = A.View(t.line, e)
            elif t.is_p("?"):
                self.pos += 1
            else:
                return e

    def parse_closure_params(self) -> list[tuple[A.Pat, A.TypeRef | None]]:
        params: list[tuple[A.Pat, A.TypeRef | None]] = []
        if self.eat_p("||"):
            return params
        self.expect_p("|")
        while not self.at_p("|"):
            pat = self.parse_pattern(no_or=True)
            ty = None
            if self.eat_p(":"):
                ty = self.parse_type()
            params.append((pat, ty))
            if not self.eat_p(","):
                break
        self.expect_p("|")
        return params

    def parse_primary(self, no_struct: bool) -> A.Expr:
        t = self.tok
        line = t.line
        k = t.kind
        if k == "int":
            self.pos += 1
            v, suf = t.value
            return A.Lit(line, v, "int", suf)
        if k == "float":
            self.pos += 1
            return A.Lit(line, t.value, "float")
        if k == "str":
            self.pos += 1
            return A.Lit(line, t.value, "str")
        if k in ("bytestr", "cstr"):
            self.pos += 1
            return A.Lit(line, t.value, k)
        if k == "char":
            self.pos += 1
            return A.Lit(line, t.value, "char")
        if k == "bytechar":
            self.pos += 1
            return A.Lit(line, t.value, "int", "u8")
        if k == "punct":
            if t.value == "(":
                self.pos += 1
                if self.eat_p(")"):
                    return A.Lit(line, None, "unit")
                first = self.parse_expr()
                if self.eat_p(")"):
                    if isinstance(first, A.Matches):
                        first.grouped = True
                    return first
                elems = [first]
                while self.eat_p(","):
                    if self.at_p(")"):
                        break
                    elems.append(self.parse_expr())
                self.expect_p(")")
                return A.Tuple(line, elems)
            if t.value == "[":
                self.pos += 1
                elems = []
                while not self.at_p("]"):
                    elems.append(self.parse_expr())
                    if self.eat_p(";"):
                        n = self.parse_expr()
                        self.expect_p("]")
                        return A.Call(line, A.Path(line, ("__repeat",)), [elems[0], n])
                    if not self.eat_p(","):
                        break
                self.expect_p("]")
                return A.ArrayLit(line, elems)
            if t.value == "{":
                return self.parse_block()
            if t.value in ("|", "||"):
                params = self.parse_closure_params()
                if self.eat_p("->"):
                    self.parse_type()
                body = self.parse_quant_level(no_struct)
                return A.Closure(line, params, body)
            if t.value in ("..", "..="):
                self.pos += 1
                hi = None
                if not (self.at_p(")") or self.at_p("]") or self.at_p(",")):
                    hi = self.parse_binary(BINOPS["+"][0], no_struct)
                return A.Range(line, None, hi, t.value == "..=")
            raise self.err("expected an expression")
        if k != "ident":
            raise self.err("expected an expression")
        w = str(t.value)
        if w in ("true", "false"):
            self.pos += 1
            return A.Lit(line, w == "true", "bool")
        if w in ("forall", "exists", "choose") and (self.peek().is_p("|")
                                                    or self.peek().is_p("||")):
            self.pos += 1
            qparams: list[tuple[str, A.TypeRef | None]] = []
            for pat, ty in self.parse_closure_params():
                if isinstance(pat, A.PVariant) and len(pat.path) == 1 and pat.elems is None:
                    pat = A.PBind(pat.line, pat.path[0])
                if not isinstance(pat, A.PBind):
                    raise self.err("expected a variable name in a quantifier")
                qparams.append((pat.name, ty))
            self.parse_inner_attrs()
            body = self.parse_quant_level(no_struct)
            return A.Quant(line, w, qparams, body)
        if w == "if":
            return self.parse_if()
        if w == "match":
            self.pos += 1
            scrut = self.parse_expr(no_struct=True)
            self.expect_p("{")
            arms: list[A.MatchArm] = []
            while not self.at_p("}"):
                self.stray_attrs("a match arm")
                aline = self.tok.line
                self.eat_p("|")
                pat = self.parse_pattern()
                guard = None
                if self.eat_kw("if"):
                    guard = self.parse_expr(no_struct=True)
                self.expect_p("=>")
                body = self.parse_expr()
                arms.append(A.MatchArm(pat, guard, body, aline))
                if not self.eat_p(","):
                    if isinstance(body, (A.Block, A.If, A.Match)):
                        continue
                    break
            self.expect_p("}")
            return A.Match(line, scrut, arms)
        if w in ("move",):
            self.pos += 1
            return self.parse_primary(no_struct)
        if w in ("let",):
            raise self.err("'let' is only allowed as a statement or in 'if let'")
        if w == "unsafe" and self.peek().is_p("{"):
            self.pos += 1
            blk = self.parse_block()
            return A.MacroCall(line, "unsafe", [blk])
        if w == "proof" and self.peek().is_p("{"):
            self.skipped.append(("a proof block", line))
            self.pos += 1
            self.skip_delimited()
            return A.Lit(line, None, "unit")
        # macro call
        if self.peek().is_p("!") and not self.peek(2).is_p("="):
            return self.parse_macro()
        # path
        segs = [w]
        generics: list[A.TypeRef] = []
        self.pos += 1
        while self.at_p("::"):
            self.pos += 1
            if self.at_p("<"):
                self.pos += 1
                while not self.at_p(">") and not (self.tok.kind == "punct" and str(
                        self.tok.value).startswith(">")):
                    generics.append(self.parse_type())
                    if not self.eat_p(","):
                        break
                self.expect_p(">")
                continue
            segs.append(self.ident())
        path = A.Path(line, tuple(segs), generics)
        if (not no_struct and self.at_p("{") and (segs[0][:1].isupper() or len(segs) > 1)
                and self.looks_like_struct_lit()):
            return self.parse_struct_lit(path)
        return path

    def parse_inner_attrs(self) -> None:
        while self.at_p("#") and self.peek().is_p("!"):
            start, line = self.pos, self.tok.line
            self.pos += 2
            self.skip_delimited()
            self._stray(normalize_tokens(self.toks[start:self.pos]), line, "a block")

    def looks_like_struct_lit(self) -> bool:
        a, b = self.peek(1), self.peek(2)
        if a.is_p("}"):
            return True
        if a.is_p(".."):
            return True
        return a.kind in ("ident", "int") and (b.is_p(":") or b.is_p(",") or b.is_p("}"))

    def parse_struct_lit(self, path: A.Path) -> A.StructLit:
        self.expect_p("{")
        fields: list[tuple[str, A.Expr]] = []
        base = None
        while not self.at_p("}"):
            if self.eat_p(".."):
                base = self.parse_expr()
                break
            nt = self.tok
            if nt.kind == "int":
                self.pos += 1
                fname = str(nt.value[0])
            else:
                fname = self.ident("a field name")
            if self.eat_p(":"):
                fields.append((fname, self.parse_expr()))
            else:
                fields.append((fname, A.Path(nt.line, (fname,))))
            if not self.eat_p(","):
                break
        self.expect_p("}")
        return A.StructLit(path.line, path, fields, base)

    def parse_macro(self) -> A.Expr:
        t = self.tok
        name = str(t.value)
        self.pos += 2
        if name in ("seq", "set", "vec", "map") and self.tok.kind == "punct" \
                and self.tok.value in ("[", "("):
            close = "]" if self.tok.value == "[" else ")"
            self.pos += 1
            if name == "map":
                pairs: list[tuple[A.Expr, A.Expr]] = []
                while not self.at_p(close):
                    k = self.parse_expr()
                    self.expect_p("=>")
                    pairs.append((k, self.parse_expr()))
                    if not self.eat_p(","):
                        break
                self.expect_p(close)
                return A.MacroCall(t.line, name, [], pairs)
            args: list[A.Expr] = []
            while not self.at_p(close):
                args.append(self.parse_expr())
                if name == "vec" and self.eat_p(";"):
                    n = self.parse_expr()
                    self.expect_p(close)
                    return A.Call(t.line, A.Path(t.line, ("__repeat",)), [args[0], n])
                if not self.eat_p(","):
                    break
            self.expect_p(close)
            return A.MacroCall(t.line, name, args)
        if self.tok.kind == "punct" and self.tok.value in ("(", "[", "{"):
            self.skip_delimited()
        else:
            raise self.err("expected a macro body")
        return A.MacroCall(t.line, name)

    def parse_if(self) -> A.Expr:
        """``if .. else if .. else ..``: the links are read in a loop (an ``else if`` chain is
        a sequence, not nesting) and folded into nested ``If`` nodes from the end."""
        heads: list[tuple[int, A.Pat | None, A.Expr, A.Block]] = []
        els: A.Expr | None = None
        while True:
            line = self.tok.line
            self.pos += 1
            let_pat = None
            if self.eat_kw("let"):
                let_pat = self.parse_pattern()
                self.expect_p("=")
            cond = self.parse_expr(no_struct=True)
            heads.append((line, let_pat, cond, self.parse_block()))
            if self.eat_kw("else"):
                if self.at_kw("if"):
                    continue
                els = self.parse_block()
            break
        for line, let_pat, cond, then in reversed(heads):
            els = A.If(line, cond, then, els, let_pat)
        assert els is not None
        return els

    def parse_block(self) -> A.Block:
        open_t = self.expect_p("{")
        stmts: list[A.Let | A.Expr] = []
        tail: A.Expr | None = None
        while not self.at_p("}"):
            if self.tok.kind == "eof":
                raise self.err(f"unclosed '{{' opened at line {open_t.line}")
            self.stray_attrs("a statement")
            if self.eat_p(";"):
                continue
            if self.at_kw("let"):
                line = self.tok.line
                self.pos += 1
                while self.tok.kind == "ident" and self.tok.value in ("ghost", "tracked"):
                    self.pos += 1
                pat = self.parse_pattern()
                ty = None
                if self.eat_p(":"):
                    ty = self.parse_type()
                init = None
                if self.eat_p("="):
                    init = self.parse_expr()
                self.expect_p(";")
                stmts.append(A.Let(pat, ty, init, line))
                continue
            e = self.parse_expr()
            if self.eat_p(";"):
                stmts.append(e)
                continue
            if self.at_p("}"):
                tail = e
                break
            if isinstance(e, (A.Block, A.If, A.Match)):
                stmts.append(e)
                continue
            raise self.err("expected ';' or '}'")
        self.expect_p("}")
        return A.Block(open_t.line, stmts, tail)

    # ------------------------------------------------------------ patterns
    def parse_pattern(self, no_or: bool = False) -> A.Pat:
        line = self.tok.line
        first = self.parse_pattern1()
        if no_or or not self.at_p("|"):
            return first
        alts = [first]
        while self.eat_p("|"):
            alts.append(self.parse_pattern1())
        return A.POr(line, alts)

    def pat_literal(self) -> object | None:
        t = self.tok
        neg = False
        if t.is_p("-") and self.peek().kind in ("int", "float"):
            neg = True
            self.pos += 1
            t = self.tok
        if t.kind == "int":
            self.pos += 1
            v = t.value[0]
            return -v if neg else v
        if t.kind in ("char", "str", "float"):
            self.pos += 1
            return t.value
        if t.kind == "bytechar":
            self.pos += 1
            return t.value
        if t.is_kw("true") or t.is_kw("false"):
            self.pos += 1
            return t.value == "true"
        return None

    def parse_pattern1(self) -> A.Pat:
        self.enter()
        try:
            return self._pattern1()
        finally:
            self.depth -= 1

    def _pattern1(self) -> A.Pat:
        t = self.tok
        line = t.line
        if t.is_p("&") or t.is_p("&&"):
            self.pos += 1
            self.eat_kw("mut")
            return self.parse_pattern1()
        if t.is_p(".."):
            self.pos += 1
            return A.PWild(line, rest=True)
        if t.is_p("("):
            self.pos += 1
            elems, trailing = self.comma_list(self.parse_pattern)
            if len(elems) == 1 and not trailing:
                return elems[0]
            return A.PTuple(line, elems)
        lit = self.pat_literal()
        if lit is not None or (t.kind in ("int", "char", "str")):
            if self.tok.kind == "punct" and self.tok.value in ("..=", "..", "..."):
                incl = self.tok.value != ".."
                self.pos += 1
                hi = self.pat_literal()
                return A.PRange(line, lit, hi, bool(incl))
            return A.PLit(line, lit)
        if t.kind != "ident":
            raise self.err("expected a pattern")
        if t.value == "_":
            self.pos += 1
            return A.PWild(line)
        if t.value in ("ref", "mut"):
            self.pos += 1
            self.eat_kw("mut")
            return self.parse_pattern1()
        segs = [self.ident()]
        while self.eat_p("::"):
            if self.at_p("<"):
                self.skip_generic()
                continue
            segs.append(self.ident())
        if self.at_p("("):
            self.pos += 1
            elems, _ = self.comma_list(self.parse_pattern)
            return A.PVariant(line, tuple(segs), elems=elems)
        if self.at_p("{"):
            self.pos += 1
            fields: list[tuple[str, A.Pat]] = []
            while not self.at_p("}"):
                if self.eat_p(".."):
                    break
                self.eat_kw("ref")
                self.eat_kw("mut")
                fname = self.ident("a field name")
                if self.eat_p(":"):
                    fields.append((fname, self.parse_pattern()))
                else:
                    fields.append((fname, A.PBind(self.tok.line, fname)))
                if not self.eat_p(","):
                    break
            self.expect_p("}")
            return A.PVariant(line, tuple(segs), fields=fields)
        if len(segs) == 1 and self.at_p("@"):
            self.pos += 1
            return A.PBind(line, segs[0], self.parse_pattern1())
        if len(segs) == 1 and not segs[0][:1].isupper():
            return A.PBind(line, segs[0])
        return A.PVariant(line, tuple(segs))

    def skip_generic(self) -> None:
        self.expect_p("<")
        depth = 1
        while depth:
            t = self.tok
            if t.kind == "eof":
                raise self.err("unclosed '<'")
            if t.is_p("<"):
                depth += 1
            elif t.is_p(">"):
                depth -= 1
            elif t.is_p(">>"):
                depth -= 2
            self.pos += 1


def parse_module(text: str, path: str | None = None) -> A.SpecModule:
    return parse_tokens(tokenize(text, path), path)


def parse_tokens(toks: list[Token], path: str | None = None) -> A.SpecModule:
    """Parse an already lexed file (the front end polices the tokens in between)."""
    p = Parser(toks, path)
    items, wrappers = p.parse_file()
    return A.SpecModule(path, items, wrappers, toks, normalize_tokens(toks), p.skipped)


def parse_expression(text: str, path: str | None = None) -> A.Expr:
    """Parse one expression (tests, corpus tools, value literals)."""
    toks = tokenize(text, path)
    p = Parser(toks, path)
    e = p.parse_expr()
    if p.tok.kind != "eof":
        raise p.err("unexpected text after the expression")
    return e
