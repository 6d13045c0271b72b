"""Red-team cases of ``adequacy experiment run``'s reuse of a writer's folder: a jobs file
edited by hand (pointing at a task's gold spec, under the writer's name) is not credited to the
writer, and a task edited since the write is written again."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from adequacy.examples import bundled_folder
from adequacy_optimizers.experiment import load_study, run_study

REPO = Path(__file__).resolve().parents[2]
EUCLID = bundled_folder("verus") / "euclid_mod"


def _study(tmp_path: Path, task: Path) -> Path:
    f = tmp_path / "study.toml"
    f.write_text(f"""
name = "t"
tasks = ["{task}"]
results = "res.jsonl"
out = "written"
cache = false

[[specs]]
name = "templates"
writer = "templates"

[scoring]
engines = ["interp"]
""")
    return f


def _records(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def test_a_jobs_file_pointing_at_the_gold_spec_is_not_reused(tmp_path: Path) -> None:
    task = tmp_path / "euclid_mod"
    shutil.copytree(EUCLID, task)
    f = _study(tmp_path, task)
    run_study(load_study(f), workers=1, progress=False)
    jobs = tmp_path / "written" / "templates" / "jobs.jsonl"
    (tmp_path / "res.jsonl").unlink()
    # the stamp still matches; the jobs now score the task's own gold spec as "templates"
    forged = {"task": str(task), "spec": str(task / "specs" / "gold.rs"),
              "provenance": {"writer": "templates"}}
    jobs.write_text(json.dumps(forged) + "\n")
    again = run_study(load_study(f), workers=1, progress=False)
    assert again.sources[0].written_now
    specs = {r["report"]["spec_path"] for r in _records(tmp_path / "res.jsonl")}
    assert specs and not any("gold" in s for s in specs), specs


def test_a_task_edited_since_the_write_is_written_again(tmp_path: Path) -> None:
    task = tmp_path / "euclid_mod"
    shutil.copytree(EUCLID, task)
    f = _study(tmp_path, task)
    first = run_study(load_study(f), workers=1, progress=False)
    assert first.sources[0].written_now
    statement = next(p for p in task.iterdir() if p.name.startswith("statement"))
    statement.write_text(statement.read_text() + "\nReturn the remainder, never negative.\n")
    again = run_study(load_study(f), workers=1, progress=False)
    assert again.sources[0].written_now
