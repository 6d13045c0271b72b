"""``adequacy report`` and ``adequacy compare``: thin wrappers over ``adequacy.records.html``."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table
from rich.text import Text

from adequacy.cli.checks import at_least, fraction
from adequacy.cli.common import err, out
from adequacy.console.tables import FORMAT_HELP, OutputFormat, resolve, show
from adequacy.errors import AdequacyError
from adequacy.model.thresholds import HARNESS_T

if TYPE_CHECKING:
    from adequacy.records.html import StudyView



class Format(StrEnum):
    html = "html"
    md = "md"
    json = "json"
    plain = "plain"
    rich = "rich"
    csv = "csv"


class GroupBy(StrEnum):
    auto = "auto"
    file = "file"
    writer = "writer"
    model = "model"
    family = "family"


VerifiedOnly = Annotated[bool, typer.Option(
    "--verified-only", help="Count only records this installation's grader sealed; drop "
    "records typed or edited by hand or written elsewhere (their counts can be consistent and "
    "still invented).")]


def _fail(msg: str) -> typer.Exit:
    err.print(f"[bold red]error:[/] {msg}", highlight=False)
    return typer.Exit(2)


def report(
    results: Annotated[list[Path], typer.Argument(help="Results JSONL files (run, submit, agent "
                                                  "rollouts; any schema up to this version's).")],
    output: Annotated[Path | None, typer.Option("--output", "-o", help="File to write "
                                                "(default: stdout for md/json, report.html).")
                      ] = None,
    fmt: Annotated[Format, typer.Option("--format", "-f", help="html, md or json (a file, or "
                                        "md/json on stdout); plain or rich: the summary and "
                                        "leaderboard tables on stdout; csv: one row per spec "
                                        "(every bucket, metric and provenance field).")
                   ] = Format.html,
    by: Annotated[GroupBy, typer.Option("--by", help="What one approach is: auto (the writer, "
                                        "family and model that wrote each spec, else the file), "
                                        "file, writer, model or family.")
                  ] = GroupBy.auto,
    title: Annotated[str, typer.Option(help="Report title.")] = "spec-adequacy report",
    verified_only: VerifiedOnly = False,
    harness_t: Annotated[float, typer.Option("--harness-t", callback=fraction,
        help="Threshold t of the Harness@t and PostHarness@t columns (the default is "
             "score's too).")] = HARNESS_T,
    strength: Annotated[list[Path] | None, typer.Option("--strength", metavar="FILE", help=
        "Reports of `adequacy task strength --out FILE`: add the benchmark QA section (each "
        "task's spec-mutant and program-mutant strength; median, 10th percentile, worst "
        "tasks).")] = None,
) -> None:
    """Render results as one self-contained HTML file (or markdown / JSON) with plots. Records
    this installation's grader did not seal (typed, edited, from elsewhere) are marked not
    verified."""
    from adequacy.records.html import (
        build_study,
        read_records,
        render_html,
        render_json,
        render_markdown,
        trust_notes,
    )
    try:
        records = read_records(results, group_by=by.value, verified_only=verified_only)
    except AdequacyError as e:
        raise _fail(str(e)) from None
    if fmt is Format.csv:
        from adequacy.ecosystem.tables import spec_rows, to_csv
        _emit(to_csv(spec_rows(results, by.value)), output, f"{len(records)} specs")
        return
    qa = None
    if strength:
        from adequacy.search.strength import benchmark_qa, read_strength
        try:
            qa = benchmark_qa(read_strength(strength))
        except AdequacyError as e:
            raise _fail(str(e)) from None
    study = build_study(records, [str(p) for p in results], harness_t=harness_t, qa=qa)
    for note in trust_notes(study):
        err.print(Text("warning: ", style="bold yellow") + Text(note), soft_wrap=True,
                  highlight=False)
    if fmt in (Format.plain, Format.rich):
        _print_tables(study, OutputFormat(fmt.value))
        return
    text = (render_html(study, title) if fmt is Format.html else
            render_markdown(study) if fmt is Format.md else render_json(study))
    if output is None and fmt is not Format.html:
        print(text, end="")
        return
    dest = output or Path("report.html")
    try:
        dest.write_text(text, encoding="utf-8")
    except OSError as e:
        raise _fail(f"{dest}: cannot write report: {e.strerror or e}") from None
    err.print(f"wrote {dest} ({len(study.rows)} specs, {len(study.approaches)} approaches)",
              highlight=False)


def _emit(text: str, output: Path | None, what: str) -> None:
    if output is None:
        print(text, end="")
        return
    try:
        output.write_text(text, encoding="utf-8", newline="")
    except OSError as e:
        raise _fail(f"{output}: cannot write: {e.strerror or e}") from None
    err.print(f"wrote {output} ({what})", highlight=False)


def _print_tables(study: StudyView, fmt: OutputFormat) -> None:
    from rich.console import Group

    from adequacy.console.tables import key_columns
    from adequacy.records.html import leaderboard_rows, summary_rows

    parts = []
    for title, rows in (("summary per approach", summary_rows(study)),
                        ("leaderboard", leaderboard_rows(study))):
        t = Table(title=title, title_justify="left")
        for col in rows[0] if rows else []:
            t.add_column(col, justify="left" if col in ("approach", "writer", "model", "family")
                         else "right")
        for r in rows:
            t.add_row(*(Text(v) for v in r.values()))
        parts.append(key_columns(t, 2 if title == "leaderboard" else 1))
    show(out, Group(*parts), fmt)


def compare(
    a: Annotated[Path, typer.Argument(help="Results JSONL of approach A (the baseline).")],
    b: Annotated[Path, typer.Argument(help="Results JSONL of approach B.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON (--format json).")
                       ] = False,
    table_format: Annotated[OutputFormat, typer.Option("--format", metavar="FORMAT", help=FORMAT_HELP)
                   ] = OutputFormat.auto,
    resamples: Annotated[int, typer.Option(callback=at_least(1),
        help="Bootstrap resamples.")] = 10_000,
    seed: Annotated[int, typer.Option(help="Bootstrap seed.")] = 0,
    verified_only: VerifiedOnly = False,
) -> None:
    """Per task and bucket, what got better or worse from A to B, with a sign test and a
    bootstrap confidence interval of the difference. Says how many records of each side this
    installation's grader did not seal, and which were scored leniently."""
    from adequacy.records.html import compare as do_compare
    from adequacy.records.html import read_records
    try:
        ra = read_records([a], "file", verified_only=verified_only)
        rb = read_records([b], "file", verified_only=verified_only)
    except AdequacyError as e:
        raise _fail(str(e)) from None
    cmp = do_compare(ra, rb, a.stem, b.stem, resamples=resamples, seed=seed)
    for note in cmp.trust_notes():
        err.print(Text("warning: ", style="bold yellow") + Text(note), soft_wrap=True,
                  highlight=False)
    fmt = resolve(table_format, as_json)
    if fmt is OutputFormat.json:
        print(cmp.model_dump_json(indent=2))
        return
    t = Table(title=f"{cmp.a} (A) -> {cmp.b} (B): paired over tasks in both", title_justify="left")
    for col in ("measure", "tasks", "A", "B", "B-A", "95% CI", "better", "worse", "same",
                "sign p"):
        t.add_column(col, justify="left" if col == "measure" else "right")

    def f(v: float | None) -> str:
        return "n/a" if v is None else f"{v:.3f}"

    for d in cmp.deltas:
        t.add_row(d.measure, str(d.tasks), f(d.mean_a), f(d.mean_b),
                  "n/a" if d.mean_diff is None else f"{d.mean_diff:+.3f}",
                  "n/a" if d.ci_low is None else f"[{d.ci_low:+.3f}, {d.ci_high:+.3f}]",
                  str(d.better), str(d.worse), str(d.same),
                  "n/a" if d.sign_p is None else f"{d.sign_p:.3g}")
    show(out, t, fmt)
    if cmp.only_a or cmp.only_b:
        out.print(f"not paired: {cmp.only_a} tasks only in A, {cmp.only_b} only in B")
    for label, rows in (("better in B", cmp.improved), ("worse in B", cmp.worsened)):
        if rows:
            out.print(f"{label}: " + ", ".join(f"{c.task_id} ({c.a:.2f}->{c.b:.2f})"
                                               for c in rows), highlight=False)
    for c in cmp.specs_flipped:
        out.print(f"spec {c.task_id}/{c.spec}: {c.a} -> {c.b}", highlight=False)
    p1 = cmp.deltas[0]
    if p1.sign_p is not None:
        verdict = ("a difference unlikely to be chance (p < 0.05)" if p1.sign_p < 0.05 else
                   "no difference you can rely on (p >= 0.05)")
        out.print(f"Pass@1: {verdict}", highlight=False)


def register(app: typer.Typer) -> None:
    app.command()(report)
    app.command()(compare)
