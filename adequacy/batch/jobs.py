"""Jobs of a batch: which (task, spec) pairs to score, read from a jobs file or a glob.

Every field of a job line is kept when it is read (``spec_text``, ``provenance``,
``writer_failed``): only the paths are made absolute, relative to the jobs file's folder.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from adequacy.errors import TaskError, validation_message
from adequacy.model.textfiles import max_spec_bytes, read_text
from adequacy.scoring.spec_report import Provenance


class Job(BaseModel):
    """One pair to score; ``spec`` is a path (``spec_text`` overrides reading it).

    ``provenance``: who wrote the spec (``synthesize`` writes it into its jobs file); it goes
    into every record of the job and into its key, so the same text written by two models is
    two records, one per model."""

    model_config = ConfigDict(extra="forbid")

    task: str
    spec: str
    spec_text: str | None = None
    provenance: Provenance | None = None
    writer_failed: str | None = None
    """Set by ``adequacy synthesize`` when the writer produced no spec (the reason): the job
    is recorded as ``writer failed`` without scoring ``spec`` (which holds the raw answer)."""


def jobs_from_file(path: Path) -> list[Job]:
    """A JSONL file of ``{"task": ..., "spec": ...}`` lines (optionally ``spec_text`` and
    ``provenance``); relative paths are taken from the file's folder. Errors name the file and
    line."""
    jobs: list[Job] = []
    for n, line in enumerate(read_text(path, "jobs file").splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            job = Job.model_validate(obj)
        except (ValueError, RecursionError) as e:  # bad JSON, or pydantic's ValidationError
            why = validation_message(e) if isinstance(e, ValidationError) else (
                str(e).splitlines()[0] if str(e) else type(e).__name__)
            raise TaskError(f"not a job line ({{\"task\": PATH, \"spec\": PATH}}): {why}",
                            file=str(path), line=n) from None
        cap = max_spec_bytes()
        if job.spec_text is not None and len(job.spec_text.encode("utf-8")) > cap:
            raise TaskError(f"spec_text is larger than {cap} bytes (the limit; raise it with "
                            "--max-spec-bytes or ADEQUACY_MAX_SPEC_BYTES)", file=str(path),
                            line=n)
        base = path.parent
        # every field is kept (spec_text, provenance): only the paths are made absolute
        jobs.append(job.model_copy(update={
            "task": str(job.task if Path(job.task).is_absolute() else base / job.task),
            "spec": str(job.spec if Path(job.spec).is_absolute() else base / job.spec)}))
    return jobs


def jobs_from_glob(task_dirs: Iterable[Path], spec_glob: str) -> list[Job]:
    """Every spec matching ``spec_glob`` (relative to each task folder) of every task."""
    jobs: list[Job] = []
    for t in task_dirs:
        for s in sorted(t.glob(spec_glob)):
            jobs.append(Job(task=str(t), spec=str(s)))
    return jobs
