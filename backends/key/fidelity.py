"""Cross-check the ``key`` engine against ``rac`` on the same spec and cases.

Why: both engines implement one semantics (docs/jml.md); wherever both decide, a difference is
a bug in one of them. Used by tests/key and benchmarks/key_stubs.py.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from adequacy.backend import Limits
from adequacy.backends.key import engine as key_engine
from adequacy.backends.openjml.jml.load import load
from adequacy.backends.openjml.rac import engine as rac_engine
from adequacy.errors import SpecInvalid
from adequacy.tasks import Case, Task, load_task
from adequacy.verdicts import Bucket, Truth


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
    rac = rac_engine.check(spec.unit, spec.file, task, cases, limits, gap=spec.math_gap)
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


def sample(task: Task, per_bucket: int) -> Task:
    """The task with ``per_bucket`` evenly spaced cases per bucket: KeY costs about a second
    per stub, and SpecGenBench's ~200 cases per bucket differ mostly in their numbers."""
    def pick(cs: list[Case]) -> list[Case]:
        step = max(1, len(cs) // per_bucket)
        return cs[::step][:per_bucket]
    return task.model_copy(update={"cases": {b: pick(cs) for b, cs in task.cases.items()}})


def with_wrong_outputs(task: Task) -> Task:
    """Add a post_sound case per post_complete case whose ``result`` is an int or bool, with
    that result off by one (or negated). SpecGenBench has complete buckets only, so without
    these no not-phi proof (a reject) would be cross-checked. The output is wrong for every
    gold spec of examples/sgb-gold, whose methods are deterministic functions."""
    wrong: list[Case] = []
    for c in task.cases.get(Bucket.post_complete, []):
        out = dict(c.output or {})
        r = out.get("result")
        if isinstance(r, bool):
            out["result"] = not r
        elif isinstance(r, int):
            out["result"] = r + 1 if r < 2**31 - 1 else r - 1
        else:
            continue
        wrong.append(c.model_copy(update={"id": f"wrong-{c.id}", "bucket": Bucket.post_sound,
                                          "output": out, "origin": "fidelity"}))
    cases = dict(task.cases)
    cases[Bucket.post_sound] = [*cases.get(Bucket.post_sound, []), *wrong]
    return task.model_copy(update={"cases": cases})


def with_cases(task: Task, bucket: Bucket, inputs: list[dict[str, object]]) -> Task:
    """Add hand-written cases (inputs only) to a pre bucket, e.g. inputs outside a gold
    precondition for pre_sound."""
    extra = [Case(id=f"hand-{k}", bucket=bucket, input=dict(i), output=None, origin="fidelity")
             for k, i in enumerate(inputs)]
    cases = dict(task.cases)
    cases[bucket] = [*cases.get(bucket, []), *extra]
    return task.model_copy(update={"cases": cases})


SGB_INVALID: dict[str, list[dict[str, object]]] = {
    # inputs outside the gold specs' preconditions (examples/sgb-gold), worked out by hand
    "SGB_Abs": [{"num": -2147483648}],
    "SGB_AddLoop": [{"x": 2147483647, "y": 1}, {"x": -2147483648, "y": -1}],
    "SGB_IntSquare": [{"x": 46341}, {"x": -2147483648}],
    "SGB_IsCommonFactor": [{"a": 4, "b": 6, "factor": 0}],
}
"""SpecGenBench has no pre_sound cases; these make the cross-check cover pre rejections."""


def sgb_gold(gold_dir: Path, sgb_root: Path, per_bucket: int) -> list[tuple[Task, Path]]:
    """(task, gold spec) for every ``<task_id>.java`` in ``gold_dir`` whose task was imported
    under ``sgb_root``: a sample of its cases, wrong outputs and hand-written invalid inputs."""
    out = []
    for spec in sorted(gold_dir.glob("*.java")):
        if not (sgb_root / spec.stem / "task.toml").exists():
            continue
        task = with_wrong_outputs(sample(load_task(sgb_root / spec.stem), per_bucket))
        task = with_cases(task, Bucket.pre_sound, SGB_INVALID.get(spec.stem, []))
        out.append((task, spec))
    return out
