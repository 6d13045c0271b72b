"""Which charts a study gets, built from its figures (empty figures draw no chart)."""

from __future__ import annotations

from html import escape

from adequacy.extensions.registry import registry
from adequacy.model.verdicts import BUCKETS
from adequacy.records.html import _svg
from adequacy.records.html._aggregate import ApproachStats
from adequacy.records.html._outcomes import SpecOutcome
from adequacy.records.html._study import StudyView


def charts(study: StudyView) -> list[tuple[str, str]]:
    """(anchor, svg) pairs in reading order."""
    aps = study.approaches
    out: list[tuple[str, str]] = []
    cats = [f"{b.value} ({registry().metric_of(b).label})" for b in BUCKETS]
    out.append(("buckets", _svg.bars(
        "Mean pass fraction per bucket (95% CI over tasks)", cats,
        {a.name: [a.summary.bucket_means.get(b.value) for b in BUCKETS] for a in aps},
        errors={a.name: [_ci(a, b.value) for b in BUCKETS] for a in aps})))
    sampled = [a for a in aps if len(a.ks) > 1]  # an approach with k > 1 to draw
    ks = sorted({k for a in sampled for k in a.ks})
    others = [a for a in aps if a not in sampled]
    note = ("" if not others else
            '<figcaption class="note">No pass@k curve for ' + "; ".join(
                f"{escape(a.name)} ({escape(_no_curve(a))})" for a in others)
            + ": pass@k counts a writer's numbered samples (docs/report.md).</figcaption>")
    if sampled:
        panels = {a.name: {"pass@k": [a.summary.pass_at_k.get(k) for k in ks],
                           "pass^k": [a.summary.pass_hat_k.get(k) for k in ks]}
                  for a in sampled}
        errs = {a.name: {"pass@k": [_ci(a, f"pass@{k}") for k in ks],
                         "pass^k": [_ci(a, f"pass^{k}") for k in ks]} for a in sampled}
        out.append(("passk", _svg.small_multiples(
            "Pass@k and pass^k (one task set per approach; 95% CI)", [float(k) for k in ks],
            panels, "k (samples per task)", x_is_index=True, errors=errs) + note))
    elif any(a.summary.specs > a.summary.tasks for a in aps):
        # several specs per task but no samples: say why there is no curve, not empty axes
        out.append(("passk", note))
    ts = [float(t) for t in aps[0].harness_at] if aps else []
    if ts and any(v is not None for a in aps for v in a.harness_at.values()):
        panels = {a.name: {"Harness@t": list(a.harness_at.values()),
                           "PostHarness@t": list(a.post_harness_at.values())} for a in aps}
        out.append(("harness", _svg.small_multiples(
            "Harness@t, PostHarness@t: specs with every metric >= t", ts, panels,
            "threshold t")))
    if any(a.vr is not None for a in aps):
        key = f"{study.harness_t:g}"
        out.append(("vr", _svg.hbars(
            f"Verification rate vs PostHarness@{key}", [a.name for a in aps],
            {"VR (verified)": [a.vr for a in aps],
             f"PostHarness@{key}": [a.post_harness_at.get(key) for a in aps]},
            errors={"VR (verified)": [_ci(a, "VR") for a in aps],
                    f"PostHarness@{key}": [_ci(a, f"PostHarness@{key}") for a in aps]})))
    out.append(("outcomes", _svg.stacked(
        "SpecOutcome categories", [a.name for a in aps],
        {o.value: [a.outcomes.get(o.value, 0) for a in aps] for o in SpecOutcome})))
    tags = sorted({t for a in aps for t in a.by_tag})
    if tags:
        out.append(("tags", _svg.hbars("Pass@1 by task tag and difficulty", tags,
                                       {a.name: [a.by_tag.get(t) for t in tags]
                                        for a in aps})))
    return out


def _no_curve(a: ApproachStats) -> str:
    """Why an approach has no pass@k curve, in a few words."""
    s = a.summary
    if s.unsampled == s.specs:
        return "no sample index"
    return "1 sample per task" if s.pass_at_k else "too few samples per task"


def _ci(a: ApproachStats, figure: str) -> tuple[float, float] | None:
    iv = a.intervals.get(figure)
    return None if iv is None else (iv.low, iv.high)
