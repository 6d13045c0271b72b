"""The program-mutant kill ratio beside the buckets (score, run, report) and the benchmark QA
section of ``report --strength`` and ``task audit --strength``.

binary_search_first's reference scans for the first equal element; ``mutate --programs``
makes three wrong programs of it (a return inside the loop, the negated ``if``, ``==`` turned
``!=``), each returning an index whose element is not the target or no index although one
exists. The too-weak spec (it forgets "first") still rejects all three: each wrong output
names an index whose element differs from the target, or None where the target occurs.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from adequacy.examples import bundled_folder
from adequacy.search.strength import MutantResult, StrengthReport

pytestmark = pytest.mark.slow


def adequacy(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "adequacy", *map(str, args)],
                          capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def task(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("t") / "binary_search_first"
    shutil.copytree(bundled_folder("verus") / "binary_search_first", d)
    proc = adequacy("mutate", d, "--programs")
    assert proc.returncode == 0, proc.stderr
    return d


def test_score_and_run_show_the_kill_ratio(task: Path, tmp_path: Path) -> None:
    proc = adequacy("score", task, task / "specs" / "flawed_post_too_weak.rs", "--engine",
                    "interp", "--json")
    rep = json.loads(proc.stdout)
    assert rep["program_mutants"]["mutants"] == 3 and rep["program_mutants"]["killed"] == 3
    plain = adequacy("score", task, task / "specs" / "gold.rs", "--engine", "interp")
    assert "program mutants rejected: 3/3" in plain.stdout
    out = tmp_path / "r.jsonl"
    run = adequacy("run", "--tasks", task, "--engine", "interp", "-o", out, "--no-progress",
                   "--no-cache", "--format", "plain")
    assert "program" in run.stdout and "3/3" in run.stdout


def test_report_has_the_qa_section(task: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    adequacy("run", "--tasks", task, "--engine", "interp", "-o", out, "--no-progress",
             "--no-cache", "--quiet")
    reports = [StrengthReport(task="weak_one", path="/x/weak_one", gold="g", made=10,
                              killed=6, blind_spots=2, closed=2, equivalent={"sampling": 2},
                              mutants=[MutantResult(operator="cmp.weaken", line=1,
                                                    description="< -> <=", status="killed")]),
               StrengthReport(task="strong_one", path="/x/strong_one", gold="g", made=4,
                              killed=4)]
    strength = tmp_path / "s.jsonl"
    strength.write_text("".join(r.model_dump_json() + "\n" for r in reports))
    html = tmp_path / "r.html"
    proc = adequacy("report", out, "--strength", strength, "-o", html)
    assert proc.returncode == 0, proc.stderr
    text = html.read_text()
    assert 'id="qa"' in text and 'id="qa-summary"' in text and 'id="qa-tasks"' in text
    # spec strengths 6/8 = 0.75 and 4/4 = 1.00: median 0.875, the weakest task named first
    qa = text[text.index('id="qa-summary"'):text.index('id="qa-tasks"')]
    assert "<td>spec-mutant strength</td>" in qa and "0.88" in qa and "weak_one, strong_one" in qa
    assert "<th class=\"sortable\">program mutants</th>" in text
    md = adequacy("report", out, "--strength", strength, "--format", "md").stdout
    assert "| spec-mutant strength | 2 | 0.88 | 0.78 |" in md  # p10 of (0.75, 1.0) = 0.775
    assert "| weak_one | 0.75 | 1.00 |" in md
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"task": 1}\n')
    refused = adequacy("report", out, "--strength", bad, "-o", tmp_path / "x.html")
    assert refused.returncode == 2 and "bad.jsonl:1: not a task strength report" in refused.stderr


def test_audit_shows_each_tasks_strength(task: Path, tmp_path: Path) -> None:
    s = tmp_path / "s.jsonl"
    proc = adequacy("task", "strength", task, "--budget", "1", "--out", s, "--engine",
                    "interp", "--no-programs")
    assert proc.returncode == 0, proc.stderr
    audit = adequacy("task", "audit", task, "--strength", s, "--engine", "interp")
    assert "binary_search_first: strength: spec" in audit.stdout
    assert "spec-mutant strength" in audit.stdout and "strength reports found for 1 of 1" \
        in audit.stdout
