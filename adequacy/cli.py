"""The ``adequacy`` command: thin wrappers that parse arguments and call the library.

Exit codes: 0 the spec passed every case, 1 it failed some case, 2 usage or input error (or our
own failure), 3 the spec is invalid. Errors a user can fix print one line without a traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from adequacy import plugins
from adequacy.backend import Limits
from adequacy.errors import AdequacyError
from adequacy.tasks import check_task, load_task

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Measure whether a formal specification says what it should.")
task_app = typer.Typer(no_args_is_help=True, help="Work with task folders.")
cache_app = typer.Typer(no_args_is_help=True, help="The verdict cache.")
app.add_typer(task_app, name="task")
app.add_typer(cache_app, name="cache")

out = Console()
err = Console(stderr=True)


def _fail(msg: str, code: int = 2) -> typer.Exit:
    err.print(f"[bold red]error:[/] {msg}", highlight=False)
    return typer.Exit(code)


def _default_cache(no_cache: bool, cache: Path | None) -> str | None:
    if no_cache:
        return None
    from adequacy.cache import default_cache_dir
    return str(cache or default_cache_dir() / "verdicts.sqlite")


@app.command()
def backends(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List installed backends and their engines, with why an engine is unavailable."""
    try:
        found = plugins.backends()
    except AdequacyError as e:
        raise _fail(str(e)) from None
    rows = []
    for b in found.values():
        for info in b.engines():
            rows.append({"backend": b.name, "language": b.language, "engine": info.name,
                         "available": info.available, "default": info.default,
                         "version": info.version, "reason": info.reason})
    broken = [{"plugin": p.name, "target": p.target, "error": p.error} for p in plugins.BROKEN]
    if as_json:
        print(json.dumps({"engines": rows, "broken_plugins": broken}, indent=2))
        return
    t = Table(title="backends and engines", title_justify="left")
    for c in ("backend", "language", "engine", "available", "default", "version"):
        t.add_column(c)
    for r in rows:
        t.add_row(str(r["backend"]), str(r["language"]), str(r["engine"]),
                  "[green]yes[/]" if r["available"] else "[red]no[/]",
                  "yes" if r["default"] else "", str(r["version"]))
    out.print(t)
    for r in rows:
        if r["reason"]:
            out.print(f"[bold]{r['backend']}/{r['engine']}[/]: {r['reason']}", highlight=False)
    for p in broken:
        err.print(f"[yellow]plugin {p['plugin']} ({p['target']}) failed to load:[/] {p['error']}")


@app.command()
def setup(
    only: Annotated[list[str] | None, typer.Option("--backend", help="Only these backends.")]
    = None,
) -> None:
    """Build what the engines need ahead of time (vstd via cargo, Java workers via javac/Maven)."""
    failed = 0
    for b in plugins.backends().values():
        if only and b.name not in only:
            continue
        prepare = getattr(b, "prepare", None)
        if prepare is None:
            out.print(f"{b.name}: nothing to prepare", highlight=False)
            continue
        err.print(f"preparing {b.name} ...", highlight=False)
        try:
            out.print(f"{b.name}: {prepare()}", highlight=False)
        except AdequacyError as e:
            failed += 1
            err.print(f"[bold red]{b.name}: {e}[/]", highlight=False)
    if failed:
        raise typer.Exit(2)


@task_app.command("validate")
def task_validate(
    paths: Annotated[list[Path], typer.Argument(help="Task folders (or folders of tasks).")],
) -> None:
    """Check task folders; print every problem with file, line and field. Exit 2 on any."""
    folders: list[Path] = []
    for p in paths:
        if p.is_dir() and not (p / "task.toml").exists():
            subs = sorted(d for d in p.iterdir() if (d / "task.toml").exists())
            folders += subs or [p]
        else:
            folders.append(p)
    bad = 0
    for f in folders:
        task, errors = check_task(f)
        if errors:
            bad += 1
            for e in errors:
                err.print(f"[red]{e}[/]", highlight=False)
        else:
            assert task is not None
            n = {b.value: len(c) for b, c in task.cases.items()}
            out.print(f"ok  {f}  ({task.id}: " + ", ".join(f"{k} {v}" for k, v in n.items())
                      + ")", highlight=False)
    out.print(f"{len(folders) - bad} of {len(folders)} tasks valid", highlight=False)
    if bad:
        raise typer.Exit(2)


EngineOpt = Annotated[list[str] | None, typer.Option("--engine", "-e",
                      help="Engine(s) to chain, in order (default: the backend's default).")]


