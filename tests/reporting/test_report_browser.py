"""The HTML report in a real browser: Debian's chromium, headless, driven by Playwright.

Chromium comes from the system package (CI installs it; nothing is downloaded by a library).
Outside CI the test skips when chromium is missing; in CI a missing browser fails it.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from adequacy.examples import bundled_folder

from .test_report_cli import REPO, adequacy, batch  # noqa: F401  (module fixture)

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser():  # type: ignore[no-untyped-def]
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail("CI must install Debian's chromium (apt-get install -y chromium)")
        pytest.skip("Debian's chromium is not installed (apt-get install -y chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


@pytest.mark.slow
def test_report_renders_without_errors(browser, batch: Path, tmp_path: Path) -> None:  # noqa: F811
    html = tmp_path / "report.html"
    assert adequacy("report", batch, "-o", html).returncode == 0
    page = browser.new_page(viewport={"width": 1280, "height": 1400})
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(html.as_uri())
    assert problems == []
    assert all(u.startswith("file://") for u in requests), requests
    # every chart drew marks with a visible area
    drawn = page.evaluate("""() => Array.from(document.querySelectorAll('svg.chart')).map(svg =>
        Array.from(svg.querySelectorAll('.mark')).filter(m => {
            const b = m.getBBox(); return b.width > 0 && b.height > 0; }).length)""")
    assert len(drawn) >= 4 and all(n > 0 for n in drawn), drawn
    # sorting works without a server: sort the spec table by outcome, both ways
    header = page.locator("#spec-table th", has_text="outcome")
    header.click()
    first = page.locator("#spec-table tbody tr td:nth-child(4)").first.inner_text()
    header.click()
    last_first = page.locator("#spec-table tbody tr td:nth-child(4)").first.inner_text()
    assert (first, last_first) == ("failed on completeness", "passed")
    # a spec's drill-down page opens from its link
    link = page.locator("#spec-table a", has_text="flawed_post_too_weak.rs").first
    target = link.get_attribute("href")
    link.click()
    assert page.locator(str(target)).is_visible()
    assert page.locator(f"{target} table tbody tr").count() >= 1
    shot = tmp_path / "report.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 20_000
    assert problems == []


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory, batch: Path) -> list[Path]:  # noqa: F811
    """The bundled Verus examples (interp) and JML examples (rac), as docs/report.md shows."""
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed (the JML examples need it)")
    out = tmp_path_factory.mktemp("jml") / "jml-rac.jsonl"
    proc = adequacy("run", "--tasks", bundled_folder("jml"), "--engine", "rac", "-o", out,
                    "--no-progress", "--quiet")
    assert out.exists(), proc.stderr
    verus = out.parent / "verus-interp.jsonl"
    shutil.copy(batch, verus)
    return [verus, out]


@pytest.mark.slow
def test_report_shows_intervals_spec_text_and_small_multiples(browser, both: list[Path],
                                                              tmp_path: Path) -> None:
    html = tmp_path / "report.html"
    proc = adequacy("report", *(p.name for p in both), "-o", html, cwd=both[0].parent)
    assert proc.returncode == 0, proc.stderr
    page = browser.new_page(viewport={"width": 1280, "height": 1700})
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(html.as_uri())
    # error bars drawn with a visible height in the bucket chart; ± in the summary table
    bars = page.evaluate("""() => Array.from(document.querySelectorAll(
        '#chart-buckets .errbar')).filter(e => e.getBBox().height > 0).length""")
    assert bars >= 4, bars
    assert "±" in page.locator("#summary-table tbody").inner_text()
    assert page.locator("#leaderboard-table tbody tr").count() == 2
    # Harness@t: one small panel per approach, not 4 lines in one plot
    assert page.locator("#chart-harness .ptitle").all_text_contents() == ["verus-interp",
                                                                         "jml-rac"]
    if os.environ.get("ADEQUACY_UPDATE_DOCS") == "1":
        page.screenshot(path=str(REPO / "docs" / "report-example.png"),
                        clip={"x": 0, "y": 0, "width": 1280, "height": 1280})
    # a spec page: the spec's text, highlighted, the line its failing case names marked
    link = page.locator("#spec-table a", has_text="flawed_null_undefined.java").first
    target = str(link.get_attribute("href"))
    link.click()
    spec = page.locator(f"{target} .src")
    assert spec.is_visible() and "requires a.length > 0" in spec.inner_text()
    marked = page.locator(f"{target} .src .hll")
    assert marked.count() == 1 and "requires" in marked.inner_text()
    if os.environ.get("ADEQUACY_UPDATE_DOCS") == "1":
        page.locator(target).screenshot(path=str(REPO / "docs" / "report-spec-page.png"))
    shot = tmp_path / "page.png"
    page.locator(target).screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    assert problems == []
