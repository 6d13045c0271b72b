"""JML expressions to Java source that evaluates them with OpenJML's semantics.

Every JML value becomes a Java ``Object``; the runtime class ``adequacy.rac.R`` does the
arithmetic on mathematical integers (``spec_bigint_math``, the default for specifications),
exact rationals for ``\\real`` (``adequacy.rac.Real``), Java's truncating ``/`` and ``%``,
short-circuit logic and quantifiers, and throws ``R.Undefined`` wherever JML leaves a value
undefined. Under ``spec_java_math`` / ``spec_safe_math`` (the method's modifier, else its
class's; ``\\java_math(e)`` and friends for one sub-expression) arithmetic goes through
``adequacy.rac.JavaMath`` instead, which keeps Java types and wraps (java) or makes an overflow
undefined (safe). The front end (``jml.resolve``) has already rejected unknown names, calls of
non-pure methods and such; the same checks here only guard the translation, and their
``SpecInvalid`` carries ``engine="rac"`` (the runner makes it ``unknown``, never invalid).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from adequacy.plugin import SpecInvalid

from ...jml import ast as A
from ...jml.members import JavaClass, JavaMethod
from ...jml.parser import PRIMITIVES
from ...jml.resolve import LIBRARY_CLASSES
from ...jml.semantics import spec_math_mode

RT = "adequacy.rac.R"
SIGNATURE = "(Object[] __p, Object[] __q, Object __res, Object __this)"
"""Parameters of every generated clause method (pre-state, post-state, result, receiver)."""
SPLIT_NODES = 200
"""An operand of ``&&``/``||`` larger than this (in AST nodes) becomes its own method: javac
refuses a method over 64 KB of bytecode, and a 10,000-term chain is far over."""
JM = "adequacy.rac.JavaMath"
MODE_FUNCTIONS = {"\\java_math": "java", "\\safe_math": "safe", "\\bigint_math": "bigint"}
"""OpenJML's functions that compute their argument in one arithmetic mode."""
_MODAL = {"add", "sub", "mul", "div", "rem", "bitand", "bitor", "xor", "shl", "shr", "ushr"}
"""Runtime operations whose meaning depends on the arithmetic mode."""
_MATH_SAME_TYPE = {"abs", "max", "min", "addExact", "subtractExact", "multiplyExact",
                   "negateExact", "floorDiv", "floorMod"}
"""java.lang.Math methods whose result has their (promoted) arguments' type; floorMod's is
its divisor's (JDK 9+: ``floorMod(long, int)`` is an int)."""
_NUMERIC = ("byte", "short", "char", "int", "long", "float", "double", "\\bigint", "\\real")
_UNBOX = {"Integer": "int", "Long": "long", "Short": "short", "Byte": "byte",
          "Character": "char", "Double": "double", "Float": "float", "BigInteger": "\\bigint"}
QUANT_TYPES = {"int", "long", "short", "byte", "char", "boolean", "\\bigint", "Integer", "Long"}
_BIN = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "rem", "<": "lt", "<=": "le",
        ">": "gt", ">=": "ge", "==": "eq", "!=": "ne", "&": "bitand", "|": "bitor",
        "^": "xor", "<<": "shl", ">>": "shr", ">>>": "ushr"}
_CONV = {"int": "toInt", "long": "toLong", "short": "toShort", "byte": "toByte", "char": "toChar",
         "boolean": "toBool", "double": "toDouble", "float": "toFloat", "Integer": "toInt",
         "Long": "toLong", "Short": "toShort", "Byte": "toByte", "Character": "toChar",
         "Boolean": "toBool", "Double": "toDouble", "Float": "toFloat"}


