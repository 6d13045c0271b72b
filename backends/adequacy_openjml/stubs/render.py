"""Render the stubs: inputs fixed to a case's values, then phi (accept) or not-phi (reject).

- ``pre_phi``: a caller fixes the inputs and calls the method; only the call's precondition is
  checked (the method body is not re-verified: the checker is pointed at the stub only).
- ``pre_not``: the same inputs and ``assert !(pre)``, pre being the disjunction of the spec
  cases' requires.
- ``post_phi``: a copy of the method carrying the spec, whose body assumes the inputs and
  returns the case's output (Spec-Harness's ``{true} x:=i; y:=o {phi}``).
- ``post_not``: locals for inputs and output and ``assert !(post)``, post being the
  conjunction over normal spec cases of ``requires ==> ensures``.
Proving phi means accept, proving not-phi means reject, neither means unknown.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2

from adequacy.plugin import Case, Task

from ..jml import ast as A
from ..jml.load import JmlSpec, ordered_args

_ENV = jinja2.Environment(loader=jinja2.FileSystemLoader(str(Path(__file__).parent / "templates")),
                          autoescape=False, keep_trailing_newline=True,
                          undefined=jinja2.StrictUndefined)

_PREC = {"<==>": 1, "<=!=>": 1, "==>": 2, "<==": 2, "||": 3, "&&": 4, "|": 5, "^": 6, "&": 7,
         "==": 8, "!=": 8, "<": 9, "<=": 9, ">": 9, ">=": 9, "<:": 9, "<<": 10, ">>": 10,
         ">>>": 10, "+": 11, "-": 11, "*": 12, "/": 12, "%": 12}


_RANGES = {"int": ("Integer.MIN_VALUE", "Integer.MAX_VALUE"),
           "long": ("Long.MIN_VALUE", "Long.MAX_VALUE"),
           "short": ("-32768", "32767"), "byte": ("-128", "127")}


@dataclass
class Narrowing:
    """Arguments of the class's own methods narrowed to their integral parameter types, as
    Java's method call does (KeY reads ``f(n - 1)`` as a call ``f(\\bigint)`` and finds no such
    method). ``guards`` collects each narrowed argument's range: a stub asserts ``guards &&
    F`` (or ``guards && !F``), so outside the range, where the call is ill-defined (rac:
    unknown), neither direction is provable."""
    params: dict[tuple[str, int], tuple[str, ...]]
    """(own method name, arity) -> its parameter types, where one declaration has them."""
    guards: list[str] = field(default_factory=list)

    def guard(self) -> str:
        return " && ".join(dict.fromkeys(self.guards)) or "true"


def names_in(e: A.Expr) -> set[str]:
    """The names an expression reads (``A.walk``: iterative, hostile trees may be deep)."""
    return {x.id for x in A.walk(e) if isinstance(x, A.Name)}


def _simple(a: A.Expr) -> bool:
    """A literal or a variable: already of the parameter's type (a pre-state rendering
    that ``_ens`` marks as a name is any expression)."""
    return isinstance(a, A.Lit) or (isinstance(a, A.Name) and not a.id.startswith("\0old("))


def _uses(a: A.Expr, bound: frozenset[str]) -> bool:
    """Whether ``a`` reads a quantifier's variable (inside a marked pre-state rendering too,
    whose names are words of its text)."""
    names = names_in(a)
    for n in [n for n in names if n.startswith("\0old(")]:
        names |= set(re.findall(r"[A-Za-z_$][\w$]*", n))
    return bool(names & bound)


def render_jml(e: A.Expr, subst: dict[str, str] | None = None, result: str = "\\result",
               drop_old: bool = False, narrow: Narrowing | None = None,
               bound: frozenset[str] = frozenset()) -> str:
    """JML text of an expression, fully parenthesised, with names substituted (except
    ``bound`` ones: the variables of quantifiers around ``e``)."""
    subst = subst or {}

    def go(x: A.Expr, bound: frozenset[str]) -> str:
        if isinstance(x, A.Lit):
            return x.text
        if isinstance(x, A.Name):
            return x.id if x.id in bound else subst.get(x.id, x.id)
        if isinstance(x, A.Result):
            return result
        if isinstance(x, A.Old):
            inner = go(x.expr, bound)
            return f"({inner})" if drop_old else f"\\old({inner})"
        if isinstance(x, A.Field):
            return f"{go(x.obj, bound)}.{x.name}"
        if isinstance(x, A.Index):
            return f"{go(x.arr, bound)}[{go(x.index, bound)}]"
        if isinstance(x, A.Call):
            own = x.target is None or (isinstance(x.target, A.Name) and x.target.id == "this")
            texts = [go(a, bound) for a in x.args]
            types = narrow.params.get((x.name, len(x.args))) if narrow is not None and own \
                else None
            if narrow is not None and types is not None:
                for k, (a, ty) in enumerate(zip(x.args, types, strict=True)):
                    if ty in _RANGES and not _simple(a) and not _uses(a, bound):
                        lo, hi = _RANGES[ty]
                        narrow.guards.append(f"({lo} <= {texts[k]} && {texts[k]} <= {hi})")
                        texts[k] = f"(({ty}) {texts[k]})"
            args = ", ".join(texts)
            return (f"{go(x.target, bound)}." if x.target else "") + f"{x.name}({args})"
        if isinstance(x, A.Unary):
            return f"{x.op}({go(x.expr, bound)})"
        if isinstance(x, A.Binary):
            return f"({go(x.left, bound)} {x.op} {go(x.right, bound)})"
        if isinstance(x, A.Chain):
            parts = [f"({go(x.operands[k], bound)} {op} {go(x.operands[k + 1], bound)})"
                     for k, op in enumerate(x.ops)]
            return "(" + " && ".join(parts) + ")"
        if isinstance(x, A.Cond):
            return f"({go(x.cond, bound)} ? {go(x.then, bound)} : {go(x.other, bound)})"
        if isinstance(x, A.Cast):
            return f"(({x.type}) {go(x.expr, bound)})"
        if isinstance(x, A.InstanceOf):
            return f"({go(x.expr, bound)} instanceof {x.type})"
        if isinstance(x, A.Quant):
            b2 = bound | set(x.vars)
            rng = f"{go(x.range, b2)}; " if x.range is not None else ""
            return f"(\\{x.kind} {x.type} {', '.join(x.vars)}; {rng}{go(x.body, b2)})"
        if isinstance(x, A.Special):
            return x.name + ("(" + ", ".join(go(a, bound) for a in x.args) + ")" if x.args else "")
        if isinstance(x, A.TypeRef):
            return x.name
        if isinstance(x, A.New):
            if not x.brackets:
                return f"new {x.type}(" + ", ".join(go(a, bound) for a in x.args) + ")"
            dims = "".join(f"[{go(d, bound)}]" for d in x.dims) + \
                "[]" * (x.brackets - len(x.dims))
            init = "" if x.elements is None else \
                "{" + ", ".join(go(a, bound) for a in x.elements) + "}"
            return f"new {x.type}{dims}{init}"
        raise TypeError(type(x).__name__)

    return go(e, bound)


def char_literal(c: str) -> str:
    """A char as every Java reader takes it. Not ``'\\uXXXX'``: Java turns unicode escapes
    into characters before it lexes (JLS 3.3), so ``'\\u0027'`` is ``'''`` and ``'\\u005c'``
    is ``'\\'``, which no parser reads (a quote in one generated case made KeY refuse the whole
    stub file). Printable ASCII is written as itself, a quote or backslash escaped, anything
    else as a cast of its code point."""
    code = ord(c)
    if c in ("'", "\\"):
        return "'\\" + c + "'"
    if 0x20 <= code < 0x7F:
        return f"'{c}'"
    return f"((char) {code})"


def java_literal(value: Any, java_type: str) -> str:
    """A Java expression of ``java_type`` with the JSON value (docs/tasks.md, "Values")."""
    t = java_type.replace(" ", "")
    if value is None:
        return "null"
    if t.endswith("[]"):
        el = t[:-2]
        if isinstance(value, str) and el == "char":
            value = list(value)
        return f"new {t}{{" + ", ".join(java_literal(v, el) for v in value) + "}"
    base = t.split("<", 1)[0].rsplit(".", 1)[-1]
    if base in ("int", "Integer", "short", "Short", "byte", "Byte"):
        cast = {"short": "(short) ", "Short": "(short) ", "byte": "(byte) ",
                "Byte": "(byte) "}.get(base, "")
        return f"{cast}{int(value)}" if value >= 0 else f"{cast}({int(value)})"
    if base in ("long", "Long"):
        return f"{int(value)}L" if value >= 0 else f"({int(value)}L)"
    if base in ("double", "Double", "float", "Float"):
        suffix = "f" if base.lower() == "float" else "d"
        box = "Float" if suffix == "f" else "Double"
        if isinstance(value, str):
            return {"NaN": f"{box}.NaN", "Infinity": f"{box}.POSITIVE_INFINITY",
                    "-Infinity": f"{box}.NEGATIVE_INFINITY"}[value]
        v = float(value)
        if math.isnan(v):
            return f"{box}.NaN"
        return f"({v!r}{suffix})"
    if base in ("char", "Character"):
        return char_literal(str(value))
    if base in ("boolean", "Boolean"):
        return "true" if value else "false"
    if base in ("String", "CharSequence"):
        return json.dumps(value, ensure_ascii=True)
    if base in ("List", "ArrayList", "Collection", "LinkedList", "Set", "HashSet", "TreeSet",
                "LinkedHashSet"):
        args = t[t.index("<") + 1:t.rindex(">")] if "<" in t else "Object"
        kind = "java.util.ArrayList" if "List" in base or base == "Collection" else \
            "java.util.LinkedHashSet"
        return f"new {kind}<{args}>(java.util.Arrays.asList(" + \
            ", ".join(java_literal(v, args) for v in value) + "))"
    raise ValueError(f"cannot render a value of Java type {java_type} in a stub")


@dataclass
class Stub:
    name: str
    kind: str
    """``pre_phi``, ``pre_not``, ``post_phi``, ``post_not``."""
    case_id: str
    bucket: str
    direction: str
    locals: list[str] = field(default_factory=list)
    call: str = ""
    assertion: str = ""
    guard: str = "true"
    """Ranges of the arguments ``narrow`` narrowed in ``assertion`` (``Narrowing``)."""
    spec_jml: str = ""
    result_type: str = "void"
    params: str = ""
    fix_inputs: str = "true"
    body: list[str] = field(default_factory=list)


@dataclass
class StubFile:
    class_name: str
    text: str
    stubs: list[Stub]
    skipped: dict[str, str]
    """Case id -> why no stub could be written (the case stays unknown)."""


def _pre_formula(spec: JmlSpec, subst: dict[str, str], **kw: Any) -> str:
    if not spec.cases:
        return "true"
    parts = []
    for c in spec.cases:
        req = " && ".join(render_jml(e, subst, **kw) for e, _ in c.requires) or "true"
        parts.append(f"({req})")
    return "(" + " || ".join(parts) + ")"


def _post_formula(spec: JmlSpec, pre_subst: dict[str, str], post_subst: dict[str, str],
                  result: str, **kw: Any) -> str:
    parts = []
    for c in spec.cases:  # every case constrains normal returns (jml.semantics)
        req = " && ".join(render_jml(e, pre_subst, **kw) for e, _ in c.requires) or "true"
        ens = " && ".join(_ens(e, pre_subst, post_subst, result, **kw)
                          for e, _ in c.ensures) or "true"
        parts.append(f"(({req}) ==> ({ens}))")
    return "(" + " && ".join(parts or ["true"]) + ")"


def _ens(e: A.Expr, pre: dict[str, str], post: dict[str, str], result: str, **kw: Any) -> str:
    """Ensures with parameters as post-state locals, ``\\old`` parts as pre-state locals."""

    def swap(x: A.Expr, bound: frozenset[str]) -> A.Expr:
        if isinstance(x, A.Old):
            return A.Name(x.line, "\0old(" + render_jml(x.expr, pre, bound=bound, **kw) + ")")
        if isinstance(x, A.Quant):
            inner = bound | set(x.vars)
            return A.Quant(x.line, x.kind, x.type, x.vars,
                           swap(x.range, inner) if x.range is not None else None,
                           swap(x.body, inner))
        parts: dict[str, Any] = {}
        for k, v in x.__dict__.items():
            if isinstance(v, A.Expr):
                parts[k] = swap(v, bound)
            elif isinstance(v, tuple) and v and isinstance(v[0], A.Expr):
                parts[k] = tuple(swap(a, bound) for a in v)
            else:
                parts[k] = v
        return type(x)(**parts)

    narrow: Narrowing | None = kw.get("narrow")
    before = len(narrow.guards) if narrow is not None else 0
    text = _inline_old(render_jml(swap(e, frozenset()), post, result=result, **kw))
    if narrow is not None:
        narrow.guards[before:] = [_inline_old(g) for g in narrow.guards[before:]]
    return text


def _inline_old(text: str) -> str:
    """Names marked as pre-state renderings (``_ens``) inlined back, parenthesised."""
    while "\0old(" in text:
        i = text.index("\0old(")
        depth, j = 0, i + 4
        while j < len(text):
            if text[j] == "(":
                depth += 1
            elif text[j] == ")":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        inner = text[i + 5:j]
        # a bare (dotted) name stays bare: ``(o.f) + x`` reads as a cast of ``+x`` to type
        # ``o.f`` in KeY's parser
        if not re.fullmatch(r"[\w$]+(\.[\w$]+)*", inner):
            inner = f"({inner})"
        text = text[:i] + inner + text[j + 1:]
    return text


def _fields_after_call(spec: JmlSpec) -> tuple[set[str], bool, set[str]]:
    """Instance fields the ensures clauses read in the post-state (outside ``\\old``), whether
    any is read as ``this.f``, and the instance methods of the class they call on the object
    there. A stub has no call, so such a field holds its pre-state value there: ``balance ==
    \\old(balance)`` would be proved for any case; a helper such as ``getBalance()`` would read
    the pre-state object too, and no local can stand for it. Final fields and pure methods
    change nothing, unless a final field's value has state of its own
    (``JavaField.may_change``); the rules rac's translator applies: it leaves such helper
    calls unknown when the class has a field that may change."""
    m = spec.method
    if m.is_pure:
        return set(), False, set()
    # static fields too: a stub makes no call, so they also hold their value before it (a
    # static method's stub sees only those)
    mutable = {f.name for f in spec.cls.fields if f.may_change
               and not (m.is_static and "static" not in f.modifiers)}
    statics = any(f.may_change and "static" in f.modifiers for f in spec.cls.fields)
    helpers = {h.name for h in spec.cls.methods + spec.cls.models
               if h.return_type not in (None, "void") and (statics or not h.is_static)
               } if mutable else set()
    own = {"this", spec.cls.name}
    names: set[str] = set()
    calls: set[str] = set()
    dotted = False

    def walk(x: A.Expr) -> None:
        nonlocal dotted
        if isinstance(x, A.Old):
            return
        if isinstance(x, A.Name) and x.id in mutable:
            names.add(x.id)
        if isinstance(x, A.Field) and isinstance(x.obj, A.Name) and x.obj.id in own \
                and x.name in mutable:
            names.add(x.name)
            dotted = True
        if isinstance(x, A.Call) and x.name in helpers and (
                x.target is None or (isinstance(x.target, A.Name) and x.target.id in own)):
            calls.add(x.name)
        for v in A.children(x):
            walk(v)

    for c in spec.cases:
        for e, _line in c.ensures:
            walk(e)
    return names, dotted, calls


def render_stubs(spec: JmlSpec, task: Task, cases: list[Case],
                 narrow: bool = False) -> StubFile:
    """All stubs of one spec, both directions per case, in one compilation unit.
    ``narrow`` shapes the not-phi formulas for KeY (``Narrowing``); each stub's ``guard``
    then holds the narrowed arguments' ranges."""
    m = spec.method
    result_param = spec.result_param
    src = spec.source.text
    close = spec.cls.body_close
    head, tail = src[:close].rstrip(), src[close:]
    spec_start = _spec_start(spec)
    spec_jml = src[spec_start:m.start].strip() if spec_start is not None else ""
    stubs: list[Stub] = []
    skipped: dict[str, str] = {}
    after, dotted, calls = _fields_after_call(spec)
    named = task.settings.get("post_fields", [])
    named = set(named) if isinstance(named, list) else {named}
    types = {f.name: f.type for f in spec.cls.fields}
    final = sorted(f.name for f in spec.cls.fields if f.name in after and "final" in f.modifiers)
    # a field read after the call is the case's output where ``[jml] post_fields`` names it
    # (a local, as parameters' post-states are); otherwise the stub cannot state it, nor a
    # method of the object called there (it would read the object before the call)
    no_post = (f"no stub: field {', '.join(sorted(after - named))} after the call (the case "
               "has no post-state of the object)") if after - named else \
        "no stub: a field read as this.f or Class.f after the call" if dotted else \
        (f"no stub: ensures call {', '.join(sorted(calls))} on the object after the call "
         "(a stub makes no call: it would read the object or class before it)") if calls else \
        (f"no stub: final field {', '.join(final)} after the call (the stub's body cannot "
         "assign it)") if final else ""
    for k, case in enumerate(cases):
        try:
            args = ordered_args(task, m.params, m.name, case.input)
            ins = [(ty, name, java_literal(v, ty)) for (ty, name), v in zip(m.params, args,
                                                                           strict=True)]
        except (ValueError, KeyError, TypeError) as e:
            skipped[case.id] = f"no stub: {e}"
            continue
        pre_names = {name: f"__in_{name}" for _t, name, _l in ins}
        locals_ = [f"{ty} __in_{name} = {lit};" for ty, name, lit in ins]
        if case.bucket.predicate == "pre":
            # an instance method is called on the stub's own object (the stub is then an
            # instance method too: ``[jml] static = false``)
            recv = f"{spec.cls.name}." if m.is_static else "this."
            call = f"{recv}{m.name}(" + ", ".join(f"__in_{n}" for _t, n, _l in ins) + ")"
            stubs.append(Stub(f"__pre_phi_{k}", "pre_phi", case.id, case.bucket.value,
                              "phi", locals_, call=call))
            nw = _narrowing(spec) if narrow else None
            stubs.append(Stub(f"__pre_not_{k}", "pre_not", case.id, case.bucket.value,
                              "not-phi", locals_,
                              assertion="!" + _pre_formula(spec, pre_names, narrow=nw),
                              guard=nw.guard() if nw else "true"))
            continue
        out = case.output or {}
        if no_post:
            skipped[case.id] = no_post
            continue
        try:
            post_locals = list(locals_)
            post_names = dict(pre_names)
            for name in sorted(after):
                post_locals.append(f"{types[name]} __out_{name} = "
                                   f"{java_literal(out[name], types[name])};")
                post_names[name] = f"__out_{name}"
            for ty, name, _lit in ins:
                if name in out:
                    post_locals.append(f"{ty} __out_{name} = {java_literal(out[name], ty)};")
                    post_names[name] = f"__out_{name}"
            rtype = m.return_type or "void"
            result = "\\result"
            # the returned value: the output's ``result``, or the post-state object of the
            # parameter the method provably returns (``JmlSpec.result_param``)
            ret_param = m.params[result_param][1] if result_param >= 0 and \
                "result" not in out and m.params[result_param][1] in out else None
            if rtype != "void":
                res_expr = f"__out_{ret_param}" if ret_param else \
                    java_literal(out.get("result"), rtype)
                post_locals.append(f"{rtype} __res = {res_expr};")
                result = "__res"
        except (ValueError, KeyError, TypeError) as e:
            skipped[case.id] = f"no stub: {e}"
            continue
        fix = " && ".join(_equals(name, ty, lit) for ty, name, lit in ins) or "true"
        body = [f"{name}[{i}] = {java_literal(v, ty[:-2])};"
                for ty, name, _l in ins if name in out and isinstance(out[name], list)
                for i, v in enumerate(out[name])]
        body += [f"this.{name} = {java_literal(out[name], types[name])};"
                 for name in sorted(after)]
        if rtype != "void":
            body.append(f"return {ret_param or java_literal(out.get('result'), rtype)};")
        stubs.append(Stub(f"__post_phi_{k}", "post_phi", case.id, case.bucket.value, "phi",
                          spec_jml=spec_jml, result_type=rtype,
                          params=", ".join(f"{t} {n}" for t, n in m.params),
                          fix_inputs=fix, body=body))
        nw = _narrowing(spec) if narrow else None
        formula = _post_formula(spec, pre_names, post_names, result, narrow=nw)
        stubs.append(Stub(f"__post_not_{k}", "post_not", case.id, case.bucket.value, "not-phi",
                          post_locals, assertion=f"!{formula}",
                          guard=nw.guard() if nw else "true"))
    text = _ENV.get_template("stubs.java.j2").render(head=head, tail=tail, stubs=stubs,
                                                     static=m.is_static)
    return StubFile(spec.cls.name, text, stubs, skipped)


def _narrowing(spec: JmlSpec) -> Narrowing:
    """Parameter types of the class's methods (and model methods) by name and arity, where
    one declaration has them: between overloads of one arity Java picks by the arguments'
    static types, which the stub does not redo, so such calls are left as written."""
    seen: dict[tuple[str, int], list[tuple[str, ...]]] = {}
    for n, ms in spec.cls.methods_by_name.items():
        for m in ms:
            seen.setdefault((n, len(m.params)), []).append(tuple(t.strip() for t, _ in m.params))
    return Narrowing({k: v[0] for k, v in seen.items() if len(v) == 1})


def _equals(name: str, ty: str, lit: str) -> str:
    if lit == "null":
        return f"{name} == null"
    if ty.endswith("[]"):
        return f"{name} != null && {name}.length == {lit.count(',') + 1 if lit.endswith('}') and not lit.endswith('{}') else 0}" + "".join(
            f" && {name}[{i}] == {v.strip()}" for i, v in enumerate(_elements(lit)))
    if ty.split("<")[0] in ("String", "List", "Set", "ArrayList"):
        return f"{name} != null && {name}.equals({lit})"
    return f"{name} == {lit}"


def _elements(lit: str) -> list[str]:
    """Top-level elements of a rendered one-dimensional array literal (else none)."""
    inner = lit[lit.index("{") + 1:-1]
    if not inner or "{" in inner:
        return []
    return inner.split(", ")


def _spec_start(spec: JmlSpec) -> int | None:
    """Offset of the first JML annotation attached to the method (its spec's text)."""
    m = spec.method
    text = spec.source.text
    # walk back over whitespace and comments that end right before the method
    i = m.start
    start = None
    while True:
        j = i
        while j > 0 and text[j - 1].isspace():
            j -= 1
        if text.endswith("*/", 0, j):
            k = text.rfind("/*", 0, j - 2)
            if k < 0:
                break
            start = k
            i = k
            continue
        line_start = text.rfind("\n", 0, j) + 1
        line = text[line_start:j].lstrip()
        if line.startswith("//"):
            start = line_start
            i = line_start
            continue
        break
    return start
