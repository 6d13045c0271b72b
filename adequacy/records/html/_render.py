"""Output formats of a study: one self-contained HTML file, markdown, JSON."""

from __future__ import annotations

import datetime as _dt
import re
from importlib import resources

import jinja2
from markupsafe import Markup

from adequacy.extensions.registry import registry
from adequacy.model.verdicts import BUCKETS
from adequacy.records.html._aggregate import ApproachStats
from adequacy.records.html._charts import charts
from adequacy.records.html._outcomes import OUTCOME_HELP, SpecOutcome
from adequacy.records.html._qa import BenchmarkQA
from adequacy.records.html._spectext import css
from adequacy.records.html._study import StudyView, trust_notes
from adequacy.records.tables import CELL_LEGEND


def _pct(v: float | None) -> str:
    return "n/a" if v is None else f"{v * 100:.1f}%"


def _pm(a: ApproachStats, figure: str, v: float | None) -> str:
    """A figure and its 95% interval as ``50.0% ±12.5`` (half the interval's width, in
    points; the exact bounds are in ``--format json``). No interval: the figure alone."""
    if v is None:
        return "n/a"
    iv = a.intervals.get(figure)
    return _pct(v) if iv is None else f"{_pct(v)} ±{iv.half_width * 100:.1f}"


def _trust_cells(a: ApproachStats) -> dict[str, str]:
    """Whether the approach's records are this grader's own, and how they were scored (one
    cell: a summary row must fit the page beside the figures)."""
    n = a.summary.specs
    scoring = ("strict" if not a.lenient else "LENIENT" if a.lenient == n
               else f"{a.lenient} of {n} LENIENT")
    return {"records": f"{n - a.unverified} of {n} (verified; {scoring})"}


def _k_cells(a: ApproachStats) -> dict[str, str]:
    s = a.summary
    kmax = max(s.pass_at_k) if s.pass_at_k else None
    if kmax is None or kmax == 1:
        why = ("no sample index" if s.unsampled == s.specs else "1 sample per task")
        return {"pass@k": f"n/a ({why})", "pass^k": "n/a"}
    return {"pass@k": f"{_pm(a, f'pass@{kmax}', s.pass_at_k[kmax])} ({s.grouped_short()})",
            "pass^k": f"{_pm(a, f'pass^{kmax}', s.pass_hat_k[kmax])} (k={kmax})"}


def summary_rows(study: StudyView) -> list[dict[str, str]]:
    """The per-approach summary, as text cells shared by HTML and markdown."""
    key = f"{study.harness_t:g}"
    kills = _program_kills(study)
    rows = []
    for a in study.approaches:
        s = a.summary
        row = {"approach": a.name, "specs (tasks)": f"{s.specs} ({s.tasks})",
               "Pass@1": _pm(a, "Pass@1", s.pass_at_1), **_k_cells(a)}
        for b in BUCKETS:
            row[registry().metric_of(b).label] = _pm(a, b.value, s.bucket_means.get(b.value))
        row[f"Harness@{key}"] = _pm(a, f"Harness@{key}", a.harness_at.get(key))
        row[f"PostHarness@{key}"] = _pm(a, f"PostHarness@{key}", a.post_harness_at.get(key))
        row["VR"] = "n/a" if a.vr is None else f"{_pm(a, 'VR', a.vr)} (of {a.vr_measured})"
        if any(x.determined is not None or x.pre_measured for x in study.approaches):
            row.update(_solver_cells(a))
        if kills:
            row["program kills"] = kills.get(a.name, "n/a")
        row["invalid"] = str(s.invalid)
        row.update(_trust_cells(a))
        rows.append(row)
    return rows


def _program_kills(study: StudyView) -> dict[str, str]:
    """Per approach, the mean program-mutant kill ratio over its specs whose task's cases name
    wrong programs (empty when no spec's do)."""
    by: dict[str, list[float]] = {}
    for r in study.rows:
        if r.program_ratio is not None:
            by.setdefault(r.approach, []).append(r.program_ratio)
    return {a: f"{_pct(sum(v) / len(v))} ({len(v)} specs)" for a, v in by.items()}


def _solver_cells(a: ApproachStats) -> dict[str, str]:
    """The solver's figures (``--symbolic``): beside the buckets, where any record has them."""
    det = ("n/a" if a.determined is None else
           f"{_pct(a.determined)} of {a.determined_inputs} inputs"
           + (f" ({a.second_outputs} second outputs)" if a.second_outputs else ""))
    pre = ("n/a" if a.pre_admits is None else
           f"{_pct(a.pre_admits)} of {a.pre_measured} specs")
    return {"post determines output": det, "pre admits beyond gold": pre}


