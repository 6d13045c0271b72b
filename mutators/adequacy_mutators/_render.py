"""Rich tables of a ``MutateReport`` (the CLI prints them; the library never imports the CLI)."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ._task import MutateReport

__all__ = ["report_renderable"]


def _counts(title: str, counts: dict[str, int], head: str) -> Table:
    t = Table(title=title, title_justify="left")
    t.add_column(head)
    t.add_column("cases", justify="right")
    for k, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        t.add_row(k, str(n))
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
