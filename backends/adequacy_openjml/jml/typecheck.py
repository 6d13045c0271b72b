"""Type checking of JML clauses: the Java/JML type errors OpenJML reports, found in the front end.

Why here: before this pass a type error reached javac inside rac and became ``unknown`` for
every case, so an ill-typed spec still scored on the buckets it did not touch. Only
the front end may call a spec invalid (docs/design.md, rule 1), so the checker lives beside
name resolution and runs after it (names are known to exist here).

Types are strings: Java primitives, ``\\bigint``, ``\\real``, ``T[]``, ``String``, the spec's
class, ``null``, and ``?`` for anything the checker does not model (generic and library
reference types, unlisted members of open classes). ``?`` is compatible with everything: the
checker reports only what it can prove wrong, because calling a valid spec invalid is as wrong
as scoring an ill-typed one. Rules: JLS 5.1.2 (widening), 5.6 (numeric promotion), 15.x
(operators), 10.7 (array members); JML RM 12 (``\\bigint``/``\\real``, quantifiers, ``==>``).
Messages follow javac's wording.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from adequacy.plugin import SpecInvalid

from . import ast as A
from . import signatures as S
from .members import JavaClass, JavaMethod
from .signatures import LIBRARY_CLASSES

UNKNOWN = "?"
_INTEGRAL_RANK = {"byte": 1, "short": 2, "char": 2, "int": 3, "long": 4, "\\bigint": 7}
_FLOAT_RANK = {"float": 5, "double": 6, "\\real": 8}
_RANK = {**_INTEGRAL_RANK, **_FLOAT_RANK}
_LITS = {"int": "int", "long": "long", "float": "float", "double": "double", "char": "char",
         "string": "String", "bool": "boolean", "null": "null"}
_PRIMS = set(_RANK) | {"boolean"}
_LOGIC = {"&&", "||", "==>", "<==", "<==>", "<=!=>"}
_ARITH = {"+", "-", "*", "/", "%"}
_ORDER = {"<", "<=", ">", ">="}
_OBJECT_ORDER = {"<:", "<#", "<#="}
"""JML's subtype and lock-order comparisons (JML RM 12.4.x): operands are not numbers."""
_SHIFT = {"<<", ">>", ">>>"}
_BITS = {"&", "|", "^"}


def norm(t: str | None, own: str) -> str:
    """A declared Java type as the checker's type string."""
    if t is None:
        return "void"
    t = t.replace(" ", "")
    dims = ""
    while t.endswith("[]"):
        t, dims = t[:-2], dims + "[]"
    if t.endswith("..."):
        t, dims = t[:-3], dims + "[]"
    if "<" in t or "." in t:
        return UNKNOWN
    if t in _PRIMS or t in ("String", own, "\\TYPE"):
        return t + dims
    # boxed types (Integer...) unbox in arithmetic but also compare with null: not modelled
    return UNKNOWN if not dims else t + dims


def numeric(t: str) -> bool:
    return t in _RANK


def integral(t: str) -> bool:
    return t in _INTEGRAL_RANK


def promote(a: str, b: str) -> str:
    """JLS 5.6.2, extended by JML's ``\\bigint`` and ``\\real`` (JML RM 12.1)."""
    if UNKNOWN in (a, b):
        return UNKNOWN
    r = max(_RANK[a], _RANK[b], 3)
    if r == 7 and (a in _FLOAT_RANK or b in _FLOAT_RANK):
        return "\\real"
    return {3: "int", 4: "long", 5: "float", 6: "double", 7: "\\bigint", 8: "\\real"}[r]


def widens(src: str, dst: str) -> bool:
    """Whether a value of ``src`` may be passed where ``dst`` is expected (JLS 5.3)."""
    if UNKNOWN in (src, dst) or src == dst or dst == "Object":
        return True
    if numeric(src) and numeric(dst):
        if src == "char":
            return dst not in ("byte", "short")
        if dst == "char":
            return False
        if src in _FLOAT_RANK and dst in _INTEGRAL_RANK:
            return False
        return _RANK[src] <= _RANK[dst] or dst == "\\real"
    if src == "null":
        return dst not in _PRIMS
    if dst == "CharSequence":
        return src == "String"
    if dst.endswith("[]") and src.endswith("[]"):
        return src == dst or not (src[:-2] in _PRIMS or dst[:-2] in _PRIMS)
    return False


