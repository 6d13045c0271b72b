"""Front end of the Verus backend: parse a spec file and enforce the untrusted-spec policy.

Specs come from language models and people (docs/sandbox.md) and the exec_spec engine hands
them to rustc, so the policy is an allow-list checked on what rustc will read: the lexer
produces rustc's own tokens (``syntax/lexer.py``), and the rules below look at those tokens and
at the syntax tree, never at the text. Two layers:

- **tokens** (every token of the file, whatever the parser skipped): no name of a crate other
  than ``vstd`` (``std``, ``core``, ``alloc``, ``proc_macro``), no path starting at ``::``,
  ``crate::``, ``self::`` or ``super::``, no ``unsafe``/``extern``/``static``/``mod``/``const``
  /``async``/``dyn``/``macro``, no macro invocation but ``seq!``/``set!``/``map!`` (and the
  ``verus!``/``exec_spec_unverified!`` blocks), no raw identifiers, no ``$``, no C strings, no
  literal suffixes beyond the integer and float types, and only harmless attributes;
- **syntax tree**: only spec items (``spec fn``, structs, enums, inherent impls of spec
  methods, ``use vstd::...``), the skeleton's structs unchanged (compared as trees, so layout
  and trailing commas don't matter), ``pre_spec``/``post_spec`` with the skeleton's signatures.

A spec that passes has no token that could make rustc read a file, run code at build time,
reach the standard library or leave spec code.
"""

from __future__ import annotations

from adequacy.plugin import SpecInvalid

from . import attributes
from .attributes import parse_verifier
from .syntax import ast as A
from .syntax.ast import SpecModule
from .syntax.lexer import Token, normalize_tokens, tokenize
from .syntax.parser import CLAUSE_KWS, parse_tokens
from .typecheck import check_module as typecheck_module

ALLOWED_MACROS = frozenset({"seq", "set", "map"})
WRAPPERS = frozenset({"verus", "exec_spec_unverified"})
#: Crates a path could reach besides vstd (the extern prelude of an edition-2021 binary).
CRATE_NAMES = frozenset({"std", "core", "alloc", "proc_macro"})
#: Path roots that climb out of the spec's own items.
RELATIVE_ROOTS = frozenset({"crate", "self", "super"})
#: Keywords that only ever introduce code a spec must not have.
FORBIDDEN_KEYWORDS = frozenset({"unsafe", "extern", "static", "mod", "const", "async", "await",
                                "dyn", "macro"})
#: Rust's strict and reserved keywords (a keyword cannot name a macro, a crate or a module).
_KEYWORDS = (
    "as break const continue crate else enum extern false fn for if impl in let loop match mod "
    "move mut pub ref return self Self static struct super trait true type unsafe use where "
    "while async await dyn abstract become box do final macro override priv typeof unsized "
    "virtual yield try gen")
RUST_KEYWORDS = frozenset(_KEYWORDS.split())
#: Words after which ``!`` is an operator (``if !x``, ``ensures !r``), not a macro invocation.
_NOT_MACRO = RUST_KEYWORDS | frozenset(CLAUSE_KWS)
_INTS = "u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize int nat"
INT_SUFFIXES = frozenset(_INTS.split())
FLOAT_SUFFIXES = frozenset({"f32", "f64"})
def parse_spec(text: str, path: str | None = None) -> SpecModule:
    """Parse a whole spec or skeleton file; syntax errors raise ``SpecInvalid`` with the line."""
    return _parse(tokenize(text, path), path)


def _parse(toks: list[Token], path: str | None) -> SpecModule:
    try:
        return parse_tokens(toks, path)
    except SpecInvalid:
        raise
    except (ValueError, IndexError, RecursionError) as e:  # defensive: malformed literals etc.
        raise SpecInvalid(f"cannot parse spec: {e}", file=path) from e


def normalize(text: str) -> str:
    """Comments and layout removed (token texts joined by single spaces): the cache key."""
    try:
        return normalize_tokens(tokenize(text))
    except SpecInvalid:
        return " ".join(text.split())


