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
import signal
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from types import FrameType
from typing import Any, Literal, TextIO

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from adequacy.batch.jobs import Job, jobs_from_file, jobs_from_glob
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
from adequacy.sandbox.proctree import descendants, kill_tree, parent_death_signal
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

_SCORE_FIELDS = frozenset(ScoreOptions.model_fields)


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

    @model_validator(mode="before")
    @classmethod
    def _flat_score_fields(cls, data: Any) -> Any:
        """``BatchOptions(engines=[...], strict=False)``: the flat spelling of the options
        before ``score`` existed, still accepted (and validated by ``ScoreOptions``)."""
        if isinstance(data, dict) and _SCORE_FIELDS & set(data):
            flat = {k: data[k] for k in _SCORE_FIELDS & set(data)}
            rest = {k: v for k, v in data.items() if k not in _SCORE_FIELDS}
            base = rest.get("score") or ScoreOptions()
            if isinstance(base, dict):
                base = ScoreOptions.model_validate(base)
            rest["score"] = base.with_(**flat)
            return rest
        return data


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
                suspects = _run_pool(first, opts, n_workers, done_one, lock_fd)
                # A worker process that died (killed for memory, a crash in native code)
                # breaks the pool and fails every job in flight; rerun those one per fresh
                # process so that only the job that really kills its process is an error.
                for k in suspects:
                    broken = _run_pool({k: first[k]}, opts, 1, done_one, lock_fd)
                    for b in broken:
                        done_one(b, _died(first[b], b))
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


# ------------------------------------------------------------------ pool and its children

def _on_parent_death(signum: int, frame: FrameType | None) -> None:
    kill_tree(os.getpid(), include_self=False)
    os._exit(128 + signum)


def _worker_init(parent: int, lock_fd: int) -> None:
    """Pool worker set-up: die with the run, take our children along, leave Ctrl-C to it."""
    with contextlib.suppress(OSError):
        os.close(lock_fd)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _on_parent_death)
    parent_death_signal(signal.SIGTERM)
    if os.getppid() != parent:  # the run died before the signal was armed
        _on_parent_death(signal.SIGTERM, None)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Stop every worker now (Ctrl-C): SIGTERM makes each kill its own children and exit;
    whatever is left after a moment is killed with its tree."""
    procs = dict(getattr(pool, "_processes", None) or {})
    for pid in procs:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)
    end = time.monotonic() + 0.5
    for p in procs.values():
        p.join(timeout=max(0.0, end - time.monotonic()))
    for pid, p in procs.items():
        if p.is_alive():
            kill_tree(pid)
    pool.shutdown(wait=False, cancel_futures=True)


def _run_pool(jobs: dict[str, Job], opts: BatchOptions, workers: int,
              on_report: Callable[[str, SpecReport], None], lock_fd: int) -> list[str]:
    """Score jobs (by key) across a pool; return the keys lost to a broken pool."""
    lost: list[str] = []
    if not jobs:
        return lost
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker_init,
                               initargs=(os.getpid(), lock_fd))
    try:
        futs: dict[Future[SpecReport], str] = {pool.submit(_score_job, j, opts): k
                                               for k, j in jobs.items()}
        pending = set(futs)
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in finished:
                try:
                    rep = fut.result()
                except BrokenProcessPool:
                    lost.append(futs[fut])
                    continue
                on_report(futs[fut], rep)
    except BaseException:
        _stop_workers(pool)
        raise
    pool.shutdown(wait=True)
    return lost


def _score_keyed(item: tuple[str, Job], opts: BatchOptions) -> tuple[str, SpecReport]:
    """A Ray task's unit: the job's key travels with it, so the driver files the report."""
    return item[0], _score_job(item[1], opts)


def _died(job: Job, key: str) -> SpecReport:
    return SpecReport.failure(key, "the worker process scoring this pair died (killed by the "
                              "OS for memory, or a crash); see the engines' limits",
                              task_path=job.task, spec_path=job.spec)


class _progress:
    """A rich progress bar on stderr, only when asked and when stderr is a terminal."""

    def __init__(self, enabled: bool, total: int, skipped: int) -> None:
        self.enabled = enabled and total > 0 and sys.stderr.isatty()
        self.total = total
        self.skipped = skipped
        self._p: Any = None
        self._t: Any = None

    def __enter__(self) -> Callable[[], None]:
        if not self.enabled:
            return lambda: None
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        self._p = Progress(TextColumn("scoring"), BarColumn(), MofNCompleteColumn(),
                           TimeElapsedColumn(), TimeRemainingColumn(),
                           console=Console(file=sys.stderr))
        self._p.start()
        desc = "scoring" + (f" ({self.skipped} already done)" if self.skipped else "")
        self._t = self._p.add_task(desc, total=self.total)
        return lambda: self._p.advance(self._t)

    def __exit__(self, *exc: object) -> None:
        if self._p is not None:
            self._p.stop()


__all__ = ["BatchOptions", "BatchSummary", "Job",
           "descendants", "jobs_from_file", "jobs_from_glob", "kill_tree", "lock_path",
           "read_done", "results_lock", "run_batch"]
