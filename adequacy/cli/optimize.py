"""``adequacy synthesize``, ``optimize`` and ``judge``: thin wrappers over ``adequacy_optimizers``.

DSPy is an optional extra (``pip install 'spec-adequacy[optimize]'``), imported only when a
command runs, so the rest of the CLI starts without it.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from adequacy.cli.checks import at_least, fraction
from adequacy.cli.common import err, out
from adequacy.errors import AdequacyError
from adequacy.model.thresholds import HARNESS_T


def _fail(msg: str, code: int = 2) -> typer.Exit:
    err.print(f"error: {msg}", highlight=False, markup=False, soft_wrap=True)
    return typer.Exit(code)


def need_dspy(verbose: bool = False) -> None:
    """Import DSPy, quiet unless ``verbose``: its INFO lines (one per evaluation, per GEPA
    iteration, per failed parse) and tqdm bars buried the command's own output. tqdm reads
    ``TQDM_DISABLE`` when it is imported, so it is set before DSPy imports it; DSPy sets its
    loggers' levels when imported, so those are lowered after. Warnings still show."""
    import logging
    import os

    if not verbose:
        os.environ["TQDM_DISABLE"] = "1"
    try:
        import dspy  # noqa: F401
    except ImportError as e:
        from adequacy.errors import MissingExtra

        raise _fail(str(MissingExtra("optimize", "this command", e))) from None
    if not verbose:
        for name in QUIET_LOGGERS:
            logging.getLogger(name).setLevel(logging.WARNING)


@contextlib.contextmanager
def _library_stdout(output: Path, verbose: bool) -> Iterator[None]:
    """DSPy's GEPA evaluates with a progress bar it always shows (``display_progress=True``
    in ``bootstrap_trace_data``, on stdout), which ``TQDM_DISABLE`` cannot turn off: unless
    ``verbose``, what the libraries print on stdout while the run lasts goes to
    ``OUTPUT/library.log`` instead (nothing of ours prints during the run)."""
    if verbose:
        yield
        return
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            yield
    finally:
        if output.is_dir() and buf.getvalue():
            with contextlib.suppress(OSError), \
                    (output / "library.log").open("a", encoding="utf-8") as f:
                f.write(buf.getvalue())


DEFAULT_SPLIT = "100/50/512"
"""The study's sizes (docs/optimize.md), as proportions."""
QUIET_LOGGERS = ("dspy", "gepa", "LiteLLM", "LiteLLM Router", "LiteLLM Proxy", "httpx")
VerboseOpt = Annotated[bool, typer.Option("--verbose", "-v", help="Show DSPy's and GEPA's "
                       "INFO lines and progress bars (hidden by default; optimize keeps "
                       "their stdout in OUTPUT/library.log).")]


LmOpt = Annotated[str | None, typer.Option("--lm", help="litellm model string, e.g. "
                  "openai/gpt-4o or openai/<name> with --api-base.")]
ApiBaseOpt = Annotated[str | None, typer.Option("--api-base", help=
                       "OpenAI-compatible endpoint (vLLM, llama.cpp, LM Studio); no key is "
                       "needed for one that reads none.")]
ApiKeyOpt = Annotated[str | None, typer.Option("--api-key", help=
                      "The endpoint's key (default: the provider's variable, e.g. "
                      "OPENAI_API_KEY; the variable keeps it out of the process list).")]
TempOpt = Annotated[float | None, typer.Option(callback=at_least(0), help="Sampling temperature.")]
FamilyOpt = Annotated[str, typer.Option("--family", help="Prompt family: zs 2s 4s zs-cot "
                      "fs-cot fs-ltm.")]


TriesOpt = Annotated[int, typer.Option("--tries", min=1, max=20, help=
                    "Attempts per LM call in all; transient failures (rate limit, 5xx, timeout, "
                    "connection refused) are retried, then the command stops with exit 2.")]
RetryWaitOpt = Annotated[float, typer.Option("--retry-wait", min=0.0, max=60.0, help=
                         "Seconds before the second attempt (doubles after each).")]