def _fail(msg: str, path: str | None, line: int | None) -> SpecInvalid:
    return SpecInvalid(msg, file=path, line=line)


# ---------------------------------------------------------------- token layer

def _close_of(toks: list[Token], k: int) -> int:
    """Index of the bracket closing the one at ``k``; on a mismatch (a file the parser would
    refuse anyway) the attribute just runs to the mismatch or the end of the file."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack: list[str] = []
    j = k
    while j < len(toks) and toks[j].kind != "eof":
        t = toks[j]
        if t.kind == "punct" and t.value in pairs:
            stack.append(pairs[str(t.value)])
        elif t.kind == "punct" and t.value in (")", "]", "}"):
            if not stack or stack.pop() != t.value:
                break
            if not stack:
                return j
        j += 1
    return j


def _check_attribute(toks: list[Token], k: int, path: str | None) -> None:
    """``toks[k]`` is ``#``: the attribute must be one of the harmless ones."""
    line = toks[k].line
    j = k + 1
    inner = toks[j].is_p("!")
    if inner:
        j += 1
    if not toks[j].is_p("["):
        raise _fail("'#' outside an attribute is not allowed in a spec", path, line)
    close = _close_of(toks, j)
    body = toks[j + 1:close]
    shown = "#" + ("!" if inner else "") + "[" + " ".join(t.text for t in body) + "]"
    names: list[str] = []
    m = 0
    while m < len(body) and body[m].kind == "ident" and not body[m].raw:
        names.append(str(body[m].value))
        if m + 1 < len(body) and body[m + 1].is_p("::"):
            m += 2
            continue
        m += 1
        break
    rest = body[m:]
    name = "::".join(names)
    ok = False
    if name in ("trigger", "auto"):
        ok = name == "trigger" or not rest
    elif not inner and names and names[0] == "verifier":
        got = parse_verifier(body)
        if isinstance(got, str):
            raise _fail(f"attribute {shown} is not allowed in a spec: {got}", path, line)
        ok = got is not None
    elif not inner and name == "allow" and rest and rest[0].is_p("("):
        ok = all(t.kind == "ident" or t.is_p(",") or t.is_p("::") or t.is_p("(")
                 or t.is_p(")") for t in rest)
    if not ok:
        raise _fail(f"attribute {shown} is not allowed in a spec (allowed: #[verifier::...] "
                    "verification hints, #[trigger], #![trigger ...], #![auto], #[allow(...)])",
                    path, line)


def check_tokens(toks: list[Token], path: str | None) -> None:
    """The token layer of the policy: runs on every token of the file."""
    for k, t in enumerate(toks):
        if t.kind == "eof":
            break
        nxt = toks[k + 1]
        if t.kind == "ident":
            v = str(t.value)
            if t.raw:
                raise _fail(f"raw identifier {t.text} is not allowed in a spec", path, t.line)
            if v in CRATE_NAMES:
                raise _fail(f"the name `{v}` is not allowed in a spec (specs may only use "
                            "vstd; no standard library paths under any name)", path, t.line)
            if v == "vstd" and not (k and toks[k - 1].is_kw("use")):
                raise _fail("`vstd` may only start a `use vstd::...;` import (spec code names "
                            "imported items, not paths into the crate)", path, t.line)
            if v in RELATIVE_ROOTS and nxt.is_p("::"):
                raise _fail(f"path `{v}::...` is not allowed in a spec", path, t.line)
            if v in FORBIDDEN_KEYWORDS:
                raise _fail(f"'{v}' is not allowed in a spec", path, t.line)
            if nxt.is_p("!") and v not in _NOT_MACRO and v not in ALLOWED_MACROS \
                    and v not in WRAPPERS:
                raise _fail(f"macro {v}! is not allowed in a spec (only seq!, set!, map! inside "
                            "the verus!/exec_spec_unverified! blocks)", path, t.line)
        elif t.kind == "punct":
            if t.value == "::":
                prev = toks[k - 1] if k else None
                if prev is None or not (
                        (prev.kind == "ident" and (str(prev.value) not in RUST_KEYWORDS
                                                   or prev.value == "Self"))
                        or prev.is_p(">") or prev.is_p(">>")):
                    raise _fail("a path starting with '::' is not allowed in a spec", path,
                                t.line)
            elif t.value == "$":
                raise _fail("'$' is not allowed in a spec", path, t.line)
            elif t.value == "#":
                _check_attribute(toks, k, path)
        elif t.kind == "lifetime" and t.raw:
            # 'r#a is one token since Rust 2021 but three in 2018 (the verifier's default)
            raise _fail(f"raw lifetime {t.text} is not allowed in a spec", path, t.line)
        elif t.kind == "cstr":
            raise _fail(f"C string literal {t.text[:20]!r} is not allowed in a spec", path,
                        t.line)
        elif t.kind in ("str", "bytestr", "char", "bytechar") and t.suffix:
            raise _fail(f"literal {t.text[:30]!r} has a suffix ({t.suffix}), which is not "
                        "allowed", path, t.line)
        elif t.kind == "int" and t.suffix and t.suffix not in INT_SUFFIXES | FLOAT_SUFFIXES:
            raise _fail(f"integer literal {t.text!r} has an unknown suffix", path, t.line)
        elif t.kind == "float" and t.suffix and t.suffix not in FLOAT_SUFFIXES:
            raise _fail(f"float literal {t.text!r} has an unknown suffix", path, t.line)


