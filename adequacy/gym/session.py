"""``check`` and ``submit`` on a gym folder.

``check`` scores against the folder's own visible-only task copy and may say everything about
those cases. ``submit`` goes back to the source task (refusing one whose content changed since
the folder was made) and grades on every case, but what it returns and records is aggregate:
bucket counts, pass, metrics. Per-case verdicts, engine reasons and error texts of a grading run
can quote hidden values (a panic message, a compile error in a harness that embeds the cases),
so none of them leaves the grader.
"""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from adequacy.backend import Limits
from adequacy.cache import VerdictCache, default_cache_dir
from adequacy.errors import AdequacyError, TaskError
from adequacy.gym.manifest import PRIVATE, GymManifest, read_manifest, task_content_hash
from adequacy.results import SpecReport, append_record, producer
from adequacy.runner import score_spec
from adequacy.tasks import Task, load_task
from adequacy.values import content_hash
from adequacy.verdicts import BUCKETS, Bucket

MAX_SPEC_CHARS = 200_000
"""A spec longer than this is refused before any engine sees it."""


class GymError(AdequacyError):
    """A gym folder cannot do what was asked (already submitted, hash mismatch, ...)."""


class GymRecord(SpecReport):
    """A grade: a SpecReport (so batch summaries read it) with no per-case detail, plus the
    gym's fields."""

    model_config = ConfigDict(extra="forbid")

    gym_folder: str = ""
    task_hash: str = ""
    checks: int = 0
    """How many times ``check`` ran in the folder before this submission."""
    submission: int = 1
    submitted_at: str = ""


class GymState(BaseModel):
    model_config = ConfigDict(extra="forbid")

    checks: int = 0
    submissions: int = 0