def _castable(a: str, b: str) -> bool:
    """Whether reference types ``a`` and ``b`` (neither unknown nor null) may be compared
    with == (JLS 15.21.3: one must be castable to the other). Known reference types are arrays,
    String and the spec's class, which are pairwise unrelated; arrays of references compare
    when their element types do."""
    if a.endswith("[]") and b.endswith("[]"):
        ea, eb = a[:-2], b[:-2]
        return ea == eb or not (ea in _PRIMS or eb in _PRIMS) and (
            ea == UNKNOWN or eb == UNKNOWN or _castable(ea, eb))
    return a == b


def _cast_ok(src: str, dst: str) -> bool:
    """JLS 5.5 casting contexts for the types the checker knows: numbers cast to numbers,
    boolean only to boolean; a known reference (String, an array, the spec's class) never
    casts to or from a primitive (no box type is known here: boxes are ``?``); two known
    references cast when javac allows comparing them (``_castable``); null casts to any
    reference."""
    if src == dst or "Object" in (src, dst):
        return True
    if src in _PRIMS or dst in _PRIMS:
        return numeric(src) and numeric(dst)
    if src == "null":
        return True
    return dst == "null" or _castable(src, dst)


def reference(t: str) -> bool:
    return t not in _PRIMS and t != "void"


class FieldTypes(Mapping[str, str]):
    """The class's field types as the checker's type strings, normalised on lookup over the
    class's own ``fields_by_name`` (built once per class: a checker is made per helper body)."""

    def __init__(self, cls: JavaClass) -> None:
        self._fields = cls.fields_by_name
        self._own = cls.name

    def __getitem__(self, name: str) -> str:
        return norm(self._fields[name].type, self._own)

    def __iter__(self) -> Iterator[str]:
        return iter(self._fields)

    def __len__(self) -> int:
        return len(self._fields)


def class_index(cls: JavaClass) -> tuple[Mapping[str, str], dict[str, list[JavaMethod]]]:
    """The class's field types and its methods by name, both read from what the class keeps
    (``JavaClass.fields_by_name``, ``methods_by_name``), so no per-checker rebuild."""
    return FieldTypes(cls), cls.methods_by_name