# ---------------------------------------------------------------- syntax-tree layer

def _walk_expr(e: object, out: list[A.Expr]) -> None:
    """Collect every expression node (iteratively deep enough for hostile nesting)."""
    stack = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, A.Expr):
            out.append(x)
        stack.extend(A.children(x))


def _check_fn(fn: A.FnItem, path: str | None) -> None:
    if fn.mode != "spec":
        what = "a proof fn" if fn.mode == "proof" else (
            "an exec fn (plain `fn` is executable code)" if fn.mode == "exec"
            else "a non-function item")
        raise _fail(f"only spec items are allowed in a spec, but {fn.name!r} is {what}",
                    path, fn.line)
    bad_q = [q for q in fn.qualifiers if q not in ("open", "closed", "uninterp")]
    if bad_q:
        raise _fail(f"'{bad_q[0]}' is not allowed on spec fn {fn.name!r}", path, fn.line)
    if fn.unparsed_clauses:
        raise _fail(f"'{fn.unparsed_clauses[0]}' clauses are not allowed on spec fn "
                    f"{fn.name!r}", path, fn.line)
    exprs: list[A.Expr] = []
    for part in (fn.body, *fn.requires, *fn.ensures, *fn.recommends, *fn.decreases):
        if part is not None:
            _walk_expr(part, exprs)
    for e in exprs:
        if isinstance(e, A.MacroCall) and e.name not in ALLOWED_MACROS:
            raise _fail(f"macro {e.name}! is not allowed in a spec (only seq!, set!, map!)",
                        path, e.line)


def _attr_line(item: A.Item, name: str) -> int:
    return next((a.line for a in item.attrs if name in attributes.names([a])), item.line)


def _check_fn_attrs(fn: A.FnItem, path: str | None) -> None:
    """What Verus says of a function's attributes and qualifiers (rust_to_vir_func.rs)."""
    got = attributes.names(fn.attrs)
    wrong = sorted(got - attributes.FN_FLAGS - {"rlimit"})
    if wrong:
        raise _fail(f"#[verifier::{wrong[0]}] has no meaning on a function (spec fn "
                    f"{fn.name!r})", path, _attr_line(fn, wrong[0]))
    if "opaque" in got and attributes.uninterpreted(fn):
        raise _fail(f"opaque has no effect on a function without a body ({fn.name!r})", path,
                    fn.line)
    if "uninterp" in fn.qualifiers and fn.body is not None and "external_body" not in got:
        raise _fail(f"function is marked `uninterp` but it has a body ({fn.name!r})", path,
                    fn.line)
    if "open" in fn.qualifiers and fn.visibility != "pub":
        raise _fail(f"function is marked `open` but not marked `pub`; for the body of a "
                    f"function to be visible, the function symbol must also be visible "
                    f"({fn.name!r})", path, fn.line)