@dataclass
class Context:
    cls: JavaClass
    target: JavaMethod
    file: str | None
    methods: dict[str, list[JavaMethod]] = field(default_factory=dict)
    counter: int = 0
    helpers: list[tuple[str, int]] = field(default_factory=list)
    """Methods split off long ``&&``/``||`` chains: (Java source, JML line)."""
    math: str = ""
    """Arithmetic mode of the spec: ``bigint``, ``java`` or ``safe`` (from the modifiers)."""
    post_fields: tuple[str, ...] = ()
    """Receiver fields whose post-state the case's output holds (``[jml] post_fields``)."""
    whole_post_state: bool = False
    """Whether the post-state receiver built from the case is the object after the call:
    every field that may change is named (``build.whole_post_state``), so a pure helper
    called on the object after the call can run on it."""

    def __post_init__(self) -> None:
        for m in self.cls.methods + self.cls.models:
            self.methods.setdefault(m.name, []).append(m)
        if not self.math:
            self.math = spec_math_mode(self.cls, self.target)

    def fresh(self, name: str) -> str:
        self.counter += 1
        return f"q{self.counter}_{name}"

    def err(self, msg: str, line: int) -> SpecInvalid:
        return SpecInvalid(msg, file=self.file, line=line, engine="rac")


@dataclass
class Env:
    """Where names point while translating one clause."""

    clause: str
    """``requires`` or ``ensures``."""
    old: bool = False
    quants: tuple[tuple[str, str, str], ...] = ()
    """(JML name, Java variable, declared type), innermost last."""

    def bind(self, name: str, var: str, ty: str) -> Env:
        return Env(self.clause, self.old, self.quants + ((name, var, ty),))

    def in_old(self) -> Env:
        return Env(self.clause, True, self.quants)


def _lit(e: A.Lit) -> str:
    if e.kind == "bool":
        return "Boolean.TRUE" if e.value else "Boolean.FALSE"
    if e.kind == "null":
        return "null"
    if e.kind in ("int", "long"):
        assert isinstance(e.value, int)
        if e.kind == "int" and -(2**31) <= e.value < 2**31:
            return f"((Object) Integer.valueOf({e.value}))"
        if -(2**63) <= e.value < 2**63:  # a long literal keeps its Java type (spec_java_math)
            return f"((Object) Long.valueOf({e.value}L))"
        return f'{RT}.big("{e.value}")'
    if e.kind == "char":
        return f"((Object) {_java_char(str(e.value))})"
    if e.kind == "string":
        return _java_string(str(e.value))
    if e.kind == "float":
        return f"((Object) Double.valueOf((double) {e.text}))"
    return f"((Object) Double.valueOf({e.text}))"


def _escape(ch: str, quote: str) -> str:
    """One character inside a Java literal. Never a ``\\uXXXX`` escape for a quote, a
    backslash or a line break: javac replaces those before lexing (JLS 3.3), which would end
    the literal; octal escapes are not pre-processed."""
    o = ord(ch)
    if ch in (quote, "\\"):
        return "\\" + ch
    if 32 <= o < 127:
        return ch
    if o < 256:
        return f"\\{o:03o}"
    return f"\\u{o:04x}"


def _java_char(c: str) -> str:
    return "'" + "".join(_escape(ch, "'") for ch in c) + "'"


def _java_string(s: str) -> str:
    return '"' + "".join(_escape(ch, '"') for ch in s) + '"'


def _unsupported(what: str) -> str:
    return f"{RT}.unsupported({_java_string(what)})"


def translate(e: A.Expr, env: Env, ctx: Context) -> str:
    """Java expression of type Object for ``e``."""
    t = _Translator(ctx)
    return t.expr(e, env)


def _promote(a: str | None, b: str | None) -> str | None:
    """Binary numeric promotion (JLS 5.6.2) extended as OpenJML does for JML's types: a
    ``\\real`` wins, ``\\bigint`` with a floating type is ``\\real``; None when unknown."""
    a, b = _UNBOX.get(a or "", a), _UNBOX.get(b or "", b)
    if a not in _NUMERIC or b not in _NUMERIC:
        return None
    kinds = {a, b}
    if "\\real" in kinds or ("\\bigint" in kinds and kinds & {"float", "double"}):
        return "\\real"
    for t in ("\\bigint", "double", "float", "long"):
        if t in kinds:
            return t
    return "int"


