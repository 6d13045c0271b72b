"""JML's implicit clauses made explicit, once, in the front end.

Every engine (rac, key, openjml stubs) evaluates the spec cases this module returns, so a rule
of the language lives in one place and the engines cannot disagree about it:

- non-null by default (JML RM 2.8 / OpenJML's default ``--nullable-by-default=false``): each
  reference parameter not declared ``nullable`` adds ``p != null`` in front of every spec
  case's requires, and a reference result not declared ``nullable`` adds ``\\result != null``
  to every spec case's ensures, unless the method or its class is ``nullable_by_default``;
- ``exceptional_behavior`` means ``ensures false`` for normal termination (JML RM 9.5), so a
  normal result for an input that such a case covers is rejected;
- ``old T x = e;`` (JML RM 9.9.2): ``x`` is ``e`` in requires and ``\\old(e)`` in ensures;
- ``\\old(p)`` of a parameter is the pre-state *reference*, which is ``p`` itself in ensures
  (parameters there already mean their pre-state values), so ``\\old(a)[0]`` reads the
  post-state contents, as in OpenJML;
- ``assignable`` (JML RM 9.9.9): a parameter's array element (or collection) that changed
  between the case's input and its post-state output must be inside the frame; omitted frames
  are ``\\everything``, or ``\\nothing`` for a ``pure`` method.

It also rejects ill-formed spec cases (``ensures`` inside ``exceptional_behavior``,
``signals`` inside ``normal_behavior``; JML RM 9.5).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adequacy.plugin import SpecInvalid

from . import ast as A
from .lexer import Token
from .members import JavaClass, JavaMethod, JmlClause, SpecCase
from .parser import PRIMITIVES, parse_expression

FRAME_VAR = "__frame_i"
ARITHMETIC = {"+", "-", "*", "/", "%", "<<", ">>", ">>>"}


def is_reference(java_type: str | None) -> bool:
    return bool(java_type) and java_type not in PRIMITIVES and java_type != "void"


def map_expr(e: A.Expr, f: Callable[[A.Expr, frozenset[str]], A.Expr | None],
             bound: frozenset[str] = frozenset()) -> A.Expr:
    """Rebuild ``e`` top-down: where ``f(node, bound)`` returns a node it replaces the subtree;
    ``bound`` holds the quantified variables in scope."""
    r = f(e, bound)
    if r is not None:
        return r
    inner = bound | set(e.vars) if isinstance(e, A.Quant) else bound
    kw: dict[str, Any] = {}
    for k, v in e.__dict__.items():
        if isinstance(v, A.Expr):
            kw[k] = map_expr(v, f, inner)
        elif isinstance(v, tuple) and v and isinstance(v[0], A.Expr):
            kw[k] = tuple(map_expr(x, f, inner) for x in v)
        else:
            kw[k] = v
    return type(e)(**kw)


def substitute(e: A.Expr, names: Mapping[str, A.Expr]) -> A.Expr:
    def f(x: A.Expr, bound: frozenset[str]) -> A.Expr | None:
        if isinstance(x, A.Name) and x.id in names and x.id not in bound:
            return names[x.id]
        return None
    return map_expr(e, f)


def old_reference(e: A.Expr, params: set[str]) -> A.Expr:
    """``\\old(p)`` of a parameter -> ``p``: the same reference (and for a primitive the same
    value), whose contents an enclosing index or call reads in the post-state."""
    def f(x: A.Expr, bound: frozenset[str]) -> A.Expr | None:
        if isinstance(x, A.Old) and isinstance(x.expr, A.Name) and x.expr.id in params \
                and x.expr.id not in bound:
            return x.expr
        return None
    return map_expr(e, f)


def nullable_by_default(cls: JavaClass, method: JavaMethod) -> bool:
    mods = method.modifiers | cls.modifiers
    if "non_null_by_default" in method.modifiers:
        return False
    return "nullable_by_default" in mods


def nonnull_params(cls: JavaClass, method: JavaMethod) -> list[str]:
    if nullable_by_default(cls, method):
        return []
    return [n for t, n in method.params if is_reference(t) and n not in method.nullable_params]


def nonnull_result(cls: JavaClass, method: JavaMethod) -> bool:
    return is_reference(method.return_type) and "nullable" not in method.modifiers \
        and not nullable_by_default(cls, method)


@dataclass
class DesugaredCase:
    """One spec case with JML's implicit clauses added (what every engine evaluates)."""

    kind: str
    line: int
    requires: list[tuple[A.Expr, int]]
    ensures: list[tuple[A.Expr, int]]


