"""``adequacy task strength``: how many wrong specs and wrong programs a task's cases catch.

The work is in ``adequacy.search.strength`` (spec mutants of the gold spec, survivors judged,
blind spots searched) and ``adequacy_mutators.program_mutants_task`` (mutants of the reference
program); this module parses, prints one line per task as it finishes, the benchmark table at
the end, and exits.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from adequacy.cli.checks import at_least, positive
from adequacy.cli.common import fail
from adequacy.cli.explore import CaseTimeout, Engines, _options, _say
from adequacy.cli.tasks import task_app

if TYPE_CHECKING:
    from adequacy.records.html import BenchmarkQA
    from adequacy.search.strength import StrengthReport


def _r(v: float | None) -> str:
    return "n/a" if v is None else f"{v:.2f}"


def line(r: StrengthReport) -> str:
    """One task's figures in one line (and its notes below)."""
    if r.error:
        return f"{r.task}: error: {r.error}"
    parts = [r.task + ":"]
    if r.gold:
        eq = ", ".join(f"{n} {k}" for k, n in r.equivalent.items()) or "0"
        parts.append(f"{r.made} spec mutants: {r.killed} killed, {r.survived} survived "
                     f"(equivalent: {eq}; blind spots {r.blind_spots}, closed {r.closed}), "
                     f"{r.invalid} invalid, {r.unknown} unknown; spec strength "
                     f"{_r(r.strength)} -> {_r(r.strength_after)}")
    else:
        parts.append("no gold spec")
    p = r.programs
    if p is not None:
        if p.program:
            parts.append(f"| {p.made} program mutants ({p.wrong} wrong, {p.same} same, "
                         f"{p.crash_only} crash only, {p.invalid} do not load); program "
                         f"strength {_r(p.strength_before)} -> {_r(p.strength_after)}")
        else:
            parts.append("| no program to mutate")
    text = " ".join(parts)
    for n in [*r.notes, *(p.notes if p is not None else [])]:
        text += f"\n  note: {n}"
    if r.cases_added or (p is not None and p.written):
        text += (f"\n  added {r.cases_added} blind-spot case(s)"
                 + (f", {p.cases_added} program-mutant case(s)" if p is not None else ""))
    elif r.cases_found:
        text += f"\n  {r.cases_found} blind-spot case(s) found (not added: pass --add)"
    return text


