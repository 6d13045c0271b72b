"""Verus-SpecGym's own per-bucket result files, as their public results script reads them.

A Verus-SpecGym task run in Harbor leaves, under the trial's ``verifier/compressed_verdicts/
run_on_all_samples/``, either ``unzipped_results/SubmissionResultMoreDetail.json`` (the counts:
``num_passed_<bucket>``, ``num_total_<bucket>``, ``did_solve_problem``) or
``unzipped_results/EvaluationFeedback.json`` (per test case: ``does_testcase_have_expected_
verdict`` under ``execution_feedback.<bucket>``, after ``syntax_check_feedback.has_passed_
syntax_checks``), the latter also inside ``results.zip``. The script prefers the detail file,
then the feedback file, then the zip; so does this module. Their task names are
``verus-gym-<contest>-<index>``.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from adequacy.errors import InputError
from adequacy.model.metrics import BucketStats
from adequacy.model.verdicts import BUCKETS, Bucket

BASE = Path("verifier") / "compressed_verdicts" / "run_on_all_samples"
DETAIL = BASE / "unzipped_results" / "SubmissionResultMoreDetail.json"
FEEDBACK = BASE / "unzipped_results" / "EvaluationFeedback.json"
ZIPPED = BASE / "results.zip"
MAX_BYTES = 256 << 20


class SpecGymScore(BaseModel):
    """One trial's per-bucket counts from Verus-SpecGym's files."""

    model_config = ConfigDict(extra="forbid")

    buckets: dict[Bucket, BucketStats]
    """Every case decided (their verdicts are pass or fail): unknown is always 0."""
    syntax_ok: bool
    did_solve: bool
    """Their own pass flag, kept to compare with ours."""
    source: str
    """Which file the counts came from, relative to the trial folder."""


def present(trial: Path) -> bool:
    return any((trial / p).is_file() for p in (DETAIL, FEEDBACK, ZIPPED))


def _load(path: Path, data: bytes | None = None) -> Any:
    if data is None:
        if path.stat().st_size > MAX_BYTES:
            raise InputError(f"larger than {MAX_BYTES >> 20} MiB", file=str(path))
        data = path.read_bytes()
    try:
        return json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as e:
        raise InputError(f"not JSON: {e}", file=str(path)) from None


def _int(d: dict[str, Any], key: str, where: Path) -> int:
    v = d.get(key)
    if type(v) is not int or v < 0:
        raise InputError(f"{key}: expected a count (an integer >= 0), got {v!r}", file=str(where))
    return v


def from_detail(detail: Any, where: Path) -> SpecGymScore:
    if not isinstance(detail, dict):
        raise InputError("expected a JSON object", file=str(where))
    buckets = {}
    for b in BUCKETS:
        passed = _int(detail, f"num_passed_{b.value}", where)
        total = _int(detail, f"num_total_{b.value}", where)
        if passed > total:
            raise InputError(f"num_passed_{b.value} {passed} > num_total_{b.value} {total}",
                             file=str(where))
        buckets[b] = BucketStats(total=total, passed=passed, failed=total - passed)
    solved = detail.get("did_solve_problem")
    if not isinstance(solved, bool):
        raise InputError(f"did_solve_problem: expected true or false, got {solved!r}",
                         file=str(where))
    return SpecGymScore(buckets=buckets, syntax_ok=True, did_solve=solved, source=str(DETAIL))


def from_feedback(feedback: Any, where: Path, source: str) -> SpecGymScore:
    if not isinstance(feedback, dict):
        raise InputError("expected a JSON object", file=str(where))
    syntax = feedback.get("syntax_check_feedback") or {}
    ok = isinstance(syntax, dict) and syntax.get("has_passed_syntax_checks") is True
    execution = feedback.get("execution_feedback")
    empty = {b: BucketStats() for b in BUCKETS}
    if not ok or execution is None:
        return SpecGymScore(buckets=empty, syntax_ok=ok, did_solve=False, source=source)
    if not isinstance(execution, dict):
        raise InputError("execution_feedback: expected a JSON object", file=str(where))
    buckets = {}
    for b in BUCKETS:
        cases = execution.get(b.value) or {}
        if not isinstance(cases, dict):
            raise InputError(f"execution_feedback.{b.value}: expected an object of test cases",
                             file=str(where))
        passed = sum(1 for c in cases.values()
                     if isinstance(c, dict) and c.get("does_testcase_have_expected_verdict")
                     is True)
        buckets[b] = BucketStats(total=len(cases), passed=passed, failed=len(cases) - passed)
    solved = all(s.total > 0 and s.passed == s.total for s in buckets.values())
    return SpecGymScore(buckets=buckets, syntax_ok=True, did_solve=solved, source=source)


def read_trial(trial: Path) -> SpecGymScore | None:
    """The counts of a trial folder, or None when it holds none of the three files."""
    if (trial / DETAIL).is_file():
        return from_detail(_load(trial / DETAIL), trial / DETAIL)
    if (trial / FEEDBACK).is_file():
        return from_feedback(_load(trial / FEEDBACK), trial / FEEDBACK, str(FEEDBACK))
    if (trial / ZIPPED).is_file():
        path = trial / ZIPPED
        try:
            with zipfile.ZipFile(path) as z:
                info = z.getinfo("EvaluationFeedback.json")
                if info.file_size > MAX_BYTES:
                    raise InputError(f"EvaluationFeedback.json is larger than "
                                     f"{MAX_BYTES >> 20} MiB", file=str(path))
                data = z.read(info)
        except KeyError:
            raise InputError("no EvaluationFeedback.json in the archive",
                             file=str(path)) from None
        except zipfile.BadZipFile as e:
            raise InputError(f"not a zip archive: {e}", file=str(path)) from None
        return from_feedback(_load(path, data), path, f"{ZIPPED}/EvaluationFeedback.json")
    return None