class Checker:
    def __init__(self, cls: JavaClass, target: JavaMethod, file: str | None) -> None:
        self.cls, self.target, self.file = cls, target, file
        self.params = {n: norm(t, cls.name) for t, n in target.params}
        self.fields, self.methods = class_index(cls)

    def err(self, msg: str, line: int) -> SpecInvalid:
        return SpecInvalid(msg, file=self.file, line=line)

    def expect_bool(self, e: A.Expr, q: Mapping[str, str], what: str) -> None:
        if isinstance(e, A.Cond):
            # JLS 15.25: in a boolean context each branch must convert to boolean (a null
            # branch is a Boolean, which unboxes; javac accepts it)
            self.expect_bool(e.cond, q, "condition of ?:")
            for branch in (e.then, e.other):
                if self.type(branch, q) != "null":
                    self.expect_bool(branch, q, f"a branch of ?: in {what}")
            return
        t = self.type(e, q)
        if t not in ("boolean", UNKNOWN):
            raise self.err(f"incompatible types: {t} cannot be converted to boolean ({what})",
                           e.line)

    def is_class(self, e: A.Expr, q: Mapping[str, str]) -> str | None:
        if isinstance(e, A.TypeRef):
            return e.name
        if isinstance(e, A.Name) and e.id not in q and e.id not in self.params \
                and e.id not in self.fields and (e.id in LIBRARY_CLASSES or e.id == self.cls.name):
            return e.id
        return None

    def type(self, e: A.Expr, q: Mapping[str, str]) -> str:
        if isinstance(e, A.Lit):
            return _LITS.get(e.kind, UNKNOWN)
        if isinstance(e, A.Name):
            if e.id in q:
                return q[e.id]
            if e.id in self.params:
                return self.params[e.id]
            if e.id in self.fields:
                return self.fields[e.id]
            return self.cls.name if e.id == "this" else UNKNOWN
        if isinstance(e, A.Result):
            return norm(self.target.return_type, self.cls.name)
        if isinstance(e, A.Old):
            return self.type(e.expr, q)
        if isinstance(e, A.Field):
            return self.field(e, q)
        if isinstance(e, A.Index):
            return self.index(e, q)
        if isinstance(e, A.Call):
            return self.call(e, q)
        if isinstance(e, A.Unary):
            return self.unary(e, q)
        if isinstance(e, A.Binary):
            return self.binary(e.op, e.left, e.right, e.line, q)
        if isinstance(e, A.Chain):
            for i, op in enumerate(e.ops):
                self.binary(op, e.operands[i], e.operands[i + 1], e.line, q)
            return "boolean"
        if isinstance(e, A.Cond):
            self.expect_bool(e.cond, q, "condition of ?:")
            a, b = self.type(e.then, q), self.type(e.other, q)
            if numeric(a) and numeric(b):
                return promote(a, b)
            # a mix (boolean with int, a number with String) is a reference conditional
            # (JLS 15.25.3), legal where an Object is wanted: its branches are checked against
            # the boolean a clause wants in expect_bool; elsewhere it is not modelled
            return a if a == b else UNKNOWN
        if isinstance(e, A.Cast):
            inner = self.type(e.expr, q)
            to = norm(e.type, self.cls.name)
            if to != UNKNOWN and inner != UNKNOWN and not _cast_ok(inner, to):
                raise self.err(f"incompatible types: {inner} cannot be converted to {to}", e.line)
            return to
        if isinstance(e, A.InstanceOf):
            self.type(e.expr, q)
            return "boolean"
        if isinstance(e, A.Quant):
            return self.quant(e, q)
        if isinstance(e, A.Special):
            for arg in e.args:
                if not isinstance(arg, A.TypeRef):
                    self.type(arg, q)
            if e.name in ("\\nonnullelements", "\\fresh", "\\invariant_for", "\\is_initialized"):
                return "boolean"
            return UNKNOWN
        return UNKNOWN

    def quant(self, e: A.Quant, q: Mapping[str, str]) -> str:
        inner = dict(q)
        for v in e.vars:
            inner[v] = norm(e.type, self.cls.name)
        if e.range is not None:
            self.expect_bool(e.range, inner, f"range of \\{e.kind}")
        if e.kind in ("forall", "exists", "num_of"):
            self.expect_bool(e.body, inner, f"body of \\{e.kind}")
            return "boolean" if e.kind != "num_of" else "long"
        t = self.type(e.body, inner)
        if t != UNKNOWN and not numeric(t):
            raise self.err(f"bad operand type {t} for \\{e.kind} (a numeric body is required; "
                           "JML RM 12.4.24.2)", e.line)
        return t

    def deref(self, t: str, e: A.Expr) -> None:
        if t in _PRIMS:
            raise self.err(f"{t} cannot be dereferenced", e.line)

    def field(self, e: A.Field, q: Mapping[str, str]) -> str:
        cls = self.is_class(e.obj, q)
        if cls is not None:
            if cls == self.cls.name:
                return self.fields.get(e.name, UNKNOWN)
            t = S.FIELDS.get((cls, e.name))
            if t is None and cls in S.CLOSED_FIELDS:
                raise self.err(f"cannot find symbol: variable {e.name} in {cls}", e.line)
            return UNKNOWN if t in (None, "?") else t
        t = self.type(e.obj, q)
        self.deref(t, e)
        if t.endswith("[]"):
            if e.name != "length":
                raise self.err(f"cannot find symbol: variable {e.name} (of an array {t})",
                               e.line)
            return "int"
        if t == "String":
            raise self.err(f"cannot find symbol: variable {e.name} in String"
                           + (" (String's length is the method length())"
                              if e.name == "length" else ""), e.line)
        if t == self.cls.name:
            return self.fields.get(e.name, UNKNOWN)
        return UNKNOWN

    def index(self, e: A.Index, q: Mapping[str, str]) -> str:
        t = self.type(e.arr, q)
        i = self.type(e.index, q)
        if t != UNKNOWN and not t.endswith("[]"):
            raise self.err(f"array required, but {t} found", e.line)
        if i != UNKNOWN and not integral(i):
            raise self.err(f"incompatible types: {i} cannot be converted to int (an array "
                           "index; JLS 15.10.3)", e.index.line)
        return t[:-2] if t.endswith("[]") else UNKNOWN

    def args(self, e: A.Call, q: Mapping[str, str]) -> list[str]:
        return [self.type(a, q) for a in e.args]

    def call(self, e: A.Call, q: Mapping[str, str]) -> str:
        cls = self.is_class(e.target, q) if e.target is not None else self.cls.name
        own = cls == self.cls.name or (isinstance(e.target, A.Name) and e.target.id == "this")
        args = self.args(e, q)
        if own:
            return self.own_call(e, args)
        if cls is not None:
            return self.library(cls, e, args, static=True)
        assert e.target is not None
        t = self.type(e.target, q)
        self.deref(t, e)
        if t.endswith("[]"):
            if e.name not in S.ARRAY_METHODS:
                raise self.err(f"cannot find symbol: method {e.name}() on an array {t}"
                               + (" (an array's length is the field .length)"
                                  if e.name == "length" else ""), e.line)
            r = S.ARRAY_METHODS[e.name]
            return t if r is None else r
        if t in ("String",):
            return self.library(t, e, args, static=False)
        return UNKNOWN

    def library(self, cls: str, e: A.Call, args: list[str], static: bool) -> str:
        sigs = [s for s in S.methods(cls, e.name) if s.static or not static]
        if any(a in ("\\bigint", "\\real") for a in args) and sigs:
            return UNKNOWN  # OpenJML's specs overload some for spec math: not modelled, accept
        fits = [s for s in sigs if s.params == ("?...",) or (
            len(s.params) == len(args) and all(widens(a, p) for a, p in zip(args, s.params, strict=True)))]
        if fits:
            if UNKNOWN in args and len({f.returns for f in fits}) > 1:
                return UNKNOWN  # which overload javac picks depends on the unknown type
            return norm(fits[0].returns, self.cls.name) if fits[0].returns != "?" else UNKNOWN
        if cls not in S.CLOSED:
            return UNKNOWN
        shown = ",".join(args)
        if sigs:
            raise self.err(f"no suitable method found for {e.name}({shown}) in {cls}", e.line)
        raise self.err(f"cannot find symbol: method {e.name}({shown}) in {cls}", e.line)

    def own_call(self, e: A.Call, args: list[str]) -> str:
        cands = [m for m in self.methods.get(e.name, []) if len(m.params) == len(args)]
        # a \bigint/\real argument converts only to a parameter of its own type or a wider
        # JML one (\bigint to \real): OpenJML's JmlTypes.isAssignable/isConvertible give a
        # JML type no conversion to a Java primitive, so ``m(int)`` applied to a \bigint is
        # "cannot be applied to given types", as javac words it; ``widens`` encodes this
        for m in cands:
            if all(widens(a, norm(p, self.cls.name)) for a, (p, _n) in zip(args, m.params, strict=True)):
                return norm(m.return_type, self.cls.name)
        if cands:
            want = ",".join(norm(p, self.cls.name) for p, _n in cands[0].params)
            raise self.err(f"method {e.name} in class {self.cls.name} cannot be applied to "
                           f"given types: required ({want}), found ({','.join(args)})", e.line)
        return UNKNOWN  # resolve reports unknown methods and wrong arity

    def unary(self, e: A.Unary, q: Mapping[str, str]) -> str:
        t = self.type(e.expr, q)
        if t == UNKNOWN:
            return t
        if e.op == "!":
            if t != "boolean":
                raise self.err(f"bad operand type {t} for unary operator '!'", e.line)
            return t
        if e.op == "~" and not integral(t) or e.op in ("-", "+") and not numeric(t):
            raise self.err(f"bad operand type {t} for unary operator '{e.op}'", e.line)
        return promote(t, "int")

    def binary(self, op: str, left: A.Expr, right: A.Expr, line: int, q: Mapping[str, str]) -> str:
        a, b = self.type(left, q), self.type(right, q)

        def bad() -> SpecInvalid:
            return self.err(f"bad operand types for binary operator '{op}': {a} and {b}", line)
        if op in _OBJECT_ORDER:
            return "boolean"
        if op in _LOGIC:
            for side in (left, right):
                if isinstance(side, A.Cond):
                    self.expect_bool(side, q, f"an operand of {op}")
        if UNKNOWN in (a, b):
            return "boolean" if op in _LOGIC | _ORDER | {"==", "!="} else UNKNOWN
        if op in _LOGIC:
            if a != "boolean" or b != "boolean":
                raise bad()
            return "boolean"
        if op == "+" and "String" in (a, b):
            return "String"
        if op in _ARITH:
            if not (numeric(a) and numeric(b)):
                raise bad()
            return promote(a, b)
        if op in _ORDER:
            if not (numeric(a) and numeric(b)):
                raise bad()
            return "boolean"
        if op in ("==", "!="):
            if numeric(a) and numeric(b) or a == b == "boolean":
                return "boolean"
            if reference(a) and reference(b) and ("null" in (a, b) or _castable(a, b)):
                return "boolean"
            raise self.err(f"incomparable types: {a} and {b}", line)
        if op in _SHIFT:
            if not (integral(a) and integral(b)):
                raise bad()
            return promote(a, "int")
        if op in _BITS:
            if a == b == "boolean":
                return "boolean"
            if integral(a) and integral(b):
                return promote(a, b)
            raise bad()
        return UNKNOWN


