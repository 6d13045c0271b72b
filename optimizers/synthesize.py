"""``adequacy synthesize``: run a writer over tasks, write spec files and a jobs file.

Layout: ``DIR/<task_id>/<writer>-<n>.<ext>``, ``DIR/jobs.jsonl`` (the ``{"task", "spec"}`` lines
``adequacy run`` reads, paths relative to DIR) and ``DIR/writes.jsonl`` (one ``WrittenSpec``
per spec: writer, model, tokens, cost, notes, error). A writer that produced no spec still gets
its file, holding the raw answer (or a comment with the reason), so that ``adequacy run``
scores it as the invalid spec it is instead of silently leaving it out.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path

from pydantic import BaseModel

from adequacy.discovery import discover_tasks
from adequacy.tasks import Task, load_task

from .extract import SPEC_EXT
from .writer import Writer, WrittenSpec


class SynthesisSummary(BaseModel):
    tasks: int
    specs: int
    failed: int
    """Specs with no usable text (written as the raw answer: ``adequacy run`` calls them
    invalid)."""
    jobs: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0


def task_dirs(paths: Iterable[Path]) -> list[Path]:
    """The one expansion every command uses (see ``adequacy.discovery``)."""
    return discover_tasks(paths)


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name) or "task"


def _failed_text(task: Task, w: WrittenSpec) -> str:
    reason = (w.error or "no spec").replace("\n", " ")
    body = w.answer if w.answer and w.answer.strip() else ""
    return f"// no spec: {reason}\n{body}\n"


def synthesize(
    tasks: Iterable[Path], out: Path, writer: Writer, samples: int = 1,
    file_stem: str | None = None, on_spec: Callable[[WrittenSpec], None] | None = None,
) -> SynthesisSummary:
    """Write ``samples`` specs per task; a task that fails to load is an error naming it."""
    out.mkdir(parents=True, exist_ok=True)
    stem = file_stem or writer.name.split(":")[0]
    loaded = [(d, load_task(d)) for d in task_dirs(tasks)]
    n_specs = failed = 0
    tot_p = tot_c = 0
    cost = 0.0
    with (out / "jobs.jsonl").open("w", encoding="utf-8") as jobs, \
            (out / "writes.jsonl").open("w", encoding="utf-8") as log:
        for d, task in loaded:
            folder = out / _safe(task.id)
            folder.mkdir(exist_ok=True)
            for i, w in enumerate(writer.write(task, samples)):
                rel = f"{_safe(task.id)}/{stem}-{i}.{SPEC_EXT.get(task.language, 'txt')}"
                text = w.text if w.text is not None else _failed_text(task, w)
                (out / rel).write_text(text, encoding="utf-8")
                jobs.write(json.dumps({"task": str(d.resolve()), "spec": rel}) + "\n")
                log.write(w.model_copy(update={"sample": i}).model_dump_json() + "\n")
                n_specs += 1
                failed += w.text is None
                tot_p += w.usage.prompt_tokens
                tot_c += w.usage.completion_tokens
                cost += w.usage.cost
                if on_spec:
                    on_spec(w)
    return SynthesisSummary(tasks=len(loaded), specs=n_specs, failed=failed,
                            jobs=str(out / "jobs.jsonl"), prompt_tokens=tot_p,
                            completion_tokens=tot_c, cost=cost)
