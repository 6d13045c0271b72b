"""Where a pure helper's value could come from an object's identity, or from an order that
changes from one JVM to the next: a gap (every case unknown), never a decided verdict.

Why: ``"" + a`` for an array ``a`` is ``[I@1b6d3586``: the identity hash, which depends on what
the JVM did before. A helper whose value came from it got decided verdicts that changed between
runs of the same spec on the same case, and the first draw was cached. JML gives such a value
no meaning (``Object.hashCode`` is unspecified), so no engine may decide on it. What this scan
finds, beside the calls ``purity`` already treats as gaps (``hashCode``/``toString`` of what is
not a string builder, ``Objects.hash``, ``String.format``, ``System.identityHashCode``...):

- string concatenation (``+``, ``+=``) with an operand that is, or may be, an object whose text
  is its identity (an array, ``Object``, a class of the spec, a collection, a type the scan
  cannot tell);
- a string builder's ``append``/``insert`` of such an operand;
- iterating (or printing) a ``Set.of``/``Map.of`` collection, whose order is salted per JVM;
- iterating a hash set or map keyed by arrays or other objects (iteration order = identity
  hash order).

The scan reads tokens, so it is conservative: an operand it cannot type next to a string is a
gap.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .lexer import BRACKETS, Token, matching_bracket

NUM_TYPES = frozenset({"int", "long", "short", "byte", "char", "boolean", "double", "float"})
VALUE_TYPES = frozenset({"String", "Integer", "Long", "Short", "Byte", "Character", "Boolean",
                         "Double", "Float", "BigInteger", "BigDecimal", "StringBuilder",
                         "StringBuffer", "CharSequence"})
"""Reference types whose text is their content."""
NUM_METHODS = frozenset({
    "length", "size", "charAt", "indexOf", "lastIndexOf", "compareTo", "compareToIgnoreCase",
    "intValue", "longValue", "doubleValue", "floatValue", "shortValue", "byteValue",
    "charValue", "booleanValue", "equals", "equalsIgnoreCase", "isEmpty", "isBlank",
    "contains", "containsKey", "containsValue", "startsWith", "endsWith", "matches",
    "codePointAt", "signum", "bitCount", "sum", "count", "hashCode",
})
"""Methods returning a number or a boolean (``hashCode`` itself is judged by ``purity``)."""
STR_METHODS = frozenset({
    "substring", "toUpperCase", "toLowerCase", "trim", "strip", "stripLeading",
    "stripTrailing", "concat", "repeat", "replace", "replaceAll", "replaceFirst", "toString",
    "valueOf", "toBinaryString", "toHexString", "toOctalString", "reverse", "charAt",
})
"""Methods returning a string (``toString``/``valueOf`` of an object are judged elsewhere)."""
VALUE_CLASSES = frozenset({"Math", "StrictMath", "Integer", "Long", "Short", "Byte",
                           "Character", "Boolean", "Double", "Float", "String"})
SALTED = (("Set", "of"), ("Map", "of"), ("Map", "ofEntries"), ("Set", "copyOf"),
          ("Map", "copyOf"))
ORDER_REVEALING = frozenset({"iterator", "stream", "parallelStream", "forEach", "toString",
                             "toArray", "spliterator", "keySet", "values", "entrySet"})
HASHED = frozenset({"HashSet", "HashMap", "Hashtable", "Set", "Map", "LinkedHashSet",
                    "LinkedHashMap", "Collection", "Iterable"})
_BOUNDARY = frozenset({",", ";", "=", "+=", "-=", "*=", "/=", "%=", "?", ":", "->", "&&", "||",
                       "==", "!=", "<", ">", "<=", ">=", "&", "|", "^", "{", "}"})
_CLOSE = {c: o for o, c in BRACKETS.items()}
_KEYWORD_STARTS = frozenset({"return", "throw", "case", "yield", "assert", "else", "do"})

Typer = Callable[[str, int], str | None]
"""The declared type of a name at a token index (a local, parameter or field), or None."""


def kind_of_type(t: str | None) -> str:
    """``num``, ``val`` (text is content), ``obj`` (text may be an identity) or ``?``."""
    if t is None or t == "":
        return "?"
    t = t.replace(" ", "")
    if t in NUM_TYPES:
        return "num"
    if t.endswith("[]") or t.endswith("..."):
        return "obj"
    if t in VALUE_TYPES or t.startswith("java.lang.") and t[10:] in VALUE_TYPES:
        return "val"
    return "obj"


class Scan:
    def __init__(self, toks: Sequence[Token], typer: Typer, own_return: Callable[[str], str | None],
                 builders: Callable[[str, int], bool]) -> None:
        self.t = toks
        self.typer = typer
        self.own_return = own_return
        self.is_builder = builders

    def tok(self, k: int) -> Token:
        return self.t[k] if 0 <= k < len(self.t) else Token("eof", "", 0)

    # ------------------------------------------------------------------ the scan
    def run(self) -> tuple[str, int] | None:
        """The first reason with its line, or None."""
        t = self.t
        salted = self._salted()
        order = any(x.kind == "ident" and x.text in ORDER_REVEALING for x in t) or \
            self._for_each()
        if salted is not None and order:
            return (f"iterates {salted}, whose order changes from one JVM to the next",
                    self.tok(0).line)
        if order and self._identity_keys():
            return ("iterates a hash set or map keyed by objects (its order is their identity "
                    "hashes)", self.tok(0).line)
        for k, x in enumerate(t):
            if x.is_op("+") and self._binary_plus(k):
                ops = self._operands(k)
                if ops is not None and _risky([self.kind(o) for o in ops]):
                    return ("concatenates a string with a value whose text may be an "
                            "object's identity hash", x.line)
            elif x.is_op("+="):
                target = self.kind(self._left_primary(k))
                rhs = self._operands_from(k + 1)
                kinds = [target] + ([self.kind(o) for o in rhs] if rhs is not None else ["?"])
                if _risky(kinds) and target != "num":
                    return ("concatenates a string with a value whose text may be an "
                            "object's identity hash", x.line)
            elif x.kind == "ident" and x.text in ("append", "insert") and \
                    self.tok(k - 1).is_op(".") and self.tok(k + 1).is_op("("):
                args = self._args(k + 1)
                arg = args[-1] if args else []
                if arg and self.kind(arg) in ("obj", "?"):
                    return (f"{x.text}s a value whose text may be an object's identity hash "
                            "to a string builder", x.line)
        return None

    def _salted(self) -> str | None:
        for k, x in enumerate(self.t):
            for cls, name in SALTED:
                if x.is_ident(cls) and self.tok(k + 1).is_op(".") and \
                        self.tok(k + 2).is_ident(name) and not self.tok(k - 1).is_op("."):
                    return f"{cls}.{name}(...)"
                if x.is_ident(cls) and self.tok(k + 1).is_op(".") and \
                        self.tok(k + 2).is_ident(name) and self.tok(k - 1).is_op(".") and \
                        self.tok(k - 2).is_ident("util"):
                    return f"{cls}.{name}(...)"
        return None

    def _for_each(self) -> bool:
        """A for-each loop (``for (T x : coll)``): its order is the collection's."""
        for k, x in enumerate(self.t):
            if x.is_ident("for") and self.tok(k + 1).is_op("("):
                end = matching_bracket(self.t, k + 1)
                if end is not None and any(self.t[j].is_op(":") for j in range(k + 2, end)):
                    return True
        return False

    def _identity_keys(self) -> bool:
        for k, x in enumerate(self.t):
            if x.kind == "ident" and x.text in HASHED and self.tok(k + 1).is_op("<"):
                j, depth, first = k + 1, 0, True
                while j < len(self.t):
                    y = self.t[j]
                    if y.is_op("<"):
                        depth += 1
                    elif y.is_op(">", ">>"):
                        depth -= 2 if y.text == ">>" else 1
                        if depth <= 0:
                            break
                    elif y.is_op(",") and depth == 1:
                        first = False  # a map's values do not order it
                    elif first and (y.is_op("[") or y.is_ident("Object") or (
                            y.kind == "ident" and y.text[:1].isupper() and
                            y.text not in VALUE_TYPES and y.text not in HASHED and
                            y.text not in ("List", "ArrayList", "LinkedList"))):
                        return True
                    j += 1
        return False

    # ------------------------------------------------------------------ operands
    def _binary_plus(self, k: int) -> bool:
        prev = self.tok(k - 1)
        return prev.kind in ("ident", "int", "float", "string", "char") or \
            prev.is_op(")", "]")

    def _bounds(self, k: int) -> tuple[int, int]:
        """The expression around the operator at ``k``: from the first token after a boundary
        at its depth to the last one before the next."""
        j, depth = k - 1, 0
        while j >= 0:
            x = self.t[j]
            if x.kind == "op" and x.text in _CLOSE:
                depth += 1
            elif x.kind == "op" and x.text in BRACKETS:
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and (x.kind == "op" and x.text in _BOUNDARY or
                                 x.kind == "ident" and x.text in _KEYWORD_STARTS):
                break
            j -= 1
        start = j + 1
        j, depth = k + 1, 0
        while j < len(self.t):
            x = self.t[j]
            if x.kind == "op" and x.text in BRACKETS:
                depth += 1
            elif x.kind == "op" and x.text in _CLOSE:
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and (x.kind == "op" and x.text in _BOUNDARY or x.kind == "eof"):
                break
            j += 1
        return start, j

    def _operands(self, k: int) -> list[list[Token]] | None:
        start, end = self._bounds(k)
        return _split(self.t[start:end])

    def _operands_from(self, k: int) -> list[list[Token]] | None:
        """Operands of the right-hand side starting at ``k`` (after ``+=``)."""
        return _split(self.t[k:self._bounds(k - 1)[1]])

    def _left_primary(self, k: int) -> list[Token]:
        start, _ = self._bounds(k)
        return list(self.t[start:k])

    def _args(self, k: int) -> list[list[Token]]:
        end = matching_bracket(self.t, k)
        if end is None:
            return []
        out: list[list[Token]] = [[]]
        depth = 0
        for x in self.t[k + 1:end]:
            if x.kind == "op" and x.text in BRACKETS:
                depth += 1
            elif x.kind == "op" and x.text in _CLOSE:
                depth -= 1
            if depth == 0 and x.is_op(","):
                out.append([])
                continue
            out[-1].append(x)
        return [a for a in out if a]

    # ------------------------------------------------------------------ kinds
    def kind(self, ops: Sequence[Token]) -> str:
        toks = list(ops)
        if toks and toks[0].kind == "op" and toks[0].text in ("-", "+", "!", "~"):
            return "num"
        if not toks:
            return "?"
        if toks[0].is_op("(") and (end := matching_bracket(toks, 0)) is not None:
            if end == len(toks) - 1:
                inner = _split(toks[1:-1])
                if inner is None:
                    return "?"
                kinds = [self.kind(o) for o in inner]
                if all(x == "num" for x in kinds):
                    return "num"
                return "val" if "val" in kinds else "?"
            cast = toks[1:end]
            if cast and all(x.kind == "ident" or x.is_op("[", "]", ".") for x in cast):
                return kind_of_type("".join(x.text for x in cast))
            return "?"
        if any(x.kind == "op" and x.text in ("*", "/", "%", "<<", ">>", ">>>")
               for x in _top(toks)):
            return "num"
        if len(toks) == 1:
            x = toks[0]
            if x.kind in ("int", "float", "char"):
                return "num"
            if x.kind == "string":
                return "val"
            if x.text in ("true", "false"):
                return "num"
            if x.text == "null":
                return "val"
            if x.kind == "ident":
                return kind_of_type(self.typer(x.text, self._at(x)))
            return "?"
        if toks[0].is_ident("new"):
            if len(toks) < 2 or _has_call_after_new(toks):
                return "?"
            j = 1
            while j + 2 < len(toks) and toks[j + 1].is_op(".") and toks[j + 2].kind == "ident":
                j += 2
            builds_text = toks[j].text in ("StringBuilder", "StringBuffer", "String")
            return "val" if builds_text and toks[-1].is_op(")") else "obj"
        last = toks[-1]
        if last.is_op(")"):
            open_ = _open_of(toks, len(toks) - 1)
            if open_ is None or open_ == 0:
                return "?"
            name = toks[open_ - 1]
            dotted = open_ >= 2 and toks[open_ - 2].is_op(".")
            if not dotted and name.kind == "ident":
                return kind_of_type(self.own_return(name.text))
            if name.text in NUM_METHODS:
                return "num"
            if dotted and open_ == 3 and toks[0].kind == "ident" and \
                    toks[0].text in VALUE_CLASSES:
                return "val" if name.text in STR_METHODS else "num"
            if name.text in STR_METHODS:
                return "val"
            return "?"
        if last.is_ident("length") and len(toks) >= 3 and toks[-2].is_op("."):
            base = toks[:-2]
            if len(base) == 1 and kind_of_type(self.typer(base[0].text, self._at(base[0]))) \
                    == "obj":
                return "num"
            return "num" if (t := self._indexed_type(base)) and t.endswith("[]") else "?"
        if last.is_op("]"):
            t = self._indexed_type(toks)
            return kind_of_type(t) if t is not None else "?"
        return "?"

    def _indexed_type(self, toks: Sequence[Token]) -> str | None:
        """The declared type of ``a[i][j]`` from ``a``'s (one ``[]`` off per index)."""
        if not toks or toks[0].kind != "ident":
            return None
        t = self.typer(toks[0].text, self._at(toks[0]))
        if not t:
            return None
        k = 1
        while k < len(toks):
            if not toks[k].is_op("["):
                return None
            end = matching_bracket(toks, k)
            if end is None or not t.endswith("[]"):
                return None
            t = t[:-2]
            k = end + 1
        return t

    def _at(self, x: Token) -> int:
        for k, y in enumerate(self.t):
            if y is x:
                return k
        return 0


