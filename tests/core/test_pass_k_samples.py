"""pass@k and pass^k count a writer's samples, numbered, and say what they grouped.

Truths by hand on the toy task (tests/core/test_batch_provenance.py has the cases): ``GOLD``
passes every case, ``WEAK`` (``post: result >= 0``) accepts both wrong outputs and fails.
A writer that solved task A twice with the same text and failed task B twice has pass@2 = mean
of (1, 0) = 0.5 and pass^2 = 0.5 over two tasks of two samples each. Before samples carried
their index, A's two identical samples shared a job key and collapsed into one record, so A was
left out of pass@2 and B alone decided it (0.0). A folder of hand-written specs is no set of
samples: it gets no pass@k at all.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from rich.console import Console

from adequacy.batch.pool import BatchOptions, jobs_from_file, jobs_from_glob, run_batch
from adequacy.extensions.writers import WrittenSpec
from adequacy.model.metrics import summarize
from adequacy.model.task import Task
from adequacy.records.html import build_study, read_records, summary_rows
from adequacy.records.log import read_results
from adequacy.records.tables import batch_table
from adequacy_optimizers.synthesize import synthesize

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GOLD = "pre: x >= 0\npost: result == x + 1\n"
WEAK = "pre: x >= 0\npost: result >= 0\n"
WEAKER = "pre: x >= 0\npost: result >= 0 || result < 0\n"


def _two_tasks(root: Path) -> Path:
    tasks = root / "tasks"
    for tid in ("toy_a", "toy_b"):
        d = tasks / tid
        shutil.copytree(FIXTURES / "toy_task", d)
        toml = d / "task.toml"
        toml.write_text(toml.read_text().replace('id = "toy_succ"', f'id = "{tid}"'))
    return tasks


class _Scripted:
    """A writer whose answers are fixed per task (the writer is not what is tested here)."""

    name = "scripted"

    def __init__(self, texts: dict[str, list[str]]) -> None:
        self.texts = texts

    def write(self, task: Task, samples: int = 1) -> list[WrittenSpec]:
        return [WrittenSpec(task_id=task.id, writer=self.name, text=t)
                for t in self.texts[task.id][:samples]]


def _text(renderable: object) -> str:
    buf = io.StringIO()
    Console(file=buf, width=200).print(renderable)
    return buf.getvalue()


def test_identical_samples_are_two_records_and_pass_k_counts_both(tmp_path: Path,
                                                                   toy: None) -> None:
    tasks = _two_tasks(tmp_path)
    writer = _Scripted({"toy_a": [GOLD, GOLD], "toy_b": [WEAK, WEAKER]})
    synthesize([tasks], tmp_path / "out", writer, samples=2)  # type: ignore[arg-type]
    jobs = jobs_from_file(tmp_path / "out" / "jobs.jsonl")
    assert [j.provenance.sample for j in jobs if j.provenance] == [0, 1, 0, 1]

    results = tmp_path / "r.jsonl"
    summary = run_batch(jobs, results, BatchOptions(), workers=1, progress=False)
    assert len(read_results(results)) == 4  # the two identical samples did not collapse
    assert sorted((x.record.report.task_id, x.record.producer.sample)
                  for x in read_results(results)) == [("toy_a", 0), ("toy_a", 1),
                                                      ("toy_b", 0), ("toy_b", 1)]

    [a] = build_study(read_records([results]), [str(results)]).approaches
    s = a.summary
    assert s.pass_at_k[2] == pytest.approx(0.5) and s.pass_hat_k[2] == pytest.approx(0.5)
    assert (s.k_tasks, s.k_excluded, s.k_samples_min, s.k_samples_max, s.unsampled) == \
        (2, 0, 2, 2, 0)
    assert s.grouped() == "k=2; 2 tasks of 2 samples"
    cell = summary_rows(build_study(read_records([results]), [str(results)]))[0]["pass@k"]
    assert cell.startswith("50.0%") and "k=2, 2 tasks x 2 samples" in cell

    flags = [True] * len(jobs)
    table = _text(batch_table(summary.reports, sampled=flags))
    assert "k=2: 0.500" in table and "(k=2; 2 tasks of 2 samples)" in table


def test_a_folder_of_hand_written_specs_has_no_pass_k(tmp_path: Path, toy: None) -> None:
    tasks = _two_tasks(tmp_path)
    for tid in ("toy_a", "toy_b"):
        (tasks / tid / "specs").mkdir()
        (tasks / tid / "specs" / "gold.toy").write_text(GOLD)
        (tasks / tid / "specs" / "flawed.toy").write_text(WEAK)
    jobs = jobs_from_glob(sorted(tasks.iterdir()), "specs/*.toy")
    results = tmp_path / "r.jsonl"
    summary = run_batch(jobs, results, BatchOptions(), workers=1, progress=False)

    study = build_study(read_records([results]), [str(results)])
    [a] = study.approaches
    assert a.summary.pass_at_k == {} and a.summary.unsampled == 4
    assert a.summary.pass_at_1 == pytest.approx(0.5)  # Pass@1 still counts every spec
    row = summary_rows(study)[0]
    assert row["pass@k"] == "n/a (no sample index)" and row["pass^k"] == "n/a"
    table = _text(batch_table(summary.reports, sampled=[False] * len(jobs)))
    assert "pass@k k=" not in table
    assert "no pass@k: no spec carries a writer's sample index" in table


def test_pass_k_counts_samples_only_and_says_what_it_left_out() -> None:
    # task t: samples pass, fail; a hand-written spec that passes is not a third sample
    res = [("t", True, None), ("t", False, None), ("t", True, None), ("u", False, None),
           ("u", False, None)]
    s = summarize(res, ks=(1, 2, 3), sampled=[True, True, False, True, True])
    assert sorted(s.pass_at_k) == [1, 2]
    assert s.pass_at_k[2] == pytest.approx((1.0 + 0.0) / 2)
    assert s.pass_hat_k[2] == pytest.approx(0.0)
    assert s.unsampled == 1 and s.grouped() == ("k=2; 2 tasks of 2 samples; 1 spec without a "
                                                "sample index left out")
    assert s.pass_at_1 == pytest.approx((2 / 3 + 0.0) / 2)  # every spec
    with pytest.raises(ValueError, match="sampled"):
        summarize(res, sampled=[True])


def test_a_study_reusing_an_older_write_numbers_its_samples() -> None:
    """A study's writer folder written before samples carried their index is reused (a model
    is not paid twice), its jobs numbered in the order synthesize wrote them."""
    from adequacy.batch.jobs import Job
    from adequacy.scoring.spec_report import Provenance
    from adequacy_optimizers.experiment import _numbered

    p = Provenance(writer="dspy", model="m")
    jobs = [Job(task="/a", spec=f"/o/a/w-{i}.toy", provenance=p) for i in range(2)]
    jobs.insert(1, Job(task="/b", spec="/o/b/w-0.toy", provenance=p))
    assert [(j.task, j.provenance.sample) for j in _numbered(jobs) if j.provenance] == \
        [("/a", 0), ("/b", 0), ("/a", 1)]
