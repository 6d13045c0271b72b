"""JML engines cross-checked on real specs: the runner's ``--cross-check`` plus the case sets.

Why: rac, key (and openjml) implement one semantics (docs/jml.md); wherever two decide a case
differently, one of them has a bug. The comparison itself is ``adequacy.scoring.runner.score_spec(...,
cross_check=True)``, which reports every disagreement; this module only picks the specs and
cases (bundled examples, SpecGenBench gold with wrong outputs and invalid inputs added) and
counts what each engine decided. Used by tests/key, benchmarks/semantics_jml.py and key_sgb.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from adequacy.extensions.backend import Limits
from adequacy.model.task import Case, Task
from adequacy.model.verdicts import Bucket
from adequacy.scoring.runner import score_spec
from adequacy.scoring.spec_report import SpecReport
from adequacy.taskdirs.load import load_task


def cross_check(task: Task, spec_path: Path, limits: Limits | None = None,
                engines: Sequence[str] = ("rac", "key")) -> SpecReport:
    """Every engine of ``engines`` on every case of the task (no verdict cache)."""
    limits = limits or Limits(case_seconds=10.0, spec_seconds=900.0)
    return score_spec(task, spec_path.read_text(encoding="utf-8"), str(spec_path),
                      engines=list(engines), cross_check=True, limits=limits, cache=None)


def decided(rep: SpecReport, engine: str) -> int:
    """Cases ``engine`` decided in a cross-checked report (0 when it did not run)."""
    return sum(r.decided for r in rep.engines if r.name == engine and not r.skipped)


def problem(rep: SpecReport, engines: Sequence[str] = ("rac", "key")) -> str:
    """Why the report is no cross-check ("" when every engine ran on every case): the spec
    was rejected, our own error, or an engine did not run."""
    if rep.status != "scored":
        return f"{rep.status}: {rep.invalid.message if rep.invalid else rep.error}"
    ran = {r.name for r in rep.engines if not r.skipped}
    missing = [e for e in engines if e not in ran]
    if missing:
        why = {r.name: r.skipped for r in rep.engines if r.skipped}
        return "; ".join(f"{e} did not run ({why.get(e, 'not in the chain')})" for e in missing)
    return ""


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