def leaderboard_rows(study: StudyView) -> list[dict[str, str]]:
    """One row per approach, best Pass@1 first: who wrote the specs (as recorded), Pass@1,
    pass@k, the four metrics with intervals, VR where any approach measured it, what writing
    the specs cost and scoring them took."""
    ranked = sorted(study.approaches, key=lambda a: -(a.summary.pass_at_1 or 0.0))
    rows = []
    for i, a in enumerate(ranked, 1):
        s = a.summary
        row = {"#": str(i), "approach": a.name, "writer": a.writer or "-",
               "model": a.model or "-", "family": a.family or "-",
               "Pass@1": _pm(a, "Pass@1", s.pass_at_1), "pass@k": _k_cells(a)["pass@k"]}
        for b in BUCKETS:
            row[registry().metric_of(b).label] = _pm(a, b.value, s.bucket_means.get(b.value))
        if any(x.vr is not None for x in ranked):  # measured by some approach
            row["VR"] = "n/a" if a.vr is None else f"{_pm(a, 'VR', a.vr)} of {a.vr_measured}"
        if any(x.determined is not None or x.pre_measured for x in ranked):
            row.update(_solver_cells(a))
        row["cost"] = ("n/a" if a.cost is None else
                       f"${a.cost:.4f}" + ("" if a.cost_measured == s.specs
                                           else f" ({a.cost_measured} of {s.specs} specs)"))
        row["time"] = f"{a.seconds:.1f} s"
        row.update(_trust_cells(a))
        rows.append(row)
    return rows


_CELL = re.compile(r"^(?P<value>[^±(]*?)\s*(?P<pm>±\S+)?\s*(?P<note>\(.*\))?$")


def cell_html(text: str) -> Markup:
    """A figure cell as the tables print it (``62.5% ±10.0 (k=2, 40 tasks x 2 samples)``),
    laid out for a narrow column: the value, its interval and its note each on a line of
    their own, the note in small type. The same text, so nothing is lost."""
    m = _CELL.match(text)
    if m is None or not (m.group("pm") or m.group("note")):
        return Markup.escape(text)
    out = Markup.escape(m.group("value"))
    if m.group("pm"):
        out += Markup('<br><span class="pm">') + m.group("pm") + Markup("</span>")
    if m.group("note"):
        out += Markup('<span class="sub">') + m.group("note") + Markup("</span>")
    return out


def head_html(text: str) -> Markup:
    """A column header that may break before ``@`` (``PostHarness@0.75``) in a narrow column."""
    return Markup("<wbr>@").join(Markup.escape(p) for p in text.split("@"))


def _env() -> jinja2.Environment:
    loader = jinja2.FunctionLoader(
        lambda name: resources.files("adequacy.records.html").joinpath("templates", name)
        .read_text(encoding="utf-8"))
    env = jinja2.Environment(loader=loader, autoescape=True, trim_blocks=True,
                             lstrip_blocks=True)
    env.filters["cell"] = cell_html
    env.filters["head"] = head_html
    return env


def _scoring(study: StudyView) -> str:
    if study.strict:
        return "strict (unknown counts as failed)"
    some = "" if study.lenient == len(study.rows) else f" for {study.lenient} of {len(study.rows)} specs"
    return f"LENIENT{some} (unknown cases left out)"


def metric_legend() -> str:
    """``PreCorr/PreComp/PostCorr/PostComp are the Spec-Harness names of the buckets
    pre_complete, pre_sound, post_complete and post_sound``, from the registered metrics."""
    ms = [registry().metric_of(b) for b in BUCKETS]
    names = [b.value for b in BUCKETS]
    return (f"{'/'.join(m.label for m in ms)} are the Spec-Harness names of the buckets "
            f"{', '.join(names[:-1])} and {names[-1]}")


def render_html(study: StudyView, title: str = "spec-adequacy report") -> str:
    return _env().get_template("report.html.j2").render(
        title=title, study=study, summary=summary_rows(study), charts=charts(study),
        leaderboard=leaderboard_rows(study), source_css=css(), cell_legend=CELL_LEGEND,
        buckets=[b.value for b in BUCKETS], metric_names=metric_legend(),
        outcomes=[(o.value, OUTCOME_HELP[o]) for o in SpecOutcome],
        generated=_dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        scoring=_scoring(study), notes=trust_notes(study), qa_note=QA_NOTE,
        qa_summary=qa_summary_rows(study.qa) if study.qa is not None else [],
        qa_tasks=qa_task_rows(study.qa) if study.qa is not None else [])