def check_case(sc: SpecCase, file: str | None) -> None:
    if sc.kind == "exceptional" and sc.ensures:
        raise SpecInvalid("ensures clause in an exceptional_behavior spec case (it means "
                          "ensures false; JML RM 9.5)", file=file, line=sc.ensures[0].line)
    if sc.kind == "normal" and sc.signals:
        raise SpecInvalid(f"{sc.signals[0].keyword} clause in a normal_behavior spec case "
                          "(it means signals false; JML RM 9.5)", file=file,
                          line=sc.signals[0].line)


def parse_clause(tokens: list[Token], file: str | None, line: int) -> A.Expr:
    toks = list(tokens)
    # ``requires P \else E;`` names the exception for a violated precondition: P is the clause
    for k, t in enumerate(toks):
        if t.kind == "backslash" and t.text == "\\else":
            toks = toks[:k]
            break
    return parse_expression(toks, file, line)


def old_bindings(sc: SpecCase, file: str | None) -> dict[str, A.Expr]:
    """``old T x = e;`` declarations: name -> e (with earlier declarations substituted)."""
    out: dict[str, A.Expr] = {}
    for cl in sc.old:
        eq = next((k for k, t in enumerate(cl.tokens) if t.is_op("=")), None)
        at = eq
        while at is not None and at >= 4 and cl.tokens[at - 1].is_op("]") \
                and cl.tokens[at - 2].is_op("["):
            at -= 2  # C-style ``old int t[] = ...`` (JLS 10.2)
        if eq is None or at is None or at < 2 or not cl.tokens[at - 1].is_ident():
            raise SpecInvalid("malformed old clause (expected `old T name = expression;`)",
                              file=file, line=cl.line)
        name = cl.tokens[at - 1].text
        out[name] = substitute(parse_expression(cl.tokens[eq + 1:], file, cl.line), out)
    return out


def spec_cases(cls: JavaClass, method: JavaMethod, file: str | None) -> list[DesugaredCase]:
    """The method's spec cases as every engine must read them."""
    params = {n for _t, n in method.params}
    pre_nn = [(A.Binary(method.line, "!=", A.Name(method.line, p), _null(method.line)),
               method.line) for p in nonnull_params(cls, method)]
    post_nn = [(A.Binary(method.line, "!=", A.Result(method.line), _null(method.line)),
                method.line)] if nonnull_result(cls, method) else []
    out: list[DesugaredCase] = []
    for sc in method.spec:
        check_case(sc, file)
        olds = old_bindings(sc, file)
        in_post = {k: A.Old(v.line, v) for k, v in olds.items()}
        req = [(substitute(parse_clause(c.tokens, file, c.line), olds), c.line)
               for c in sc.requires]
        ens: list[tuple[A.Expr, int]] = []
        if sc.kind == "exceptional":
            ens.append((A.Lit(sc.line, "bool", False, "false"), sc.line))
        for c in sc.ensures:
            e = substitute(parse_clause(c.tokens, file, c.line), in_post)
            ens.append((old_reference(e, params), c.line))
        ens += frame_conditions(method, sc, file)
        # an implicit clause the case already states is not repeated (smaller KeY formulas)
        out.append(DesugaredCase(sc.kind, sc.line, _missing(pre_nn, req) + req,
                        ens + _missing(post_nn, ens)))
    if not out and (pre_nn or post_nn):
        out.append(DesugaredCase("lightweight", method.line, list(pre_nn), list(post_nn)))
    return out


def _shape(e: A.Expr) -> str:
    return re.sub(r"line=\d+(, )?", "", repr(e))


def _conjuncts(e: A.Expr) -> list[A.Expr]:
    if isinstance(e, A.Binary) and e.op == "&&":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _missing(implicit: Sequence[tuple[A.Expr, int]],
             stated: list[tuple[A.Expr, int]]) -> list[tuple[A.Expr, int]]:
    have = {_shape(c) for e, _ in stated for c in _conjuncts(e)}
    return [(e, ln) for e, ln in implicit if _shape(e) not in have]


def _null(line: int) -> A.Lit:
    return A.Lit(line, "null", None, "null")