def _risky(kinds: list[str]) -> bool:
    """A string concatenation that may show an identity: an object operand, or an operand of
    unknown type beside a string or another unknown."""
    if "obj" in kinds:
        return True
    unknown = kinds.count("?")
    return unknown >= 2 or (unknown >= 1 and "val" in kinds)


def _top(toks: Sequence[Token]) -> list[Token]:
    out, depth = [], 0
    for x in toks:
        if x.kind == "op" and x.text in BRACKETS:
            depth += 1
        elif x.kind == "op" and x.text in _CLOSE:
            depth -= 1
        elif depth == 0:
            out.append(x)
    return out


def _split(toks: Sequence[Token]) -> list[list[Token]] | None:
    """Operands of a top-level ``+``/``-`` chain (unary signs stay with their operand)."""
    out: list[list[Token]] = [[]]
    depth = 0
    for x in toks:
        if x.kind == "op" and x.text in BRACKETS:
            depth += 1
        elif x.kind == "op" and x.text in _CLOSE:
            depth -= 1
            if depth < 0:
                return None
        if depth == 0 and x.is_op("+", "-") and out[-1]:
            out.append([])
            continue
        out[-1].append(x)
    return [o for o in out if o] or None


def _open_of(toks: Sequence[Token], k: int) -> int | None:
    depth = 0
    for j in range(k, -1, -1):
        x = toks[j]
        if x.kind == "op" and x.text in _CLOSE:
            depth += 1
        elif x.kind == "op" and x.text in BRACKETS:
            depth -= 1
            if depth == 0:
                return j
    return None


def _has_call_after_new(toks: Sequence[Token]) -> bool:
    """``new T(...).m(...)``: something after the creation."""
    k = 1
    while k < len(toks) and not toks[k].is_op("(", "["):
        k += 1
    end = matching_bracket(toks, k) if k < len(toks) else None
    return end is not None and end != len(toks) - 1


__all__ = ["Scan", "kind_of_type"]
