"""``adequacy import`` and ``mutate``: task folders from public datasets, and their sound cases."""

from __future__ import annotations

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
             "into.", metavar="SRC... DEST")],
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
    if name in import_ecosystem.NAMES:
        import_ecosystem.run(name, paths, output, language)
        return
    if output is not None or language is not None:
        raise fail(f"-o and --language are for `import harbor-job`; importer {name!r} writes "
                   "task folders into DEST")
    if len(paths) < 2:
        raise fail("give SRC and DEST (import NAME SRC... DEST)")
    *srcs, dest = paths
    src = srcs[0]
    from adequacy.extensions.registry import importers
    try:
        found = importers()
    except AdequacyError as e:
        raise fail(str(e)) from None
    if name not in found:
        raise fail(f"no importer {name!r} (installed: {', '.join(sorted(found)) or 'none'})")
    if len(srcs) > 1 and name != "package":
        raise fail(f"importer {name!r} takes one SRC, got {len(srcs)}")
    for s in srcs:
        if not s.exists():
            raise fail(f"{s}: does not exist")
    if dest.exists() and not dest.is_dir():
        raise fail(f"{dest}: is a file, expected a folder to write task folders into")
    try:
        options: dict[str, object] = {}
        if name == "package":
            options = {"sources": srcs, "min_per_bucket": min_per_bucket,
                       "max_per_bucket": max_per_bucket}
        report = found[name].run(src, dest, **options)
    except AdequacyError as e:
        raise fail(str(e)) from None
    except OSError as e:
        raise fail(f"{e.filename or src}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise fail(f"{src}: not UTF-8 text (byte 0x{e.object[e.start]:02x} at offset "
                    f"{e.start})") from None
    out.print(report.summary(), highlight=False, markup=False)
    written, why = len(report.converted), report.first_reason()
    if written == 0:
        raise fail(f"{src}: no task converted" + (f" ({why})" if why else ""))
    if mutate_after is None:
        mutate_after = name != "package"
    if generate_after is None:
        generate_after = name != "package"
    if generate_after and dest.is_dir():
        _generate_imported(dest, [o.task_id for o in report.converted])
    if mutate_after and dest.is_dir():
        _mutate_imported(dest)


def _generate_imported(dest: Path, ids: list[str]) -> None:
    """Imported datasets have few valid cases and, mostly, no invalid ones: generated cases
    from the task's own reference fill both (docs/cases.md)."""
    from adequacy_mutators import generate_task
    folders = [dest / i for i in ids if (dest / i / "task.toml").is_file()]
    valid = pre = total = failed = 0
    for i, d in enumerate(folders, 1):
        if err.is_terminal:
            err.print(f"generate {i}/{len(folders)} {d.name}", end="\r", highlight=False)
        try:
            r = generate_task(d, valid=50, seed=0)
        except AdequacyError as e:
            failed += 1
            err.print(Text(f"generate {d.name}: {str(e).splitlines()[0]}", style="yellow"),
                      soft_wrap=True, highlight=False)
            continue
        valid += r.valid_added
        pre += r.pre_sound_added
        total += r.inferred_every_input_valid
    out.print(f"generate: {valid} valid pairs and {pre} pre_sound cases added, {total} tasks "
              f"inferred every_input_valid, in {len(folders) - failed} of {len(folders)} tasks "
              "(--no-generate skips this)", highlight=False)


def _mutate_imported(dest: Path) -> None:
    """Imported datasets carry only valid cases; without mutants and invalid inputs a spec that
    says nothing would pass (see §6 of docs/cli.md)."""
    from adequacy_mutators import mutate_task
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
    from adequacy_mutators import (
        mutate_task,
        program_mutants_task,
        programs_renderable,
        report_renderable,
    )
    try:
        if programs:
            prep = program_mutants_task(task, per_mutant=per_mutant, write=not dry_run)
        else:
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
