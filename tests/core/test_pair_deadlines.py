"""Every wait of a batch has a deadline: a pair stuck in an engine is killed and recorded as an
error naming the engine, and the pool's workers start clean (no thread, lock or JVM pipe of the
parent's), so a study whose writers ran an engine first does not hang."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from adequacy.batch.pair_pool import phase_budget, start_method
from adequacy.batch.pool import BatchOptions, Job, run_batch
from adequacy.examples import bundled_folder
from adequacy.extensions.backend import Limits
from adequacy.scoring.options import ScoreOptions

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
REPO = Path(__file__).resolve().parents[2]


def _toy(tmp_path: Path, specs: dict[str, str]) -> list[Job]:
    task = tmp_path / "toy_succ"
    shutil.copytree(FIXTURES / "toy_task", task)
    (task / "specs").mkdir()
    jobs = []
    for name, text in specs.items():
        (task / "specs" / name).write_text(text)
        jobs.append(Job(task=str(task), spec=str(task / "specs" / name)))
    return jobs


def test_a_pair_stuck_in_an_engine_is_an_error_naming_it(tmp_path: Path, toy: None) -> None:
    jobs = _toy(tmp_path, {"stuck.toy": "sleep: 600\npre: x >= 0\n",
                           "fine.toy": "pre: x >= 0\npost: result == x + 1\n"})
    opts = BatchOptions(score=ScoreOptions(limits=Limits(spec_seconds=1.0)), grace_seconds=2.0)
    t0 = time.monotonic()
    s = run_batch(jobs, tmp_path / "r.jsonl", opts, workers=2, progress=False)
    took = time.monotonic() - t0
    assert took < 60, f"the stuck pair was not stopped ({took:.0f}s)"
    stuck, fine = s.reports
    assert stuck.status == "error" and stuck.error is not None
    assert "engine exact did not finish within 3s" in stuck.error
    assert fine.status == "scored" and fine.passed_all  # the other pair of the pool is kept


def test_workers_start_clean_by_default(toy: None) -> None:
    method, recipe = start_method()
    assert method == "spawn" and recipe is not None
    mods = [m for m, _ in recipe.modules]
    # the toy language, beside spec-adequacy's own extensions that add no language
    assert mods[-1] == "adequacy_toy.plugin" and "adequacy_mutators.plugin" in mods
    assert not any(m.startswith(("adequacy_verus", "adequacy_openjml", "adequacy_python"))
                   for m in mods)


def test_phase_budgets() -> None:
    assert phase_budget("front end", 300, 60) == 60
    assert phase_budget("rac", 300, 60) == phase_budget("verify", 300, 60) == 360


def _rac_ready() -> bool:
    from adequacy.extensions.registry import registry
    b = registry().backends.get("openjml")
    return b is not None and any(i.name == "rac" and i.available for _, i in registry().engine_infos(b))


@pytest.mark.slow
@pytest.mark.requires("javac")
def test_a_jml_study_with_a_writer_and_a_fresh_cache_finishes(tmp_path: Path) -> None:
    """The writers of a study run rac in the parent (templates check their clauses) before
    the pool starts; a forked worker inherited rac's thread pool without its thread and
    waited for it forever, printing nothing after the writing line."""
    if not _rac_ready():
        pytest.skip("rac is not set up (adequacy setup)")
    study = tmp_path / "s.toml"
    study.write_text(f"""name = "one-jml"
tasks = ["{bundled_folder('jml') / 'abs_value'}"]
results = "out/results.jsonl"
out = "out"
cache = "cache.sqlite"

[[specs]]
name = "templates"
writer = "templates"

[scoring.limits]
spec_seconds = 60
""")
    env = dict(os.environ, ADEQUACY_CACHE=str(tmp_path / "engines-cache"))
    env.pop("ADEQUACY_POOL_START", None)
    proc = subprocess.run([sys.executable, "-m", "adequacy", "experiment", "run", str(study)],
                          capture_output=True, text=True, timeout=150, env=env)
    assert proc.returncode in (0, 1), proc.stderr
    assert "1 pairs: 1 scored now" in proc.stdout + proc.stderr
    assert "errors 0" in proc.stdout + proc.stderr