def _lm(model: str | None, api_base: str | None, temperature: float | None,
        no_cache: bool = False, tries: int = 3, retry_wait: float = 1.0,
        max_tokens: int | None = None, api_key: str | None = None) -> Any:
    if model is None:
        return None
    from adequacy_optimizers.lm import LmSettings, make_lm
    return make_lm(LmSettings(model=model, api_base=api_base, api_key=api_key,
                              temperature=temperature, cache=not no_cache, tries=tries,
                              retry_wait=retry_wait, max_tokens=max_tokens))


def _lm_stopped(e: BaseException) -> typer.Exit:
    """An LM that cannot answer stops the command: one line, exit 2, nothing scored."""
    return _fail(f"{e}; nothing was scored as the model's answer")


def _load_tasks(paths: list[Path]) -> list[Any]:
    from adequacy.taskdirs.discovery import discover_tasks
    from adequacy.taskdirs.load import load_task
    return [load_task(d) for d in discover_tasks(paths)]


def synthesize(
    tasks: Annotated[list[Path], typer.Argument(help="Task folders or folders of tasks.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Folder for spec files and "
                      "jobs.jsonl.")],
    writer: Annotated[str, typer.Option(help="A registered writer: templates | houdini | dspy "
                      "or a plugin's (adequacy plugins lists them).")] = "templates",
    family: FamilyOpt = "zs",
    program: Annotated[Path | None, typer.Option(help="Optimized program JSON (from `adequacy "
                       "optimize`).")] = None,
    lm: LmOpt = None,
    api_base: ApiBaseOpt = None,
    api_key: ApiKeyOpt = None,
    temperature: TempOpt = None,
    samples: Annotated[int, typer.Option(callback=at_least(1), help="Specs per task.")] = 1,
    demo_tasks: Annotated[list[Path] | None, typer.Option("--demo-tasks", help=
                          "Training tasks whose gold specs may be few-shot examples.")] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Bypass the LM answer cache.")]
    = False,
    tries: TriesOpt = 3,
    retry_wait: RetryWaitOpt = 1.0,
) -> None:
    """Write spec files for tasks with a writer; score them with `adequacy run DIR/jobs.jsonl`."""
    if samples < 1:
        raise _fail(f"--samples must be at least 1, got {samples}")
    from adequacy.console import progress
    from adequacy.extensions.writers import WriterOptions
    from adequacy_optimizers.lm_errors import LmUnavailable
    from adequacy_optimizers.registry import make_writer, writer_kind, writer_provenance
    from adequacy_optimizers.synthesize import synthesize as run
    try:
        if writer_kind(writer).needs_model and lm is not None:
            need_dspy()
        opts = WriterOptions(
            lm=_lm(lm, api_base, temperature, no_cache, tries, retry_wait, api_key=api_key),
            model=lm, temperature=temperature, family=family, program=program,
            demo_tasks=_load_tasks(demo_tasks) if demo_tasks else [])
        w = make_writer(writer, opts)
        with progress.terminal():
            summary = run(tasks, output, w, samples=samples,
                          provenance=writer_provenance(writer, opts, samples))
    except LmUnavailable as e:
        raise _lm_stopped(e) from None
    except AdequacyError as e:
        raise _fail(str(e)) from None
    except OSError as e:
        raise _fail(f"{e.filename or output}: {e.strerror}") from None
    out.print(f"{summary.specs} specs for {summary.tasks} tasks in {output} ({summary.failed} "
              f"the writer failed to write); score them: adequacy run {summary.jobs}", highlight=False, soft_wrap=True)
    if summary.prompt_tokens or summary.cost:
        out.print(f"tokens: {summary.prompt_tokens} in, {summary.completion_tokens} out; cost "
                  f"${summary.cost:.4f}", highlight=False, soft_wrap=True)


