"""The receiver a task's instance method starts from, as KeY's stubs need it pinned.

A case of an instance method runs on the object the no-argument constructor builds (the
reference and rac make it so). A KeY stub is a method of the class whose ``this`` KeY knows
nothing about, so a formula reading ``balance`` in the pre-state was never proved either way
(BankAccount's whole spec). The values come from running that constructor in rac's sandboxed
JVM, never from the spec's own constructor contract (the spec under test may state anything
there, and KeY would take it as given). Only facts the real object has become assumptions:
fields left out are unconstrained, which costs proofs, never a wrong one."""

from __future__ import annotations

from typing import Any

from adequacy.plugin import AdequacyError, Limits, SpecInvalid

from ...jml.load import JmlSpec
from ..rac import engine as rac
from ..rac.worker import WorkerDied

#: Java types whose values a pin states exactly (floating values are left out: KeY's floats
#: are not what the stubs rely on)
_EXACT = frozenset({"int", "long", "short", "byte", "char", "boolean"})


def reads_fields(spec: JmlSpec) -> bool:
    """Whether a clause of the method's spec names an instance field or ``this``: only then
    is a constructor run worth its cost."""
    from ...stubs.render import names_in

    fields = {f.name for f in spec.cls.fields if "static" not in f.modifiers} | {"this"}
    named: set[str] = set()
    for c in spec.cases:
        for e, _line in [*c.requires, *c.ensures]:
            named |= names_in(e)
    return bool(named & fields)


def receiver_pins(spec: JmlSpec, limits: Limits) -> list[str]:
    """``this.f == v`` for the fresh receiver's primitive fields and ``this.f == null`` for
    its null references; none when the method is static, reads no field, or the object
    cannot be built (no such constructor, it throws or hangs, rac cannot translate the
    spec): the stubs then assume nothing, as before."""
    if spec.method.is_static or not reads_fields(spec):
        return []
    try:
        unit = rac.unit_for(spec)
        key = rac.unit_key(unit)
        run = rac.start_run(unit, key, spec.file, limits)
    except (SpecInvalid, rac.CompileGap, AdequacyError):
        return []
    try:
        reply = run.request({"op": "run", "key": key, "receiver": True, "input": [],
                             "timeout_ms": int(min(limits.case_seconds, 10.0) * 1000)},
                            timeout=min(limits.case_seconds, 10.0) + 15)
    except (WorkerDied, AdequacyError):
        return []
    finally:
        run.close()
    out = reply.get("output") if reply.get("ok") else None
    if not isinstance(out, dict):
        return []
    return pins(spec, out.get("fields") or {}, out.get("nulls") or [])


def pins(spec: JmlSpec, fields: dict[str, Any], nulls: list[Any]) -> list[str]:
    """The assumptions for the fields the class declares (a name the worker reports that the
    front end does not know, or a type that differs, is left out)."""
    from ...stubs.render import java_literal

    declared = {f.name: f.type.strip() for f in spec.cls.fields if "static" not in f.modifiers}
    out: list[str] = []
    for name, value in fields.items():
        ty = declared.get(name)
        if ty not in _EXACT:
            continue
        try:
            out.append(f"this.{name} == {java_literal(value, ty)}")
        except (ValueError, TypeError):
            continue
    for name in nulls:
        ty = declared.get(str(name))
        if ty is not None and ty not in _EXACT and ty not in ("double", "float"):
            out.append(f"this.{name} == null")
    return out