def _check_type_attrs(item: A.StructItem | A.EnumItem, spec: SpecModule,
                      path: str | None) -> None:
    got = attributes.names(item.attrs)
    wrong = sorted(got - attributes.TYPE_FLAGS - attributes.TYPE_PARAM_ATTRS)
    if wrong:
        raise _fail(f"#[verifier::{wrong[0]}] has no meaning on a type ({item.name})", path,
                    _attr_line(item, wrong[0]))
    if "external_body" in got:
        used = item.name in ("Input", "Output") or any(
            t.kind == "ident" and t.value == item.name
            and not item.line <= t.line <= item.end_line for t in spec.tokens)
        if used:
            raise _fail(f"disallowed: Verus treats {item.name} as an opaque datatype "
                        "(#[verifier::external_body]), so spec code may not build, read or "
                        "match it", path, item.line)


def _check_use(item: A.UseItem, path: str | None) -> None:
    w = item.words
    if len(w) < 3 or w[0] != "vstd" or w[1] != "::" or "as" in w:
        shown = " ".join(w)
        raise _fail(f"'use {shown}' is not allowed in a spec (only `use vstd::...;` imports, "
                    "without renaming)", path, item.line)


def _check_item(item: A.Item, path: str | None, spec: SpecModule | None = None) -> None:
    if not isinstance(item, (A.FnItem, A.StructItem, A.EnumItem)) and \
            attributes.names(item.attrs):
        raise _fail("#[verifier::...] attributes are allowed only on spec fns, structs and "
                    "enums", path, item.line)
    if isinstance(item, A.UseItem):
        _check_use(item, path)
    elif isinstance(item, A.FnItem):
        _check_fn(item, path)
        _check_fn_attrs(item, path)
    elif isinstance(item, (A.StructItem, A.EnumItem)) and spec is not None:
        _check_type_attrs(item, spec, path)
    elif isinstance(item, A.ImplItem):
        if item.trait is not None:
            raise _fail(f"trait impls are not allowed in a spec (impl {item.trait} for "
                        f"{item.self_type})", path, item.line)
        for fn in item.fns:
            _check_fn(fn, path)
            _check_fn_attrs(fn, path)
    elif isinstance(item, A.OtherItem):
        if item.kind == "macro":
            raise _fail(f"macro {item.name}! is not allowed in a spec", path, item.line)
        if item.kind == "attribute":
            return
        raise _fail(f"'{item.kind}' items are not allowed in a spec", path, item.line)


def _type_diff(name: str, got: A.StructItem, want: A.StructItem) -> tuple[str, int] | None:
    """What differs between two struct trees, with the line to point at (None: same)."""
    if got.tuple_struct != want.tuple_struct:
        return (f"struct {name} must be a {'tuple' if want.tuple_struct else 'braced'} struct "
                "as in the skeleton", got.line)
    if got.generics != want.generics:
        return f"struct {name} must have generics <{', '.join(want.generics)}>", got.line
    lines = got.field_lines or [got.line] * len(got.fields)
    want_names = [f for f, _ in want.fields]
    got_names = [f for f, _ in got.fields]
    for (fname, fty), ln in zip(got.fields, lines, strict=False):
        if fname not in want_names:
            return (f"struct {name}: field `{fname}` is not in the skeleton (its fields: "
                    f"{', '.join(want_names)})", ln)
        wty = dict(want.fields)[fname]
        if fty != wty:
            return (f"struct {name}: field `{fname}` has type {fty}, the skeleton says {wty}",
                    ln)
    missing = [f for f in want_names if f not in got_names]
    if missing:
        return f"struct {name}: field `{missing[0]}` of the skeleton is missing", got.line
    if got_names != want_names:
        return (f"struct {name}: fields must be in the skeleton's order "
                f"({', '.join(want_names)})", got.line)
    return None


def _enum_diff(name: str, got: A.EnumItem, want: A.EnumItem) -> str | None:
    sig = [(v.name, v.kind, v.fields) for v in want.variants]
    have = [(v.name, v.kind, v.fields) for v in got.variants]
    if got.generics != want.generics or have != sig:
        return (f"enum {name} must be as in the skeleton (variants: "
                f"{', '.join(v.name for v in want.variants)})")
    return None


