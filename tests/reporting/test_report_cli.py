"""``adequacy report`` and ``compare`` on a real batch of the bundled Verus examples."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from adequacy.examples import bundled_folder

REPO = Path(__file__).resolve().parents[2]


def adequacy(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "adequacy", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, timeout=600)


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every bundled Verus spec scored by interp: golds pass, each flawed spec fails its bucket."""
    out = tmp_path_factory.mktemp("batch") / "results.jsonl"
    proc = adequacy("run", "--tasks", bundled_folder("verus"), "--spec-glob", "specs/*.rs",
                    "--engine", "interp", "-o", out, "--no-progress", "--no-cache", "--quiet")
    assert out.exists(), proc.stderr
    return out


@pytest.mark.slow
def test_html_is_self_contained_and_drills_down(batch: Path, tmp_path: Path) -> None:
    html_path = tmp_path / "report.html"
    proc = adequacy("report", batch, "-o", html_path)
    assert proc.returncode == 0, proc.stderr
    html = html_path.read_text()
    # nothing fetched at view time: no external script, style, font or image
    assert not re.search(r"<(script|link|img)[^>]+(src|href)=", html)
    assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", html)
    assert html.count('<svg class="chart"') >= 4
    # one spec per task file, no writer's samples: no pass@k axes, a note saying why
    assert 'id="chart-passk"><figcaption class="note">No pass@k curve' in html
    # the too-weak first-occurrence spec fails post_sound; its page lists a failing case
    row = re.search(r'<a href="#(spec-\d+)">flawed_post_too_weak\.rs</a>', html)
    assert row is not None
    page = html[html.index(f'id="{row.group(1)}"'):]
    page = page[:page.index("</section>")]
    assert "failed on soundness" in page and "post_sound" in page
    gold = re.findall(r'gold\.rs</a></td>\s*<td class="outcome-passed">passed', html)
    assert len(gold) == 7  # every bundled gold spec passes


@pytest.mark.slow
def test_markdown_and_json(batch: Path) -> None:
    md = adequacy("report", batch, "--format", "md")
    assert md.returncode == 0 and md.stdout.startswith("# spec-adequacy report")
    js = adequacy("report", batch, "--format", "json")
    study = json.loads(js.stdout)
    rows = study["rows"]
    assert len(rows) == sum(1 for _ in (bundled_folder("verus")).glob("*/specs/*.rs"))
    by_spec = {(r["task_id"], r["spec"]): r["outcome"] for r in rows}
    assert by_spec[("binary_search_first", "flawed_pre_too_strong.rs")] == "failed on completeness"
    assert by_spec[("binary_search_first", "flawed_pre_too_weak.rs")] == "failed on soundness"


@pytest.mark.slow
def test_compare_two_result_sets(batch: Path, tmp_path: Path) -> None:
    # B keeps only the gold specs of A: every task's pass rate rises to 1
    lines = [ln for ln in batch.read_text().splitlines() if '"passed_all":true' in ln]
    b = tmp_path / "gold_only.jsonl"
    b.write_text("\n".join(lines) + "\n")
    proc = adequacy("compare", batch, b, "--json", "--resamples", "500")
    assert proc.returncode == 0, proc.stderr
    cmp = json.loads(proc.stdout)
    p1 = cmp["deltas"][0]
    assert p1["tasks"] == 7 and p1["worse"] == 0 and p1["mean_diff"] > 0
    text = adequacy("compare", batch, b, "--resamples", "500")
    assert "better in B" in text.stdout


@pytest.mark.parametrize("args", [["report", "missing.jsonl"], ["compare", "a.jsonl", "b.jsonl"]])
def test_missing_files_are_one_line_errors(args: list[str], tmp_path: Path) -> None:
    proc = adequacy(*args, cwd=tmp_path)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "cannot read results file" in proc.stderr
