"""Scoring batch pairs as Ray tasks: the same jobs, keys, results file and resume as the local
process pool, spread over a cluster.

Only the scoring moves: the driver still owns the job list, the results log and its lock, so
resume and summaries are identical whichever executor ran. Each node needs spec-adequacy
installed with its engines built (``adequacy setup``) and the task folders at the same path
(a shared file system or the same container image); spec texts travel with the job.

A worker that dies (OOM-killed, a node lost) is retried by Ray (``max_retries``); a pair that
still cannot be scored comes back to the caller as lost, and the batch records it as an error,
which a resume retries.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from adequacy.errors import RayUnavailable

RETRIES = 2
MAX_CHUNK = 8
"""Pairs per Ray task at most: a task's fixed cost is shared by its pairs, while enough tasks
remain to keep every CPU busy and a lost worker costs little."""


def score_on_ray(jobs: Sequence[Any], opts: Any, score: Callable[[Any, Any], Any],
                 on_report: Callable[[Any], None], address: str | None = None,
                 num_cpus: int | None = None) -> list[Any]:
    """Run ``score(job, opts)`` for every job as a Ray task; call ``on_report`` as each
    finishes (in completion order, on this thread). Returns the jobs that could not be
    scored because their worker kept dying."""
    try:
        import ray
        from ray.exceptions import RayError
    except ImportError:
        raise RayUnavailable("the Ray executor needs Ray: pip install 'spec-adequacy[ray]'"
                             ) from None
    if not ray.is_initialized():
        try:
            ray.init(address=address, num_cpus=num_cpus if address in (None, "local") else None,
                     include_dashboard=False, log_to_driver=False, configure_logging=False,
                     runtime_env={"env_vars": _forwarded_env()})
        except (ConnectionError, RuntimeError, ValueError) as e:
            where = address or "a local instance"
            raise RayUnavailable(f"cannot start or reach Ray at {where}: {e}") from None
    remote = ray.remote(max_retries=RETRIES, retry_exceptions=False)(_score_chunk)
    opts_ref = ray.put(opts)
    cpus = int(ray.cluster_resources().get("CPU", 1)) or 1
    size = max(1, min(MAX_CHUNK, len(jobs) // (4 * cpus)))
    chunks = [list(jobs[i:i + size]) for i in range(0, len(jobs), size)]
    by_ref = {remote.remote(score, c, opts_ref): c for c in chunks}
    pending = list(by_ref)
    lost: list[Any] = []
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            try:
                reports = ray.get(ref)
            except RayError:
                lost.extend(by_ref[ref])
                continue
            for rep in reports:
                on_report(rep)
    return lost


def _score_chunk(score: Callable[[Any, Any], Any], jobs: list[Any], opts: Any) -> list[Any]:
    return [score(j, opts) for j in jobs]


def _forwarded_env() -> dict[str, str]:
    """Settings a worker must share with the driver to build the same keys and caches."""
    from adequacy.extensions import registry

    # the grader key's home: cache rows must check on the worker too
    names = {"ADEQUACY_CACHE", "XDG_CACHE_HOME", "ADEQUACY_DATASETS", "ADEQUACY_GRADER_HOME",
             "XDG_STATE_HOME"}
    for b in registry.registry().backends.values():
        names.update(b.environment)
    return {k: os.environ[k] for k in sorted(names) if k in os.environ}


def shutdown() -> None:
    """Stop a Ray instance this process started (tests; the CLI exits anyway)."""
    try:
        import ray
    except ImportError:
        return
    if ray.is_initialized():
        ray.shutdown()
