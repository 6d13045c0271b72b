"""Front end of the Verus backend: parse a spec file and enforce the untrusted-spec policy.

Specs come from language models and people (DESIGN section 6), so the policy is an allow-list:
spec items only, vstd imports only, a handful of harmless attributes, and nothing that could
make a compiler read files, run code at build time or leave the spec language.
"""

from __future__ import annotations

from adequacy.backends.verus.syntax import ast as A
from adequacy.backends.verus.syntax.ast import SpecModule  # noqa: E402
from adequacy.backends.verus.syntax.lexer import normalize_tokens, tokenize
from adequacy.backends.verus.syntax.parser import parse_module

from adequacy.errors import SpecInvalid

ALLOWED_MACROS = {"seq", "set", "map"}
WRAPPERS = {"verus", "exec_spec_unverified"}
FORBIDDEN_WORDS = {"unsafe", "extern", "static", "asm", "global_asm", "union"}
_HARMLESS_ATTR_PREFIXES = ("#[verifier::", "#[verifier(", "#![verifier::", "#[trigger",
                           "#![trigger", "#![auto", "#[auto", "#[allow(", "#![allow(",
                           "#[via_fn", "#[allow (", "#![allow (")


def parse_spec(text: str, path: str | None = None) -> SpecModule:
    """Parse a whole spec or skeleton file; syntax errors raise ``SpecInvalid`` with the line."""
    try:
        return parse_module(text, path)
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


def _attr_ok(a: A.Attr) -> bool:
    t = a.text.replace(" ", "")
    return any(t.startswith(p.replace(" ", "")) for p in _HARMLESS_ATTR_PREFIXES)


def _fail(msg: str, path: str | None, line: int | None) -> SpecInvalid:
    return SpecInvalid(msg, file=path, line=line)


def _walk_expr(e: object, out: list[A.Expr]) -> None:
    """Collect every expression node (iteratively deep enough for hostile nesting)."""
    stack = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, A.Expr):
            out.append(x)
        if isinstance(x, (A.Expr, A.MatchArm, A.Let)):
            for name in x.__slots__:
                v = getattr(x, name, None)
                if isinstance(v, (A.Expr, A.MatchArm, A.Let)):
                    stack.append(v)
                elif isinstance(v, list):
                    for y in v:
                        if isinstance(y, tuple):
                            stack.extend(z for z in y if isinstance(z, (A.Expr, A.Let)))
                        else:
                            stack.append(y)


def _check_fn(fn: A.FnItem, path: str | None) -> None:
    if fn.mode != "spec":
        what = "a proof fn" if fn.mode == "proof" else (
            "an exec fn" if fn.mode == "exec" else "a non-function item")
        raise _fail(f"only spec items are allowed in a spec, but {fn.name!r} is {what}",
                    path, fn.line)
    bad_q = [q for q in fn.qualifiers if q in ("unsafe", "extern", "const", "async")]
    if bad_q:
        raise _fail(f"'{bad_q[0]}' is not allowed on spec fn {fn.name!r}", path, fn.line)
    for a in fn.attrs:
        if not _attr_ok(a):
            raise _fail(f"attribute {a.text} is not allowed in a spec", path, a.line)
    exprs: list[A.Expr] = []
    for part in (fn.body, *fn.requires, *fn.ensures, *fn.recommends, *fn.decreases):
        if part is not None:
            _walk_expr(part, exprs)
    for e in exprs:
        if isinstance(e, A.MacroCall) and e.name not in ALLOWED_MACROS:
            raise _fail(f"macro {e.name}! is not allowed in a spec (only seq!, set!, map!)",
                        path, e.line)
        if isinstance(e, A.Path) and len(e.segs) > 1 and e.segs[0] in ("std", "core", "alloc",
                                                                        "crate", "super"):
            raise _fail(f"path {'::'.join(e.segs)} is not allowed in a spec", path, e.line)


def check_spec(spec: SpecModule, skeleton: SpecModule, path: str | None = None) -> None:
    """Raise ``SpecInvalid`` (with the line) unless ``spec`` obeys the policy for ``skeleton``.

    Items that appear verbatim (after normalisation) in the skeleton are always allowed, so a
    skeleton may carry fixed scaffolding the policy would otherwise refuse.
    """
    path = path or spec.path
    for t in spec.tokens:
        if t.kind == "ident" and t.value in FORBIDDEN_WORDS:
            raise _fail(f"'{t.value}' is not allowed in a spec", path, t.line)
    for name, line in spec.wrappers:
        if name not in WRAPPERS:
            raise _fail(f"macro block {name}! is not allowed in a spec", path, line)
    skel_texts = {i.text for i in skeleton.items}
    skel_structs = skeleton.structs
    skel_enums = skeleton.enums
    for item in spec.items:
        if item.text in skel_texts and not isinstance(item, (A.FnItem,)):
            continue
        for a in item.attrs:
            if not _attr_ok(a):
                raise _fail(f"attribute {a.text} is not allowed in a spec", path, a.line)
        if isinstance(item, A.UseItem):
            if not (item.path.startswith("vstd::") or item.path.startswith("crate::")
                    or item.path.startswith("super::")) or item.path.startswith("vstd::std"):
                raise _fail(f"'use {item.path}' is not allowed in a spec (only vstd imports)",
                            path, item.line)
            if item.path.startswith(("crate::", "super::")):
                raise _fail(f"'use {item.path}' is not allowed in a spec", path, item.line)
        elif isinstance(item, A.StructItem):
            if item.name in skel_structs:
                raise _fail(f"struct {item.name} must be exactly as in the skeleton", path,
                            item.line)
        elif isinstance(item, A.EnumItem):
            if item.name in skel_enums:
                raise _fail(f"enum {item.name} must be exactly as in the skeleton", path,
                            item.line)
        elif isinstance(item, A.FnItem):
            if item.text in skel_texts and item.mode != "spec":
                continue
            _check_fn(item, path)
        elif isinstance(item, A.ImplItem):
            if item.trait is not None:
                raise _fail(f"trait impls are not allowed in a spec (impl {item.trait} for "
                            f"{item.self_type})", path, item.line)
            for fn in item.fns:
                _check_fn(fn, path)
        elif isinstance(item, A.OtherItem):
            if item.kind == "macro":
                raise _fail(f"macro {item.name}! is not allowed in a spec", path, item.line)
            if item.kind == "mod":
                raise _fail("'mod' items are not allowed in a spec", path, item.line)
            if item.kind == "attribute":
                continue
            raise _fail(f"{item.kind} items are not allowed in a spec", path, item.line)
    # fixed structs/enums must all be present and unchanged
    spec_structs, spec_enums = spec.structs, spec.enums
    for name, s in skel_structs.items():
        got = spec_structs.get(name)
        if got is None:
            raise _fail(f"struct {name} of the skeleton is missing", path, None)
        if got.text != s.text:
            raise _fail(f"struct {name} must be exactly as in the skeleton", path, got.line)
    for name, en in skel_enums.items():
        got_e = spec_enums.get(name)
        if got_e is None:
            raise _fail(f"enum {name} of the skeleton is missing", path, None)
        if got_e.text != en.text:
            raise _fail(f"enum {name} must be exactly as in the skeleton", path, got_e.line)
    # duplicates
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