class _Translator:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.mode = ctx.math

    def op(self, name: str, *args: str) -> str:
        """A runtime operation in the current arithmetic mode."""
        if self.mode == "bigint" or name not in _MODAL | {"neg", "plus", "bitnot", "cast",
                                                           "sum", "product"}:
            return f"{RT}.{name}({', '.join(args)})"
        safe = "true" if self.mode == "safe" else "false"
        return f"{JM}.{name}({', '.join((safe, *args))})"

    def static_type(self, e: A.Expr, env: Env) -> str | None:
        """The JML type of ``e`` where the translator can tell it (else None): what a
        conditional's branches are promoted to under Java arithmetic."""
        if isinstance(e, A.Lit):
            return {"int": "int", "long": "long", "char": "char", "float": "float",
                    "double": "double", "bool": "boolean", "string": "String"}.get(e.kind)
        if isinstance(e, A.Name):
            for name, _var, ty in reversed(env.quants):
                if name == e.id:
                    return ty
            for ty, pname in self.ctx.target.params:
                if pname == e.id:
                    return ty.strip()
            return next((f.type for f in self.ctx.cls.fields if f.name == e.id), None)
        if isinstance(e, A.Result):
            return self.ctx.target.return_type
        if isinstance(e, A.Old):
            return self.static_type(e.expr, env)
        if isinstance(e, A.Cast):
            return e.type
        if isinstance(e, A.Unary) and e.op in ("-", "+", "~"):
            return _promote(self.static_type(e.expr, env), "int")
        if isinstance(e, A.Binary) and e.op in ("+", "-", "*", "/", "%", "&", "|", "^"):
            return _promote(self.static_type(e.left, env), self.static_type(e.right, env))
        if isinstance(e, A.Binary) and e.op in ("<<", ">>", ">>>"):
            return _promote(self.static_type(e.left, env), "int")
        if isinstance(e, A.Cond):
            return _promote(self.static_type(e.then, env), self.static_type(e.other, env))
        if isinstance(e, A.Field) and e.name == "length":
            return "int"
        if isinstance(e, A.Field) and isinstance(e.obj, A.Name) and e.obj.id in (
                "Integer", "Long") and e.name in ("MAX_VALUE", "MIN_VALUE") and \
                self._is_class(e.obj, env):
            return "int" if e.obj.id == "Integer" else "long"
        if isinstance(e, A.Call) and isinstance(e.target, A.Name) and \
                e.target.id in ("Math", "StrictMath") and self._is_class(e.target, env) and \
                e.name in _MATH_SAME_TYPE and e.args:
            args = e.args[1:] if e.name == "floorMod" and len(e.args) == 2 else e.args
            out: str | None = "int"
            for a in args:  # the overload Java picks: the arguments' promoted type
                out = _promote(out, self.static_type(a, env))
            return out
        if isinstance(e, A.Index):
            arr = self.static_type(e.arr, env)
            return arr[:-2].strip() if arr and arr.endswith("[]") else None
        if isinstance(e, A.Call) and e.target is None:
            cands = [m for m in self.ctx.methods.get(e.name, []) if len(m.params) == len(e.args)]
            return cands[0].return_type if len(cands) == 1 else None
        return None

    def expr(self, e: A.Expr, env: Env) -> str:
        m = getattr(self, "_" + type(e).__name__)
        return str(m(e, env))

    def truth(self, e: A.Expr, env: Env) -> str:
        return f"{RT}.truth({self.expr(e, env)})"

    def truth_part(self, e: A.Expr, env: Env) -> str:
        """``truth`` of an operand, as a call of a method of its own when it is big; the
        quantified variables in scope become its extra parameters."""
        if len(A.walk(e)) <= SPLIT_NODES:
            return self.truth(e, env)
        name = self.ctx.fresh("part")
        bound = [var for _n, var, _t in env.quants]
        params = SIGNATURE[:-1] + "".join(f", Object {v}" for v in bound) + ")"
        self.ctx.helpers.append((f'@SuppressWarnings("unchecked") static Object {name}'
                                 f"{params} {{ return {self.expr(e, env)}; }}", e.line))
        args = "".join(f", {v}" for v in bound)
        return f"{RT}.truth({name}(__p, __q, __res, __this{args}))"

    def _Lit(self, e: A.Lit, env: Env) -> str:
        return _lit(e)

    def _Result(self, e: A.Result, env: Env) -> str:
        if env.clause != "ensures":
            raise self.ctx.err("\\result may only appear in ensures clauses", e.line)
        if self.ctx.target.return_type in (None, "void"):
            raise self.ctx.err("\\result used but the method returns void", e.line)
        if env.old:
            raise self.ctx.err("\\result inside \\old(...) has no pre-state value", e.line)
        return "__res"

    def _Old(self, e: A.Old, env: Env) -> str:
        return self.expr(e.expr, env.in_old())

    def _Name(self, e: A.Name, env: Env) -> str:
        for name, var, _ty in reversed(env.quants):
            if name == e.id:
                return var
        for k, (_ty, pname) in enumerate(self.ctx.target.params):
            if pname == e.id:
                state = "__p" if env.clause == "requires" or env.old else "__q"
                return f"{state}[{k}]"
        f = self._field(e.id, env)
        if f is not None:
            return f
        if e.id == "this":
            if self.ctx.target.is_static:
                raise self.ctx.err("'this' in the spec of a static method", e.line)
            return "__this"
        if e.id in LIBRARY_CLASSES or e.id == self.ctx.cls.name:
            raise self.ctx.err(f"class name {e.id} used as a value", e.line)
        raise self.ctx.err(f"unknown name {e.id!r} (not a parameter, quantified variable or "
                           f"field of {self.ctx.cls.name})", e.line)

    def _field(self, name: str, env: Env) -> str | None:
        cls = self.ctx.cls
        for f in cls.fields:
            if f.name == name:
                if "static" not in f.modifiers and self.ctx.target.is_static:
                    return None
                if self._stale(env) and f.may_change:
                    if name in self.ctx.post_fields and "static" not in f.modifiers:
                        # the case's post-state receiver rides after the parameters
                        n = len(self.ctx.target.params)
                        return f"((Object) (({cls.name}) __q[{n}]).{name})"
                    return _unsupported(f"field {name} after the call: the case has no "
                                        "post-state of the object")
                if "static" in f.modifiers:
                    return f"((Object) {cls.name}.{name})"
                return f"((Object) (({cls.name}) __this).{name})"
        return None

    def _stale(self, env: Env) -> bool:
        """Whether a read here is of the state after the call, which a case records only for
        the fields ``[jml] post_fields`` names: in ensures, outside ``\\old``, unless the method
        is pure. Callers add whether the state read may change at all
        (``JavaField.may_change``: a final array's elements do)."""
        return env.clause == "ensures" and not env.old and not self.ctx.target.is_pure

    def _is_class(self, e: A.Expr, env: Env) -> str | None:
        if isinstance(e, A.Name) and not any(q[0] == e.id for q in env.quants) and \
                not any(p[1] == e.id for p in self.ctx.target.params) and \
                not any(f.name == e.id for f in self.ctx.cls.fields):
            if e.id == self.ctx.cls.name:
                return "self"
            if e.id in LIBRARY_CLASSES:
                return e.id
        if isinstance(e, A.Field) and isinstance(e.obj, A.Name) and e.obj.id == "java":
            return None
        return None

    def _Field(self, e: A.Field, env: Env) -> str:
        cls = self._is_class(e.obj, env)
        if cls == "self":
            f = self._field(e.name, env)
            if f is None:
                raise self.ctx.err(f"{self.ctx.cls.name} has no field {e.name}", e.line)
            return f
        if cls is not None:
            return f'{RT}.staticField("{cls}", "{e.name}")'
        if isinstance(e.obj, A.Name) and e.obj.id == "this":
            f = self._field(e.name, env)
            if f is None:
                raise self.ctx.err(f"{self.ctx.cls.name} has no field {e.name}", e.line)
            return f
        obj = self.expr(e.obj, env)
        if e.name == "length":
            return f"{RT}.length({obj})"
        return f'{RT}.field({obj}, "{e.name}")'

    def _Index(self, e: A.Index, env: Env) -> str:
        return f"{RT}.index({self.expr(e.arr, env)}, {self.expr(e.index, env)})"

    def _Call(self, e: A.Call, env: Env) -> str:
        args = [self.expr(a, env) for a in e.args]
        if e.target is None or self._is_class(e.target, env) == "self" or \
                (isinstance(e.target, A.Name) and e.target.id == "this"):
            return self._own_call(e, args, env)
        cls = self._is_class(e.target, env)
        if cls is not None:
            return f'{RT}.callStatic("{cls}", "{e.name}"' + "".join(", " + a for a in args) + ")"
        target = self.expr(e.target, env)
        return f'{RT}.call({target}, "{e.name}"' + "".join(", " + a for a in args) + ")"

    def _own_call(self, e: A.Call, args: list[str], env: Env) -> str:
        cands = [m for m in self.ctx.methods.get(e.name, []) if len(m.params) == len(args)]
        if not cands:
            raise self.ctx.err(f"unknown method {e.name}/{len(args)} (not a method of "
                               f"{self.ctx.cls.name} nor a model method)", e.line)
        if len(cands) > 1:
            # Java picks among overloads by the arguments' static types; rac's values are
            # boxed, so it only knows them for a parameter, a quantified variable or a
            # literal. Passing the arguments to the first overload's conversions made
            # ``f(x)`` call ``f(long)`` beside ``f(int)``: a wrong decided verdict.
            types = [self._static_type(a, env) for a in e.args]
            exact = [c for c in cands
                     if all(t is not None and t == p.strip()
                            for t, (p, _n) in zip(types, c.params, strict=True))]
            if len(exact) != 1:
                return _unsupported(f"the spec calls {e.name}, which has {len(cands)} "
                                    f"overloads of {len(args)} parameters: rac does not redo "
                                    "Java's overload resolution for these arguments")
            cands = exact
        m = cands[0]
        if not (m.is_pure or m.model):
            raise self.ctx.err(f"the spec calls {e.name}, which is not pure (mark it "
                               "/*@ pure @*/: specifications may only call pure methods)", e.line)
        if m.return_type in (None, "void"):
            raise self.ctx.err(f"{e.name} returns nothing, so it cannot be used in an "
                               "expression", e.line)
        if m is self.ctx.target:  # pure, so JML allows it; rac cannot evaluate recursion
            return _unsupported(f"the spec calls the method under specification ({e.name})")
        conv = [self._convert(a, ty) for a, (ty, _n) in zip(args, m.params, strict=True)]
        recv = self.ctx.cls.name
        if not m.is_static:
            if self.ctx.target.is_static:
                raise self.ctx.err(f"instance method {e.name} called from the spec of a static "
                                   "method", e.line)
            recv = f"(({self.ctx.cls.name}) __this)"
            if any(f.may_change for f in self.ctx.cls.fields) and self._stale(env):
                if not self.ctx.whole_post_state:
                    return _unsupported(f"{e.name} reads the object after the call: the case "
                                        "has no post-state of the object")
                # the case's post-state receiver rides after the parameters
                recv = f"(({self.ctx.cls.name}) __q[{len(self.ctx.target.params)}])"
        elif any(f.may_change and "static" in f.modifiers for f in self.ctx.cls.fields) and \
                self._stale(env):
            # rac never runs the method: a static field holds its value before the call
            return _unsupported(f"{e.name} may read a static field after the call: the case "
                                "has no post-state of the class")
        return f"((Object) {recv}.{m.name}({', '.join(conv)}))"

    def _static_type(self, a: A.Expr, env: Env) -> str | None:
        """The Java type of an argument where it is plain: a quantified variable, a
        parameter of the method, an int, long, char, boolean or String literal."""
        if isinstance(a, A.Name):
            for name, _var, ty in reversed(env.quants):
                if name == a.id:
                    return ty.strip()
            for ty, name in self.ctx.target.params:
                if name == a.id:
                    return ty.strip()
            return None
        if isinstance(a, A.Lit):
            t = a.text
            if t in ("true", "false"):
                return "boolean"
            if t.startswith('"'):
                return "String"
            if t.startswith("'"):
                return "char"
            if re.fullmatch(r"\d+", t):
                return "int"
            if re.fullmatch(r"\d+[lL]", t):
                return "long"
        return None

    @staticmethod
    def _convert(arg: str, ty: str) -> str:
        ty = ty.strip()
        if ty in _CONV:
            return f"{RT}.{_CONV[ty]}({arg})"
        return f"(({ty}) {arg})"

    def _Unary(self, e: A.Unary, env: Env) -> str:
        x = self.expr(e.expr, env)
        if e.op == "!":
            return f"{RT}.not({x})"
        return self.op({"-": "neg", "+": "plus", "~": "bitnot"}[e.op], x)

    def _Binary(self, e: A.Binary, env: Env) -> str:
        op = e.op
        if op in ("&&", "||", "==>", "<==", "<==>", "<=!=>"):
            a, b = self.truth_part(e.left, env), self.truth_part(e.right, env)
            java = {"&&": f"{a} && {b}", "||": f"{a} || {b}", "==>": f"!{a} || {b}",
                    "<==": f"{a} || !{b}", "<==>": f"{a} == {b}", "<=!=>": f"{a} != {b}"}[op]
            return f"{RT}.bool({java})"
        if op == "<:":
            return _unsupported("<:")
        return self.op(_BIN[op], self.expr(e.left, env), self.expr(e.right, env))

    def _Chain(self, e: A.Chain, env: Env) -> str:
        parts = []
        for k, op in enumerate(e.ops):
            a, b = self.expr(e.operands[k], env), self.expr(e.operands[k + 1], env)
            parts.append(f"{RT}.truth({RT}.{_BIN[op]}({a}, {b}))")
        return f"{RT}.bool({' && '.join(parts)})"

    def _Cond(self, e: A.Cond, env: Env) -> str:
        then, other = self.expr(e.then, env), self.expr(e.other, env)
        if self.mode != "bigint":
            # Java promotes both branches to one type (JLS 15.25), which later arithmetic
            # wraps at: the value's runtime type alone would not say it
            a, b = self.static_type(e.then, env), self.static_type(e.other, env)
            a, b = _UNBOX.get(a or "", a), _UNBOX.get(b or "", b)
            if a in _NUMERIC or b in _NUMERIC:
                both = _promote(a, b)
                if both is None:
                    return _unsupported(f"a conditional expression whose branch types rac "
                                        f"cannot tell, under spec_{self.mode}_math")
                conv = f"{JM}.cast(false, " if both in ("int", "long") else f"{RT}.cast("
                lit = _java_string(both)
                then = then if a == both else f"{conv}{lit}, {then})"
                other = other if b == both else f"{conv}{lit}, {other})"
        return f"({self.truth(e.cond, env)} ? {then} : {other})"

    def _Cast(self, e: A.Cast, env: Env) -> str:
        return self.op("cast", _java_string(e.type), self.expr(e.expr, env))

    def _InstanceOf(self, e: A.InstanceOf, env: Env) -> str:
        return f"{RT}.instanceOf({self.expr(e.expr, env)}, {_java_string(e.type)})"

    def _Special(self, e: A.Special, env: Env) -> str:
        if e.name in MODE_FUNCTIONS and len(e.args) == 1:
            outer, self.mode = self.mode, MODE_FUNCTIONS[e.name]
            try:
                return self.expr(e.args[0], env)
            finally:
                self.mode = outer
        if e.name == "\\nonnullelements" and len(e.args) == 1:
            return f"{RT}.nonnullelements({self.expr(e.args[0], env)})"
        if e.name in ("\\nothing", "\\everything"):
            raise self.ctx.err(f"{e.name} is not an expression", e.line)
        return _unsupported(e.name)

    def _New(self, e: A.New, env: Env) -> str:
        # allocation in a spec is valid JML; what a constructor does is code rac does not run
        return _unsupported(f"'new {e.type}' in a specification (line {e.line})")

    def _TypeRef(self, e: A.TypeRef, env: Env) -> str:
        return _unsupported(f"type {e.name}")

    def _Quant(self, e: A.Quant, env: Env) -> str:
        ty = "\\bigint" if e.type in ("Integer", "Long", "BigInteger") else e.type
        if ty not in QUANT_TYPES and ty not in PRIMITIVES:
            return _unsupported(f"quantifier over {e.type}")
        if ty in ("double", "float"):
            return _unsupported(f"quantifier over {e.type}")
        inner = env
        vars_: list[str] = []
        for v in e.vars:
            var = self.ctx.fresh(v)
            vars_.append(var)
            inner = inner.bind(v, var, ty)
        bounds = _bounds(e, ty)
        kind = e.kind
        if kind == "forall":
            core = self.truth(e.body, inner) if e.range is None else \
                f"!{self.truth(e.range, inner)} || {self.truth(e.body, inner)}"
            core = f"{RT}.bool({core})"
        elif kind == "exists":
            core = self.truth(e.body, inner) if e.range is None else \
                f"{self.truth(e.range, inner)} && {self.truth(e.body, inner)}"
            core = f"{RT}.bool({core})"
        elif kind == "num_of":
            cond = self.truth(e.body, inner) if e.range is None else \
                f"{self.truth(e.range, inner)} && {self.truth(e.body, inner)}"
            one, zero = (f"{RT}.ONE", f"{RT}.ZERO") if self.mode == "bigint" else \
                ("Long.valueOf(1L)", "Long.valueOf(0L)")  # \\num_of is a long (RM 12.5)
            core = f"(({cond}) ? (Object) {one} : (Object) {zero})"
        else:
            neutral = {"sum": f"{RT}.ZERO", "product": f"{RT}.ONE", "max": f"{RT}.NONE",
                       "min": f"{RT}.NONE"}[kind]
            body = self.expr(e.body, inner)
            core = body if e.range is None else \
                f"({self.truth(e.range, inner)} ? {body} : (Object) {neutral})"
        folder = {"forall": "forall", "exists": "exists", "num_of": "sum", "sum": "sum",
                  "product": "product", "max": "max", "min": "min"}[kind]
        out = core
        # innermost variable last: build loops from the inside out
        for k in range(len(e.vars) - 1, -1, -1):
            name = e.vars[k]
            var = vars_[k]
            if ty == "boolean":
                lo = hi = "null"
            else:
                b = bounds.get(name)
                if b is None:
                    return f'{RT}.unbounded("{name}")'
                # bounds may mention earlier variables (and outer names) only
                outer = env
                for j in range(k):
                    outer = outer.bind(e.vars[j], vars_[j], ty)
                lo = self._bound(b[0], outer, "max")
                hi = self._bound(b[1], outer, "min")
            args = [lo, hi, _java_string(ty), f"(Object {var}) -> {out}"]
            if self.mode != "bigint" and folder in ("sum", "product"):
                # the result's Java type (which later arithmetic wraps at) is the body's
                rty = "long" if kind == "num_of" else self.static_type(e.body, inner)
                if rty is None:
                    return _unsupported(f"\\{kind} whose body type rac cannot tell, under "
                                        f"spec_{self.mode}_math")
                args.append(_java_string(rty))
            out = self.op(folder, *args)
        if kind in ("max", "min"):
            out = f"{RT}.some({out}, {_java_string(chr(92) + kind)})"
        return out

    def _bound(self, exprs: list[tuple[A.Expr, int]], env: Env, pick: str) -> str:
        parts = []
        for ex, adj in exprs:
            s = self.expr(ex, env)
            if adj:
                s = f"{RT}.add({s}, (Object) Integer.valueOf({adj}))"
            parts.append(s)
        out = parts[0]
        for p in parts[1:]:
            out = f"{RT}.{pick}Of({out}, {p})"
        return out