class CheckResult(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str
    """The feedback, as printed and as given to an agent."""
    report: SpecReport
    """Scored on visible cases only."""
    log: str | None = None


def _state_path(folder: Path) -> Path:
    return folder / PRIVATE / "state.json"


def read_state(folder: Path) -> GymState:
    p = _state_path(folder)
    if not p.is_file():
        return GymState()
    try:
        return GymState.model_validate_json(p.read_text(encoding="utf-8"))
    except ValueError:
        return GymState()


def _write_state(folder: Path, st: GymState) -> None:
    p = _state_path(folder)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(st.model_dump_json(), encoding="utf-8")


def spec_text_of(folder: Path, m: GymManifest, spec: str | None) -> str:
    """The spec given, or the folder's spec file; refused when absurdly long."""
    if spec is None:
        try:
            spec = (folder / m.spec_file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise GymError(f"cannot read the spec file {folder / m.spec_file}: {e}") from None
    if len(spec) > MAX_SPEC_CHARS:
        raise GymError(f"spec has {len(spec)} characters; the limit is {MAX_SPEC_CHARS}")
    return spec


def _cache() -> VerdictCache | None:
    try:
        return VerdictCache(str(default_cache_dir() / "verdicts.sqlite"))
    except Exception:  # noqa: BLE001 - a cache we cannot open only costs time
        return None


def visible_task(folder: Path) -> Task:
    return load_task(folder / PRIVATE / "task")


def _short(v: object, limit: int = 300) -> str:
    s = json.dumps(v, ensure_ascii=False)
    return s if len(s) <= limit else s[:limit - 3] + "..."


def feedback(rep: SpecReport, task: Task) -> str:
    """Detailed, model-readable feedback on a visible-only report."""
    if rep.status == "invalid" and rep.invalid is not None:
        by = f" (found by engine {rep.invalid.engine})" if rep.invalid.engine else ""
        return (f"INVALID SPEC{by}: {rep.invalid.render()}\n"
                "Fix this first: no case can be evaluated until the spec is valid.")
    if rep.status == "error":
        first = (rep.error or "").splitlines()[0] if rep.error else ""
        return f"ERROR (not your spec's fault): {first[:500]}"
    cases = {(c.bucket, c.id): c for c in task.all_cases()}
    passed = sum(1 for v in rep.verdicts if v.passed)
    lines = [f"check: {passed} of {len(rep.verdicts)} visible cases passed"]
    for v in rep.verdicts:
        c = cases.get((v.bucket, v.case_id))
        pred = "pre_spec / requires" if v.bucket.predicate == "pre" else "post_spec / ensures"
        must = "accept (true)" if v.bucket.expects else "reject (false)"
        status = "ok  " if v.passed else "FAIL"
        line = f"{status} {v.bucket.value}/{v.case_id}: {pred} gave {v.value.value}, must {must}"
        if c is not None:
            line += f"\n     input {_short(c.input)}"
            if c.output is not None:
                line += f"\n     output {_short(c.output)}"
        if not v.passed and v.reason:
            line += f"\n     engine {v.engine}: {v.reason[:400]}"
        lines.append(line)
    lines.append("Visible cases are only a sample: hidden cases also test that your spec "
                 "rejects invalid inputs (pre_sound) and wrong outputs (post_sound).")
    return "\n".join(lines)


def check(folder: Path, spec: str | None = None, limits: Limits | None = None,
          log: bool = True) -> CheckResult:
    """Score the spec on the folder's visible cases only; count the check; log it."""
    m = read_manifest(folder)
    text = spec_text_of(folder, m, spec)
    task = visible_task(folder)
    # visible cases come from the completeness buckets only: the sound ones are empty on purpose
    rep = score_spec(task, text, m.spec_file, limits=limits, cache=_cache(),
                     empty_by_design=[Bucket.pre_sound, Bucket.post_sound])
    fb = feedback(rep, task)
    st = read_state(folder)
    st.checks += 1
    _write_state(folder, st)
    log_path = None
    if log:
        logs = folder / PRIVATE / "logs"
        logs.mkdir(parents=True, exist_ok=True)
        stem = logs / f"check-{st.checks:04d}"
        stem.with_suffix(".txt").write_text(fb + "\n", encoding="utf-8")
        stem.with_suffix(".json").write_text(rep.model_dump_json(indent=2), encoding="utf-8")
        (logs / f"check-{st.checks:04d}.spec").write_text(text, encoding="utf-8")
        log_path = str(stem.with_suffix(".txt"))
    return CheckResult(text=fb, report=rep, log=log_path)


def source_task(m: GymManifest, source: Path | None = None) -> Task:
    """The task the folder was made from, refused when its content changed since."""
    root = source or Path(m.source)
    try:
        task = load_task(root)
    except AdequacyError as e:
        raise GymError(f"cannot load the source task of {m.task_id} at {root}: {e}") from None
    if task.id != m.task_id:
        raise GymError(f"the source task at {root} is {task.id!r}, not {m.task_id!r}")
    got = task_content_hash(task)
    if got != m.task_hash:
        raise GymError(f"the source task {m.task_id} at {root} changed since the gym folder was "
                       f"made (hash {got[:12]} != {m.task_hash[:12]}); remake the folder")
    return task


def _strip(rep: SpecReport) -> dict[str, object]:
    """The report without anything that can quote a hidden case."""
    d = rep.model_dump()
    d["verdicts"], d["disagreements"] = [], []
    if rep.error:
        d["error"] = "internal error while grading (details withheld: they may quote hidden cases)"
    if rep.invalid is not None and rep.invalid.engine is not None:
        # the front end sees no case; an engine compiling the cases in may quote them
        d["invalid"] = {"message": f"the engine {rep.invalid.engine} could not compile the spec "
                        "(run check for the details on the visible cases)",
                        "file": rep.invalid.file, "line": None, "engine": rep.invalid.engine}
    return d


def submit(folder: Path, spec: str | None = None, again: bool = False,
           source: Path | None = None, limits: Limits | None = None) -> GymRecord:
    """Grade on every case of the source task and append the record to the folder's log."""
    m = read_manifest(folder)
    st = read_state(folder)
    if st.submissions and not again:
        raise GymError(f"{m.task_id} was already submitted ({st.submissions} time(s)); "
                       "use --again to submit once more")
    text = spec_text_of(folder, m, spec)
    task = source_task(m, source)
    start = time.monotonic()
    rep = score_spec(task, text, m.spec_file, limits=limits, cache=_cache())
    st.submissions += 1
    now = datetime.now(UTC).isoformat(timespec="seconds")
    d = _strip(rep)
    d["key"] = content_hash(rep.key, str(folder.resolve()), str(st.submissions), now)
    d["seconds"] = time.monotonic() - start
    rec = GymRecord.model_validate({**d, "gym_folder": str(folder), "task_hash": m.task_hash,
                                    "checks": st.checks, "submission": st.submissions,
                                    "submitted_at": now})
    _write_state(folder, st)
    logs = folder / PRIVATE
    logs.mkdir(exist_ok=True)
    append_record(logs / "submissions.jsonl", rec, producer("submit"))
    (logs / f"submitted-{st.submissions}.spec").write_text(text, encoding="utf-8")
    return rec


def grade_text(rec: GymRecord) -> str:
    """The grade as an agent sees it: counts per bucket, nothing per case."""
    if rec.status == "invalid" and rec.invalid is not None:
        return f"submitted {rec.task_id}: INVALID SPEC: {rec.invalid.render()}\nPASS: no"
    if rec.status == "error":
        return f"submitted {rec.task_id}: {rec.error}"
    parts = []
    for b in BUCKETS:
        s = rec.buckets.get(b)
        if s is not None and s.total:
            parts.append(f"{b.value} {s.passed}/{s.total}"
                         + (f" ({s.unknown} unknown)" if s.unknown else ""))
    return (f"submitted {rec.task_id} (submission {rec.submission}, after {rec.checks} checks): "
            + ", ".join(parts) + f"\nPASS: {'yes' if rec.passed_all else 'no'}")


def find_folder(start: Path) -> Path:
    """The gym folder at or above ``start`` (``adequacy check`` inside a folder)."""
    p = start.resolve()
    for cand in (p, *p.parents):
        if (cand / "gym.json").is_file():
            return cand
    raise TaskError("not inside a gym folder (no gym.json here or above)", file=str(start))