def task_strength(
    tasks: Annotated[list[Path], typer.Argument(help="Task folders or folders of tasks.")],
    gold: Annotated[str, typer.Option("--gold", metavar="DIR|gold", help="Where the gold "
                    "specs are: a folder of <task id>.<ext> files, or 'gold' (each task's "
                    "specs/gold.<ext>, else its language's bundled golds).")] = "gold",
    add: Annotated[bool, typer.Option("--add", help="Add the cases found: each blind spot's "
                   "counterexamples (origin blind_spot) and, with --programs, the wrong "
                   "programs' outputs (origin program_mutant); both name their mutant in "
                   "made_by.")] = False,
    programs: Annotated[bool, typer.Option("--programs/--no-programs", help="Also mutate the "
                        "task's reference program (program-mutant strength).")] = True,
    budget: Annotated[float, typer.Option(callback=positive, help="Seconds of judging per "
                      "surviving mutant (the solver, then sampling).")] = 3.0,
    seed: Annotated[int, typer.Option(help="Seed of the sampling search.")] = 0,
    max_mutants: Annotated[int, typer.Option("--max-mutants", callback=at_least(1),
                           help="Spec mutants scored per task at most (spread evenly).")
                           ] = 200,
    operator: Annotated[list[str] | None, typer.Option("--operator", metavar="NAME",
                        help="Only these spec mutation operators (repeatable).")] = None,
    symbolic: Annotated[bool, typer.Option("--symbolic/--no-symbolic", help="Ask the solver "
                        "first where the language has one.")] = True,
    per_mutant: Annotated[int, typer.Option("--per-mutant", callback=at_least(1),
                          help="Wrong outputs kept per wrong program.")] = 3,
    engine: Engines = None,
    case_timeout: CaseTimeout = 10.0,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON report per task, then the "
                       "benchmark summary.")] = False,
    output: Annotated[Path | None, typer.Option("--out", help="Append each task's report as "
                      "a JSON line to this file (for `task audit --strength` and `report "
                      "--strength`).")] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Do not use the verdict cache.")
                        ] = False,
) -> None:
    """Score every one-change mutant of each task's gold spec on the task's cases (killed,
    survived, invalid, unknown), judge each survivor (equivalent, or a blind spot with
    counterexamples), and mutate the reference program; print both strengths per task and
    the benchmark's median and 10th percentile.

    Exit 0 when every task was measured, 2 on an input error or a task that could not be."""
    from adequacy.cli.common import default_cache, open_cache
    from adequacy.errors import AdequacyError
    from adequacy.extensions.mutants import SPEC_OPERATORS, check_operators
    from adequacy.search.strength import add_cases, benchmark_qa, gold_for, totals
    from adequacy.search.strength import task_strength as measure
    from adequacy.taskdirs.discovery import discover_tasks
    from adequacy.taskdirs.load import load_task
    from adequacy_mutators import program_mutants_task

    if gold != "gold" and not Path(gold).is_dir():
        raise fail(f"{gold}: --gold must be a folder or the word 'gold'")
    try:
        ops = check_operators(operator, SPEC_OPERATORS) if operator else None
    except ValueError as e:
        raise fail(str(e)) from None
    try:
        folders = discover_tasks(tasks)
    except AdequacyError as e:
        raise fail(str(e)) from None
    cache, _ = open_cache(default_cache(no_cache, None))
    opts = _options(engine, case_timeout)
    reports: list[StrengthReport] = []
    errors = 0
    from adequacy.console import progress
    with progress.terminal(), progress.steps("task strength", len(folders), "tasks") as bar:
        for f in folders:
            bar.note(f"now: {f.name}")
            try:
                t = load_task(f)
                prog = (program_mutants_task(f, per_mutant=per_mutant, write=add)
                        if programs else None)
                rep, found = measure(t, gold_for(t, gold), opts, cache=cache, budget=budget,
                                     seed=seed, operators=ops, max_mutants=max_mutants,
                                     symbolic=symbolic, programs=prog)
                if add and found:
                    rep.cases_added = add_cases(load_task(f), found)
            except AdequacyError as e:
                raise fail(str(e)) from None
            bar.advance()
            errors += bool(rep.error)
            reports.append(rep)
            if output is not None:
                try:
                    with output.open("a", encoding="utf-8") as fh:
                        fh.write(rep.model_dump_json() + "\n")
                except OSError as e:
                    raise fail(f"{output}: cannot write: {e.strerror or e}") from None
            if as_json:
                print(json.dumps({**json.loads(rep.model_dump_json()), **rep.figures()}),
                      flush=True)
            else:
                _say(line(rep))
    qa = benchmark_qa(reports)
    if as_json:
        print(json.dumps({"summary": [m.model_dump() for m in qa.summary],
                          "totals": totals(reports)}))
    else:
        _print_summary(qa, totals(reports))
    raise typer.Exit(2 if errors else 0)


def _print_summary(qa: BenchmarkQA, tot: dict[str, Any]) -> None:
    from adequacy.cli.qa import print_qa
    print_qa(qa)
    eq = {k.removeprefix("equivalent_"): v for k, v in tot.items() if k.startswith("equivalent_")}
    _say(f"spec mutants: {tot.get('made', 0)} made, {tot.get('killed', 0)} killed, "
         f"{tot.get('survived', 0)} survived (equivalent: "
         f"{', '.join(f'{v} {k}' for k, v in eq.items()) or '0'}; blind spots "
         f"{tot.get('blind_spots', 0)}, closed {tot.get('closed', 0)}), "
         f"{tot.get('invalid', 0)} invalid, {tot.get('unknown', 0)} unknown")


def register(app: typer.Typer) -> None:
    task_app.command("strength")(task_strength)
