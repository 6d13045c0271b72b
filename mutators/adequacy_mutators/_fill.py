"""``fill_task``: generate then mutate one task, as ``cases generate`` then ``mutate`` would.

What an import runs on every task it wrote. The two steps share what they would each pay
for: the task is loaded once (generation hands mutation the task as it left it, new cases
and all, instead of it being read back), and the task's backend reference runs in one session
(one compile, one JVM) whose outcomes mutation reuses (``SharedReference``). The files
written are those of ``generate_task`` followed by ``mutate_task``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from adequacy.errors import AdequacyError
from adequacy.sandbox import lanes
from adequacy.taskdirs.load import load_task

from ._generate import GenerateReport, _shared, generate_loaded
from ._task import MutateReport, mutate_loaded

__all__ = ["FillReport", "fill_task", "fill_tasks"]


class FillReport(BaseModel):
    """What ``fill_task`` did to one task; an error of a step is kept, not raised."""

    model_config = ConfigDict(extra="forbid")

    task: str
    generate: GenerateReport | None = None
    generate_error: str | None = None
    mutate: MutateReport | None = None
    mutate_error: str | None = None
    seconds: dict[str, float] = Field(default_factory=dict)
    """Wall seconds per step (``load``, ``generate``, ``mutate``)."""
    reference_runs: int = 0
    """Inputs the backend reference ran on (each input once per run of both steps)."""


def fill_task(task_dir: str | Path, *, generate: bool = True, mutate: bool = True,
              valid: int = 50, per_case: int = 3, seed: int = 0) -> FillReport:
    """``generate_task(task_dir, valid, seed)`` then ``mutate_task(task_dir, per_case, seed)``.

    A task that does not load raises (``TaskError``); a step that fails is reported in
    ``generate_error`` / ``mutate_error`` (mutation then starts from the task as on disk)."""
    root = Path(task_dir)
    t0 = time.monotonic()
    task = load_task(root)
    rep = FillReport(task=task.id)
    rep.seconds["load"] = time.monotonic() - t0
    with _shared(task) as shared:
        if generate:
            t1 = time.monotonic()
            try:
                rep.generate, task = generate_loaded(task, root, valid, seed, shared=shared)
            except AdequacyError as e:
                rep.generate_error = str(e)
                task = load_task(root)
            rep.seconds["generate"] = time.monotonic() - t1
        if mutate:
            t2 = time.monotonic()
            try:
                rep.mutate = mutate_loaded(task, root, per_case, seed, shared=shared)
            except AdequacyError as e:
                rep.mutate_error = str(e)
            rep.seconds["mutate"] = time.monotonic() - t2
        rep.reference_runs = shared.runs if shared is not None else 0
    return rep


def _in_process(task_dir: Path) -> bool:
    """The task runs Python of its own in this process (``reference/*.py``: a reference under
    a timer that works only in the main thread, ``_generate._time_limit``; a validator or a
    checker): such tasks run one at a time in the calling thread, never beside another
    task's code."""
    ref = task_dir / "reference"
    return ref.is_dir() and any(ref.glob("*.py"))


def fill_tasks(task_dirs: Sequence[str | Path], *, jobs: int = 1,
               on_done: Callable[[Path, FillReport | None, str | None], None] | None = None,
               **options: Any) -> list[FillReport | None]:
    """``fill_task`` on each folder, ``jobs`` at a time (threads: the work is mostly waiting
    for the backend's reference process, one per task). A task with Python of its own
    (``reference/*.py``) runs in the calling (main) thread. ``on_done(dir, report,
    error)`` is called in the calling thread as each task ends (``error``: why the task did
    not load). Returns the reports in the folders' order (None where the task did not load).
    """
    dirs = [Path(d) for d in task_dirs]
    results: list[FillReport | None] = [None] * len(dirs)

    def one(i: int) -> tuple[int, FillReport | None, str | None]:
        try:
            with lanes.held():
                return i, fill_task(dirs[i], **options), None
        except AdequacyError as e:
            return i, None, str(e)

    def done(i: int, rep: FillReport | None, err: str | None) -> None:
        results[i] = rep
        if on_done is not None:
            on_done(dirs[i], rep, err)

    pooled = [i for i, d in enumerate(dirs) if jobs > 1 and not _in_process(d)]
    local = [i for i in range(len(dirs)) if i not in set(pooled)]
    # a task left alone at the end may spread its reference's long batches over the idle
    # lanes (``adequacy.sandbox.lanes``); the cases made are the same
    with lanes.limit(jobs):
        if not pooled:
            for i in local:
                done(*one(i))
            return results
        with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="fill") as pool:
            futures = {pool.submit(one, i) for i in pooled}
            for i in local:
                done(*one(i))
            for f in as_completed(futures):
                done(*f.result())
    return results
