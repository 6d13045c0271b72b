"""KeY stubs, built from the JML backend's stubs (``adequacy_openjml.stubs``).

Why not their file as is: KeY proves *contracts*, so a stub method without one is never looked
at, and a ``pre_phi`` stub that calls the method would also pick up KeY's implicit non-null
preconditions and exceptional-behaviour rules that the rac engine's semantics (docs/jml.md: the
precondition is the disjunction of the ``requires`` clauses) does not have. So each case becomes
two stubs with the same locals (the case's inputs, and for post checks its outputs) and the
asserted formula F or !F, F being the JML backend's own pre or post formula for that case.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import jinja2

from adequacy.plugin import Case, Task

from ...jml.load import JmlSpec
from ...jml.source import split_comments
from ...stubs import Stub, render_stubs
from ...stubs.render import _spec_start
from .adapt import SMALL_INTS, inline_constants, key_parts, promote_minus

_ENV = jinja2.Environment(loader=jinja2.FileSystemLoader(str(Path(__file__).parent / "templates")),
                          autoescape=False, keep_trailing_newline=True,
                          undefined=jinja2.StrictUndefined)


@dataclass
class KeyStub:
    name: str
    index: int
    """Position of the case in the request (case ids repeat across buckets)."""
    case_id: str
    bucket: str
    direction: str
    """``phi`` (proved: accept) or ``not-phi`` (proved: reject)."""
    locals: list[str]
    assertion: str


CANARY = "__key_canary"


@dataclass
class KeyStubFile:
    class_name: str
    text: str
    stubs: list[KeyStub]
    skipped: dict[str, str]
    canary: str = CANARY
    """A stub with no locals asserting ``false``: proved only when what KeY assumes around
    every stub (the file's axioms, model fields' ``represents``, ...) is inconsistent, which
    would make every stub of the file provable in both directions."""
    render: Callable[[list[KeyStub]], str] | None = None
    """The file holding only some of the stubs (and the canary)."""

    def text_for(self, names: list[str]) -> str:
        """The file KeY loads to prove ``names``: only those stubs (KeY builds a contract for
        every method of the file it loads; with every case of an imported task, about 2,500
        stubs, loading alone ate the spec's time)."""
        if self.render is None:
            return self.text
        wanted = set(names)
        return self.render([s for s in self.stubs if s.name in wanted])


def render_key_stubs(spec: JmlSpec, task: Task, cases: list[Case],
                     pins: list[str] | None = None) -> KeyStubFile:
    """``pins``: what the stubs may assume of ``this`` (``receiver.receiver_pins``)."""
    base = render_stubs(spec, task, cases, narrow=True)
    # the base stubs are numbered by the case's position (ids repeat across buckets)
    nots: dict[int, Stub] = {int(s.name.rsplit("_", 1)[1]): s for s in base.stubs
                             if s.kind in ("pre_not", "post_not")}
    stubs: list[KeyStub] = []
    for k, case in enumerate(cases):
        s = nots.get(k)
        if s is None:
            continue
        assert s.assertion.startswith("!")
        small = {m.group(2) for m in map(_LOCAL.match, s.locals)
                 if m is not None and m.group(1) in SMALL_INTS}
        formula = promote_minus(s.assertion[1:], small)
        guard = "" if s.guard == "true" else f"{promote_minus(s.guard, small)} && "
        stubs.append(KeyStub(f"__key_phi_{k}", k, case.id, case.bucket.value, "phi", s.locals,
                             f"{guard}{formula}"))
        stubs.append(KeyStub(f"__key_not_{k}", k, case.id, case.bucket.value, "not-phi",
                             s.locals, f"{guard}!{formula}"))
    head, tail = key_parts(spec, _without_method_spec(spec), spec.cls.body_close)
    canary = KeyStub(CANARY, -1, "", "", "canary", [], "false")

    def render(some: list[KeyStub]) -> str:
        text = _ENV.get_template("key_stubs.java.j2").render(
            head=head.rstrip(), tail=tail, stubs=[*some, canary],
            static=spec.method.is_static, requires=" && ".join(pins or []) or "true")
        # after rendering: the stubs' own assertions may name the constants too
        return inline_constants(text)
    return KeyStubFile(spec.cls.name, render(stubs), stubs, dict(base.skipped), render=render)


_LOCAL = re.compile(r"\s*(\w+)\s+(\w+)\s*=")


def _without_method_spec(spec: JmlSpec) -> str:
    """The spec's text with the target method's own JML blanked (lines kept): the stubs assert
    the front end's formulas, so KeY need not parse clauses it cannot read (``old``,
    ``assignable`` of array ranges, ...), whose load errors would cost every case. The
    contracts of methods that neither the target's spec nor a class-level annotation calls
    (directly or through the contracts of the methods they call) are blanked too: no stub can
    reach them, and a clause KeY cannot read there (SpecGen's ``gcd`` has ``old`` clauses)
    made KeY refuse every case of ``div``."""
    text = spec.source.text
    regions = _spec_regions(spec)
    target = regions.get(id(spec.method))
    if target is None:
        return text
    keep = _reached(spec, regions)
    out = text
    for m in (m for c in spec.source.classes for m in c.methods):
        r = regions.get(id(m))
        if r is None or (m is not spec.method and id(m) in keep):
            continue
        a, b = r
        if _CLASS_LEVEL.search(text, a, b):
            continue  # class-level JML right before the method: kept whole
        out = out[:a] + "".join(ch if ch == "\n" else " " for ch in out[a:b]) + out[b:]
    return out


_CLASS_LEVEL = re.compile(r"\b(invariant|constraint|initially|axiom|represents|model|ghost|"
                          r"static_initializer|in|maps)\b")
_CALL = re.compile(r"([A-Za-z_$][\w$]*)\s*\(")


def _spec_regions(spec: JmlSpec) -> dict[int, tuple[int, int]]:
    """For each method (by id) with JML before it: the offsets of that JML."""
    out: dict[int, tuple[int, int]] = {}
    for c in spec.source.classes:
        for m in c.methods:
            start = _spec_start(dataclasses.replace(spec, method=m))
            if start is not None:
                out[id(m)] = (start, m.start)
    return out


def _reached(spec: JmlSpec, regions: dict[int, tuple[int, int]]) -> set[int]:
    """ids of the methods whose contracts a stub may use: called by name (any overload) from
    the target's spec, from JML outside every method's spec (invariants, model fields...),
    or from the contract of a method already reached."""
    text = spec.source.text
    methods = [m for c in spec.source.classes for m in c.methods]
    inside = sorted(regions.values())
    names: set[str] = set()
    a, b = regions[id(spec.method)]
    names |= set(_CALL.findall(text[a:b]))
    for tok in split_comments(text, spec.source.file)[1]:
        if not any(x <= tok.pos < y for x, y in inside) and not any(
                m.start <= tok.pos < m.end for m in methods):
            names |= set(_CALL.findall(tok.text))
    reached: set[int] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        for m in methods:
            if m.name == name and id(m) not in reached:
                reached.add(id(m))
                r = regions.get(id(m))
                if r is not None:
                    todo += [n for n in _CALL.findall(text[r[0]:r[1]]) if n not in names]
                    names |= set(_CALL.findall(text[r[0]:r[1]]))
    return reached
