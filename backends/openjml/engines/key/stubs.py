"""KeY stubs, built from the JML backend's stubs (``adequacy.backends.openjml.stubs``).

Why not their file as is: KeY proves *contracts*, so a stub method without one is never looked
at, and a ``pre_phi`` stub that calls the method would also pick up KeY's implicit non-null
preconditions and exceptional-behaviour rules that the rac engine's semantics (docs/jml.md: the
precondition is the disjunction of the ``requires`` clauses) does not have. So each case becomes
two stubs with the same locals (the case's inputs, and for post checks its outputs) and the
asserted formula F or !F, F being the JML backend's own pre or post formula for that case.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import jinja2

from adequacy.tasks import Case, Task

from ...jml.load import JmlSpec
from ...stubs import Stub, render_stubs
from ...stubs.render import _spec_start
from .adapt import inline_constants, key_parts

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


@dataclass
class KeyStubFile:
    class_name: str
    text: str
    stubs: list[KeyStub]
    skipped: dict[str, str]


def render_key_stubs(spec: JmlSpec, task: Task, cases: list[Case]) -> KeyStubFile:
    base = render_stubs(spec, task, cases)
    # the base stubs are numbered by the case's position (ids repeat across buckets)
    nots: dict[int, Stub] = {int(s.name.rsplit("_", 1)[1]): s for s in base.stubs
                             if s.kind in ("pre_not", "post_not")}
    stubs: list[KeyStub] = []
    for k, case in enumerate(cases):
        s = nots.get(k)
        if s is None:
            continue
        assert s.assertion.startswith("!")
        formula = s.assertion[1:]
        stubs.append(KeyStub(f"__key_phi_{k}", k, case.id, case.bucket.value, "phi", s.locals,
                             formula))
        stubs.append(KeyStub(f"__key_not_{k}", k, case.id, case.bucket.value, "not-phi", s.locals,
                             f"!{formula}"))
    head, tail = key_parts(spec, _without_method_spec(spec), spec.cls.body_close)
    text = _ENV.get_template("key_stubs.java.j2").render(
        head=head.rstrip(), tail=tail, stubs=stubs, static=spec.method.is_static)
    # after rendering: the stubs' own assertions may name the constants too
    text = inline_constants(text)
    return KeyStubFile(spec.cls.name, text, stubs, dict(base.skipped))


def _without_method_spec(spec: JmlSpec) -> str:
    """The spec's text with the target method's own JML blanked (lines kept): the stubs assert
    the front end's formulas, so KeY need not parse clauses it cannot read (``old``,
    ``assignable`` of array ranges, ...), whose load errors would cost every case."""
    text = spec.source.text
    start = _spec_start(spec)
    if start is None:
        return text
    blank = "".join(ch if ch == "\n" else " " for ch in text[start:spec.method.start])
    return text[:start] + blank + text[spec.method.start:]
