"""``adequacy synthesize``, ``optimize`` and ``judge``: thin wrappers over ``adequacy.optimizers``.

DSPy is an optional extra (``pip install 'spec-adequacy[optimize]'``), imported only when a
command runs, so the rest of the CLI starts without it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from adequacy.errors import AdequacyError

out = Console()
err = Console(stderr=True)


def _fail(msg: str, code: int = 2) -> typer.Exit:
    err.print(f"error: {msg}", highlight=False, markup=False, soft_wrap=True)
    return typer.Exit(code)


def _need_dspy() -> None:
    try:
        import dspy  # noqa: F401
    except ImportError:
        raise _fail("this command needs DSPy: pip install 'spec-adequacy[optimize]'") from None


LmOpt = Annotated[str | None, typer.Option("--lm", help="litellm model string, e.g. "
                  "openai/gpt-4o or openai/<name> with --api-base.")]
ApiBaseOpt = Annotated[str | None, typer.Option("--api-base", help=
                       "OpenAI-compatible endpoint (vLLM, llama.cpp, LM Studio).")]
TempOpt = Annotated[float | None, typer.Option(help="Sampling temperature.")]
FamilyOpt = Annotated[str, typer.Option("--family", help="Prompt family: zs 2s 4s zs-cot "
                      "fs-cot fs-ltm.")]


def _lm(model: str | None, api_base: str | None, temperature: float | None,
        no_cache: bool = False, retries: int = 3, max_tokens: int | None = None) -> Any:
    if model is None:
        return None
    from adequacy.optimizers.lm import make_lm
    return make_lm(model, api_base=api_base, temperature=temperature, cache=not no_cache,
                   retries=retries, max_tokens=max_tokens)


def _load_tasks(paths: list[Path]) -> list[Any]:
    from adequacy.optimizers.synthesize import task_dirs
    from adequacy.tasks import load_task
    return [load_task(d) for d in task_dirs(paths)]


def synthesize(
    tasks: Annotated[list[Path], typer.Argument(help="Task folders or folders of tasks.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Folder for spec files and "
                      "jobs.jsonl.")],
    writer: Annotated[str, typer.Option(help="templates | houdini | dspy")] = "templates",
    family: FamilyOpt = "zs",
    program: Annotated[Path | None, typer.Option(help="Optimized program JSON (from `adequacy "
                       "optimize`).")] = None,
    lm: LmOpt = None,
    api_base: ApiBaseOpt = None,
    temperature: TempOpt = None,
    samples: Annotated[int, typer.Option(help="Specs per task.")] = 1,
    demo_tasks: Annotated[list[Path] | None, typer.Option("--demo-tasks", help=
                          "Training tasks whose gold specs may be few-shot examples.")] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Bypass DSPy's disk cache.")]
    = False,
    retries: Annotated[int, typer.Option(help="Retries per LM call (exponential backoff).")]
    = 3,
) -> None:
    """Write spec files for tasks with a writer; score them with `adequacy run DIR/jobs.jsonl`."""
    if samples < 1:
        raise _fail(f"--samples must be at least 1, got {samples}")
    if writer == "dspy":
        _need_dspy()
    from adequacy.optimizers.registry import make_writer
    from adequacy.optimizers.synthesize import synthesize as run
    try:
        pool = _load_tasks(demo_tasks) if demo_tasks else []
        w = make_writer(writer, family=family, lm=_lm(lm, api_base, temperature, no_cache,
                                                      retries), pool=pool, program_path=program)
        summary = run(tasks, output, w, samples=samples)
    except AdequacyError as e:
        raise _fail(str(e)) from None
    except OSError as e:
        raise _fail(f"{e.filename or output}: {e.strerror}") from None
    out.print(f"{summary.specs} specs for {summary.tasks} tasks in {output} ({summary.failed} "
              f"without a usable spec); score them: adequacy run {summary.jobs}", highlight=False)
    if summary.prompt_tokens or summary.cost:
        out.print(f"tokens: {summary.prompt_tokens} in, {summary.completion_tokens} out; cost "
                  f"${summary.cost:.4f}", highlight=False)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the main app."""
    app.command()(synthesize)
    for extra in ("optimize", "judge"):
        fn = globals().get(extra)
        if fn is not None:
            app.command(extra)(fn)
