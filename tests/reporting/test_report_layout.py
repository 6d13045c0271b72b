"""The HTML report's layout in Debian's chromium at 1280 and 1920 px: what a reader sees.

A study built by hand to stress it: four approaches with long names (two of them a writer's
numbered samples, two one spec per task), eight tasks with four long tags each, VR measured.
Before: two chart titles were cut at both ends, the summary table needed a horizontal scroll
bar, the tag labels (turned 25 degrees) ran into each other, and the pass@k small multiples of
the one-sample approaches were empty axes with no word why."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from adequacy.examples import bundled_folder

from .conftest import full, spec_report
from .test_report_browser import browser  # noqa: F401  (module fixture)
from .test_report_cli import adequacy

TAGS = ["arrays-and-sequences", "integer-arithmetic", "searching", "sorting-and-order",
        "string-manipulation", "number-theory", "recursion-free", "verina_basic",
        "verina_advanced", "loops", "two-pointers", "dynamic-programming"]
APPROACHES = [("dspy", "fs-cot", "openai/gpt-4o-mini-2024-07-18", 3),
              ("dspy", "zs", "anthropic/claude-3-5-sonnet-20241022", 2),
              ("templates", None, None, 1), ("houdini", None, None, 1)]


def _study(root: Path, approaches: list[tuple[str, str | None, str | None, int]],
           numbered: bool = True) -> Path:
    tasks = []
    for i in range(8):
        d = root / "tasks" / f"task_{i}"
        shutil.copytree(bundled_folder("verus") / "euclid_mod", d)
        toml = d / "task.toml"
        text = re.sub(r'^id = ".*"$', f'id = "task_{i}"', toml.read_text(), count=1, flags=re.M)
        text = re.sub(r"^tags = \[.*\]$", "tags = " + json.dumps(
            [TAGS[(i + j) % len(TAGS)] for j in range(4)]), text, count=1, flags=re.M)
        toml.write_text(text)
        tasks.append(d)
    out = root / "results.jsonl"
    with out.open("w") as f:
        for w, fam, model, k in approaches:
            for ti, d in enumerate(tasks):
                for s in range(k):
                    ok = (ti + s + len(w)) % 3 == 0
                    rep = spec_report(f"task_{ti}", f"{w}-{s}.rs", full(ok),
                                      key=f"{w}{fam}{model}/{ti}/{s}")
                    rep = rep.model_copy(update={"task_path": str(d)})
                    prod: dict[str, Any] = {"adequacy": "0.1.0", "command": "run",
                                            "writer": w, "family": fam, "model": model}
                    if k > 1 and numbered:
                        prod["sample"] = s
                    f.write(json.dumps({"schema": 4, "created": None, "producer": prod,
                                        "report": json.loads(rep.model_dump_json()),
                                        "extra": {"verified": ok or s == 1}}) + "\n")
    return out


def _disjoint(rects: list[dict[str, float]]) -> list[tuple[int, int]]:
    """Pairs of rectangles that overlap (by more than half a pixel each way)."""
    bad = []
    for i, a in enumerate(rects):
        for j, b in enumerate(rects[:i]):
            if (min(a["right"], b["right"]) - max(a["left"], b["left"]) > 0.5 and
                    min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0.5):
                bad.append((j, i))
    return bad


RECTS = """sel => Array.from(document.querySelectorAll(sel)).map(e => {
    const r = e.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, text: e.textContent}; })"""

TITLES_INSIDE = """() => Array.from(document.querySelectorAll('svg.chart')).flatMap(svg => {
    const vb = svg.viewBox.baseVal;
    return Array.from(svg.querySelectorAll('.ctitle, .ptitle')).map(t => {
        const b = t.getBBox();
        return [t.textContent, b.x >= -0.5 && b.x + b.width <= vb.width + 0.5]; }); })"""


@pytest.mark.slow
@pytest.mark.parametrize("width", [1280, 1920])
def test_report_reads_at_common_widths(browser: Any, tmp_path: Path, width: int  # noqa: F811
                                       ) -> None:
    results = _study(tmp_path, APPROACHES)
    html = tmp_path / "report.html"
    proc = adequacy("report", results, "-o", html)
    assert proc.returncode == 0, proc.stderr
    page = browser.new_page(viewport={"width": width, "height": 1200})
    page.goto(html.as_uri())

    # no horizontal scrolling: the page, the summary table, any chart
    assert page.evaluate("() => document.documentElement.scrollWidth <= "
                         "document.documentElement.clientWidth")
    box = page.evaluate("""() => { const s = document.querySelector('#summary-table')
        .parentElement; return [s.scrollWidth, s.clientWidth]; }""")
    assert box[0] <= box[1], f"the summary table scrolls: {box}"
    figures = page.evaluate("""() => Array.from(document.querySelectorAll('figure')).map(
        f => [f.id, f.scrollWidth <= f.clientWidth])""")
    assert all(ok for _, ok in figures), figures

    # every chart's and panel's title inside its chart; panel titles never overlap
    titles = page.evaluate(TITLES_INSIDE)
    assert titles and all(ok for _, ok in titles), [t for t, ok in titles if not ok]
    for chart in ("passk", "harness"):
        rects = page.evaluate(RECTS, f"#chart-{chart} .ptitle")
        assert rects and not _disjoint(rects), (chart, rects)

    # tag labels (and every label of the sideways charts) never run into each other
    for chart in ("tags", "vr", "outcomes"):
        rects = page.evaluate(RECTS, f"#chart-{chart} text.tick")
        assert rects and not _disjoint(rects), (chart, _disjoint(rects))
    tag_labels = [r["text"] for r in page.evaluate(RECTS, "#chart-tags text.tick")]
    used = {TAGS[(i + j) % len(TAGS)] for i in range(8) for j in range(4)}
    assert all(any(t in label for label in tag_labels) for t in used), tag_labels

    # pass@k: a panel per approach with samples, a note for the others, no empty axes
    panels = page.locator("#chart-passk .ptitle").all_text_contents()
    assert len(panels) == 2 and all(p.startswith("dspy-") for p in panels), panels
    assert page.locator("#chart-passk path.mark").count() == 4  # pass@k and pass^k each
    note = page.locator("#chart-passk .note").inner_text()
    assert "templates (no sample index)" in note and "houdini (no sample index)" in note

    # the cells' legend is on the page
    assert "(n?): n of them undecided" in page.locator("#cell-legend").inner_text()


@pytest.mark.slow
def test_a_study_without_samples_gets_a_note_not_pass_k_axes(browser: Any,  # noqa: F811
                                                             tmp_path: Path) -> None:
    # several specs per task, none numbered (a folder of gold and flawed specs)
    results = _study(tmp_path, APPROACHES[:2], numbered=False)
    html = tmp_path / "report.html"
    assert adequacy("report", results, "-o", html).returncode == 0
    page = browser.new_page(viewport={"width": 1280, "height": 1200})
    page.goto(html.as_uri())
    assert page.locator("#chart-passk svg").count() == 0
    note = page.locator("#chart-passk .note").inner_text()
    assert "no sample index" in note
