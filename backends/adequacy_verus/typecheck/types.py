"""Types as the checker sees them, and the parsed form of vstd_api's table.

A type is our syntax tree's ``TypeRef`` after ``normalize``: ``?`` is a type the checker does
not know (a generic, an alias, an exec type's result), which is compatible with everything, so
that not knowing never makes a valid spec invalid. ``{integer}`` is an unsuffixed integer
literal's type, as rustc prints it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ..syntax import ast as A
from ..syntax.lexer import tokenize
from ..syntax.parser import Parser
from .vstd_api import EXEC_METHODS, SPEC_METHODS, VIEWS

T = A.TypeRef
UNKNOWN = T("?")
BOOL = T("bool")
INT = T("int")
NAT = T("nat")
INTLIT = T("{integer}")
CHAR = T("char")
UNIT = T("unit")

FIXED = frozenset(["u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize"])
INTS = FIXED | {"int", "nat", "{integer}"}
FLOATS = frozenset({"f32", "f64", "{float}"})
SPEC_COLLECTIONS = frozenset({"Seq", "Set", "Map", "Multiset"})
#: Exec containers: compatible with everything (their exec/spec coercions are Verus's own).
EXEC_TYPES = frozenset({"Vec", "slice", "String", "str", "HashMap", "HashSet"})
#: Wrappers that are transparent to spec code.
TRANSPARENT = frozenset({"Box", "Rc", "Arc", "Ghost", "Tracked"})
EXEC_METHODS_TYPES = frozenset(EXEC_METHODS)


def is_int(t: T) -> bool:
    return t.name in INTS


def known(t: T) -> bool:
    return t.name != "?"


def normalize(t: A.TypeRef | None, generics: frozenset[str] = frozenset(),
              self_type: str | None = None) -> T:
    """A written type as the checker compares it (``SpecString`` is ``Seq<char>``, vstd's
    alias; ``&[T]`` a slice; generics and unknown names ``?``)."""
    if t is None:
        return UNKNOWN
    name = t.name
    if name in generics or name in ("_", "ptr", "never"):
        return UNKNOWN
    if name == "Self" and self_type:
        return T(self_type)
    if name == "SpecString":
        return T("Seq", [CHAR])
    if name in TRANSPARENT and len(t.args) == 1:
        return normalize(t.args[0], generics, self_type)
    if name == "Seq" and t.path == ("array",):
        return T("slice", [normalize(a, generics, self_type) for a in t.args])
    return T(name, [normalize(a, generics, self_type) for a in t.args])


def compatible(a: T, b: T) -> bool:
    """Can a value of ``a`` stand where ``b`` is expected (or be compared with it)? Lenient
    wherever Verus's coercions might apply: all integer types are compatible with each other
    (spec code widens them to ``int``); exec containers and ``?`` with everything."""
    if not known(a) or not known(b):
        return True
    if a.name in EXEC_TYPES or b.name in EXEC_TYPES:
        return True
    if is_int(a) and is_int(b):
        return True
    if a.name in FLOATS and b.name in FLOATS:
        return True
    if a.name != b.name:
        return False
    if a.name == "spec_fn":
        return len(a.args) == len(b.args)
    if len(a.args) != len(b.args):
        return not a.args or not b.args
    return all(compatible(x, y) for x, y in zip(a.args, b.args, strict=True))


def show(t: T) -> str:
    if t.name == "slice":
        return f"[{show(t.args[0]) if t.args else '?'}]"
    if t.name == "spec_fn":
        return f"spec_fn({', '.join(map(show, t.args[:-1]))}) -> {show(t.args[-1])}"
    if t.name == "tuple":
        return "(" + ", ".join(map(show, t.args)) + ")"
    if t.name == "unit":
        return "()"
    if t.args:
        return f"{t.name}<{', '.join(map(show, t.args))}>"
    return t.name


def subst(t: T, env: dict[str, T]) -> T:
    if not t.args and t.name in env:
        return env[t.name]
    if t.name == "?":
        return UNKNOWN
    return T(t.name, [subst(a, env) for a in t.args])


def bind(want: T, got: T, vars_: frozenset[str], env: dict[str, T]) -> None:
    """Fill ``env`` with what the generics ``vars_`` of ``want`` stand for in ``got``."""
    if not want.args and want.name in vars_:
        if known(got) and got.name != "{integer}":
            env.setdefault(want.name, got)
        return
    if want.name == got.name and len(want.args) == len(got.args):
        for w, g in zip(want.args, got.args, strict=True):
            bind(w, g, vars_, env)


# ---------------------------------------------------------------- the table, parsed

@dataclass(frozen=True)
class Sig:
    name: str
    generics: tuple[str, ...]
    params: tuple[tuple[str, T], ...] | None
    """``None``: arguments not checked (``...`` in the table)."""
    ret: T
    static: bool


_LINE = re.compile(r"^(static\s+)?(\w+)(?:<([\w\s,]*)>)?\((.*)\)\s*->\s*(.+)$")


def _type(text: str) -> T:
    if text.strip() == "?":
        return UNKNOWN
    p = Parser(tokenize(text), None)
    return normalize(p.parse_type())


def _split_params(text: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "(<":
            depth += 1
        elif ch in ")>" and not (ch == ">" and cur.endswith("-")):
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return out


def _parse_line(line: str) -> Sig:
    m = _LINE.match(line.strip())
    if not m:
        raise ValueError(f"vstd_api: cannot read {line!r}")
    static, name, gens, params, ret = m.groups()
    ps: tuple[tuple[str, T], ...] | None
    if params.strip() == "...":
        ps = None
    else:
        items = []
        for p in _split_params(params):
            pname, _, pty = p.partition(":")
            items.append((pname.strip(), _type(pty)))
        ps = tuple(items)
    return Sig(name, tuple(g.strip() for g in (gens or "").split(",") if g.strip()), ps,
               _type(ret), bool(static))


@cache
def methods(type_name: str) -> dict[str, Sig]:
    text = SPEC_METHODS.get(type_name) or EXEC_METHODS.get(type_name, "")
    out: dict[str, Sig] = {}
    for line in text.splitlines():
        if line.strip():
            s = _parse_line(line)
            out[s.name] = s
    return out


def receiver_vars(t: T) -> dict[str, T]:
    """The table's names for the receiver's type arguments."""
    args = list(t.args) + [UNKNOWN] * 2
    if t.name == "Map":
        return {"K": args[0], "V": args[1]}
    return {"A": args[0], "T": args[0]}


def view_of(t: T) -> T | None:
    """What ``t@`` is, or ``None`` when vstd has no ``View`` for ``t``."""
    v = VIEWS.get(t.name)
    if v is None:
        return None
    return subst(_type(v), {"T": t.args[0] if t.args else UNKNOWN})
