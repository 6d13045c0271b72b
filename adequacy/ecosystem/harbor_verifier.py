"""The grader an exported Harbor task runs (``tests/test.sh``): score, then write what Harbor reads.

``python3 -m adequacy.ecosystem.harbor_verifier --task /tests/task --spec FILE --engine E
--out /logs/verifier`` scores the spec on every case of the task, strictly (unknown counts as
failed), and writes into ``--out``:

- ``reward.json``: numbers only, as Harbor's reward reader requires: ``reward`` (1.0 when every
  bucket passes, Verus-SpecGym's reward; else 0.0) and each bucket's pass fraction. A bucket the
  task declares empty by design (``pre_sound`` of an ``every_input_valid`` task) counts 1.0: it
  cannot fail. An invalid or missing spec scores 0.0 everywhere.
- ``ctrf.json``: one CTRF test per case (its bucket, what the predicate gave and had to give,
  the engine's reason, the input and output), so Harbor's viewer lists every case.
- ``adequacy-report.json``: the full report (``adequacy score --json``), which
  ``adequacy import harbor-job`` reads back.

A failure of ours (an engine crash, a task that does not load) writes no reward at all and
exits 2: Harbor then records the trial as an error, never as a spec that scored 0.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from adequacy.errors import AdequacyError
from adequacy.model.verdicts import BUCKETS, Truth
from adequacy.scoring.spec_report import SpecReport

REWARD = "reward.json"
CTRF = "ctrf.json"
REPORT = "adequacy-report.json"
MAX_SPEC_BYTES = 1 << 20


def rewards(rep: SpecReport) -> dict[str, float]:
    """reward.json's numbers for a report (``scored`` or ``invalid``)."""
    out: dict[str, float] = {"reward": 1.0 if rep.passed_all else 0.0}
    for b in BUCKETS:
        s = rep.buckets.get(b)
        if rep.status != "scored" or s is None:
            out[b.value] = 0.0
        elif s.total == 0:
            out[b.value] = 1.0 if b in rep.empty_by_design else 0.0
        else:
            out[b.value] = s.passed / s.total
    return out


def _short(v: Any, limit: int = 400) -> str:
    s = json.dumps(v, ensure_ascii=False)
    return s if len(s) <= limit else s[:limit - 3] + "..."


def ctrf(rep: SpecReport, cases: dict[tuple[str, str], Any], started: float,
         stopped: float) -> dict[str, Any]:
    """The report as a CTRF document (https://ctrf.io): one test per case."""
    from adequacy.version import __version__

    tests: list[dict[str, Any]] = []
    if rep.status == "invalid" and rep.invalid is not None:
        tests.append({"name": "the spec is valid", "status": "failed", "duration": 0,
                      "message": f"INVALID SPEC: {rep.invalid.render()}"})
    for v in rep.verdicts:
        pred = "precondition" if v.bucket.predicate == "pre" else "postcondition"
        must = "accept (true)" if v.bucket.expects else "reject (false)"
        msg = f"{pred} gave {v.value.value}, must {must}"
        if v.reason and not v.passed:
            msg += f"; {v.engine}: {v.reason[:500]}"
        c = cases.get((v.bucket.value, v.case_id))
        if c is not None:
            msg += f"\ninput {_short(c.input)}"
            if c.output is not None:
                msg += f"\noutput {_short(c.output)}"
        status = ("passed" if v.passed else "other" if v.value is Truth.unknown else "failed")
        tests.append({"name": f"{v.bucket.value}/{v.case_id}", "status": status,
                      "duration": round(v.seconds * 1000, 3), "suite": [v.bucket.value],
                      "message": msg, "rawStatus": v.value.value, "tags": [v.engine]})
    summary = {k: sum(1 for t in tests if t["status"] == k)
               for k in ("passed", "failed", "skipped", "pending", "other")}
    return {"reportFormat": "CTRF", "specVersion": "0.0.0",
            "timestamp": datetime.now(UTC).isoformat(timespec="seconds"),
            "generatedBy": "spec-adequacy",
            "results": {"tool": {"name": "spec-adequacy", "version": __version__},
                        "summary": {"tests": len(tests), **summary,
                                    "start": int(started * 1000), "stop": int(stopped * 1000)},
                        "tests": tests}}


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _spec_text(path: Path) -> tuple[str | None, str]:
    """The spec's text, or None and why there is none (the agent's fault: scored 0)."""
    if not path.is_file():
        return None, f"{path}: no spec file (the agent left none)"
    if path.stat().st_size > MAX_SPEC_BYTES:
        return None, f"{path}: larger than {MAX_SPEC_BYTES} bytes"
    try:
        return path.read_bytes().decode("utf-8-sig"), ""
    except UnicodeDecodeError:
        return None, f"{path}: not UTF-8 text"