def optimize(
    tasks: Annotated[list[Path], typer.Argument(help="Task folders or folders of tasks (one "
                     "language).")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Output folder (reuse it to "
                      "resume a killed run).")],
    lm: LmOpt = None,
    reflection_lm: Annotated[str | None, typer.Option("--reflection-lm", help=
                             "litellm model string for GEPA's reflection (default: --lm).")]
    = None,
    api_base: ApiBaseOpt = None,
    api_key: ApiKeyOpt = None,
    reflection_api_base: Annotated[str | None, typer.Option(help="Endpoint of the reflection "
                                   "model (default: --api-base).")] = None,
    temperature: TempOpt = None,
    family: FamilyOpt = "zs",
    metric: Annotated[str, typer.Option(help="adequacy | vr | verified_adequacy")] = "adequacy",
    option: Annotated[str, typer.Option(help="adequacy option: mean | all4 | post")] = "mean",
    harness_t: Annotated[float, typer.Option("--harness-t", callback=fraction,
        help="Threshold t of Harness@t "
                         "and PostHarness@t.")] = HARNESS_T,
    auto: Annotated[str, typer.Option(help="GEPA budget: light | medium | heavy.")] = "light",
    max_metric_calls: Annotated[int | None, typer.Option(callback=at_least(1),
        help="GEPA budget in metric calls "
                                "(overrides --auto).")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the split and of GEPA.")] = 0,
    split: Annotated[str | None, typer.Option(help="TRAIN/VAL/TEST proportions (default "
                     "100/50/512); a split given a share must get a task.")] = None,
    with_vr: Annotated[bool, typer.Option("--with-vr", help="Report VR in the final table "
                       "(one proof per spec).")] = False,
    threads: Annotated[int, typer.Option(callback=at_least(1),
        help="Evaluation threads (GEPA's and the splits' dspy.Evaluate).")] = 1,
    no_cache: Annotated[bool, typer.Option("--no-cache")] = False,
    tries: TriesOpt = 3,
    retry_wait: RetryWaitOpt = 1.0,
    verbose: VerboseOpt = False,
    allow_no_validation: Annotated[bool, typer.Option(
        "--allow-no-validation", help="Run even when the validation split is empty; the "
        "table then says the program was chosen without validation.")] = False,
) -> None:
    """Optimize a spec-writing prompt with GEPA against adequacy (or VR) on a training split."""
    need_dspy(verbose)
    if lm is None:
        raise _fail("--lm MODEL is required (a litellm model string)")
    if auto not in ("light", "medium", "heavy"):
        raise _fail(f"--auto {auto!r}: expected light, medium or heavy")
    from adequacy_optimizers.optimize import OptimizeOptions
    from adequacy_optimizers.optimize import optimize as run
    from adequacy_optimizers.splits import empty_splits, parse_proportions, split_sizes
    try:
        # validated by the model: a bad --metric/--option names the allowed values
        opts = OptimizeOptions.model_validate(dict(
            family=family, metric=metric, option=option, harness_t=harness_t, auto=auto,
            max_metric_calls=max_metric_calls, seed=seed,
            proportions=parse_proportions(split or DEFAULT_SPLIT), with_vr=with_vr,
            num_threads=threads, allow_no_validation=allow_no_validation))
    except AdequacyError as e:
        raise _fail(str(e)) from None
    except ValueError as e:
        lines = str(e).splitlines()
        raise _fail(f"bad option {lines[1] if len(lines) > 1 else ''}: "
                    f"{lines[2].strip() if len(lines) > 2 else lines[0]}") from None
    from adequacy_optimizers.lm_errors import LmUnavailable
    try:
        loaded = _load_tasks(tasks)
    except AdequacyError as e:
        raise _fail(str(e)) from None
    sizes = split_sizes(len(loaded), opts.proportions)
    empty = empty_splits(len(loaded), opts.proportions)
    if split is not None and empty:
        raise _fail(f"--split {split} of {len(loaded)} tasks leaves the {' and '.join(empty)} "
                    f"split{'s' if len(empty) > 1 else ''} empty (train {sizes[0]}, validation "
                    f"{sizes[1]}, test {sizes[2]}); give more tasks, or a share of 0 to a "
                    "split you do not want")
    out.print(f"split {split or DEFAULT_SPLIT} of {len(loaded)} tasks (seed {seed}): train "
              f"{sizes[0]}, validation {sizes[1]}, test {sizes[2]}", highlight=False)
    try:
        task_lm = _lm(lm, api_base, temperature, no_cache, tries, retry_wait, api_key=api_key)
        refl = _lm(reflection_lm or lm, reflection_api_base or api_base, 1.0, no_cache,
                   tries, retry_wait, api_key=api_key)
        with _library_stdout(output, verbose):
            res = run(loaded, output, task_lm, refl, opts)
    except LmUnavailable as e:
        raise _lm_stopped(e) from None
    except AdequacyError as e:
        raise _fail(str(e)) from None
    out.print((output / "table.md").read_text(), highlight=False, markup=False)
    out.print(f"{res.candidates} candidates, {res.metric_calls} metric calls, "
              f"{res.seconds:.0f}s ({res.lm_seconds:.0f}s in the LMs); tokens "
              f"{res.prompt_tokens} in, {res.completion_tokens} out; cost ${res.cost:.4f}; "
              f"output in {output}", highlight=False, soft_wrap=True)


def judge(
    jobs: Annotated[Path, typer.Argument(help="jobs.jsonl (as `adequacy synthesize` writes).")],
    lm: LmOpt = None,
    api_base: ApiBaseOpt = None,
    api_key: ApiKeyOpt = None,
    temperature: TempOpt = None,
    results: Annotated[Path | None, typer.Option("--output", "-o", help=
                       "Write one JSON line per spec here.")] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache")] = False,
    tries: TriesOpt = 3,
    retry_wait: RetryWaitOpt = 1.0,
    verbose: VerboseOpt = False,
) -> None:
    """Ask a model whether each spec is faithful and compare with the evaluator's verdict."""
    need_dspy(verbose)
    if lm is None:
        raise _fail("--lm MODEL is required (a litellm model string)")
    from adequacy.batch.pool import jobs_from_file
    from adequacy.taskdirs.load import load_task
    from adequacy_optimizers.judge import judge_one, summarize
    from adequacy_optimizers.lm_errors import LmUnavailable
    try:
        job_list = jobs_from_file(jobs)
        model = _lm(lm, api_base, temperature, no_cache, tries, retry_wait, api_key=api_key)
        records = []
        unwritten = sum(1 for j in job_list if j.writer_failed is not None)
        for j in job_list:
            if j.writer_failed is not None:  # no spec to judge
                continue
            task = load_task(j.task)
            records.append(judge_one(task, Path(j.spec).read_text(encoding="utf-8"), j.spec,
                                     model))
        model.raise_if_failed()
    except LmUnavailable as e:
        raise _lm_stopped(e) from None
    except AdequacyError as e:
        raise _fail(str(e)) from None
    except OSError as e:
        raise _fail(f"{e.filename}: {e.strerror}") from None
    if results is not None:
        results.write_text("".join(r.model_dump_json() + "\n" for r in records))
    s = summarize(records)

    def pct(x: float | None) -> str:
        return "n/a" if x is None else f"{100 * x:.1f}%"

    if unwritten:
        out.print(f"{unwritten} jobs without a spec (writer failed) not judged",
                  highlight=False)
    out.print(f"{s.specs} specs: evaluator rejects {s.evaluator_rejects}, accepts "
              f"{s.evaluator_accepts}, could not score {s.evaluator_errors}; judge unreadable "
              f"{s.unreadable}", highlight=False, soft_wrap=True)
    out.print(f"miss rate (judge accepts what the evaluator rejects): {pct(s.miss_rate)} "
              f"({s.misses}/{s.evaluator_rejects})", highlight=False, soft_wrap=True)
    out.print(f"false alarms (judge rejects what the evaluator accepts): "
              f"{pct(s.false_alarm_rate)} ({s.false_alarms}/{s.evaluator_accepts})",
              highlight=False, soft_wrap=True)
    out.print(f"tokens {s.usage.prompt_tokens} in, {s.usage.completion_tokens} out; cost "
              f"${s.usage.cost:.4f}", highlight=False, soft_wrap=True)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the main app."""
    for fn in (synthesize, optimize, judge):
        app.command()(fn)