def _check_token_layer(spec: SpecModule, path: str | None) -> None:
    check_tokens(spec.tokens, path)


def _check_item_layer(spec: SpecModule, path: str | None) -> None:
    for name, line in spec.wrappers:
        if name not in WRAPPERS:
            raise _fail(f"macro block {name}! is not allowed in a spec", path, line)
    for item in spec.items:
        _check_item(item, path, spec)
    for what, line in spec.skipped:
        raise _fail(f"{what} is not allowed in a spec (spec items need none, and the checker "
                    "reads only what it parses)", path, line)


def check_spec(spec: SpecModule, skeleton: SpecModule, path: str | None = None) -> None:
    """Raise ``SpecInvalid`` (with the line) unless ``spec`` obeys the policy for ``skeleton``."""
    path = path or spec.path
    found: list[SpecInvalid] = []
    for layer in (_check_token_layer, _check_item_layer):
        try:
            layer(spec, path)
        except SpecInvalid as e:
            found.append(e)
    if found:  # report the earliest problem in the file, whichever layer saw it
        raise min(found, key=lambda e: e.line if e.line is not None else 1 << 62)
    skel_structs, skel_enums = skeleton.structs, skeleton.enums
    spec_structs, spec_enums = spec.structs, spec.enums
    for name, s in skel_structs.items():
        got = spec_structs.get(name)
        if got is None:
            raise _fail(f"struct {name} of the skeleton is missing", path, None)
        diff = _type_diff(name, got, s)
        if diff:
            raise _fail(diff[0], path, diff[1])
    for name, en in skel_enums.items():
        got_e = spec_enums.get(name)
        if got_e is None:
            raise _fail(f"enum {name} of the skeleton is missing", path, None)
        msg = _enum_diff(name, got_e, en)
        if msg:
            raise _fail(msg, path, got_e.line)
    seen: dict[str, int] = {}
    for item in spec.items:
        nm = getattr(item, "name", None)
        if isinstance(item, (A.FnItem, A.StructItem, A.EnumItem)) and nm:
            if nm in seen:
                raise _fail(f"{nm} is defined twice (first at line {seen[nm]})", path, item.line)
            seen[nm] = item.line
    fns = spec.fns
    _check_sig(fns.get("pre_spec"), "pre_spec", [("input", "Input")], path)
    _check_sig(fns.get("post_spec"), "post_spec", [("input", "Input"), ("output", "Output")],
               path)
    typecheck_module(spec, path)


def check_source(text: str, skeleton_text: str, path: str | None = None,
                 skeleton_path: str | None = None) -> SpecModule:
    """Lex, parse and police a spec against its skeleton's text; the parsed spec.

    Hostile text often does not parse either (``extern "C" { .. }`` is no item our parser
    reads): a policy violation at or before the syntax error is the better message."""
    toks = tokenize(text, path)
    try:
        spec = _parse(toks, path)
    except SpecInvalid as syntax:
        try:
            check_tokens(toks, path)
        except SpecInvalid as policy:
            if policy.line is not None and (syntax.line is None or policy.line <= syntax.line):
                raise policy from None
        raise
    check_spec(spec, parse_spec(skeleton_text, skeleton_path), path)
    return spec


def _check_sig(fn: A.FnItem | None, name: str, params: list[tuple[str, str]],
               path: str | None) -> None:
    want = f"spec fn {name}(" + ", ".join(f"{p}: {t}" for p, t in params) + ") -> bool"
    if fn is None:
        raise _fail(f"missing `{want}`", path, None)
    got = [(p.name, str(p.ty)) for p in fn.params]
    if (fn.mode != "spec" or got != params or fn.ret_type is None or str(fn.ret_type) != "bool"
            or fn.generics):
        raise _fail(f"{name} must have the signature `{want}`", path, fn.line)
    if fn.body is None:
        raise _fail(f"{name} has no body", path, fn.line)
