"""The ``adequacy`` command: thin wrappers that parse arguments and call the library.

Exit codes: 0 the spec passed every case, 1 it failed some case, 2 usage or input error (or our
own failure), 3 the spec is invalid. Errors a user can fix print one line without a traceback;
``main`` turns anything unexpected into one "internal error" line (``ADEQUACY_DEBUG=1`` shows the
traceback), so bad input never ends in a traceback and exit 1 (which means "the spec failed").
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from adequacy import plugins, progress
from adequacy.backend import Limits
from adequacy.cli_options import at_least, fraction, positive
from adequacy.errors import AdequacyError
from adequacy.tasks import check_task, load_task

if TYPE_CHECKING:
    from adequacy.cache import VerdictCache

# Plain (click) help: typer's rich help shows every flag as `--json <bool>`, which reads as if
# it took a value. `-h` is accepted everywhere.
_CTX = {"help_option_names": ["-h", "--help"]}
app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None,
                  context_settings=_CTX, pretty_exceptions_enable=False,
                  help="Measure whether a formal specification says what it should.")
task_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, context_settings=_CTX,
                       help="Work with task folders.")
cache_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, context_settings=_CTX,
                        help="The verdict cache.")
app.add_typer(task_app, name="task")
app.add_typer(cache_app, name="cache")

out = Console()
err = Console(stderr=True)


def _say_error(msg: str, prefix: str = "error: ") -> None:
    """One line on stderr: no wrapping at the terminal's width, no rich markup in the message
    (``[jml]`` in a message is text, not a style)."""
    text = "; ".join(ln.strip() for ln in msg.splitlines() if ln.strip())
    err.print(Text(prefix, style="bold red") + Text(text), soft_wrap=True, highlight=False)


def _fail(msg: str, code: int = 2) -> typer.Exit:
    _say_error(msg)
    return typer.Exit(code)


def _default_cache(no_cache: bool, cache: Path | None) -> str | None:
    if no_cache:
        return None
    from adequacy.cache import default_cache_dir
    return str(cache or default_cache_dir() / "verdicts.sqlite")


def _open_cache(path: str | None) -> tuple[VerdictCache | None, str | None]:
    """The cache and its path, or (None, None) after one warning when it is unusable: a cache
    is an optimisation and never stops scoring."""
    if path is None:
        return None, None
    from adequacy.cache import VerdictCache
    c = VerdictCache(path)
    return (None, None) if c.broken else (c, path)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version
        try:
            v = version("spec-adequacy")
        except PackageNotFoundError:  # pragma: no cover - running from a source tree
            from adequacy import __version__ as v
        out.print(f"adequacy {v}", highlight=False)
        raise typer.Exit(0)


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Measure whether a formal specification says what it should."""


