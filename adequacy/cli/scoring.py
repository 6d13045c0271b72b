"""``adequacy score``, ``run`` and ``verify``: one spec, many pairs, a proof.

``score`` and ``run`` take the same scoring options from one group generated from
``ScoreOptions`` (``adequacy.cli.options``), so both build the same model from the same flags.
"""

from __future__ import annotations

import os
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from adequacy.cli.checks import at_least, fraction, positive
from adequacy.cli.common import err, fail, open_cache, out
from adequacy.cli.model_options import group_value, with_groups
from adequacy.cli.options import CACHE, SCORE
from adequacy.console.tables import FORMAT_HELP, OutputFormat, resolve, show
from adequacy.errors import AdequacyError
from adequacy.model.thresholds import HARNESS_T


class RunFormat(StrEnum):
    """``run``'s formats: every table format, and CSV."""

    auto = "auto"
    plain = "plain"
    rich = "rich"
    json = "json"
    csv = "csv"


def score(
    ctx: typer.Context,
    task: Annotated[Path, typer.Argument(help="Task folder.")],
    spec: Annotated[Path, typer.Argument(help="Spec file (skeleton with holes filled).")],
    *,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON "
                                          "(--format json).")] = False,
    fmt: Annotated[OutputFormat, typer.Option("--format", metavar="FORMAT", help=FORMAT_HELP)
                   ] = OutputFormat.auto,
    harness_t: Annotated[float, typer.Option("--harness-t", callback=fraction,
        help="Threshold t of Harness@t and PostHarness@t (the default is report's too).")]
    = HARNESS_T,
    visible_only: Annotated[bool, typer.Option("--visible-only",
                            help="Score only cases marked visible.")] = False,
    max_spec_bytes: Annotated[int | None, typer.Option(min=1,
        help="Refuse larger spec files (default 1 MiB, or $ADEQUACY_MAX_SPEC_BYTES).")] = None,
    symbolic: Annotated[bool, typer.Option("--symbolic", help="Also ask the solver whether "
                        "the postcondition admits another output on each valid input of a "
                        "unique-output task, and whether the precondition accepts an input the "
                        "gold spec refuses; every model is confirmed by the concrete engines "
                        "(docs/symbolic.md).")] = False,
    symbolic_budget: Annotated[float, typer.Option(callback=positive, help="--symbolic: wall-clock "
                               "seconds for the solver's figures.")] = 60.0,
    add: Annotated[bool, typer.Option("--add", help="--symbolic: append what it confirmed to "
                   "the task: each second output as a post_sound case, each input the gold "
                   "spec refuses and the task's oracles call invalid as a pre_sound case "
                   "(origin explored).")] = False,
) -> None:
    """Score one spec against its task's four buckets."""
    options, cache_path = group_value(ctx, SCORE), group_value(ctx, CACHE)
    from adequacy.console import progress
    from adequacy.model.textfiles import read_spec
    from adequacy.records.tables import spec_table
    from adequacy.scoring.runner import score_spec
    from adequacy.taskdirs.load import load_task
    try:
        t = load_task(task)
        text = read_spec(spec, max_spec_bytes)
    except AdequacyError as e:
        raise fail(str(e)) from None
    vc, _ = open_cache(cache_path)
    cases = [c for c in t.all_cases() if c.visible] if visible_only else None
    with progress.terminal():
        rep = score_spec(t, text, str(spec), options, cache=vc, cases=cases)
    fmt = resolve(fmt, as_json)
    if symbolic and rep.status == "scored":
        from adequacy.search.symbolic import with_figures
        with progress.terminal():
            rep = with_figures(t, text, str(spec), rep, options, symbolic_budget)
        if add and rep.symbolic is not None:
            from adequacy.search.symbolic.figures import add_found
            n = add_found(t, rep.symbolic)
            err.print(f"added {n} case(s) to {task} (origin explored)", highlight=False,
                      markup=False, soft_wrap=True)
    if fmt is OutputFormat.json:
        print(rep.model_dump_json(indent=2))
    elif rep.status == "error":
        # one line on stderr only (the table would say it a second time on stdout)
        raise fail(f"{spec}: {rep.error.splitlines()[0] if rep.error else 'scoring failed'}")
    else:
        show(out, spec_table(rep, harness_t=harness_t, task=t), fmt)
    raise typer.Exit(rep.exit_code)