@app.command()
def score(
    task: Annotated[Path, typer.Argument(help="Task folder.")],
    spec: Annotated[Path, typer.Argument(help="Spec file (skeleton with holes filled).")],
    backend: Annotated[str | None, typer.Option(help="Backend name (default: by language).")]
    = None,
    engine: EngineOpt = None,
    cross_check: Annotated[bool, typer.Option("--cross-check", help=
                           "Run every available engine on every case; report disagreements.")]
    = False,
    strict: Annotated[bool, typer.Option("--strict/--lenient", help=
                      "Strict: unknown counts as failed. Lenient: unknown left out.")] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    harness_t: Annotated[float, typer.Option("--harness-t", help="Threshold t of Harness@t.")]
    = 1.0,
    visible_only: Annotated[bool, typer.Option("--visible-only",
                            help="Score only cases marked visible.")] = False,
    case_timeout: Annotated[float, typer.Option(help="Seconds per case.")] = 10.0,
    spec_timeout: Annotated[float, typer.Option(help="Seconds per spec and engine.")] = 600.0,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Do not read or write the "
                        "verdict cache.")] = False,
    cache: Annotated[Path | None, typer.Option(help="Verdict cache file.")] = None,
) -> None:
    """Score one spec against its task's four buckets."""
    from adequacy.cache import VerdictCache
    from adequacy.report import spec_table
    from adequacy.runner import score_spec
    try:
        t = load_task(task)
        text = spec.read_text(encoding="utf-8")
    except AdequacyError as e:
        raise _fail(str(e)) from None
    except OSError as e:
        raise _fail(f"cannot read spec {spec}: {e.strerror}") from None
    cpath = _default_cache(no_cache, cache)
    cases = [c for c in t.all_cases() if c.visible] if visible_only else None
    rep = score_spec(t, text, str(spec), backend=backend, engines=engine,
                     cross_check=cross_check, strict=strict,
                     limits=Limits(case_seconds=case_timeout, spec_seconds=spec_timeout),
                     cache=VerdictCache(cpath) if cpath else None, cases=cases)
    if as_json:
        print(rep.model_dump_json(indent=2))
    else:
        out.print(spec_table(rep, harness_t=harness_t, task=t))
    if rep.status == "error":
        err.print(f"[bold red]error:[/] {rep.error.splitlines()[0] if rep.error else ''}")
    raise typer.Exit(rep.exit_code)


@app.command()
def run(
    jobs_file: Annotated[Path | None, typer.Argument(help=
                         "JSONL of {\"task\": PATH, \"spec\": PATH} lines.")] = None,
    tasks: Annotated[list[Path] | None, typer.Option("--tasks", help=
                     "Task folders or folders of tasks (with --spec-glob).")] = None,
    spec_glob: Annotated[str, typer.Option(help="Specs of each task, relative to it.")]
    = "specs/*",
    results: Annotated[Path, typer.Option("--results", "-o", help=
                       "Results JSONL (appended; rerun resumes).")] = Path("results.jsonl"),
    workers: Annotated[int | None, typer.Option(help="Processes (default: cores).")] = None,
    backend: Annotated[str | None, typer.Option(help="Backend name.")] = None,
    engine: EngineOpt = None,
    cross_check: Annotated[bool, typer.Option("--cross-check")] = False,
    strict: Annotated[bool, typer.Option("--strict/--lenient")] = True,
    case_timeout: Annotated[float, typer.Option(help="Seconds per case.")] = 10.0,
    spec_timeout: Annotated[float, typer.Option(help="Seconds per spec and engine.")] = 600.0,
    no_cache: Annotated[bool, typer.Option("--no-cache")] = False,
    cache: Annotated[Path | None, typer.Option(help="Verdict cache file.")] = None,
    progress: Annotated[bool, typer.Option("--progress/--no-progress")] = True,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No summary table.")] = False,
) -> None:
    """Score many (task, spec) pairs in parallel; results stream to a resumable JSONL file."""
    from adequacy.batch import (
        BatchOptions,
        jobs_from_file,
        jobs_from_glob,
        read_done,
        run_batch,
    )
    from adequacy.report import batch_table
    try:
        if jobs_file is not None:
            jobs = jobs_from_file(jobs_file)
        elif tasks:
            dirs: list[Path] = []
            for p in tasks:
                if (p / "task.toml").exists():
                    dirs.append(p)
                else:
                    dirs += sorted(d for d in p.iterdir() if (d / "task.toml").exists())
            jobs = jobs_from_glob(dirs, spec_glob)
        else:
            raise _fail("give a jobs file or --tasks")
    except AdequacyError as e:
        raise _fail(str(e)) from None
    if not jobs:
        raise _fail("no (task, spec) pairs found")
    opts = BatchOptions(backend=backend, engines=engine, cross_check=cross_check, strict=strict,
                        limits=Limits(case_seconds=case_timeout, spec_seconds=spec_timeout),
                        cache_path=_default_cache(no_cache, cache))
    try:
        summary = run_batch(jobs, results, opts, workers=workers, progress=progress)
    except (AdequacyError, OSError) as e:
        raise _fail(f"batch stopped: {e} (finished pairs are kept in {results}; rerun to "
                    "resume)") from None
    if not quiet:
        done = list(read_done(results).values())
        out.print(batch_table(done))
    out.print(f"{summary.total} pairs: {summary.computed} scored now, {summary.skipped_done} "
              f"already in {results}; invalid {summary.invalid}, errors {summary.errors}",
              highlight=False)
    raise typer.Exit(2 if summary.errors else 0)