# ------------------------------------------------------------------------------- frames
def _locations(clauses: list[JmlClause]) -> list[list[Token]]:
    locs: list[list[Token]] = []
    for cl in clauses:
        cur: list[Token] = []
        depth = 0
        for t in cl.tokens:
            if t.is_op("(", "[", "{"):
                depth += 1
            elif t.is_op(")", "]", "}"):
                depth -= 1
            if t.is_op(",") and depth == 0:
                locs.append(cur)
                cur = []
            else:
                cur.append(t)
        locs.append(cur)
    return [x for x in locs if x]


def frame_conditions(method: JavaMethod, sc: SpecCase,
                     file: str | None) -> list[tuple[A.Expr, int]]:
    """Ensures clauses saying that each array (or collection) parameter changed only inside the
    frame. A location we cannot read that names the parameter keeps its check undecided."""
    line = sc.assignable[0].line if sc.assignable else sc.line
    if not sc.assignable:
        if not method.is_pure:
            return []  # the default frame is \everything
        locs: list[list[Token]] = [[Token("backslash", "\\nothing", line)]]
    else:
        locs = _locations(sc.assignable)
    if any(len(loc) == 1 and loc[0].text in ("\\everything", "\\not_specified") for loc in locs):
        return []
    out: list[tuple[A.Expr, int]] = []
    for ty, p in method.params:
        array = ty.endswith("[]")
        collection = not array and ty.split("<")[0].rsplit(".", 1)[-1] in (
            "List", "ArrayList", "LinkedList", "Set", "HashSet", "TreeSet", "LinkedHashSet",
            "Map", "HashMap", "TreeMap", "LinkedHashMap", "Collection")
        if not (array or collection):
            continue
        allowed: list[A.Expr] = []
        whole = False
        unreadable = False
        for loc in locs:
            if not loc[0].is_ident(p):
                if any(t.is_ident(p) for t in loc) and not loc[0].is_ident("this"):
                    unreadable = True
                continue
            rest = loc[1:]
            if not rest:
                continue  # the parameter variable itself: assigning it is invisible
            if collection:
                if len(rest) == 2 and rest[0].is_op(".") and rest[1].is_op("*"):
                    whole = True
                else:
                    unreadable = True
                continue
            if not (rest[0].is_op("[") and rest[-1].is_op("]")):
                unreadable = True
                continue
            inner = rest[1:-1]
            if len(inner) == 1 and inner[0].is_op("*"):
                whole = True
                continue
            dots = [k for k, t in enumerate(inner) if t.is_op("..")]
            i = A.Name(line, FRAME_VAR)
            try:
                if dots:
                    lo = parse_expression(inner[:dots[0]], file, line)
                    hi = parse_expression(inner[dots[0] + 1:], file, line)
                    allowed.append(A.Chain(line, ("<=", "<="), (A.Old(line, lo), i,
                                                                A.Old(line, hi))))
                else:
                    allowed.append(A.Binary(line, "==", i,
                                            A.Old(line, parse_expression(inner, file, line))))
            except SpecInvalid:
                unreadable = True
        if whole:
            continue
        name = A.Name(line, p)
        if collection:
            same: A.Expr = A.Call(line, name, "equals", (A.Old(line, name),))
        else:
            i = A.Name(line, FRAME_VAR)
            elem_same: A.Expr = A.Binary(line, "==", A.Index(line, name, i),
                                 A.Old(line, A.Index(line, name, i)))
            if ty[:-2] not in PRIMITIVES:
                elem_same = A.Call(line, A.Name(line, "Objects"), "equals", (
                    A.Index(line, name, i), A.Old(line, A.Index(line, name, i))))
            # the last location first, as the left-nested chain this was; balanced, so that
            # ``assignable a[0], ..., a[999]`` is no 1,000-deep tree
            body: A.Expr = A.balanced(line, "||", [*reversed(allowed), elem_same])
            same = A.Quant(line, "forall", "int", (FRAME_VAR,),
                           A.Chain(line, ("<=", "<"), (A.Lit(line, "int", 0, "0"), i,
                                                       A.Field(line, name, "length"))), body)
        if unreadable:
            same = A.Binary(line, "||", same, A.Special(line, "\\unreadable_frame", ()))
        out.append((A.Binary(line, "||", A.Binary(line, "==", name, _null(line)), same), line))
    return out


