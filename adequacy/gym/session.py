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
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from adequacy.errors import AdequacyError, GymError, PrivatePath, TaskError
from adequacy.extensions.backend import Limits
from adequacy.gym.manifest import PRIVATE, GymManifest, manifest_sealed, read_manifest
from adequacy.gym.private import agent_path
from adequacy.gym.state import (
    count_check,
    count_submission,
    create_exclusive,
    locked,
    private_dir,
    read_state,
)
from adequacy.model.task import Task
from adequacy.model.verdicts import BUCKETS, Bucket
from adequacy.records.log import append_record, producer
from adequacy.scoring import trust
from adequacy.scoring.cache import VerdictCache, default_cache_dir
from adequacy.scoring.keys import grading_failure_key, spec_hash, submission_key, task_content_hash
from adequacy.scoring.runner import score_spec
from adequacy.scoring.spec_report import SpecReport
from adequacy.taskdirs.load import load_task

MAX_SPEC_CHARS = 200_000
"""A spec longer than this is refused before any engine sees it."""

_SCORING = threading.Lock()
"""One scoring at a time per process. The MCP server runs tools in threads, and not every engine
is thread-safe: the Verus interpreter sets the process-wide recursion limit and thread stack
size for its run and puts them back after, so a run beside it could start its thread with a
small stack and a huge limit (the process aborts: a C stack overflow) or find the limit lowered
mid-evaluation ("recursion too deep"). A verdict must not depend on who else is being scored;
processes (several CLI calls) share no such state and still run side by side."""


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