def render_markdown(study: StudyView) -> str:
    rows = summary_rows(study)
    lines = ["# spec-adequacy report", "",
             f"Results: {', '.join(study.files)}. Scoring: "
             f"{_scoring(study)}. "
             f"Verified records (sealed by this installation's grader): {study.verified} of "
             f"{study.verified + len(study.unverified)}. ± is half the width of a bootstrap "
             "95% interval over tasks (1000 resamples, seed 0); pass@k and pass^k count only "
             "specs whose record carries a writer's sample index, over one task set at every "
             "k (tasks with fewer samples left out and counted).", ""]
    lines += [f"> **{n}**" for n in trust_notes(study)] + ([""] if trust_notes(study) else [])
    lines += _md_table(rows)
    lines += ["", "## Leaderboard", ""]
    lines += _md_table(leaderboard_rows(study))
    lines += ["", "## SpecOutcome categories", ""]
    lines += _md_table([{"approach": a.name, **{o.value: str(a.outcomes.get(o.value, 0))
                                                for o in SpecOutcome}} for a in study.approaches])
    tags = sorted({t for a in study.approaches for t in a.by_tag})
    if tags:
        lines += ["", "## Pass@1 by tag", ""]
        lines += _md_table([{"tag": t, **{a.name: _pct(a.by_tag.get(t))
                                          for a in study.approaches}} for t in tags])
    lines += ["", "## Specs", "", CELL_LEGEND + ".", ""]
    solver = any(r.solver for r in study.rows)
    lines += _md_table([{"task": r.task_id, "approach": r.approach, "spec": r.spec,
                         "outcome": r.outcome, **r.buckets,
                         "program mutants": r.program_mutants,
                         "verified": "yes" if r.verified else "NO",
                         "scoring": "strict" if r.strict else "LENIENT",
                         **({"solver": "; ".join(r.solver) or "-"} if solver else {})}
                        for r in study.rows])
    if study.qa is not None:
        lines += ["", "## Benchmark QA: how strong each task's cases are", "", QA_NOTE, ""]
        lines += _md_table(qa_summary_rows(study.qa))
        lines += [""]
        lines += _md_table(qa_task_rows(study.qa))
    return "\n".join(lines) + "\n"


QA_NOTE = ("Spec-mutant strength: the share of the gold spec's one-change mutants (equivalent "
           "ones left out) that the task's cases reject; program-mutant strength: the share of "
           "the reference's wrong mutants whose wrong output the task records. \"after\": once "
           "the cases the mutants found are added (`adequacy task strength --add`). "
           "docs/cases.md says how to read them.")


def _f(v: float | None) -> str:
    return "n/a" if v is None else f"{v:.2f}"


def qa_summary_rows(qa: BenchmarkQA) -> list[dict[str, str]]:
    return [{"measure": m.measure, "tasks": str(m.tasks), "median": _f(m.median),
             "p10": _f(m.p10), "mean": _f(m.mean), "worst tasks": ", ".join(m.worst)}
            for m in qa.summary]


def qa_task_rows(qa: BenchmarkQA) -> list[dict[str, str]]:
    """One row per task, weakest spec-mutant strength first."""
    rows = sorted(qa.rows, key=lambda r: (r.spec is None, r.spec or 0.0, r.task))
    return [{"task": r.task, "spec": _f(r.spec), "spec after": _f(r.spec_after),
             "program": _f(r.program), "program after": _f(r.program_after),
             "spec mutants": str(r.spec_mutants), "killed": str(r.killed),
             "blind spots": str(r.blind_spots),
             "equivalent": ", ".join(f"{n} {k}" for k, n in r.equivalent.items()) or "0",
             "unknown": str(r.unknown), "invalid": str(r.invalid),
             "wrong programs": f"{r.wrong_programs} of {r.program_mutants}", "note": r.note}
            for r in rows]


def _md_table(rows: list[dict[str, str]]) -> list[str]:
    if not rows:
        return ["(nothing)"]
    cols = list(rows[0])
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for r in rows:
        out.append("| " + " | ".join(str(r.get(c, "")).replace("|", "\\|") for c in cols) + " |")
    return out


def render_json(study: StudyView) -> str:
    """The study as data; each spec's highlighted HTML is left out (its marked lines stay)."""
    return study.model_dump_json(indent=2, exclude={"rows": {"__all__": {"text": {"html"}}}})


__all__ = ["ApproachStats", "leaderboard_rows", "render_html", "render_json", "render_markdown",
           "summary_rows"]
