"""A study in one file: tasks, spec sources, scoring options and outputs, run and resumed.

A study is otherwise a long list of flags spread over ``synthesize`` and ``run`` calls that
nobody records. ``adequacy experiment run study.toml`` reads the file, writes the specs of every
writer source (once: a rerun reuses what a writer wrote for the same settings and tasks, so a
language model is not paid twice), scores every (task, spec) pair through the batch runner
(whose resumable log skips pairs already scored) and records the file's SHA-256 in every
record's producer. Paths in the file are relative to the file.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from adequacy.batch.jobs import Job, jobs_from_file, jobs_from_glob
from adequacy.batch.pool import BatchOptions, BatchSummary, run_batch
from adequacy.errors import AdequacyError, MissingExtra, TaskError, validation_message
from adequacy.model.toml_lines import line_of
from adequacy.scoring.options import ScoreOptions
from adequacy.scoring.spec_report import Provenance, SpecReport
from adequacy.taskdirs.discovery import default_spec_glob, discover_tasks

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
LENIENT_REFUSED = (
    "[scoring] strict = false: lenient scoring leaves unknown cases out, so an unknown is worth "
    "more than a false and a spec can choose where it is unknown; a study ranks writers by its "
    "score, so that is refused. Set allow_lenient = true (top level) to score leniently anyway; "
    "reports label those records LENIENT")
WRITER_STAMP = "source.json"


class SpecSource(BaseModel):
    """Where one set of specs comes from: files matching a glob in each task, or a writer."""

    model_config = ConfigDict(extra="forbid")

    name: str
    """Names the source in reports (its specs' ``writer`` provenance) and its output folder."""
    glob: str | None = None
    """Spec files relative to each task folder; ``"default"``: the backend's ``specs/*.EXT``."""
    writer: str | None = None
    """A registered writer: ``templates``, ``houdini``, ``dspy`` or a plugin's."""
    model: str | None = None
    """dspy: a litellm model string."""
    api_base: str | None = None
    temperature: float | None = None
    family: str = "zs"
    program: str | None = None
    """dspy: an optimized program (from ``adequacy optimize``), relative to the study file."""
    samples: int = Field(default=1, ge=1, le=1000)
    demo_tasks: list[str] = []
    """dspy: training tasks whose gold specs may be few-shot examples."""

    @model_validator(mode="after")
    def _one_kind(self) -> SpecSource:
        if not _NAME.match(self.name):
            raise ValueError(f"name {self.name!r}: letters, digits, '_', '-', '.' (a folder "
                             "name)")
        if (self.glob is None) == (self.writer is None):
            raise ValueError(f"source {self.name!r}: give exactly one of glob or writer")
        if self.glob is not None and (self.model or self.program or self.demo_tasks
                                      or self.samples != 1):
            raise ValueError(f"source {self.name!r}: model, program, demo_tasks and samples "
                             "are for writer sources")
        if self.writer is not None:
            from adequacy.extensions.registry import registry

            kinds = registry().writers
            if self.writer not in kinds:
                raise ValueError(f"source {self.name!r}: writer {self.writer!r} is not one of "
                                 f"{', '.join(kinds)}")
            if kinds[self.writer].needs_model and not self.model:
                raise ValueError(f"source {self.name!r}: writer {self.writer} needs model (a "
                                 "litellm model string)")
        return self


class Study(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    tasks: list[str] = Field(min_length=1)
    """Task folders or folders of tasks."""
    specs: list[SpecSource] = Field(min_length=1)
    allow_lenient: bool = False
    """Score leniently when ``[scoring] strict = false`` (refused otherwise: a study ranks
    writers by its score, and lenient scoring pays for undecidable specs). Declared before
    ``scoring``, whose check reads it."""
    scoring: ScoreOptions = Field(default_factory=ScoreOptions)
    results: str = "results.jsonl"
    out: str = "out"
    """Where writer sources write their specs (one folder per source)."""
    workers: int | None = Field(default=None, ge=1)
    cache: bool | str = True
    """The verdict cache: true (the default cache), false, or a file."""
    @field_validator("scoring")
    @classmethod
    def _strict_unless_allowed(cls, v: ScoreOptions, info: ValidationInfo) -> ScoreOptions:
        if not v.strict and not info.data.get("allow_lenient", False):
            raise ValueError(LENIENT_REFUSED)
        return v

    @model_validator(mode="after")
    def _unique(self) -> Study:
        names = [s.name for s in self.specs]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise ValueError(f"two spec sources named {dup[0]!r}")
        return self


class LoadedStudy(BaseModel):
    study: Study
    path: Path
    sha256: str

    @property
    def base(self) -> Path:
        return self.path.parent

    def resolve(self, p: str) -> Path:
        q = Path(p).expanduser()
        return q if q.is_absolute() else self.base / q


def load_study(path: Path) -> LoadedStudy:
    """Read and check a study file; every error names the file and, where it can, the line."""
    try:
        data = path.read_bytes()
    except OSError as e:
        raise TaskError(f"cannot read the study file: {e.strerror or e}", file=str(path)) from None
    try:
        text = data.decode("utf-8")
        raw = tomllib.loads(text)
    except UnicodeDecodeError:
        raise TaskError("the study file is not UTF-8", file=str(path)) from None
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"line (\d+)", str(e))
        raise TaskError(f"not TOML: {e}", file=str(path),
                        line=int(m.group(1)) if m else None) from None
    try:
        study = Study.model_validate(raw)
    except ValidationError as e:
        first = e.errors()[0]
        loc = tuple(first.get("loc", ()))
        if loc == ("scoring",) and LENIENT_REFUSED in str(first.get("msg", "")):
            loc = ("scoring", "strict")  # the line that asked for it, not the table's
        raise TaskError(validation_message(e), file=str(path),
                        line=line_of(text, loc)) from None
    return LoadedStudy(study=study, path=path.resolve(),
                       sha256=hashlib.sha256(data).hexdigest())


class SourceResult(BaseModel):
    name: str
    writer: str | None
    """The writer of a writer source; None for a glob."""
    specs: int
    written_now: bool = False
    """A writer source whose specs were written by this run (not reused)."""
    passed_all: int = 0
    scored: int = 0


class StudySummary(BaseModel):
    name: str
    sha256: str
    results: str
    tasks: int
    sources: list[SourceResult]
    batch: BatchSummary


def _glob_jobs(src: SpecSource, tasks: list[Path]) -> list[Job]:
    prov = Provenance(writer=src.name)
    jobs = []
    for t in tasks:
        pattern = default_spec_glob(t) if src.glob == "default" else str(src.glob)
        try:
            found = jobs_from_glob([t], pattern)
        except (ValueError, NotImplementedError) as e:
            raise AdequacyError(f"source {src.name!r}: glob {pattern!r}: {e}") from None
        jobs += [j.model_copy(update={"provenance": prov}) for j in found]
    return jobs


def _task_digest(task: Path) -> str:
    """What a writer reads of a task (every file but its ``specs/``): a task edited since the
    write (a new statement, signature or cases) must be written again, not reuse old specs."""
    h = hashlib.sha256()
    for p in sorted(task.rglob("*")):
        rel = p.relative_to(task)
        if rel.parts[0] == "specs" or not p.is_file():
            continue
        h.update(str(rel).encode() + b"\0" + hashlib.sha256(p.read_bytes()).digest())
    return h.hexdigest()


def _stamp(src: SpecSource, tasks: list[Path], program_sha: str | None) -> dict[str, Any]:
    return {"source": src.model_dump(mode="json"), "tasks": [str(t) for t in tasks],
            "task_sha256": [_task_digest(t) for t in tasks], "program": program_sha}


def _own_jobs(jobs: list[Job], src: SpecSource, tasks: list[Path], folder: Path) -> bool:
    """Whether reused jobs are what ``synthesize`` writes for this source: only the study's
    tasks, spec files inside the source's folder, the source's writer as provenance. A jobs
    file edited by hand (a gold spec of a task, a task outside the study, another writer's
    name) is not reused: its scores would be credited to this writer."""
    names = {str(t) for t in tasks}
    inside = folder.resolve()
    for j in jobs:
        if str(Path(j.task).resolve()) not in names:
            return False
        if not Path(j.spec).resolve().is_relative_to(inside):
            return False
        if j.provenance is None or j.provenance.writer != src.writer:
            return False
    return True


def _numbered(jobs: list[Job]) -> list[Job]:
    """Jobs written before samples carried their index get it back: ``synthesize`` writes a
    task's samples in order, so the n-th job of a task is its sample n."""
    seen: dict[str, int] = {}
    out = []
    for j in jobs:
        n = seen[j.task] = seen.get(j.task, -1) + 1
        if j.provenance is not None and j.provenance.sample is None:
            j = j.model_copy(update={"provenance": j.provenance.model_copy(
                update={"sample": n})})
        out.append(j)
    return out


def _source_lm(src: SpecSource) -> Any:
    """The model of a source that names one; DSPy (the optimize extra) is imported only
    then, so template and Houdini sources run on the core install."""
    if not src.model:
        return None
    try:
        from adequacy_optimizers.lm import LmSettings, make_lm
    except ImportError as e:
        raise MissingExtra("optimize", f"source {src.name!r} (writer {src.writer})",
                           e) from None
    return make_lm(LmSettings(model=src.model, api_base=src.api_base,
                              temperature=src.temperature))


def _writer_jobs(loaded: LoadedStudy, src: SpecSource, tasks: list[Path],
                 say: Callable[[str], None]) -> tuple[list[Job], bool]:
    """The jobs of a writer source: reused when the folder holds a complete write for the
    same settings and tasks, else written now."""
    folder = loaded.resolve(loaded.study.out) / src.name
    program = loaded.resolve(src.program) if src.program else None
    program_sha = hashlib.sha256(program.read_bytes()).hexdigest() if program else None
    stamp = _stamp(src, tasks, program_sha)
    stamp_file, jobs_file = folder / WRITER_STAMP, folder / "jobs.jsonl"
    try:
        if jobs_file.is_file() and json.loads(stamp_file.read_text()) == stamp:
            reused = jobs_from_file(jobs_file)
            if _own_jobs(reused, src, tasks, folder):
                say(f"{src.name}: specs already written in {folder}")
                return _numbered(reused), False
            say(f"{src.name}: {jobs_file} holds jobs synthesize did not write; writing again")
    except (OSError, ValueError):
        pass
    from adequacy.extensions.writers import WriterOptions
    from adequacy.taskdirs.load import load_task
    from adequacy_optimizers.registry import make_writer, writer_provenance
    from adequacy_optimizers.synthesize import synthesize

    lm = _source_lm(src)
    pool = [load_task(d) for d in discover_tasks([loaded.resolve(p) for p in src.demo_tasks])]
    opts = WriterOptions(lm=lm, model=src.model, temperature=src.temperature,
                         family=src.family, program=program, demo_tasks=pool)
    writer = make_writer(str(src.writer), opts)
    say(f"{src.name}: writing {src.samples} spec(s) per task with {src.writer}"
        + (f" ({src.model})" if src.model else ""))
    stamp_file.unlink(missing_ok=True)
    synthesize(tasks, folder, writer, samples=src.samples, file_stem=src.name,
               provenance=writer_provenance(str(src.writer), opts, src.samples))
    stamp_file.write_text(json.dumps(stamp, indent=1) + "\n", encoding="utf-8")
    return jobs_from_file(jobs_file), True


def _pair_lines(total: int, say: Callable[[str], None], enabled: bool
                ) -> Callable[[SpecReport], None] | None:
    """One line per pair scored now, where no progress bar is drawn (a pipe, a log file):
    a study can run for hours, and a silent one cannot be told from a hung one."""
    if not enabled or sys.stderr.isatty():
        return None
    done = 0

    def line(rep: SpecReport) -> None:
        nonlocal done
        done += 1
        outcome: str = ("PASSED ALL" if rep.passed_all else rep.status
                        if rep.status != "scored" else "failed")
        if rep.error:
            outcome += f": {' '.join(rep.error.split())[:160]}"
        say(f"[{done}/{total}] {rep.task_id} {Path(rep.spec_path or '?').name}: {outcome}")
    return line


def run_study(loaded: LoadedStudy, *, workers: int | None = None, progress: bool = True,
              cache_path: str | None = None, say: Callable[[str], None] = lambda _: None,
              ) -> StudySummary:
    """Write what is not written, score what is not scored; ``cache_path`` is the resolved
    verdict cache (the caller turns the study's ``cache`` setting into it)."""
    study = loaded.study
    tasks = [t.resolve() for t in discover_tasks([loaded.resolve(p) for p in study.tasks])]
    jobs: list[Job] = []
    per_source: list[tuple[SpecSource, int, int, bool]] = []
    for src in study.specs:
        if src.glob is not None:
            got, fresh = _glob_jobs(src, tasks), False
        else:
            got, fresh = _writer_jobs(loaded, src, tasks, say)
        if not got:
            say(f"{src.name}: no specs found")
        per_source.append((src, len(jobs), len(jobs) + len(got), fresh))
        jobs += got
    if not jobs:
        raise AdequacyError("the study names no (task, spec) pair: every spec source is empty")
    results = loaded.resolve(study.results)
    opts = BatchOptions(score=study.scoring, cache_path=cache_path, experiment=loaded.sha256)
    summary = run_batch(jobs, results, opts, workers=workers or study.workers,
                        progress=progress, on_report=_pair_lines(len(jobs), say, progress))
    sources = []
    for src, lo, hi, fresh in per_source:
        reps = summary.reports[lo:hi]
        sources.append(SourceResult(name=src.name, writer=src.writer, specs=hi - lo,
                                    written_now=fresh,
                                    passed_all=sum(r.passed_all for r in reps),
                                    scored=sum(r.status == "scored" for r in reps)))
    return StudySummary(name=study.name, sha256=loaded.sha256, results=str(results),
                        tasks=len(tasks), sources=sources, batch=summary)
