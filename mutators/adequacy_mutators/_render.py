"""Rich tables of a ``MutateReport`` (the CLI prints them; the library never imports the CLI)."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ._programs import ProgramsReport
from ._task import MutateReport

__all__ = ["programs_renderable", "report_renderable"]


def _counts(title: str, counts: dict[str, int], head: str) -> Table:
    t = Table(title=title, title_justify="left")
    t.add_column(head)
    t.add_column("cases", justify="right")
    for k, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        t.add_row(Text(k), str(n))
    return t


def report_renderable(rep: MutateReport) -> Group:
    """Summary line, per-operator tables (post_sound, pre_sound) and drop reasons."""
    parts: list[Text | Table] = [Text(
        f"{rep.task}: post_sound +{rep.post_sound_added} (now {rep.post_sound_total}), "
        f"pre_sound +{rep.pre_sound_added} (now {rep.pre_sound_total}); per case "
        f"{rep.per_case}, seed {rep.seed}; output oracles: "
        f"{', '.join(rep.output_oracles) or 'none'}; input oracles: "
        f"{', '.join(rep.input_oracles) or 'none'}" + ("" if rep.written else " (nothing written)"))]
    parts += [Text(f"note: {n}") for n in rep.notes]
    if rep.post_operators:
        parts.append(_counts("post_sound: wrong outputs per operator", rep.post_operators,
                             "operator"))
    if rep.pre_operators:
        parts.append(_counts("pre_sound: invalid inputs per operator", rep.pre_operators,
                             "operator"))
    if rep.dropped:
        parts.append(_counts("dropped candidates per reason", rep.dropped, "reason"))
    return Group(*parts)


def _ratio(a: int, b: int) -> str:
    return f"{a}/{b} = {a / b:.2f}" if b else "n/a (no wrong program)"


def programs_renderable(rep: ProgramsReport) -> Group:
    """Summary, the mutants one per row (status, wrong inputs, recorded before), drops."""
    head = (f"{rep.task}: {rep.made} program mutants of {rep.program or 'no program'} on "
            f"{rep.inputs} valid inputs: {rep.wrong} wrong, {rep.same} same as the reference, "
            f"{rep.crash_only} crash only, {rep.invalid} do not load; post_sound "
            f"+{rep.cases_added} (and {rep.cases_labelled} existing named); program-mutant "
            f"strength {_ratio(rep.recorded_before, rep.wrong)} -> "
            f"{_ratio(rep.recorded_after, rep.wrong)}"
            + ("" if rep.written else " (nothing written)"))
    parts: list[Text | Table] = [Text(head)]
    parts += [Text(f"note: {n}") for n in rep.notes]
    if rep.mutants:
        t = Table(title="program mutants", title_justify="left")
        for col in ("mutant", "change", "status", "wrong on", "recorded before"):
            t.add_column(col, justify="right" if col == "wrong on" else "left")
        for m in rep.mutants:
            t.add_row(*(Text(x) for x in (
                m.label, m.description, m.status,
                str(m.wrong_inputs) if m.status == "wrong" else "",
                ("yes" if m.recorded_before else "no") if m.status == "wrong" else "")))
        parts.append(t)
    if rep.dropped:
        parts.append(_counts("differing outputs not kept, per reason", rep.dropped, "reason"))
    return Group(*parts)
