"""Patterns and ``match`` exhaustiveness, and the type look-ups both they and expressions use.

``PatternChecker`` is the base of ``checker.Checker``: it knows the module's types (fields of
structs and variants, written types normalised) and checks patterns against a scrutinee's type;
the expression rules live in the subclass.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..syntax import ast as A
from . import types as Ty
from .exhaustive import Exhaustiveness
from .scope import Module, Scope
from .scope import err as _err
from .types import BOOL, CHAR, INTLIT, UNKNOWN, T, compatible, is_int, known, show


class PatternChecker:
    def __init__(self, mod: Module, allow_old: bool = False) -> None:
        self.m = mod
        self.allow_old = allow_old
        self.generics: frozenset[str] = frozenset()
        self.self_type: str | None = None

    # ------------------------------------------------------------ helpers
    def ty(self, t: A.TypeRef | None) -> T:
        n = Ty.normalize(t, self.generics, self.self_type)
        return self._known_names(n)

    def _known_names(self, t: T, keep: frozenset[str] = frozenset()) -> T:
        """A user type name the module does not define is ``?`` (an alias, a type from a
        ``use``): rustc would report it, but we cannot tell an alias from a typo. Names in
        ``keep`` (type parameters being instantiated) stay."""
        base = {"bool", "char", "unit", "tuple", "spec_fn", "Seq", "Set", "Map", "Multiset",
                "Option", "?", "{integer}", "{float}"} | Ty.INTS | Ty.FLOATS | Ty.EXEC_TYPES
        if t.name in keep and not t.args:
            return t
        if t.name not in base and t.name not in self.m.types:
            return UNKNOWN
        return T(t.name, [self._known_names(a, keep) for a in t.args])

    def struct_fields(self, t: T) -> dict[str, T] | None:
        s = self.m.structs.get(t.name)
        if s is None:
            return None
        gen = dict(zip(s.generics, t.args, strict=False))
        saved = self.generics
        self.generics = frozenset(s.generics)
        try:
            out = {}
            for f, ft in s.fields:
                out[f] = Ty.subst(self.ty(ft), gen) if gen else self.ty(ft)
            return out
        finally:
            self.generics = saved

    def variant_fields(self, en: A.EnumItem, v: A.Variant) -> list[tuple[str, T]]:
        saved = self.generics
        self.generics = frozenset(en.generics)
        try:
            return [(f, self.ty(ft)) for f, ft in v.fields]
        finally:
            self.generics = saved


    # ------------------------------------------------------------ patterns
    def _binding(self, p: A.Pat) -> A.Pat:
        """rustc reads a lone name that resolves to no unit variant, unit struct or const as
        a new binding, even a capitalised one (``Nope => ..`` matches everything)."""
        if isinstance(p, A.PVariant) and len(p.path) == 1 and p.elems is None \
                and p.fields is None and p.path[0] not in self.m.variants \
                and p.path[0] != "None" and p.path[0] not in self.m.structs \
                and p.path[0] not in self.m.other_names:
            return A.PBind(p.line, p.path[0])
        return p

    def pattern(self, p: A.Pat, t: T, sc: Scope) -> None:
        p = self._binding(p)
        if isinstance(p, A.PWild):
            return
        if isinstance(p, A.PBind):
            sc.vars[p.name] = t
            if p.sub is not None:
                self.pattern(p.sub, t, sc)
            return
        if isinstance(p, A.PLit):
            lt = _lit_type(p.value)
            if not compatible(lt, t):
                raise _err(f"mismatched types: this pattern is `{show(lt)}`, the value is "
                           f"`{show(t)}`", "E0308", p.line)
            return
        if isinstance(p, A.PRange):
            return
        if isinstance(p, A.PTuple):
            if t.name == "tuple":
                real = [x for x in p.elems if not (isinstance(x, A.PWild) and x.rest)]
                has_rest = len(real) != len(p.elems)
                if not has_rest and len(real) != len(t.args):
                    raise _err(f"mismatched types: expected a tuple with {len(t.args)} "
                               f"elements, found one with {len(real)}", "E0308", p.line)
                if not has_rest:
                    for x, a in zip(real, t.args, strict=True):
                        self.pattern(x, a, sc)
                    return
            elif known(t) and t.name not in Ty.EXEC_TYPES:
                raise _err(f"mismatched types: expected `{show(t)}`, found a tuple pattern",
                           "E0308", p.line)
            for x in p.elems:
                self.pattern(x, UNKNOWN, sc)
            return
        if isinstance(p, A.POr):
            for k, alt in enumerate(p.alts):
                self.pattern(alt, t, sc if k == 0 else Scope(sc))
            return
        if isinstance(p, A.PVariant):
            self._pvariant(p, t, sc)

    def _pvariant(self, p: A.PVariant, t: T, sc: Scope) -> None:
        name = p.path[-1]
        if len(p.path) == 1 and (p.elems is not None or p.fields is not None) \
                and name not in self.m.variants and name not in self.m.structs \
                and name not in ("Some", "None", "Ok", "Err") and name not in self.m.other_names:
            kind = "tuple struct or tuple variant" if p.elems is not None else "struct, variant"
            raise _err(f"cannot find {kind} `{name}` in this scope", "E0531", p.line)
        subs: list[tuple[A.Pat, T]] = []
        if t.name == "Option" and name in ("Some", "None") and len(p.path) <= 2:
            inner = t.args[0] if t.args else UNKNOWN
            if name == "Some":
                if p.elems is not None and len(p.elems) != 1:
                    raise _err(f"this pattern has {len(p.elems)} fields, but the "
                               "corresponding tuple variant `Some` has 1 field", "E0023",
                               p.line)
                subs = [(x, inner) for x in p.elems or []]
        elif t.name in self.m.enums:
            en = self.m.enums[t.name]
            if len(p.path) >= 2 and p.path[-2] not in (en.name, "Self"):
                raise _err(f"mismatched types: expected `{show(t)}`, found a pattern of "
                           f"`{p.path[-2]}`", "E0308", p.line)
            v = next((v for v in en.variants if v.name == name), None)
            if v is None:
                raise _err(f"no variant named `{name}` found for enum `{en.name}`", "E0599",
                           p.line)
            fields = self.variant_fields(en, v)
            if p.elems is not None:
                real = [x for x in p.elems if not (isinstance(x, A.PWild) and x.rest)]
                if v.kind != "tuple":
                    raise _err(f"expected tuple struct or tuple variant, found "
                               f"`{en.name}::{name}`", "E0164", p.line)
                if len(real) == len(p.elems) and len(real) != len(fields):
                    raise _err(f"this pattern has {len(real)} fields, but the corresponding "
                               f"tuple variant `{en.name}::{name}` has {len(fields)}",
                               "E0023", p.line)
                if len(real) == len(p.elems):
                    subs = [(x, ft) for x, (_f, ft) in zip(real, fields, strict=True)]
                else:
                    subs = [(x, UNKNOWN) for x in real]
            elif p.fields is not None:
                fd = dict(fields)
                for fname, x in p.fields:
                    if fname not in fd:
                        raise _err(f"variant `{en.name}::{name}` does not have a field named "
                                   f"`{fname}`", "E0026", x.line)
                    subs.append((x, fd[fname]))
        elif t.name in self.m.structs and p.fields is not None:
            fd = self.struct_fields(t) or {}
            for fname, x in p.fields:
                if fname not in fd:
                    raise _err(f"struct `{t.name}` does not have a field named `{fname}`",
                               "E0026", x.line)
                subs.append((x, fd[fname]))
        elif known(t) and t.name not in Ty.EXEC_TYPES and len(p.path) == 1 \
                and (name in ("Some", "None") or name in self.m.variants):
            raise _err(f"mismatched types: expected `{show(t)}`, found a pattern of "
                       f"variant `{name}`", "E0308", p.line)
        else:
            subs = [(x, UNKNOWN) for x in (p.elems or [])] + \
                   [(x, UNKNOWN) for _, x in (p.fields or [])]
        for x, xt in subs:
            self.pattern(x, xt, sc)

    # ------------------------------------------------------------ exhaustiveness
    def _exhaustive(self, e: A.Match, t: T) -> None:
        """rustc requires every value to be matched (E0004): first the top level (a variant
        no arm names, with the message the corpus expects), then nested patterns
        (``exhaustive``: ``Some(Color::Red)`` does not cover ``Some(Color::Blue)``)."""
        alts: list[A.Pat] = []
        for arm in e.arms:
            if arm.guard is None:
                alts.extend(self._binding(a) for a in _alternatives(arm.pat))
        if any(isinstance(p, A.PWild) or isinstance(p, A.PBind) and p.sub is None
               for p in alts):
            return
        self._top_level(e, t, alts)
        w = Exhaustiveness(self).witness([a.pat for a in e.arms if a.guard is None], t)
        if w is not None:
            raise _err(f"non-exhaustive patterns: `{w}` not covered", "E0004", e.line)

    def _top_level(self, e: A.Match, t: T, alts: list[A.Pat]) -> None:
        """The variants (or ``true``/``false``) no arm can match at all."""
        if any(_catch_all(p) for p in alts):
            return
        if t.name == "Option":
            universe = ["Some", "None"]
        elif t.name in self.m.enums:
            universe = [v.name for v in self.m.enums[t.name].variants]
        elif t.name == "bool":
            got = {p.value for p in alts if isinstance(p, A.PLit)}
            missing_b = [x for x in (True, False) if x not in got]
            if missing_b:
                raise _err(f"non-exhaustive patterns: `{str(missing_b[0]).lower()}` not "
                           "covered", "E0004", e.line)
            return
        elif is_int(t) or t.name == "char":
            if not any(isinstance(p, A.PRange) for p in alts):
                raise _err("non-exhaustive patterns: `_` not covered (integer and char "
                           "matches need a catch-all arm)", "E0004", e.line)
            return
        else:
            return
        covered = set()
        for p in alts:
            if isinstance(p, A.PVariant):
                covered.add(p.path[-1])
            elif isinstance(p, A.PBind) and p.name in universe:
                covered.add(p.name)
        missing = [v for v in universe if v not in covered]
        if missing:
            shown = "`, `".join(missing[:3])
            raise _err(f"non-exhaustive patterns: `{shown}` not covered", "E0004", e.line)



def _alternatives(p: A.Pat) -> Iterator[A.Pat]:
    if isinstance(p, A.POr):
        for a in p.alts:
            yield from _alternatives(a)
    elif isinstance(p, A.PBind) and p.sub is not None:
        yield from _alternatives(p.sub)
    else:
        yield p


def _catch_all(p: A.Pat) -> bool:
    if isinstance(p, A.PWild):
        return True
    if isinstance(p, A.PBind):
        return p.sub is None
    return isinstance(p, A.PTuple)  # tuple scrutinees are not checked for exhaustiveness


def _lit_type(v: object) -> T:
    if isinstance(v, bool):
        return BOOL
    if isinstance(v, int):
        return INTLIT
    if isinstance(v, str) and len(v) == 1:
        return CHAR
    return UNKNOWN