@app.command()
def verify(
    task: Annotated[Path, typer.Argument(help="Task folder (JML).")],
    spec: Annotated[Path, typer.Argument(help="Spec file (Java with JML).")],
    engine: Annotated[str, typer.Option("--engine", "-e", help="Prover (only key).")] = "key",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    case_timeout: Annotated[float, typer.Option(help="Seconds per case (adequacy).")] = 10.0,
    spec_timeout: Annotated[float, typer.Option(help="Seconds per proof.")] = 120.0,
) -> None:
    """Prove the spec against the method body (verification rate) beside its adequacy metrics."""
    if engine != "key":
        raise _fail(f"verify supports --engine key only, not {engine!r}")
    from adequacy.backends.key.verify import render_text, verify_with_metrics
    try:
        t = load_task(task)
        text = spec.read_text(encoding="utf-8")
        rep = verify_with_metrics(t, text, str(spec),
                                  Limits(case_seconds=case_timeout, spec_seconds=spec_timeout))
    except OSError as e:
        raise _fail(f"cannot read spec {spec}: {e.strerror}") from None
    except AdequacyError as e:
        raise _fail(str(e), 3 if type(e).__name__ == "SpecInvalid" else 2) from None
    if as_json:
        print(rep.model_dump_json(indent=2))
    else:
        out.print(render_text(rep), highlight=False, markup=False)
    raise typer.Exit(0 if rep.verification.result == "verified" else 1)


@app.command("import")
def import_(
    name: Annotated[str, typer.Argument(help="Dataset importer (see `adequacy import-list`).")],
    src: Annotated[Path, typer.Argument(help="The dataset as downloaded (file or folder).")],
    dest: Annotated[Path, typer.Argument(help="Folder to write task folders into.")],
) -> None:
    """Convert a public dataset into task folders."""
    found = plugins.importers()
    if name not in found:
        raise _fail(f"no importer {name!r} (installed: {', '.join(sorted(found)) or 'none'})")
    if not src.exists():
        raise _fail(f"{src} does not exist")
    try:
        report = found[name](src, dest)
    except AdequacyError as e:
        raise _fail(str(e)) from None
    if hasattr(report, "model_dump_json"):
        summary = getattr(report, "summary", None)
        out.print(summary() if callable(summary) else report.model_dump_json(indent=2))
    elif report is not None:
        out.print(report)


@app.command()
def mutate(
    task: Annotated[Path, typer.Argument(help="Task folder.")],
    per_case: Annotated[int, typer.Option("--per-case", help="Mutants and invalid inputs per "
                                          "case.")] = 3,
    seed: Annotated[int, typer.Option(help="Random seed (same seed, same cases).")] = 0,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Report only; write nothing.")
                       ] = False,
) -> None:
    """Add oracle-labelled wrong outputs (post_sound) and invalid inputs (pre_sound)."""
    from adequacy.mutators import mutate_task, report_renderable
    try:
        report = mutate_task(task, per_case=per_case, seed=seed, write=not dry_run)
    except AdequacyError as e:
        raise _fail(str(e)) from None
    out.print(report_renderable(report))


@cache_app.command("clear")
def cache_clear(cache: Annotated[Path | None, typer.Option(help="Verdict cache file.")] = None
                ) -> None:
    """Forget every cached verdict."""
    from adequacy.cache import VerdictCache
    path = _default_cache(False, cache)
    assert path is not None
    VerdictCache(path).clear()
    out.print(f"cleared {path}")


from adequacy.cli_gym import register as _register_gym  # noqa: E402

_register_gym(app)


def main() -> None:  # pragma: no cover - console entry
    try:
        app()
    except AdequacyError as e:
        err.print(f"[bold red]error:[/] {e}")
        sys.exit(2)