def run(
    ctx: typer.Context,
    paths: Annotated[list[Path] | None, typer.Argument(metavar="JOBS.jsonl|DIR", help=
                     "A JSONL file of {\"task\": PATH, \"spec\": PATH} lines, or task "
                     "folders (folders of tasks) as with --tasks.", show_default=False)
                     ] = None,
    tasks: Annotated[list[Path] | None, typer.Option("--tasks", metavar="DIR", help=
                     "Task folders or folders of tasks (with --spec-glob); more may follow: "
                     "--tasks A B.")] = None,
    spec_glob: Annotated[str | None, typer.Option(help="Specs of each task, relative to it "
                         "(default: specs/* with the backend's spec suffix, e.g. specs/*.rs).")]
    = None,
    results: Annotated[Path, typer.Option("--results", "-o", help=
                       "Results JSONL (appended; rerun resumes).")] = Path("results.jsonl"),
    workers: Annotated[int | None, typer.Option(callback=at_least(1),
        help="Processes (default: cores).")] = None,
    *,
    progress: Annotated[bool, typer.Option("--progress/--no-progress", help=
                        "A progress bar on stderr.")] = True,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No summary table.")] = False,
    fmt: Annotated[RunFormat, typer.Option("--format", metavar="FORMAT", help=FORMAT_HELP
                   + " csv: the table, one row per pair (the footer on stderr).")
                   ] = RunFormat.auto,
    max_spec_bytes: Annotated[int | None, typer.Option(min=1,
        help="Refuse larger spec files (default 1 MiB, or $ADEQUACY_MAX_SPEC_BYTES).")] = None,
    executor: Annotated[str, typer.Option(help="local (process pool) or ray.")] = "local",
    address: Annotated[str | None, typer.Option(help="Ray cluster: auto or ray://HOST:PORT "
                                                "(default: a local Ray instance).")] = None,
    verify: Annotated[bool, typer.Option("--verify", help="Also prove each spec against the "
                      "method body with the language's best installed prover; `report` shows "
                      "VR beside the metrics.")] = False,
    symbolic: Annotated[bool, typer.Option("--symbolic", help="Also the solver's figures of "
                        "each spec (as score --symbolic); `report` shows them beside the "
                        "buckets.")] = False,
    symbolic_budget: Annotated[float, typer.Option(callback=positive, help="--symbolic: wall-clock "
                               "seconds per spec for the solver's figures.")] = 60.0,
) -> None:
    """Score many (task, spec) pairs in parallel; results stream to a resumable JSONL file.

    Exit 0 when every pair was scored (whatever the specs' verdicts), 2 on a usage or input
    error or when some pair ended as an error record.
    """
    options, cache_path = group_value(ctx, SCORE), group_value(ctx, CACHE)
    from adequacy.batch.pool import BatchOptions, jobs_from_file, jobs_from_glob, run_batch
    from adequacy.errors import BatchInterrupted, ResultsError, ResultsLocked
    from adequacy.records.tables import batch_table, problem_lines
    folders = [p for p in paths or [] if p.is_dir()]
    files = [p for p in paths or [] if not p.is_dir()]
    if files and (tasks or folders or len(files) > 1):
        raise fail(f"{files[0]}: give either one jobs file or task folders (--tasks DIR...), "
                   "not both" if tasks or folders else
                   f"one jobs file at a time (got {', '.join(map(str, files))})")
    jobs_file = files[0] if files else None
    tasks = [*(tasks or []), *folders]
    try:
        if jobs_file is not None:
            jobs = jobs_from_file(jobs_file)
        elif tasks:
            from adequacy.taskdirs.discovery import default_spec_glob, discover_tasks
            jobs = []
            for d in discover_tasks(tasks):
                pattern = spec_glob or default_spec_glob(d)
                try:
                    jobs += jobs_from_glob([d], pattern)
                except (ValueError, NotImplementedError) as e:  # e.g. an absolute pattern
                    raise fail(f"--spec-glob {pattern!r}: {e}") from None
        else:
            raise fail("give a jobs file or --tasks")
    except AdequacyError as e:
        raise fail(str(e)) from None
    if not jobs:
        raise fail("no (task, spec) pairs found")
    if results.is_dir():
        raise fail(f"{results}: is a folder, expected a results file (JSONL)")
    _, cache_path = open_cache(cache_path)
    if max_spec_bytes is not None:  # read by the pool workers, which inherit the environment
        os.environ["ADEQUACY_MAX_SPEC_BYTES"] = str(max_spec_bytes)
    figures: Any = None
    if symbolic:
        from adequacy.search.symbolic import with_figures
        figures = with_figures
    opts = BatchOptions(score=options, cache_path=cache_path, verify=verify,
                        symbolic=symbolic_budget if symbolic else None, figures=figures)
    if executor not in ("local", "ray"):
        raise fail(f"--executor must be local or ray, not {executor!r}")
    opts.executor = executor  # type: ignore[assignment]
    opts.ray_address = address
    try:
        summary = run_batch(jobs, results, opts, workers=workers, progress=progress)
    except (ResultsLocked, ResultsError) as e:  # another writer; a log we cannot append to
        raise fail(str(e)) from None
    except BatchInterrupted as e:
        raise fail(str(e), 130) from None
    except (AdequacyError, OSError) as e:
        raise fail(f"batch stopped: {e} (finished pairs are kept in {results}; rerun to "
                    "resume)") from None
    sampled = [j.provenance is not None and j.provenance.sample is not None for j in jobs]
    if fmt is RunFormat.json:
        print(summary.model_dump_json(indent=2, exclude={"reports"} if quiet else None))
    elif fmt is RunFormat.csv:  # stdout is the table alone, for a spreadsheet or pandas
        from adequacy.console.tables import csv_text

        if not quiet:
            out.file.write(csv_text(batch_table(summary.reports, sampled=sampled)))
            out.file.flush()
        err.print(summary.footer(results), highlight=False, soft_wrap=True)
    else:
        if not quiet:
            show(out, batch_table(summary.reports, sampled=sampled), OutputFormat(fmt.value))
        out.print(summary.footer(results), highlight=False, soft_wrap=True)
    if verify:
        out.print(verified_line(summary.reports), highlight=False)
    problems = problem_lines(summary.reports)
    if problems:  # pytest's short summary: every pair that did not score, and why, on stderr
        width = max(20, min(err.width, 100))
        err.print(" short summary of pairs not scored ".center(width, "="), highlight=False,
                  markup=False, soft_wrap=True)
        for line in problems:
            err.print(line, highlight=False, markup=False, soft_wrap=True)
    if summary.errors:
        raise fail(f"{summary.errors} of {summary.total} pairs ended as errors (listed above; "
                   f"their records in {results} say more; rerun to retry them)")
    raise typer.Exit(0)