@app.command()
def backends(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List installed backends and their engines, with why an engine is unavailable."""
    try:
        found = plugins.backends()
    except AdequacyError as e:
        raise _fail(str(e)) from None
    from adequacy.backend import verifiers_of
    rows = []
    for b in found.values():
        for kind, things in (("engine", b.engines()), ("verifier", verifiers_of(b))):
            for thing in things:
                info = thing.info()
                rows.append({"backend": b.name, "language": b.language, "engine": info.name,
                             "kind": kind, "available": info.available,
                             "default": info.default, "version": info.version,
                             "reason": info.reason, "decides": info.decides})
    broken = [{"plugin": p.name, "target": p.target, "error": p.error} for p in plugins.BROKEN]
    from adequacy import sandbox
    if as_json:
        print(json.dumps({"engines": rows, "broken_plugins": broken, "sandbox": [
            vars(p) for p in sandbox.protections()]}, indent=2))
        return
    t = Table(title="backends and engines", title_justify="left")
    for c in ("backend", "language", "engine", "kind", "available", "default", "version"):
        t.add_column(c)
    for r in rows:
        t.add_row(str(r["backend"]), str(r["language"]), str(r["engine"]), str(r["kind"]),
                  "[green]yes[/]" if r["available"] else "[red]no[/]",
                  "yes" if r["default"] else "", str(r["version"]))
    out.print(t)
    for r in rows:
        if r["reason"]:
            out.print(f"[bold]{r['backend']}/{r['engine']}[/]: {r['reason']}", highlight=False)
    for p in broken:
        err.print(f"[yellow]plugin {p['plugin']} ({p['target']}) failed to load:[/] {p['error']}")
    for line in sandbox.report_lines():
        out.print(line, highlight=False)


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
            err.print(Text(f"{b.name}: {e}", style="bold red"), soft_wrap=True, highlight=False)
    from adequacy.sandbox import describe
    out.print(describe(), highlight=False)
    if failed:
        raise typer.Exit(2)


def _backend_task_errors(task: object) -> list[str]:
    """What the language's backend finds wrong with the task itself: the checks ``score``
    runs on it before any spec (JML: its Solution.java reads, the ``[jml]`` table names a
    method it has), so ``validate`` cannot say ok where ``score`` exits 2."""
    from adequacy.backend import optional
    from adequacy.tasks import Task
    assert isinstance(task, Task)
    try:
        backend = plugins.main_backend(task.language)
    except AdequacyError:
        return []  # a language without a backend is check_task's report
    fn = optional(backend, "check_task")
    if fn is None:
        return []
    try:
        fn(task)
    except AdequacyError as e:
        return [str(e)]
    return []


@task_app.command("validate")
def task_validate(
    paths: Annotated[list[Path], typer.Argument(help="Task folders (or folders of tasks).")],
) -> None:
    """Check task folders; print every problem with file, line and field. Exit 2 on any."""
    from adequacy.discovery import discover_tasks
    try:
        folders = discover_tasks(paths)
    except AdequacyError as why:
        raise _fail(str(why)) from None
    bad = 0
    for f in folders:
        task, errors = check_task(f)
        if errors:
            bad += 1
            for e in errors:
                err.print(Text(str(e), style="red"), soft_wrap=True, highlight=False)
        else:
            assert task is not None
            own = _backend_task_errors(task)
            if own:
                bad += 1
                for msg in own:
                    _say_error(msg)
                continue
            n = {b.value: len(c) for b, c in task.cases.items()}
            if not sum(n.values()):
                # nothing to score: every metric would be undefined and `score` exits 1
                bad += 1
                _say_error(f"{f}: no cases (tests/*.jsonl are missing or empty): there is "
                           "nothing to score a spec against")
                continue
            empty = [k for k, v in n.items() if not v]
            if empty:
                err.print(Text("warning: ", style="yellow") + Text(
                    f"{f}: no {', '.join(empty)} cases: those metrics are undefined and "
                    "`score` exits 1 (`adequacy mutate` fills the sound buckets)"),
                    soft_wrap=True, highlight=False)
            out.print(f"ok  {f}  ({task.id}: " + ", ".join(f"{k} {v}" for k, v in n.items())
                      + ")", highlight=False)
    out.print(f"{len(folders) - bad} of {len(folders)} tasks valid", highlight=False)
    if bad:
        raise typer.Exit(2)


EngineOpt = Annotated[list[str] | None, typer.Option("--engine", "-e", metavar="ENGINE",
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
    harness_t: Annotated[float, typer.Option("--harness-t", callback=fraction,
        help="Threshold t of Harness@t.")]
    = 1.0,
    visible_only: Annotated[bool, typer.Option("--visible-only",
                            help="Score only cases marked visible.")] = False,
    case_timeout: Annotated[float, typer.Option(callback=positive,
        help="Seconds per case.")] = 10.0,
    spec_timeout: Annotated[float, typer.Option(callback=positive,
        help="Seconds per spec and engine.")] = 600.0,
    timeout_streak: Annotated[int, typer.Option(callback=at_least(0),
        help="Give up a predicate after this many failed cases in a row (timeouts, out of "
             "memory...: its other cases unknown); 0: never.")]
    = 3,
    memory_mb: Annotated[int, typer.Option("--memory-mb", callback=at_least(16), help=
                         "Memory per spec evaluation (MiB): engines' processes, JVM heaps "
                         "(half), interp's growth per case; past it: unknown, out of memory.")]
    = 2048,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Do not read or write the "
                        "verdict cache.")] = False,
    cache: Annotated[Path | None, typer.Option(help="Verdict cache file.")] = None,
    max_spec_bytes: Annotated[int | None, typer.Option(min=1,
        help="Refuse larger spec files (default 1 MiB, or $ADEQUACY_MAX_SPEC_BYTES).")] = None,
) -> None:
    """Score one spec against its task's four buckets."""
    from adequacy.report import spec_table
    from adequacy.runner import score_spec
    from adequacy.textfiles import read_spec
    try:
        t = load_task(task)
        text = read_spec(spec, max_spec_bytes)
    except AdequacyError as e:
        raise _fail(str(e)) from None
    vc, _ = _open_cache(_default_cache(no_cache, cache))
    cases = [c for c in t.all_cases() if c.visible] if visible_only else None
    with progress.terminal():
        rep = score_spec(t, text, str(spec), backend=backend, engines=engine,
                         cross_check=cross_check, strict=strict,
                         limits=Limits(case_seconds=case_timeout, spec_seconds=spec_timeout,
                                       timeout_streak=timeout_streak, memory_mb=memory_mb),
                         cache=vc, cases=cases)
    if as_json:
        print(rep.model_dump_json(indent=2))
    elif rep.status == "error":
        # one line on stderr only (the table would say it a second time on stdout)
        raise _fail(f"{spec}: {rep.error.splitlines()[0] if rep.error else 'scoring failed'}")
    else:
        out.print(spec_table(rep, harness_t=harness_t, task=t))
    raise typer.Exit(rep.exit_code)


@app.command()
def run(
    jobs_file: Annotated[Path | None, typer.Argument(help=
                         "JSONL of {\"task\": PATH, \"spec\": PATH} lines.", show_default=False)
                         ] = None,
    tasks: Annotated[list[Path] | None, typer.Option("--tasks", metavar="DIR", help=
                     "Task folders or folders of tasks (with --spec-glob).")] = None,
    spec_glob: Annotated[str | None, typer.Option(help="Specs of each task, relative to it "
                         "(default: specs/* with the backend's spec suffix, e.g. specs/*.rs).")]
    = None,
    results: Annotated[Path, typer.Option("--results", "-o", help=
                       "Results JSONL (appended; rerun resumes).")] = Path("results.jsonl"),
    workers: Annotated[int | None, typer.Option(callback=at_least(1),
        help="Processes (default: cores).")] = None,
    backend: Annotated[str | None, typer.Option(help="Backend name.")] = None,
    engine: EngineOpt = None,
    cross_check: Annotated[bool, typer.Option("--cross-check", help=
                           "Run every available engine on every case; report disagreements.")]
    = False,
    strict: Annotated[bool, typer.Option("--strict/--lenient", help=
                      "Strict: unknown counts as failed. Lenient: unknown left out.")] = True,
    case_timeout: Annotated[float, typer.Option(callback=positive,
        help="Seconds per case.")] = 10.0,
    spec_timeout: Annotated[float, typer.Option(callback=positive,
        help="Seconds per spec and engine.")] = 600.0,
    timeout_streak: Annotated[int, typer.Option(callback=at_least(0),
        help="Give up a predicate after this many failed cases in a row (timeouts, out of "
             "memory...: its other cases unknown); 0: never.")]
    = 3,
    memory_mb: Annotated[int, typer.Option("--memory-mb", callback=at_least(16), help=
                         "Memory per spec evaluation (MiB): engines' processes, JVM heaps "
                         "(half), interp's growth per case; past it: unknown, out of memory.")]
    = 2048,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Do not read or write the "
                        "verdict cache.")] = False,
    cache: Annotated[Path | None, typer.Option(help="Verdict cache file.")] = None,
    progress: Annotated[bool, typer.Option("--progress/--no-progress", help=
                        "A progress bar on stderr.")] = True,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No summary table.")] = False,
    max_spec_bytes: Annotated[int | None, typer.Option(min=1,
        help="Refuse larger spec files (default 1 MiB, or $ADEQUACY_MAX_SPEC_BYTES).")] = None,
    executor: Annotated[str, typer.Option(help="local (process pool) or ray.")] = "local",
    address: Annotated[str | None, typer.Option(help="Ray cluster: auto or ray://HOST:PORT "
                                                "(default: a local Ray instance).")] = None,
) -> None:
    """Score many (task, spec) pairs in parallel; results stream to a resumable JSONL file.

    Exit 0 when every pair was scored (whatever the specs' verdicts), 2 on a usage or input
    error or when some pair ended as an error record.
    """
    from adequacy.batch import (
        BatchInterrupted,
        BatchOptions,
        ResultsLocked,
        jobs_from_file,
        jobs_from_glob,
        run_batch,
    )
    from adequacy.report import batch_table
    from adequacy.results import ResultsError
    try:
        if jobs_file is not None:
            jobs = jobs_from_file(jobs_file)
        elif tasks:
            from adequacy.discovery import default_spec_glob, discover_tasks
            jobs = []
            for d in discover_tasks(tasks):
                pattern = spec_glob or default_spec_glob(d)
                try:
                    jobs += jobs_from_glob([d], pattern)
                except (ValueError, NotImplementedError) as e:  # e.g. an absolute pattern
                    raise _fail(f"--spec-glob {pattern!r}: {e}") from None
        else:
            raise _fail("give a jobs file or --tasks")
    except AdequacyError as e:
        raise _fail(str(e)) from None
    if not jobs:
        raise _fail("no (task, spec) pairs found")
    if results.is_dir():
        raise _fail(f"{results}: is a folder, expected a results file (JSONL)")
    _, cache_path = _open_cache(_default_cache(no_cache, cache))
    if max_spec_bytes is not None:  # read by the pool workers, which inherit the environment
        os.environ["ADEQUACY_MAX_SPEC_BYTES"] = str(max_spec_bytes)
    opts = BatchOptions(backend=backend, engines=engine, cross_check=cross_check, strict=strict,
                        limits=Limits(case_seconds=case_timeout, spec_seconds=spec_timeout,
                                      timeout_streak=timeout_streak, memory_mb=memory_mb),
                        cache_path=cache_path)
    if executor not in ("local", "ray"):
        raise _fail(f"--executor must be local or ray, not {executor!r}")
    opts.executor = executor  # type: ignore[assignment]
    opts.ray_address = address
    try:
        summary = run_batch(jobs, results, opts, workers=workers, progress=progress)
    except (ResultsLocked, ResultsError) as e:  # another writer; a log we cannot append to
        raise _fail(str(e)) from None
    except BatchInterrupted as e:
        raise _fail(str(e), 130) from None
    except (AdequacyError, OSError) as e:
        raise _fail(f"batch stopped: {e} (finished pairs are kept in {results}; rerun to "
                    "resume)") from None
    if not quiet:
        out.print(batch_table(summary.reports))
    out.print(summary.footer(results), highlight=False)
    raise typer.Exit(2 if summary.errors else 0)


