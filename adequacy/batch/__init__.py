"""Many (task, spec) pairs: jobs from a file or a glob, scored over a process pool or a Ray
cluster, streamed to a resumable results log."""

from adequacy.batch.pool import (
    BatchOptions,
    BatchSummary,
    Job,
    jobs_from_file,
    jobs_from_glob,
    read_done,
    run_batch,
)

__all__ = ["BatchOptions", "BatchSummary", "Job", "jobs_from_file", "jobs_from_glob", "read_done",
           "run_batch"]
