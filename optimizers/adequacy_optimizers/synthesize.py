"""``adequacy synthesize``: run a writer over tasks, write spec files and a jobs file.

Layout: ``DIR/<task_id>/<writer>-<n>.<ext>``, ``DIR/jobs.jsonl`` (the ``{"task", "spec",
"provenance"}`` lines ``adequacy run`` reads, paths relative to DIR; provenance says which
writer, model, prompt family and program wrote the spec and which of the task's samples it is,
and ``run`` records it) and
``DIR/writes.jsonl`` (one ``WrittenSpec`` per spec: writer, model, tokens, cost, notes, error).
A writer that produced no spec (the model's answer held none) gets a job line with
``writer_failed`` (the reason) and a ``<writer>-<n>.writer-failed.txt`` file with the raw
answer: ``adequacy run`` records it as "writer failed", a failure that counts against Pass@1
like any other but is not an invalid spec, and is never left out. An LM that cannot be reached
stops the command instead (``LmUnavailable``): nothing it would have written is counted at all.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path

from pydantic import BaseModel

from adequacy.console import progress
from adequacy.extensions.writers import Writer, WrittenSpec
from adequacy.scoring.spec_report import Provenance
from adequacy.taskdirs.discovery import discover_tasks
from adequacy.taskdirs.load import load_task

from .extract import spec_ext


class SynthesisSummary(BaseModel):
    tasks: int
    specs: int
    failed: int
    """Specs the writer failed to write (``adequacy run`` records them as "writer failed")."""
    jobs: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name) or "task"


def failure_reason(w: WrittenSpec) -> str:
    """One line saying why the writer produced no spec."""
    return " ".join((w.error or "no spec in the answer").split())[:300]


def _failed_text(w: WrittenSpec) -> str:
    body = w.answer if w.answer and w.answer.strip() else ""
    return f"writer failed: {failure_reason(w)}\n\n{body}\n"


def synthesize(
    tasks: Iterable[Path], out: Path, writer: Writer, samples: int = 1,
    file_stem: str | None = None, on_spec: Callable[[WrittenSpec], None] | None = None,
    provenance: Provenance | None = None,
) -> SynthesisSummary:
    """Write ``samples`` specs per task; a task that fails to load is an error naming it.

    ``provenance``: the writer kind, prompt family and program hash; each job line carries it
    (with the model that answered) so that ``adequacy run`` records who wrote every spec."""
    out.mkdir(parents=True, exist_ok=True)
    stem = file_stem or writer.name.split(":")[0]
    written_by = provenance or Provenance(writer=stem)
    loaded = [(d, load_task(d)) for d in discover_tasks(tasks)]
    n_specs = failed = 0
    tot_p = tot_c = 0
    cost = 0.0
    # Both files are written under ``.partial`` names and renamed once every spec is written:
    # a run stopped by an unreachable LM leaves no jobs file that ``adequacy run`` could score
    # as if it were complete (and no stale one from an earlier run).
    final = {name: out / name for name in ("jobs.jsonl", "writes.jsonl")}
    partial = {name: out / f"{name}.partial" for name in final}
    for p in final.values():
        p.unlink(missing_ok=True)
    with partial["jobs.jsonl"].open("w", encoding="utf-8") as jobs, \
            partial["writes.jsonl"].open("w", encoding="utf-8") as log, \
            progress.steps(f"writing specs ({stem})", len(loaded), "tasks") as bar:
        for d, task in loaded:
            bar.note(f"now: {task.id}")
            folder = out / _safe(task.id)
            folder.mkdir(exist_ok=True)
            for i, w in enumerate(writer.write(task, samples)):
                job: dict[str, object] = {"task": str(d.resolve())}
                if w.text is not None:
                    rel = f"{_safe(task.id)}/{stem}-{i}.{spec_ext(task.language)}"
                    (out / rel).write_text(w.text, encoding="utf-8")
                else:
                    rel = f"{_safe(task.id)}/{stem}-{i}.writer-failed.txt"
                    (out / rel).write_text(_failed_text(w), encoding="utf-8")
                    job["writer_failed"] = failure_reason(w)
                job["spec"] = rel
                prov = written_by.model_copy(update={"model": w.model or written_by.model,
                                                     "sample": i})
                job["provenance"] = prov.model_dump()
                jobs.write(json.dumps(job) + "\n")
                log.write(w.model_copy(update={"sample": i}).model_dump_json() + "\n")
                n_specs += 1
                failed += w.text is None
                tot_p += w.usage.prompt_tokens
                tot_c += w.usage.completion_tokens
                cost += w.usage.cost
                if on_spec:
                    on_spec(w)
            bar.advance()
    for name, p in partial.items():
        p.replace(final[name])
    return SynthesisSummary(tasks=len(loaded), specs=n_specs, failed=failed,
                            jobs=str(out / "jobs.jsonl"), prompt_tokens=tot_p,
                            completion_tokens=tot_c, cost=cost)