@app.command()
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
    from adequacy.textfiles import read_spec
    from adequacy.verification import provers, render_text, verify_with_metrics, why_no_prover
    try:
        t = load_task(task)
        if not provers(t.language, engine):
            raise _fail(f"{task}: cannot verify: {why_no_prover(t.language, engine)}")
        text = read_spec(spec)
        with progress.terminal(), progress.phase("verify (proof, then adequacy)"):
            rep = verify_with_metrics(t, text, str(spec),
                                      Limits(case_seconds=case_timeout, spec_seconds=spec_timeout),
                                      engine)
    except AdequacyError as e:
        raise _fail(str(e), 3 if type(e).__name__ == "SpecInvalid" else 2) from None
    if as_json:
        print(rep.model_dump_json(indent=2))
    else:
        out.print(render_text(rep), highlight=False, markup=False)
    raise typer.Exit(0 if rep.verification.result == "verified" else 1)


@app.command("import")
def import_(
    name: Annotated[str, typer.Argument(help="Dataset importer: verina, specgenbench, "
                                        "formalbench (plugins may add others).")],
    src: Annotated[Path, typer.Argument(help="The dataset as downloaded (file or folder).")],
    dest: Annotated[Path, typer.Argument(help="Folder to write task folders into.")],
    mutate_after: Annotated[bool, typer.Option("--mutate/--no-mutate", help=
                            "Then add wrong outputs (post_sound) and, where a task's "
                            "constraints or validator allow, invalid inputs (pre_sound) with "
                            "`adequacy mutate` (3 per case, seed 0).")] = True,
) -> None:
    """Convert a public dataset into task folders (then fill their sound buckets)."""
    from adequacy.importing import importers
    try:
        found = importers()
    except AdequacyError as e:
        raise _fail(str(e)) from None
    if name not in found:
        raise _fail(f"no importer {name!r} (installed: {', '.join(sorted(found)) or 'none'})")
    if not src.exists():
        raise _fail(f"{src}: does not exist")
    if dest.exists() and not dest.is_dir():
        raise _fail(f"{dest}: is a file, expected a folder to write task folders into")
    try:
        report = found[name].run(src, dest)
    except AdequacyError as e:
        raise _fail(str(e)) from None
    except OSError as e:
        raise _fail(f"{e.filename or src}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise _fail(f"{src}: not UTF-8 text (byte 0x{e.object[e.start]:02x} at offset "
                    f"{e.start})") from None
    except (ValueError, KeyError, TypeError) as e:  # a file of the wrong shape
        raise _fail(f"{src}: not a {name} dataset ({type(e).__name__}: "
                    f"{str(e).splitlines()[0] if str(e) else ''})") from None
    out.print(report.summary(), highlight=False, markup=False)
    written, why = len(report.converted), report.first_reason()
    if written == 0:
        raise _fail(f"{src}: no task converted" + (f" ({why})" if why else ""))
    if mutate_after and dest.is_dir():
        _mutate_imported(dest)


def _mutate_imported(dest: Path) -> None:
    """Imported datasets carry only valid cases; without mutants and invalid inputs a spec that
    says nothing would pass (see §6 of docs/cli.md)."""
    from adequacy.mutators import mutate_task
    folders = sorted(d for d in dest.iterdir() if (d / "task.toml").is_file())
    post = pre = failed = 0
    for i, d in enumerate(folders, 1):
        if err.is_terminal:
            err.print(f"mutate {i}/{len(folders)} {d.name}", end="\r", highlight=False)
        try:
            r = mutate_task(d, per_case=3, seed=0)
        except AdequacyError as e:
            failed += 1
            err.print(Text(f"mutate {d.name}: {str(e).splitlines()[0]}", style="yellow"),
                      soft_wrap=True, highlight=False)
            continue
        post += r.post_sound_added
        pre += r.pre_sound_added
    out.print(f"mutate: {post} post_sound and {pre} pre_sound cases added to "
              f"{len(folders) - failed} of {len(folders)} tasks (--no-mutate skips this)",
              highlight=False)


@app.command()
def mutate(
    task: Annotated[Path, typer.Argument(help="Task folder.")],
    per_case: Annotated[int, typer.Option("--per-case", callback=at_least(1),
        help="Mutants and invalid inputs per "
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
    """Forget every cached verdict (removes the file and creates it anew, even a broken one)."""
    from adequacy.cache import clear_cache
    path = _default_cache(False, cache)
    assert path is not None
    if Path(path).is_dir():
        raise _fail(f"{path}: is a folder, expected the cache file")
    try:
        clear_cache(path)
    except OSError as e:
        raise _fail(f"{path}: cannot recreate the cache ({e.strerror or e})") from None
    out.print(f"cleared {path}", highlight=False, soft_wrap=True)


from adequacy.cli_task import task_new  # noqa: E402

task_app.command("new")(task_new)


def main() -> None:  # pragma: no cover - console entry (tested through subprocess)
    try:
        app(prog_name="adequacy")
    except AdequacyError as e:
        _say_error(str(e))
        sys.exit(2)
    except KeyboardInterrupt:
        err.print("interrupted", highlight=False)
        sys.exit(130)
    except Exception as e:  # noqa: BLE001 - the last resort: one line, never a traceback
        if os.environ.get("ADEQUACY_DEBUG") == "1":
            raise
        msg = str(e).splitlines()[0] if str(e) else ""
        _say_error(f"{type(e).__name__}: {msg} (please report; ADEQUACY_DEBUG=1 shows the "
                   "traceback)", prefix="internal error: ")
        sys.exit(2)


from adequacy import cli_report  # noqa: E402  (commands in their own module)

cli_report.register(app)

from adequacy.cli_optimize import register as _register_optimize  # noqa: E402

_register_optimize(app)

from adequacy.cli_gym import register as _register_gym  # noqa: E402

_register_gym(app)
