"""Records built by hand, so every figure a report prints can be checked against arithmetic."""

from __future__ import annotations

import json
from pathlib import Path

from adequacy.model.verdicts import Bucket, Truth, Verdict
from adequacy.scoring.spec_report import SpecReport


def spec_report(task: str, spec: str, per_bucket: dict[Bucket, tuple[int, int, int]],
                status: str = "scored", key: str | None = None) -> SpecReport:
    """``per_bucket``: bucket -> (passed, failed, unknown) case counts."""
    verdicts = []
    for b, (p, f, u) in per_bucket.items():
        ok = Truth.true if b.expects else Truth.false
        bad = Truth.false if b.expects else Truth.true
        verdicts += [Verdict(case_id=f"p{i}", bucket=b, value=ok, engine="interp")
                     for i in range(p)]
        verdicts += [Verdict(case_id=f"f{i}", bucket=b, value=bad, engine="interp",
                             reason="decided") for i in range(f)]
        verdicts += [Verdict(case_id=f"u{i}", bucket=b, value=Truth.unknown, engine="interp",
                             reason="step limit") for i in range(u)]
    rep = SpecReport(key=key or f"{task}/{spec}", task_id=task, task_path=f"/nowhere/{task}",
                     spec_path=f"/nowhere/{task}/{spec}", spec_sha="0", language="verus",
                     status=status, verdicts=verdicts if status == "scored" else [])
    if status == "error":
        rep.error = "engine crashed"
    return rep.finish()


ALL = (Bucket.pre_complete, Bucket.pre_sound, Bucket.post_complete, Bucket.post_sound)


def full(passed: bool) -> dict[Bucket, tuple[int, int, int]]:
    return {b: (2, 0 if passed else (1 if b is Bucket.post_sound else 0), 0) for b in ALL}


def write(path: Path, reports: list[SpecReport], extra: dict[str, object] | None = None,
          samples: bool = False) -> Path:
    """Records of ``reports``; ``samples``: as a writer's numbered samples (each report the
    next sample of its task, as ``synthesize`` then ``run`` record them), else bare reports
    (schema 1: no sample index, so no pass@k)."""
    seen: dict[str, int] = {}
    with path.open("w") as f:
        for r in reports:
            obj = json.loads(r.model_dump_json())
            obj.update(extra or {})
            if samples:
                n = seen[r.task_id] = seen.get(r.task_id, -1) + 1
                obj = {"schema": 4, "created": None,
                       "producer": {"adequacy": "0.1.0", "command": "run", "writer": "w",
                                    "sample": n},
                       "report": obj, "extra": {}}
            f.write(json.dumps(obj) + "\n")
    return path
