"""The names a module defines, lexical scopes, and the checker's error form."""

from __future__ import annotations

from dataclasses import dataclass, field

from adequacy.plugin import SpecInvalid

from ..syntax import ast as A
from .types import T


def err(msg: str, code: str, line: int | None) -> SpecInvalid:
    return SpecInvalid(f"{msg} [{code}]", line=line)


def plural(n: int, what: str = "argument") -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


@dataclass
class Module:
    """What names a module defines, for look-ups."""

    structs: dict[str, A.StructItem] = field(default_factory=dict)
    enums: dict[str, A.EnumItem] = field(default_factory=dict)
    fns: dict[str, A.FnItem] = field(default_factory=dict)
    methods: dict[str, dict[str, A.FnItem]] = field(default_factory=dict)
    trait_impl_types: set[str] = field(default_factory=set)
    """Types with a trait impl: their methods are not all known to us."""
    other_names: set[str] = field(default_factory=set)
    """``const``/``static``/``type`` items and macros: names we cannot type."""
    variants: dict[str, list[tuple[A.EnumItem, A.Variant]]] = field(default_factory=dict)
    types: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, mod: A.SpecModule) -> Module:
        m = cls()
        for it in mod.items:
            if isinstance(it, A.StructItem):
                m.structs[it.name] = it
            elif isinstance(it, A.EnumItem):
                m.enums[it.name] = it
                for v in it.variants:
                    m.variants.setdefault(v.name, []).append((it, v))
            elif isinstance(it, A.FnItem):
                m.fns.setdefault(it.name, it)
            elif isinstance(it, A.ImplItem):
                if it.trait is not None:
                    m.trait_impl_types.add(it.self_type)
                for f in it.fns:
                    m.methods.setdefault(it.self_type, {}).setdefault(f.name, f)
            elif isinstance(it, A.OtherItem):
                m.other_names.add(it.name)
        m.types = set(m.structs) | set(m.enums)
        return m


class Scope:
    def __init__(self, parent: Scope | None = None) -> None:
        self.vars: dict[str, T] = {}
        self.parent = parent

    def get(self, name: str) -> T | None:
        s: Scope | None = self
        while s is not None:
            if name in s.vars:
                return s.vars[name]
            s = s.parent
        return None
