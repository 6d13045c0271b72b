"""Batches of (task, spec) pairs over a process pool, streamed to a resumable JSONL file.

The results file is a log: each finished pair is appended and flushed at once, so a killed run
loses nothing it finished, and a key may appear more than once (a retried error, a spec scored
again). The report of a job is the latest record for the job's current key (task content, spec
text, options, engine versions), and every summary covers exactly the current job list: stale
records of edited specs, earlier attempts and other job lists in the same file are never
counted. Resuming skips jobs whose current key already has a non-error record; errors (our
failures, often transient) are retried, and a retry that fails with the same message is not
written again.

One writer at a time: a ``flock`` on ``RESULTS.lock`` keeps a second ``adequacy run`` out (the
kernel drops the lock when its holder dies, so a killed run never blocks the next one). Pool
workers die with the run: they get a parent-death signal, on which they kill their own
children (JVMs, harness binaries, which live in sessions of their own) before exiting; Ctrl-C
kills the pool at once and says how to resume.

The pieces it drives live beside it: the jobs (``adequacy.batch.jobs``), their keys
(``adequacy.scoring.keys``), the results log (``adequacy.records.log``), its lock
(``adequacy.records.lock``) and process control shared with the sandbox
(``adequacy.sandbox.proctree``).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal, TextIO

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from adequacy.batch.jobs import Job, jobs_from_file, jobs_from_glob
from adequacy.batch.pair_pool import PairPool, died
from adequacy.errors import (
    AdequacyError,
    BatchInterrupted,
    TaskError,
    validation_message,
)
from adequacy.model.task import Task
from adequacy.model.textfiles import read_spec
from adequacy.records.lock import lock_path, results_lock
from adequacy.records.log import (
    Producer,
    append_record,
    latest,
    producer,
    read_log,
    read_results,
    repair_tail,
)
from adequacy.sandbox.proctree import descendants, kill_tree
from adequacy.scoring import activity
from adequacy.scoring.cache import VerdictCache
from adequacy.scoring.keys import (
    fallback_key,
    job_key,
    with_provenance,
    with_symbolic,
    with_verification,
    writer_failed_key,
)
from adequacy.scoring.options import ScoreOptions
from adequacy.scoring.runner import score_spec
from adequacy.scoring.spec_report import SpecReport, totals
from adequacy.taskdirs.load import load_task


class BatchOptions(BaseModel):
    """How a batch runs: the scoring options every pair shares (part of each job's key), and
    where and with which cache the pairs are scored (not part of the key)."""

    model_config = ConfigDict(extra="forbid")

    score: ScoreOptions = Field(default_factory=ScoreOptions)
    cache_path: str | None = None
    """SQLite verdict cache; None disables caching."""
    executor: Literal["local", "ray"] = "local"
    """Where pairs are scored; the results file, keys and resume are the same for both."""
    ray_address: str | None = None
    """``auto``, ``ray://host:10001``, or None to start a local Ray instance."""
    verify: bool = False
    """Also prove each spec against the method body (the language's best prover), recorded as
    ``verified`` beside the metrics; part of the key (a run without it measured no VR)."""
    grace_seconds: float = Field(default=60.0, gt=0)
    """Beyond ``spec_seconds``, how long one phase of a pair (the front end, an engine, the
    prover) may take before its worker is killed and the pair recorded as an error naming
    the phase: start-up, compiles and JVM starts are paid from it. Not part of the key."""
    experiment: str | None = None
    """SHA-256 of the study file of ``adequacy experiment run``: recorded in every record's
    producer, not part of the key (editing a study's comments rescores nothing)."""
    symbolic: float | None = Field(default=None, gt=0)
    """``run --symbolic``: seconds per spec for the solver's figures (``SpecReport.symbolic``),
    computed by ``figures``; part of the key (a plain run measured none)."""
    figures: Callable[..., SpecReport] | None = Field(default=None, exclude=True, repr=False)
    """``(task, text, path, report, score_options, budget) -> report`` with the figures: given
    by the caller (the solver's search lives above this room), a module-level function so a
    pool or Ray worker can be handed it."""



class BatchSummary(BaseModel):
    """Totals over the current job list (one report per job); ``computed`` and
    ``skipped_done`` say what this run did."""

    total: int
    skipped_done: int
    computed: int
    scored: int
    passed_all: int
    failed: int
    invalid: int
    errors: int
    writer_failed: int = 0
    """Specs their writer failed to write (``Job.writer_failed``); not invalid, not passed."""
    reports: list[SpecReport] = []
    """The report of every job, in job order."""

    def footer(self, results: Path | str) -> str:
        return (f"{self.total} pairs: {self.computed} scored now, {self.skipped_done} already "
                f"in {results}; passed {self.passed_all}, failed {self.failed}, "
                f"invalid {self.invalid}, "
                + (f"writer failed {self.writer_failed}, " if self.writer_failed else "")
                + f"errors {self.errors}")


def read_done(results: Path, final_only: bool = False) -> dict[str, SpecReport]:
    """The latest record of each key in a results file; with ``final_only``, keys whose
    latest record is an ``error`` (retried on resume) are left out."""
    log = read_log(results)
    if final_only:
        return {k: r for k, r in log.items() if r.status != "error"}
    return log


def _resumable(results: Path) -> dict[str, SpecReport]:
    """What resume may take as done: the latest record of each key, where this installation's
    grader sealed it. A typed, edited or foreign record (its counts may be consistent and
    invented) is scored again, with one note saying how many."""
    recs = latest(read_results(results)) if results.exists() else []
    log = {r.record.report.key: r.record.report for r in recs if r.sealed}
    foreign = len(recs) - len(log)
    if foreign:
        print(f"note: {foreign} record(s) in {results} were not sealed by this installation's "
              "grader (typed, edited, or from elsewhere); their pairs are scored again",
              file=sys.stderr, flush=True)
    return log


def _producer(job: Job, opts: BatchOptions) -> Producer:
    return producer("run", job.provenance, opts.experiment)


def _score_job(job: Job, opts: BatchOptions) -> SpecReport:
    """Runs in a pool worker: never raises (a bad task becomes an error report)."""
    cache = VerdictCache(opts.cache_path) if opts.cache_path else None
    try:
        task = load_task(job.task)
    except TaskError as e:
        return SpecReport.failure(fallback_key(job.task, job.spec), str(e),
                                  task_path=job.task, spec_path=job.spec)
    try:
        text = job.spec_text if job.spec_text is not None else read_spec(job.spec)
    except AdequacyError as e:  # missing, a folder, not UTF-8, too large: one line with file
        return SpecReport.failure(fallback_key(job.task, job.spec), str(e),
                                  task_path=job.task, spec_path=job.spec, task_id=task.id,
                                  language=task.language)
    rep = score_spec(task, text, job.spec, opts.score, cache=cache)
    key = with_symbolic(with_verification(with_provenance(rep.key, job.provenance),
                                          opts.verify), opts.symbolic)
    rep = rep.model_copy(update={"key": key})
    if opts.symbolic is not None and opts.figures is not None and rep.status == "scored":
        rep = opts.figures(task, text, job.spec, rep, opts.score, opts.symbolic)
    if not opts.verify or rep.status == "error":
        return rep
    proof = _verification(task, text, job.spec, rep, opts)
    return VerifiedReport.model_validate({**dict(rep), **proof})


class VerifiedReport(SpecReport):
    """A report with its proof (``run --verify``): the fields below go to the record's
    ``extra``, where ``report`` reads ``verified`` for VR."""

    verified: bool | None = None
    """True verified, False not (open goals, or an invalid spec), None not decided (the prover
    gave up, or none is installed: ``verification`` says which)."""
    verification: str = ""
    """The prover's one-line summary, or why there was no proof."""
    prover: str | None = None


def _verification(task: Task, text: str, path: str, rep: SpecReport,
                  opts: BatchOptions) -> dict[str, object]:
    from adequacy.errors import BackendError, SpecInvalid
    from adequacy.scoring.verification import prove
    activity.note("verify")
    if rep.status == "invalid":
        return {"verified": False, "verification": "invalid spec: nothing to prove"}
    try:
        result = prove(task, text, path, opts.score.limits)
    except SpecInvalid as e:
        return {"verified": False, "verification": f"invalid spec: {str(e)[:300]}"}
    except BackendError as e:
        return {"verified": None, "verification": f"unavailable: {str(e)[:300]}"}
    except Exception as e:  # noqa: BLE001 - a prover's bug must not lose the pair's score
        return {"verified": None, "verification": f"prover failed: {type(e).__name__}: "
                f"{str(e)[:200]}"}
    verdict = {"verified": True, "not verified": False}.get(result.result)
    return {"verified": verdict, "verification": result.summary[:500],
            "prover": result.engine}


def _writer_failed(job: Job, tasks: dict[str, Task | None]) -> SpecReport:
    """The record of a spec its writer failed to write: nothing to score, keyed by the task,
    the path and the reason (so a rewritten spec at the same path is a new job)."""
    reason = " ".join((job.writer_failed or "").split())[:300] or "no spec"
    task = tasks.get(job.task)
    if job.task not in tasks:
        try:
            task = tasks[job.task] = load_task(job.task)
        except TaskError:
            task = tasks[job.task] = None
    return SpecReport(key=writer_failed_key(job.task, job.spec, reason), task_id=task.id if task else "?",
                      task_path=job.task, spec_path=job.spec, spec_sha="",
                      language=task.language if task else "?", status="writer failed",
                      error=reason).finish()


def _key_of(job: Job, opts: BatchOptions, tasks: dict[str, Task | None]) -> str:
    if job.task not in tasks:
        try:
            tasks[job.task] = load_task(job.task)
        except TaskError:
            tasks[job.task] = None
    task = tasks[job.task]
    if task is None:
        return fallback_key(job.task, job.spec)
    try:
        text = job.spec_text if job.spec_text is not None else read_spec(job.spec)
    except AdequacyError:
        return fallback_key(job.task, job.spec)
    return with_symbolic(with_verification(with_provenance(job_key(task, text, opts.score),
                                                           job.provenance), opts.verify),
                         opts.symbolic)


def run_batch(
    jobs: Sequence[Job], results: Path | str, opts: BatchOptions, workers: int | None = None,
    progress: bool = True, on_report: Callable[[SpecReport], None] | None = None,
) -> BatchSummary:
    """Score every job whose current key has no final record in ``results``, appending each
    report as it completes; the summary covers exactly ``jobs``.

    Raises ``ResultsLocked`` when another run holds the file and ``BatchInterrupted`` on
    Ctrl-C (after stopping every worker)."""
    results = Path(results)
    results.parent.mkdir(parents=True, exist_ok=True)
    with results_lock(results) as lock_fd:
        return _run_locked(jobs, results, opts, workers, progress, on_report, lock_fd)


def _run_locked(
    jobs: Sequence[Job], results: Path, opts: BatchOptions, workers: int | None,
    progress: bool, on_report: Callable[[SpecReport], None] | None, lock_fd: int,
) -> BatchSummary:
    reports: list[SpecReport | None] = [None] * len(jobs)
    try:
        repair_tail(results)
        log = _resumable(results)
        tasks: dict[str, Task | None] = {}
        todo: dict[str, list[int]] = {}
        skipped = 0
        unwritten: list[tuple[SpecReport, Job]] = []
        for i, j in enumerate(jobs):
            if j.writer_failed is not None:
                wf = reports[i] = _writer_failed(j, tasks)
                if wf.key in log:
                    skipped += 1
                else:
                    unwritten.append((wf, j))
                continue
            k = _key_of(j, opts, tasks)
            rec = log.get(k)
            if rec is not None and rec.status != "error" and not k.startswith("error:"):
                reports[i] = rec
                skipped += 1
            else:
                todo.setdefault(k, []).append(i)
        first = {k: jobs[idx[0]] for k, idx in todo.items()}
        n_workers = workers or max(1, min(len(first), os.cpu_count() or 1))
        computed = 0

        def record(key: str, rep: SpecReport, out: TextIO) -> None:
            nonlocal computed
            prev = log.get(rep.key)
            same_error = (prev is not None and prev.status == rep.status == "error"
                          and prev.error == rep.error)
            if not same_error:
                job = jobs[todo[key][0]]
                try:
                    append_record(results, rep, _producer(job, opts), out=out)
                except ValidationError as e:  # a bug of ours: keep it as data, go on
                    rep = SpecReport.failure(rep.key, "internal error: the report failed its "
                                             f"consistency checks: {validation_message(e)}",
                                             task_path=job.task, spec_path=job.spec)
                    append_record(results, rep, _producer(job, opts), out=out)
                log[rep.key] = rep
            for idx in todo[key]:
                reports[idx] = rep
                computed += 1
            if on_report:
                on_report(rep)

        with results.open("a", encoding="utf-8") as out, _progress(
                progress, len(first), skipped) as advance:
            def done_one(key: str, rep: SpecReport) -> None:
                record(key, rep, out)
                advance()

            for rep, job in unwritten:
                append_record(results, rep, _producer(job, opts), out=out)
                log[rep.key] = rep

            if opts.executor == "ray":
                # Same keys, log and resume: only where a pair is scored changes.
                from adequacy.batch.ray import score_on_ray

                lost = score_on_ray(list(first.items()), opts, _score_keyed,
                                    lambda kr: done_one(*kr), address=opts.ray_address,
                                    num_cpus=workers)
                for k, job in lost:
                    done_one(k, _died(job, k))
            else:
                PairPool(_score_job, opts, opts.score.limits.spec_seconds, opts.grace_seconds,
                         done_one, lock_fd).run(first, n_workers)
    except KeyboardInterrupt:
        raise BatchInterrupted(results, sum(r is not None for r in reports),
                               len(jobs)) from None
    final: list[SpecReport] = []
    for j, r in zip(jobs, reports, strict=True):
        assert r is not None
        if r.spec_path != j.spec:  # same content under another path: the row shows this path
            r = r.model_copy(update={"spec_path": j.spec, "task_path": j.task})
        final.append(r)
    t = totals(final)
    return BatchSummary(total=len(jobs), skipped_done=skipped, computed=computed,
                        scored=t.scored, passed_all=t.passed_all, failed=t.failed,
                        invalid=t.invalid, errors=t.errors, writer_failed=t.writer_failed,
                        reports=final)


def _score_keyed(item: tuple[str, Job], opts: BatchOptions) -> tuple[str, SpecReport]:
    """A Ray task's unit: the job's key travels with it, so the driver files the report."""
    return item[0], _score_job(item[1], opts)


def _died(job: Job, key: str) -> SpecReport:
    return died(job, key)


class _progress:
    """The batch's progress on stderr (``adequacy.console.progress``: a bar on a terminal, lines in a
    pipe), when asked; ``advance`` per scored pair."""

    def __init__(self, enabled: bool, total: int, skipped: int) -> None:
        self.enabled = enabled and total > 0
        self.total = total
        self.skipped = skipped
        self._stack = contextlib.ExitStack()

    def __enter__(self) -> Callable[[], None]:
        if not self.enabled:
            return lambda: None
        from adequacy.console import progress

        desc = "scoring" + (f" ({self.skipped} already done)" if self.skipped else "")
        self._stack.enter_context(progress.terminal())
        bar = self._stack.enter_context(progress.steps(desc, self.total, "pairs"))
        return lambda: bar.advance()

    def __exit__(self, *exc: object) -> None:
        self._stack.close()


__all__ = ["BatchOptions", "BatchSummary", "Job",
           "descendants", "jobs_from_file", "jobs_from_glob", "kill_tree", "lock_path",
           "read_done", "results_lock", "run_batch"]
