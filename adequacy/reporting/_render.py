"""Output formats of a study: one self-contained HTML file, markdown, JSON."""

from __future__ import annotations

import datetime as _dt
from importlib import resources

import jinja2

from adequacy.reporting._aggregate import VR_THRESHOLD, ApproachStats
from adequacy.reporting._charts import charts
from adequacy.reporting._outcomes import OUTCOME_HELP, Outcome
from adequacy.reporting._study import Study
from adequacy.verdicts import BUCKETS


def _pct(v: float | None) -> str:
    return "n/a" if v is None else f"{v * 100:.1f}%"


def summary_rows(study: Study) -> list[dict[str, str]]:
    """The per-approach summary, as text cells shared by HTML and markdown."""
    key = f"{VR_THRESHOLD:g}"
    rows = []
    for a in study.approaches:
        s = a.summary
        kmax = max(s.pass_at_k) if s.pass_at_k else None
        row = {"approach": a.name, "specs": str(s.specs), "tasks": str(s.tasks),
               "Pass@1": _pct(s.pass_at_1),
               "pass@k": "n/a" if kmax is None or kmax == 1 else
               f"{_pct(s.pass_at_k[kmax])} (k={kmax})",
               "pass^k": "n/a" if kmax is None or kmax == 1 else
               f"{_pct(s.pass_hat_k[kmax])} (k={kmax})"}
        for b in BUCKETS:
            row[b.harness_name] = _pct(s.bucket_means.get(b.value))
        row[f"Harness@{key}"] = _pct(a.harness_at.get(key))
        row[f"PostHarness@{key}"] = _pct(a.post_harness_at.get(key))
        row["VR"] = "n/a" if a.vr is None else f"{_pct(a.vr)} of {a.vr_measured}"
        row["invalid"] = str(s.invalid)
        rows.append(row)
    return rows


def _env() -> jinja2.Environment:
    loader = jinja2.FunctionLoader(
        lambda name: resources.files("adequacy.reporting").joinpath("templates", name)
        .read_text(encoding="utf-8"))
    return jinja2.Environment(loader=loader, autoescape=True, trim_blocks=True,
                              lstrip_blocks=True)


def render_html(study: Study, title: str = "spec-adequacy report") -> str:
    return _env().get_template("report.html.j2").render(
        title=title, study=study, summary=summary_rows(study), charts=charts(study),
        buckets=[b.value for b in BUCKETS], outcomes=[(o.value, OUTCOME_HELP[o]) for o in Outcome],
        generated=_dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        scoring="strict (unknown counts as failed)" if study.strict
        else "lenient (unknown cases left out)")


def render_markdown(study: Study) -> str:
    rows = summary_rows(study)
    lines = ["# spec-adequacy report", "",
             f"Results: {', '.join(study.files)}. Scoring: "
             f"{'strict' if study.strict else 'lenient'}.", ""]
    lines += _md_table(rows)
    lines += ["", "## Outcome categories", ""]
    lines += _md_table([{"approach": a.name, **{o.value: str(a.outcomes.get(o.value, 0))
                                                for o in Outcome}} for a in study.approaches])
    tags = sorted({t for a in study.approaches for t in a.by_tag})
    if tags:
        lines += ["", "## Pass@1 by tag", ""]
        lines += _md_table([{"tag": t, **{a.name: _pct(a.by_tag.get(t))
                                          for a in study.approaches}} for t in tags])
    lines += ["", "## Specs", ""]
    lines += _md_table([{"task": r.task_id, "approach": r.approach, "spec": r.spec,
                         "outcome": r.outcome, **r.buckets} for r in study.rows])
    return "\n".join(lines) + "\n"


def _md_table(rows: list[dict[str, str]]) -> list[str]:
    if not rows:
        return ["(nothing)"]
    cols = list(rows[0])
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for r in rows:
        out.append("| " + " | ".join(str(r.get(c, "")).replace("|", "\\|") for c in cols) + " |")
    return out


def render_json(study: Study) -> str:
    return study.model_dump_json(indent=2)


__all__ = ["ApproachStats", "render_html", "render_json", "render_markdown", "summary_rows"]