def shown_types(cls: JavaClass, method: JavaMethod, exprs: tuple[A.Expr, ...],
                quants: dict[str, str]) -> list[str]:
    """Each expression's type for a message (``?`` where unknown or itself ill-typed): name
    resolution words its errors as javac does, which shows the argument types."""
    c = Checker(cls, method, None)
    q = {v: norm(t, cls.name) for v, t in quants.items()}
    out = []
    for e in exprs:
        try:
            out.append(c.type(e, q))
        except SpecInvalid:
            out.append(UNKNOWN)
    return out


def check_types(cls: JavaClass, method: JavaMethod, requires: list[tuple[A.Expr, int]],
                ensures: list[tuple[A.Expr, int]], file: str | None) -> None:
    """Raise ``SpecInvalid`` (file:line) at the first ill-typed clause; a clause must be
    boolean (JML RM 9.9.1, 9.9.3)."""
    c = Checker(cls, method, file)
    for e, _line in requires:
        c.expect_bool(e, {}, "a requires clause")
    for e, _line in ensures:
        c.expect_bool(e, {}, "an ensures clause")


def check_assignable(cls: JavaClass, method: JavaMethod, file: str | None) -> None:
    """Raise ``SpecInvalid`` when an ``assignable`` location starts with a name that is no
    parameter, field, ``this``/``super`` or class (JML RM 9.9.9 store-refs; javac's "cannot
    find symbol"). Only the first name of a location is checked: what follows it (``a[*]``,
    ``a[i..j]``, ``o.f``) is read by ``semantics.frame_conditions``, whose index expressions
    go through ``check_types`` as ensures clauses."""
    known = {n for _t, n in method.params} | {f.name for f in cls.fields} | {
        "this", "super", cls.name} | LIBRARY_CLASSES
    for sc in method.spec:
        for cl in getattr(sc, "assignable", []):
            depth = 0
            first = True
            for t in cl.tokens:
                if first and t.kind == "ident" and t.text not in known:
                    raise SpecInvalid(f"cannot find symbol: variable {t.text} (in an "
                                      "assignable clause)", file=file, line=t.line)
                first = False
                if t.is_op("(", "[", "{"):
                    depth += 1
                elif t.is_op(")", "]", "}"):
                    depth -= 1
                elif t.is_op(",") and depth == 0:
                    first = True
