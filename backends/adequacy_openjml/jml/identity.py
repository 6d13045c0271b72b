"""Spec clauses whose value may come from an object's identity or a per-JVM order: a gap.

The clause-level half of ``identity_scan`` (which reads pure helpers' code). JML leaves
``Object.hashCode`` and ``Object.toString`` unspecified, and an engine that runs Java computes
them from identity hashes, which differ from one JVM (and one order of cases) to the next. So a
clause that reads one (``a.hashCode()`` of an array, ``"" + a``, ``String.valueOf(a)``,
``Objects.hash(a)``, ``Arrays.toString`` of an array of objects, ``System.identityHashCode``)
or the order of a ``Set.of``/``Map.of`` (salted per JVM) makes every case unknown: the same
spec on the same case must get the same verdict in every run.
"""

from __future__ import annotations

from . import ast as A
from .identity_scan import ORDER_REVEALING, kind_of_type
from .members import JavaClass, JavaMethod
from .semantics import DesugaredCase
from .typecheck import UNKNOWN, Checker, norm

_SALTED = {("Set", "of"), ("Map", "of"), ("Map", "ofEntries"), ("Set", "copyOf"),
           ("Map", "copyOf")}
_ELEMENT_TEXT = {"toString", "hashCode"}
_DEEP = {"deepToString", "deepHashCode"}


def _kind(t: str) -> str:
    return "?" if t == UNKNOWN else kind_of_type(t)


def identity_gap(cls: JavaClass, method: JavaMethod, cases: list[DesugaredCase]) -> str | None:
    """Why a clause's value may change from run to run (with its line), or None."""
    checker = Checker(cls, method, None)
    for c in cases:
        for e, _line in c.requires + c.ensures:
            nodes = A.walk(e)
            q = {v: norm(n.type, cls.name) for n in nodes if isinstance(n, A.Quant)
                 for v in n.vars}
            for n in nodes:
                why = _reads_identity(checker, n, q)
                if why is not None:
                    return f"{why} at line {n.line}: its value may differ from one run to the next"
    return None


def _type(checker: Checker, e: A.Expr, q: dict[str, str]) -> str:
    try:
        return checker.type(e, q)
    except Exception:  # noqa: BLE001 - the type checker already passed; be conservative
        return UNKNOWN


def _reads_identity(checker: Checker, n: A.Expr, q: dict[str, str]) -> str | None:
    if isinstance(n, A.Binary) and n.op == "+":
        a, b = _type(checker, n.left, q), _type(checker, n.right, q)
        if "String" in (a, b) and ({_kind(a), _kind(b)} & {"obj", "?"}):
            return "a string concatenated with a value whose text may be an object's identity"
        return None
    if not isinstance(n, A.Call) or n.target is None:
        return None
    cls = checker.is_class(n.target, q)
    if cls is None:
        if isinstance(n.target, A.Call) and n.name in ORDER_REVEALING:
            inner = n.target
            owner = checker.is_class(inner.target, q) if inner.target is not None else None
            if owner is not None and (owner, inner.name) in _SALTED:
                return f"the order of {owner}.{inner.name}(...), salted per JVM,"
        if n.name in _ELEMENT_TEXT:
            t = _type(checker, n.target, q)
            if _kind(t) != "val":
                return f"{n.name}() of a {t if t != UNKNOWN else 'value'} (its identity)"
        return None
    args = [_type(checker, a, q) for a in n.args]
    if cls == "System" and n.name == "identityHashCode":
        return "System.identityHashCode"
    if cls in ("Math", "StrictMath") and n.name == "random":
        return f"{cls}.random() (a new value on every call)"
    if cls == "Objects" and n.name in ("hashCode", "hash", "toString") and (
            n.name == "hash" or any(_kind(t) not in ("num", "val") for t in args)):
        return f"Objects.{n.name} of an object"
    if cls == "String" and n.name in ("valueOf", "join", "format") and \
            any(_kind(t) in ("obj", "?") for t in args):
        return f"String.{n.name} of an object"
    if cls == "Arrays" and (n.name in _ELEMENT_TEXT or n.name in _DEEP):
        for t in args:
            elem = t[:-2] if t.endswith("[]") else UNKNOWN
            while n.name in _DEEP and elem.endswith("[]"):
                elem = elem[:-2]
            if _kind(elem) not in ("num", "val"):
                return f"Arrays.{n.name} of an array of objects"
    return None


__all__ = ["identity_gap"]
