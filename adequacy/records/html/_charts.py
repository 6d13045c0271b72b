"""Which charts a study gets, built from its figures (empty figures draw no chart)."""

from __future__ import annotations

from adequacy.model.verdicts import BUCKETS
from adequacy.records.html import _svg
from adequacy.records.html._aggregate import VR_THRESHOLD, ApproachStats
from adequacy.records.html._outcomes import Outcome
from adequacy.records.html._study import Study


def charts(study: Study) -> list[tuple[str, str]]:
    """(anchor, svg) pairs in reading order."""
    aps = study.approaches
    out: list[tuple[str, str]] = []
    cats = [f"{b.value} ({b.harness_name})" for b in BUCKETS]
    out.append(("buckets", _svg.bars(
        "Mean pass fraction per bucket (95% CI over tasks)", cats,
        {a.name: [a.summary.bucket_means.get(b.value) for b in BUCKETS] for a in aps},
        errors={a.name: [_ci(a, b.value) for b in BUCKETS] for a in aps})))
    ks = sorted({k for a in aps for k in a.ks})
    if len(ks) > 1:
        panels = {a.name: {"pass@k": [a.summary.pass_at_k.get(k) for k in ks],
                           "pass^k": [a.summary.pass_hat_k.get(k) for k in ks]} for a in aps}
        errs = {a.name: {"pass@k": [_ci(a, f"pass@{k}") for k in ks],
                         "pass^k": [_ci(a, f"pass^{k}") for k in ks]} for a in aps}
        out.append(("passk", _svg.small_multiples(
            "Pass@k and pass^k (one task set per approach; 95% CI)", [float(k) for k in ks],
            panels, "k (samples per task)", x_is_index=True, errors=errs)))
    ts = [float(t) for t in aps[0].harness_at] if aps else []
    if ts and any(v is not None for a in aps for v in a.harness_at.values()):
        panels = {a.name: {"Harness@t": list(a.harness_at.values()),
                           "PostHarness@t": list(a.post_harness_at.values())} for a in aps}
        out.append(("harness", _svg.small_multiples(
            "Harness@t, PostHarness@t: specs with every metric >= t", ts, panels,
            "threshold t")))
    if any(a.vr is not None for a in aps):
        key = f"{VR_THRESHOLD:g}"
        out.append(("vr", _svg.bars(
            f"Verification rate vs PostHarness@{key}", [a.name for a in aps],
            {"VR (verified)": [a.vr for a in aps],
             f"PostHarness@{key}": [a.post_harness_at.get(key) for a in aps]},
            errors={"VR (verified)": [_ci(a, "VR") for a in aps],
                    f"PostHarness@{key}": [_ci(a, f"PostHarness@{key}") for a in aps]})))
    out.append(("outcomes", _svg.stacked(
        "Outcome categories", [a.name for a in aps],
        {o.value: [a.outcomes.get(o.value, 0) for a in aps] for o in Outcome})))
    tags = sorted({t for a in aps for t in a.by_tag})
    if tags:
        out.append(("tags", _svg.bars("Pass@1 by task tag and difficulty", tags,
                                      {a.name: [a.by_tag.get(t) for t in tags] for a in aps},
                                      show_na=False)))
    return out


def _ci(a: ApproachStats, figure: str) -> tuple[float, float] | None:
    iv = a.intervals.get(figure)
    return None if iv is None else (iv.low, iv.high)