def _conjuncts(e: A.Expr) -> list[A.Expr]:
    if isinstance(e, A.Binary) and e.op == "&&":
        return _conjuncts(e.left) + _conjuncts(e.right)
    if isinstance(e, A.Chain):
        return [A.Binary(e.line, op, e.operands[k], e.operands[k + 1])
                for k, op in enumerate(e.ops)]
    return [e]


def _mentions(e: A.Expr, names: set[str]) -> bool:
    return any(isinstance(n, A.Name) and n.id in names for n in A.walk(e))


def _bounds(q: A.Quant, ty: str) -> dict[str, tuple[list[tuple[A.Expr, int]],
                                                   list[tuple[A.Expr, int]]]]:
    """Inclusive lower and upper bound expressions of each quantified variable.

    Taken from the range's conjuncts (or, without a range, from the antecedent of a ``==>``
    body for ``\\forall`` and from the body's conjuncts otherwise). A bound that names a later
    variable is replaced by that variable's own bounds (looser, still sound: the full range
    predicate is evaluated for every value). Variables without both bounds are missing.
    """
    if q.range is not None:
        source = q.range
    elif q.kind == "forall" and isinstance(q.body, A.Binary) and q.body.op == "==>":
        source = q.body.left
    else:
        source = q.body
    names = list(q.vars)
    lows: dict[str, list[tuple[A.Expr, int]]] = {v: [] for v in names}
    highs: dict[str, list[tuple[A.Expr, int]]] = {v: [] for v in names}
    var_low: dict[str, list[tuple[str, int]]] = {v: [] for v in names}
    var_high: dict[str, list[tuple[str, int]]] = {v: [] for v in names}
    flip = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "=="}
    for c in _conjuncts(source):
        if not isinstance(c, A.Binary) or c.op not in flip:
            continue
        for v, op, other in ((c.left, c.op, c.right), (c.right, flip[c.op], c.left)):
            if not (isinstance(v, A.Name) and v.id in names):
                continue
            x = v.id
            adj_lo = {">": 1, ">=": 0, "==": 0}.get(op)
            adj_hi = {"<": -1, "<=": 0, "==": 0}.get(op)
            if isinstance(other, A.Name) and other.id in names:
                if adj_lo is not None:
                    var_low[x].append((other.id, adj_lo))
                if adj_hi is not None:
                    var_high[x].append((other.id, adj_hi))
                continue
            if _mentions(other, {x}):
                continue
            if adj_lo is not None:
                lows[x].append((other, adj_lo))
            if adj_hi is not None:
                highs[x].append((other, adj_hi))
    out: dict[str, tuple[list[tuple[A.Expr, int]], list[tuple[A.Expr, int]]]] = {}
    for k, var in enumerate(names):
        later = set(names[k:])

        def usable(bs: list[tuple[A.Expr, int]], later: set[str] = later) -> list[
                tuple[A.Expr, int]]:
            return [(b, a) for b, a in bs if not _mentions(b, later)]

        lo = usable(lows[var])
        hi = usable(highs[var])
        for w, adj in var_low[var]:
            if names.index(w) < k:
                lo.append((A.Name(q.line, w), adj))
            else:
                lo += [(b, a + adj) for b, a in usable(lows[w])]
        for w, adj in var_high[var]:
            if names.index(w) < k:
                hi.append((A.Name(q.line, w), adj))
            else:
                hi += [(b, a + adj) for b, a in usable(highs[w])]
        small = {"char": (0, 0xFFFF), "byte": (-128, 127), "short": (-32768, 32767)}
        if ty in small:  # the type bounds the variable (R.each clamps every range to it)
            lo = lo or [(A.Lit(q.line, "int", small[ty][0], str(small[ty][0])), 0)]
            hi = hi or [(A.Lit(q.line, "int", small[ty][1], str(small[ty][1])), 0)]
        if lo and hi:
            out[var] = (lo, hi)
    return out