def grade(task_dir: Path, spec: Path, engines: list[str], out: Path) -> SpecReport:
    """Score and write the three files; raises ``AdequacyError`` on a failure of ours."""
    from adequacy.model.verdicts import InvalidSpec
    from adequacy.scoring.keys import spec_hash
    from adequacy.scoring.runner import score_spec
    from adequacy.taskdirs.load import load_task

    out.mkdir(parents=True, exist_ok=True)
    # files of ours already there were not written by this grading (the agent's container may
    # share /logs with the host): none may survive a grading that fails
    for name in (REWARD, CTRF, REPORT):
        (out / name).unlink(missing_ok=True)
    task = load_task(task_dir)
    started = time.time()
    text, why = _spec_text(spec)
    if text is None:
        rep = SpecReport(key=f"missing:{spec_hash(why)}", task_id=task.id,
                         task_path=str(task_dir), spec_path=str(spec), spec_sha="",
                         language=task.language, status="invalid",
                         invalid=InvalidSpec(message=why, file=str(spec))).finish()
    else:
        rep = score_spec(task, text, str(spec), engines=engines, strict=True, cache=None)
    stopped = time.time()
    _write(out / REPORT, rep.model_dump_json(indent=2) + "\n")
    cases = {(c.bucket.value, c.id): c for c in task.all_cases()}
    _write(out / CTRF, json.dumps(ctrf(rep, cases, started, stopped), indent=1) + "\n")
    if rep.status == "error":
        raise AdequacyError(f"grading failed (not the spec's fault): {rep.error}")
    _write(out / REWARD, json.dumps(rewards(rep)) + "\n")
    return rep


def summary(rep: SpecReport) -> str:
    if rep.status == "invalid" and rep.invalid is not None:
        return f"INVALID SPEC: {rep.invalid.render()}\nreward 0.0"
    lines = [f"{rep.task_id}: {'PASSED ALL' if rep.passed_all else 'NOT PASSED'}"]
    for b in BUCKETS:
        s = rep.buckets.get(b)
        if s is not None:
            lines.append(f"  {b.value:14} {s.passed}/{s.total} passed, {s.failed} failed, "
                         f"{s.unknown} unknown")
    bad = [v for v in rep.verdicts if not v.passed]
    for v in bad[:50]:
        lines.append(f"  not passed: {v.bucket.value}/{v.case_id}: {v.value.value} "
                     f"({v.engine}: {v.reason[:200]})")
    if len(bad) > 50:
        lines.append(f"  ... and {len(bad) - 50} more (ctrf.json has them all)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m adequacy.ecosystem.harbor_verifier",
                                description="Grade a spec for Harbor (reward.json, ctrf.json).")
    p.add_argument("--task", type=Path, required=True, help="the whole task (hidden cases too)")
    p.add_argument("--spec", type=Path, required=True, help="the agent's spec file")
    p.add_argument("--engine", action="append", default=[], help="engine chain, in order")
    p.add_argument("--out", type=Path, required=True, help="/logs/verifier")
    args = p.parse_args(argv)
    try:
        rep = grade(args.task, args.spec, args.engine, args.out)
    except AdequacyError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(summary(rep))
    return 0


if __name__ == "__main__":
    sys.exit(main())