# ------------------------------------------------------------------------------- math modes
def _mode(mods: set[str], prefix: str) -> str | None:
    for m in ("java", "safe", "bigint"):
        if f"{prefix}_{m}_math" in mods:
            return m
    return None


def spec_math_mode(cls: JavaClass, method: JavaMethod) -> str:
    """The arithmetic mode of the method's spec: ``bigint``, ``java`` or ``safe``.

    As OpenJML's ``Arithmetic.defaultArithmeticMode`` finds it: the method's
    ``spec_*_math`` modifier, else its class's, else the default ``spec_bigint_math``
    (OpenJML tutorial "Arithmetic Modes": math mode for specifications). The ``code_*``
    modifiers concern Java code only, never the spec's own arithmetic.
    """
    return _mode(method.modifiers, "spec") or _mode(cls.modifiers, "spec") or "bigint"


def math_gap(cls: JavaClass, method: JavaMethod, cases: list[DesugaredCase]) -> str | None:
    """Why an engine that computes only ``spec_bigint_math`` (KeY) cannot evaluate this spec's
    arithmetic faithfully, or None. rac computes every mode (``spec_math_mode``) and ignores it.

    ``code_java_math`` / ``code_safe_math`` / ``code_bigint_math`` need no gap: helper code
    called from a spec runs with Java's values in all three (safe math only adds overflow
    warnings about the code itself; OpenJML's tutorial: "``code_bigint_math`` is not an
    operational mode at present"), and the method under specification is never run to
    evaluate a case (the case holds its output).
    """
    # KeY proves the spec inside generated stub methods of the same class, which carry the
    # class's mode but not the method's: a class in another mode is a gap even when the
    # method's own modifier restores bigint math (KeY was seen proving a wrapped sum there)
    modes = {spec_math_mode(cls, method), _mode(cls.modifiers, "spec") or "bigint"}
    spec_mode = next((m for m in ("java", "safe") if m in modes), "bigint")
    exprs = [e for c in cases for e, _ in c.requires + c.ensures]
    nodes = [n for e in exprs for n in A.walk(e)]
    if any(isinstance(n, A.Special) and n.name in ("\\java_math", "\\safe_math")
           for n in nodes):
        return "\\java_math / \\safe_math in the spec (key computes spec_bigint_math)"
    if spec_mode != "bigint" and any(
            (isinstance(n, A.Binary) and n.op in ARITHMETIC | {"&", "|", "^"})
            or (isinstance(n, A.Unary) and n.op in ("-", "~"))
            or isinstance(n, A.Cast)
            or (isinstance(n, A.Quant) and n.kind in ("sum", "product")) for n in nodes):
        return f"spec_{spec_mode}_math arithmetic (key computes spec_bigint_math)"
    return None


# ------------------------------------------------------------------------------- identity
def identity_comparison(method: JavaMethod, cases: list[DesugaredCase]) -> int | None:
    """Line of the first ``==`` / ``!=`` between an object of a known reference type (a
    parameter, ``\\result``, a string literal) and anything but ``null``, or None."""
    types = dict((n, t) for t, n in method.params)

    def ref(x: A.Expr, bound: frozenset[str]) -> bool:
        if isinstance(x, A.Old):
            return ref(x.expr, bound)
        if isinstance(x, A.Name):
            return x.id not in bound and is_reference(types.get(x.id))
        if isinstance(x, A.Result):
            return is_reference(method.return_type)
        return isinstance(x, A.Lit) and x.kind == "string"

    def null(x: A.Expr) -> bool:
        return isinstance(x, A.Lit) and x.kind == "null"

    found: list[int] = []

    def f(x: A.Expr, bound: frozenset[str]) -> A.Expr | None:
        pairs: list[tuple[A.Expr, A.Expr]] = []
        if isinstance(x, A.Binary) and x.op in ("==", "!="):
            pairs.append((x.left, x.right))
        if isinstance(x, A.Chain):
            pairs += [(x.operands[k], x.operands[k + 1]) for k, op in enumerate(x.ops)
                      if op in ("==", "!=")]
        for a, b in pairs:
            if (ref(a, bound) or ref(b, bound)) and not (null(a) or null(b)):
                found.append(x.line)
        return None

    for c in cases:
        for e, _line in c.requires + c.ensures:
            map_expr(e, f)
    return found[0] if found else None
