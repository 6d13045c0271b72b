"""An inspect_ai task over our tasks: ``inspect eval adequacy/spec_adequacy -T tasks=DIR``.

Samples are our tasks. A sample's input is what a gym folder shows a spec writer (the
statement, the skeleton, the visible cases, a worked example on another task, the language
notes); its metadata names the task folder, which only the scorer reads: no hidden case is in
a sample, its input or its metadata. The solver gives the model a ``check`` tool (our check on
the visible cases, as in the gym; off with ``-T check=false``) and loops until the model
answers with the whole spec file. The scorer grades that answer on every case with our
engines and returns one value per bucket (its pass fraction) plus ``passed_all``, each with
its mean and standard error, so ``inspect view`` and inspect's data-frame functions
(``inspect_ai.analysis.samples_df``) show them. An answer that is not a spec file, or a spec
the front end refuses, scores 0 everywhere.

Registered in inspect's registry through the ``inspect_ai`` entry point of this package
(``adequacy = "adequacy.ecosystem.inspect_task"``), so ``inspect eval adequacy/spec_adequacy``
finds it; ``inspect eval adequacy/ecosystem/inspect_task.py@spec_adequacy`` works from a
checkout too. Needs ``pip install 'spec-adequacy[inspect]'``.
"""

from __future__ import annotations

import asyncio
import atexit
import shutil
import tempfile
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import Score, Target, mean, scorer, stderr
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import Tool, tool

from adequacy.model.verdicts import BUCKETS

SCORES = (*(b.value for b in BUCKETS), "passed_all")
_FILES = ("INSTRUCTIONS.md", "statement.md", "{spec}", "visible_cases.jsonl",
          "example/statement.md", "example/{spec}", "example/visible_cases.jsonl",
          "LANGUAGE_NOTES.md")

TOOLS_NOTE = """\
In this evaluation you have no shell: the files above are all there is. Your tools: `check(spec)`
scores a complete spec file on the visible cases (what `adequacy check` does). `submit` is not
a tool here. When you are done, answer with the complete spec file, whole, in one fenced code
block: your last answer is graded on every case, visible and hidden."""

NO_TOOLS_NOTE = """\
In this evaluation you have no tools and no shell: the files above are all there is (mentions
of `adequacy check` and `submit` do not apply). Answer with the complete spec file, whole, in
one fenced code block: your answer is graded on every case, visible and hidden."""


def _paths(tasks: str | list[str]) -> list[Path]:
    items = tasks if isinstance(tasks, list) else [p for p in str(tasks).split(",") if p]
    if not items:
        from adequacy.extensions import registry

        return sorted(b.example_dir for b in registry.registry().backends.values()
                      if b.example_dir is not None and b.example_dir.is_dir())
    return [Path(p).expanduser() for p in items]


def _gym(tasks: list[Path], visible: int, seed: int) -> Path:
    """Gym folders for the tasks, in a temporary folder removed when the process ends: what
    the prompt shows and what ``check`` scores against (visible cases only)."""
    from adequacy.gym import make_gym

    out = Path(tempfile.mkdtemp(prefix="adequacy-inspect-"))
    atexit.register(shutil.rmtree, out, True)
    make_gym(tasks, out, visible=visible, seed=seed)
    return out


def prompt(folder: Path, with_check: bool) -> str:
    from adequacy.gym.manifest import read_manifest

    m = read_manifest(folder)
    parts = []
    for name in _FILES:
        p = folder / name.format(spec=m.spec_file)
        if p.is_file():
            parts.append(f"==== {p.relative_to(folder)}\n{p.read_text(encoding='utf-8')}")
    parts.append(TOOLS_NOTE if with_check else NO_TOOLS_NOTE)
    return "\n\n".join(parts)


def samples(tasks: list[Path], visible: int, seed: int, with_check: bool) -> list[Sample]:
    from adequacy.ecosystem.harbor_export import untested_buckets
    from adequacy.errors import TaskError
    from adequacy.gym.manifest import read_manifest
    from adequacy.taskdirs.discovery import discover_tasks
    from adequacy.taskdirs.load import load_task

    roots = discover_tasks(tasks)
    for r in roots:
        t = load_task(r)
        empty = untested_buckets(t)
        if empty:
            raise TaskError(f"bucket {', '.join(b.value for b in empty)} has no case, so no "
                            "spec can pass it: run `adequacy cases generate` and `adequacy "
                            "mutate` on the task first", file=str(r))
    gym = _gym(roots, visible, seed)
    out = []
    for r in roots:
        t = load_task(r)
        folder = gym / t.id
        m = read_manifest(folder)
        out.append(Sample(id=t.id, input=prompt(folder, with_check),
                          metadata={"task_path": str(r.resolve()), "gym_folder": str(folder),
                                    "language": t.language, "spec_file": m.spec_file,
                                    "title": t.title}))
    return out


@tool(name="check")
def check_tool(folder: str) -> Tool:
    async def execute(spec: str) -> str:
        """Score a spec on the task's visible cases (valid inputs and correct outputs only)
        and say, case by case, what the precondition or postcondition gave and had to give,
        or the line of a syntax or type error.

        Args:
            spec: The complete spec file's text.
        """
        from adequacy.errors import GymError
        from adequacy.gym.session import check as gym_check

        try:
            result = await asyncio.to_thread(gym_check, Path(folder), spec)
        except GymError as e:
            return f"error: {e}"
        return result.text

    return execute


