"""Many (task, spec) pairs: jobs from a file or a glob, scored over a process pool or a Ray
cluster, streamed to a resumable results log."""

from adequacy.batch.pool import (
    BatchInterrupted,
    BatchOptions,
    BatchSummary,
    Job,
    ResultsLocked,
    jobs_from_file,
    jobs_from_glob,
    read_done,
    run_batch,
)

__all__ = ["BatchInterrupted", "BatchOptions", "BatchSummary", "Job", "ResultsLocked",
           "jobs_from_file", "jobs_from_glob", "read_done", "run_batch"]
