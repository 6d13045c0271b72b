"""Cross-check the ``key`` engine against ``rac`` on the same spec and cases.

Why: both engines implement one semantics (docs/jml.md); wherever both decide, a difference is
a bug in one of them. Used by tests/key and benchmarks/key_stubs.py.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from adequacy.backends.key import engine as key_engine
from adequacy.backends.openjml.jml.load import load
from adequacy.backends.openjml.rac import engine as rac_engine

from adequacy.backend import Limits
from adequacy.errors import SpecInvalid
from adequacy.tasks import Task, load_task
from adequacy.verdicts import Truth


@dataclass
class CaseRow:
    bucket: str
    case_id: str
    rac: str
    key: str
    rac_reason: str
    key_reason: str


@dataclass
class SpecReport:
    task: str
    spec: str
    rows: list[CaseRow] = field(default_factory=list)
    key_seconds: float = 0.0
    error: str = ""

    @property
    def both_decided(self) -> list[CaseRow]:
        return [r for r in self.rows if "unknown" not in (r.rac, r.key)]

    @property
    def disagreements(self) -> list[CaseRow]:
        return [r for r in self.both_decided if r.rac != r.key]

    @property
    def key_decided(self) -> int:
        return sum(r.key != Truth.unknown.value for r in self.rows)


def cross_check(task: Task, spec_path: Path, limits: Limits | None = None) -> SpecReport:
    limits = limits or Limits(case_seconds=10.0, spec_seconds=900.0)
    rep = SpecReport(task.id, spec_path.name)
    try:
        spec = load(task, spec_path.read_text(encoding="utf-8"), str(spec_path))
    except SpecInvalid as e:
        rep.error = f"invalid: {e}"
        return rep
    cases = task.all_cases()
    rac = rac_engine.check(spec.unit, spec.file, task, cases, limits)
    t0 = time.monotonic()
    try:
        key = key_engine.check(spec, task, cases, limits)
    except SpecInvalid as e:
        rep.error = f"key: {e}"
        return rep
    rep.key_seconds = time.monotonic() - t0
    for c, a, b in zip(cases, rac, key, strict=True):
        rep.rows.append(CaseRow(c.bucket.value, c.id, a.value.value, b.value.value, a.reason,
                                b.reason))
    return rep


def bundled(root: Path) -> list[tuple[Task, Path]]:
    """Every (task, spec) pair of a folder of JML tasks (gold and flawed specs)."""
    out = []
    for d in sorted(p for p in root.iterdir() if (p / "task.toml").exists()):
        task = load_task(d)
        out += [(task, s) for s in sorted((d / "specs").glob("*.java"))]
    return out