@solver
def spec_writer(with_check: bool = True) -> Solver:
    """The model writes the spec; with ``check`` as a tool, it calls it until it answers."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if with_check:
            state.tools = [check_tool(state.metadata["gym_folder"])]
        return await generate(state, tool_calls="loop")

    return solve


def _values(rep: Any) -> dict[str, float]:
    from adequacy.ecosystem.harbor_verifier import rewards

    r = rewards(rep)
    return {**{b.value: r[b.value] for b in BUCKETS}, "passed_all": r["reward"]}


def _invalid(rep: Any) -> str | None:
    """Why the spec is invalid: the front end's message (it sees no case), or only the name of
    an engine that could not compile it (a harness embedding the cases can quote them)."""
    inv = rep.invalid
    if inv is None:
        return None
    if inv.engine is not None:
        return f"the engine {inv.engine} could not compile the spec"
    return str(inv.render())


def _explanation(rep: Any) -> str:
    """Counts per bucket, never a case: eval logs get shared, and a case id with the engine's
    reason can quote a hidden value."""
    if rep.status == "invalid" and rep.invalid is not None:
        return f"INVALID SPEC: {_invalid(rep)}"
    parts = [f"{b.value} {s.passed}/{s.total}" + (f" ({s.unknown} unknown)" if s.unknown else "")
             for b, s in rep.buckets.items()]
    return ("PASSED ALL: " if rep.passed_all else "NOT PASSED: ") + ", ".join(parts)


def grade(task_path: str, answer: str, engines: list[str]) -> tuple[str, Any]:
    """(the spec text extracted from the answer, its report on every case)."""
    from adequacy.errors import ExtractionError
    from adequacy.extensions import registry
    from adequacy.gym.session import _SCORING
    from adequacy.model.verdicts import InvalidSpec
    from adequacy.scoring.keys import spec_hash
    from adequacy.scoring.runner import score_spec
    from adequacy.scoring.spec_report import SpecReport
    from adequacy.taskdirs.load import load_task

    t = load_task(task_path)
    try:
        if not answer.strip():
            raise ExtractionError("the answer is empty")
        text = registry.registry().owner(t.language).spec_from_answer(t, answer)
    except ExtractionError as e:
        rep = SpecReport(key=f"unextracted:{spec_hash(answer)}", task_id=t.id,
                         task_path=task_path, spec_path=None, spec_sha=spec_hash(answer),
                         language=t.language, status="invalid",
                         invalid=InvalidSpec(message=f"no spec file in the answer: {e}")
                         ).finish()
        return "", rep
    with _SCORING:  # one scoring at a time per process (the interpreter is not thread-safe)
        rep = score_spec(t, text, None, engines=engines, strict=True, cache=None)
    return text, rep


@scorer(metrics={k: [mean(), stderr()] for k in SCORES})
def adequacy_scorer(engines: list[str] | None = None) -> Any:
    """Each bucket's pass fraction on every case, and ``passed_all`` (1 when every bucket
    passes); a bucket empty by design counts 1. The score's metadata keeps the counts and the
    status, never a case."""

    async def score(state: TaskState, target: Target) -> Score:
        text, rep = await asyncio.to_thread(grade, state.metadata["task_path"],
                                            state.output.completion, list(engines or []))
        if rep.status == "error":
            raise RuntimeError(f"grading failed (not the model's fault): {rep.error}")
        counts = {b.value: {"passed": s.passed, "failed": s.failed, "unknown": s.unknown,
                            "total": s.total} for b, s in rep.buckets.items()}
        return Score(value=_values(rep), answer=text, explanation=_explanation(rep),
                     metadata={"status": rep.status, "buckets": counts,
                               "invalid": _invalid(rep),
                               "spec_sha": rep.spec_sha,
                               "engines": [e.name for e in rep.engines if not e.skipped]})

    return score


def _spec_adequacy(tasks: str | list[str] = "", visible: int = 3, seed: int = 0,
                   check: bool = True, engines: str = "", message_limit: int = 40) -> Task:
    """Write the formal specification of each task; graded by spec-adequacy per bucket.

    Args:
        tasks: Task folders or folders of tasks (comma-separated, or a list); default: the
            example tasks every installed language bundles.
        visible: Visible cases shown per task (completeness buckets only).
        seed: Seed of the visible cases' draw.
        check: Give the model the ``check`` tool (off: the no-harness ablation).
        engines: Engine chain for grading, comma-separated (default: the language's).
        message_limit: Messages per sample before inspect stops it.
    """
    chain = [e for e in engines.split(",") if e]
    return Task(dataset=MemoryDataset(samples(_paths(tasks), visible, seed, check),
                                      name="spec-adequacy"),
                solver=spec_writer(with_check=check), scorer=adequacy_scorer(engines=chain),
                message_limit=message_limit)


def _registry_name() -> str:
    """inspect namespaces a task by the package it is installed as (``adequacy/...`` from a
    wheel in site-packages); an editable install of ``spec-adequacy`` is not recognised as the
    package ``adequacy``, so the namespace is written into the name there."""
    try:
        from inspect_ai._util.package import get_installed_package_name
    except ImportError:  # a later inspect moved it: name it fully (a wheel then doubles it)
        return "adequacy/spec_adequacy"
    installed = get_installed_package_name(_spec_adequacy) == "adequacy"
    return "spec_adequacy" if installed else "adequacy/spec_adequacy"


spec_adequacy = task(name=_registry_name())(_spec_adequacy)