def verified_line(reports: list[Any]) -> str:
    """VR over the pairs proved now or before (a resumed record has its proof in the log)."""
    got = [getattr(r, "verified", None) for r in reports]
    proved = [v for v in got if v is not None]
    share = f" (VR {sum(proved) / len(proved):.2f})" if proved else ""
    return (f"verified {sum(proved)} of {len(reports)} specs{share}; "
            f"{len(got) - len(proved)} undecided or not proved in this run")


def verify(
    task: Annotated[Path, typer.Argument(help="Task folder.")],
    spec: Annotated[Path, typer.Argument(help="Spec file.")],
    engine: Annotated[str | None, typer.Option(
        "--engine", "-e", help="Prover (default: the most faithful one installed; see "
        "`adequacy backends`).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    case_timeout: Annotated[float, typer.Option(callback=positive,
        help="Seconds per case (adequacy).")] = 10.0,
    spec_timeout: Annotated[float, typer.Option(callback=positive,
        help="Seconds per proof.")] = 120.0,
) -> None:
    """Prove the spec against the method body (verification rate) beside its adequacy metrics."""
    from adequacy.console import progress
    from adequacy.extensions.backend import Limits
    from adequacy.model.textfiles import read_spec
    from adequacy.scoring.verification import (
        check_front_end,
        provers,
        render_text,
        verify_with_metrics,
        why_no_prover,
    )
    from adequacy.taskdirs.load import load_task
    try:
        t = load_task(task)
        text = read_spec(spec)
        check_front_end(t, text, str(spec))
        if not provers(t.language, engine):
            raise fail(f"{task}: cannot verify: {why_no_prover(t.language, engine)}")
        with progress.terminal(), progress.phase("verify (proof, then adequacy)"):
            rep = verify_with_metrics(t, text, str(spec),
                                      Limits(case_seconds=case_timeout, spec_seconds=spec_timeout),
                                      engine)
    except AdequacyError as e:
        raise fail(str(e), 3 if type(e).__name__ == "SpecInvalid" else 2) from None
    if as_json:
        print(rep.model_dump_json(indent=2))
    else:
        out.print(render_text(rep), highlight=False, markup=False)
    raise typer.Exit(0 if rep.verification.result == "verified" else 1)


def register(app: typer.Typer) -> None:
    app.command(cls=with_groups(SCORE, CACHE))(score)
    app.command(cls=with_groups(SCORE, CACHE))(run)
    app.command()(verify)
