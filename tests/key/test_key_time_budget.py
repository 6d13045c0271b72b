"""The key engine gives up a predicate whose proofs keep timing out.

The prover is replaced by a recorded reply per stub (every post stub times out, every pre stub
closes): this tests the engine's request plan and verdicts, not KeY. The real KeY worker
answers ``"status": "timeout"`` when a proof runs out of time (KeyProver.java).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from key_support import EXAMPLES

from adequacy.extensions.backend import Limits
from adequacy.model.verdicts import Truth
from adequacy.taskdirs.load import load_task
from adequacy_openjml.engines.key import engine
from adequacy_openjml.jml.load import load


def many_cases(tmp_path: Path, n: int = 20) -> Path:
    import shutil
    d = tmp_path / "abs"
    shutil.copytree(EXAMPLES / "abs_value", d)
    for f in (d / "tests").iterdir():
        f.unlink()
    pre = [{"id": f"c{i}", "input": {"x": i}} for i in range(n)]
    post = [{"id": f"c{i}", "input": {"x": i}, "output": {"result": i}} for i in range(n)]
    (d / "tests" / "pre_complete.jsonl").write_text("".join(json.dumps(c) + "\n" for c in pre))
    (d / "tests" / "post_complete.jsonl").write_text("".join(json.dumps(c) + "\n" for c in post))
    return d


def test_post_proofs_that_time_out_are_given_up(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    d = many_cases(tmp_path)
    task = load_task(d)
    spec = load(task, (d / "specs" / "gold.java").read_text(), "gold.java")
    cases = task.all_cases()
    by_name = {s.name: cases[s.index] for s in engine.render_key_stubs(spec, task, cases).stubs}
    asked: list[list[str]] = []

    def fake(sf: Any, methods: list[str], proof_seconds: float, left: float) -> dict[str, Any]:
        asked.append(methods)
        res = [{"method": m, "status": "open" if m == sf.canary else "timeout"
                if by_name[m].bucket.predicate == "post" else "closed", "steps": 1,
                "millis": 1000, "reason": "r"} for m in methods]
        return {"ok": True, "results": res}

    monkeypatch.setattr(engine, "_request", fake)
    vs = engine.check(spec, task, cases, Limits(case_seconds=1))
    pre = [v for v in vs if v.bucket.predicate == "pre"]
    post = [v for v in vs if v.bucket.predicate == "post"]
    assert all(v.value is Truth.true for v in pre)
    assert all(v.value is Truth.unknown for v in post)
    assert all("3 cases in a row" in v.reason for v in post)
    assert sum(v.reason.startswith("timeout") for v in post) == 3
    proved_post = [m for req in asked for m in req if m in by_name
                   and by_name[m].bucket.predicate == "post"]
    assert len(proved_post) == 3  # the probe only; the other 17 post stubs never ran
    assert len(asked) == 2  # probe, then the rest of the round (round 2 only had post stubs)


def test_no_probe_without_the_rule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    d = many_cases(tmp_path)
    task = load_task(d)
    spec = load(task, (d / "specs" / "gold.java").read_text(), "gold.java")
    asked: list[list[str]] = []

    def fake(sf: Any, methods: list[str], proof_seconds: float, left: float) -> dict[str, Any]:
        asked.append(methods)
        return {"ok": True, "results": [{"method": m, "status": "open" if m == sf.canary
                                         else "closed", "steps": 1, "millis": 1}
                                        for m in methods]}

    monkeypatch.setattr(engine, "_request", fake)
    engine.check(spec, task, task.all_cases(), Limits(timeout_streak=0))
    assert len(asked) == 1