class CheckResult(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str
    """The feedback, as printed and as given to an agent."""
    report: SpecReport
    """Scored on visible cases only."""
    log: str | None = None


def spec_text_of(folder: Path, m: GymManifest, spec: str | None) -> str:
    """The spec given, or the folder's spec file (an agent's file by the gym's one rule of
    what is private: not a link into ``.gym/`` or out of the folder); refused when absurdly
    long."""
    if spec is None:
        try:
            path = agent_path(folder, m.spec_file)
        except PrivatePath as e:
            raise GymError(f"the spec file: {e}") from None
        try:
            spec = path.read_text(encoding="utf-8")
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
        pred = "precondition" if v.bucket.predicate == "pre" else "postcondition"
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
    lines.append("Visible cases are completeness cases only (pre_complete, post_complete; as "
                 "in the SpecGym paper's gym), so check never shows a soundness failure: a "
                 "spec that accepts everything passes here. Hidden cases also test that your "
                 "spec rejects invalid inputs (pre_sound) and wrong outputs (post_sound).")
    return "\n".join(lines)


def check(folder: Path, spec: str | None = None, limits: Limits | None = None,
          log: bool = True) -> CheckResult:
    """Score the spec on the folder's visible cases only; count the check; log it."""
    m = read_manifest(folder)
    text = spec_text_of(folder, m, spec)
    task = visible_task(folder)
    # visible cases come from the completeness buckets only: the sound ones are empty on purpose
    with _SCORING:
        rep = score_spec(task, text, m.spec_file, limits=limits, cache=_cache(),
                         empty_by_design=[Bucket.pre_sound, Bucket.post_sound])
    fb = feedback(rep, task)
    n = count_check(folder)
    log_path = None
    if log:
        logs = private_dir(folder) / "logs"
        logs.mkdir(exist_ok=True)
        txt = create_exclusive(logs / f"check-{n:04d}.txt", fb + "\n")
        create_exclusive(txt.with_suffix(".json"), rep.model_dump_json(indent=2))
        create_exclusive(txt.with_suffix(".spec"), text)
        log_path = str(txt)
    return CheckResult(text=fb, report=rep, log=log_path)


def source_task(m: GymManifest, source: Path | None = None) -> Task:
    """The task the folder was made from, refused when its content changed since."""
    root = source or Path(m.source)
    try:
        task = load_task(root)
    except AdequacyError as e:
        # where, not what: a malformed case's message can quote its (hidden) value
        where = getattr(e, "file", None) or str(root)
        line = getattr(e, "line", None)
        raise GymError(f"cannot load the source task of {m.task_id} at {root} (a problem in "
                       f"{where}{f':{line}' if line else ''}; run `adequacy task validate` "
                       "on it)") from None
    if task.id != m.task_id:
        raise GymError(f"the source task at {root} is {task.id!r}, not {m.task_id!r}")
    got = task_content_hash(task)
    if got != m.task_hash:
        raise GymError(f"the source task {m.task_id} at {root} changed since the gym folder was "
                       f"made (hash {got[:12]} != {m.task_hash[:12]}); remake the folder")
    return task


WITHHELD = "internal error while grading (details withheld: they may quote hidden cases)"

_KEPT = ("key", "task_id", "task_path", "spec_path", "spec_sha", "language", "status", "strict",
         "buckets", "metrics", "passed_all", "seconds", "empty_by_design", "options",
         "origins")
"""Fields of a grading report that are counts, hashes or settings: nothing a case flows into.
A list of what is kept, not of what is dropped, so a field added to ``SpecReport`` later is
withheld until someone decides it is safe."""


def _strip(rep: SpecReport) -> dict[str, object]:
    """The report without anything that can quote a hidden case: verdicts and their reasons,
    disagreements, error texts, an engine's compile error, why an engine gave up mid-run."""
    d = {k: v for k, v in rep.model_dump().items() if k in _KEPT}
    d["error"] = WITHHELD if rep.error else None
    d["engines"] = [{**e.model_dump(), "skipped": e.skipped.split(":", 1)[0]}
                    for e in rep.engines]
    inv = rep.invalid
    if inv is not None and inv.engine is not None:
        # the front end sees no case; an engine compiling the cases in may quote them
        d["invalid"] = {"message": f"the engine {inv.engine} could not compile the spec "
                        "(run check for the details on the visible cases)",
                        "file": inv.file, "line": None, "engine": inv.engine}
    else:
        d["invalid"] = inv.model_dump() if inv is not None else None
    return d


def _grade(task: Task, text: str, m: GymManifest, limits: Limits | None) -> SpecReport:
    """Score on every case; an exception of ours becomes an ``error`` report (its message can
    quote a hidden case, so it is not kept)."""
    try:
        with _SCORING:
            return score_spec(task, text, m.spec_file, limits=limits, cache=_cache())
    except Exception:  # noqa: BLE001 - any failure is withheld and counted as a submission
        return SpecReport.failure(grading_failure_key(m.task_hash, text), "internal error",
                                  task_path=m.source, spec_path=m.spec_file, task_id=m.task_id,
                                  language=m.language, spec_sha=spec_hash(text))


def submit(folder: Path, spec: str | None = None, again: bool = False,
           source: Path | None = None, limits: Limits | None = None) -> GymRecord:
    """Grade on every case of the source task and append the record to the folder's log.

    The ``submit`` lock is held from the "already submitted?" test to the record, so of two
    concurrent submits (threads or processes) one grades and the other is refused. A grade that
    fails on our side still counts: were it free, a spec that crashes the grader on some hidden
    inputs and not others would be an oracle queried as often as the agent likes."""
    m = read_manifest(folder)
    refuse_unsealed(folder, m)
    text = spec_text_of(folder, m, spec)
    task = source_task(m, source)
    with locked(folder, "submit"):
        done = read_state(folder).submissions
        if done and not again:
            raise GymError(f"{m.task_id} was already submitted ({done} time(s)); "
                           "use --again to submit once more")
        start = time.monotonic()
        rep = _grade(task, text, m, limits)
        st = count_submission(folder)
        now = datetime.now(UTC).isoformat(timespec="seconds")
        d = _strip(rep)
        d["key"] = submission_key(rep.key, str(folder.resolve()), st.submissions, now)
        d["seconds"] = time.monotonic() - start
        rec = GymRecord.model_validate({**d, "gym_folder": str(folder),
                                        "task_hash": m.task_hash, "checks": st.checks,
                                        "submission": st.submissions, "submitted_at": now})
        logs = private_dir(folder)
        append_record(logs / "submissions.jsonl", rec, producer("submit"))
        create_exclusive(logs / f"submitted-{st.submissions}.spec", text)
    return rec


def refuse_unsealed(folder: Path, m: GymManifest) -> None:
    """Grade only a folder this installation's ``gym make`` wrote: a manifest edited (pointed
    at a task of someone's making, its id changed to start a fresh ledger) or made elsewhere
    does not carry our seal."""
    if manifest_sealed(m):
        return
    why = trust.usable()
    if why:
        raise GymError(f"cannot check who made {folder / 'gym.json'}: {why}")
    raise GymError(f"{folder / 'gym.json'} was not written by this installation's `gym make` "
                   "(edited, made by another installation or by an older version): it is not "
                   "graded; make the folder again with `adequacy gym make`")


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
