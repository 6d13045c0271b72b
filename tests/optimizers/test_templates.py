"""The template (Daikon-like) writer and `adequacy synthesize`.

Hand-worked truths: binary_search_first's visible valid inputs ([1,3,5,7], [1,2,2,2,3],
[1,2,3], []) are all sorted, so the sortedness clause survives and rejects every pre_sound case
(each is unsorted, by the task's statement). Other kept clauses may over-fit the few visible
cases (as Daikon's do); they are only promised to hold on the visible valid ones.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from adequacy.batch.pool import BatchOptions, jobs_from_file, run_batch
from adequacy.cli import app
from adequacy.examples import bundled_folder
from adequacy.extensions.writers import visible_cases
from adequacy.model.types import IntType, SeqType
from adequacy.model.verdicts import Bucket
from adequacy.scoring.runner import score_spec
from adequacy_optimizers.candidates import (
    AllElems,
    Const,
    Member,
    Sorted,
    Undefined,
    Var,
    daikon_clauses,
    holds,
)
from adequacy_optimizers.templates import TemplateWriter

from .conftest import example

S = Var("in", "s", SeqType(IntType("i64")))
X = Var("in", "x", IntType("i64"))


def test_atom_values_by_hand():
    assert holds(Sorted(S), {"s": [1, 2, 2]})
    assert not holds(Sorted(S), {"s": [3, 1]})
    assert holds(Sorted(S), {"s": []})
    assert holds(AllElems(S, ">=", Const(0)), {"s": [0, 4]})
    assert not holds(AllElems(S, ">", Const(0)), {"s": [0, 4]})
    assert holds(Member(S, X), {"s": [5, 7], "x": 7})
    assert not holds(Member(S, X), {"s": [5, 7], "x": 6})
    with pytest.raises(Undefined):
        holds(Sorted(S), {"s": None})


def test_kept_clauses_come_from_visible_cases_only():
    task = example("verus", "binary_search_first")
    kinds = {type(c.atom).__name__ for c in daikon_clauses(task) if c.where == "pre"}
    assert "Sorted" in kinds
    # a hidden valid input violates nothing the writer was shown, but the writer must not
    # have looked at it: make every hidden case absurd and the clauses stay the same
    hidden_free = task.model_copy(update={"cases": {
        b: [c for c in cs if c.visible] for b, cs in task.cases.items()}})
    assert daikon_clauses(hidden_free) == daikon_clauses(task)


def test_template_spec_accepts_every_visible_valid_case_and_rejects_unsorted():
    task = example("verus", "binary_search_first")
    [w] = TemplateWriter().write(task, samples=3)
    assert w.text is not None and w.error is None
    valid = [c for c in visible_cases(task) if c.bucket.value.endswith("complete")]
    assert score_spec(task, w.text, cases=valid,
                      empty_by_design=[Bucket.pre_sound, Bucket.post_sound]).passed_all
    rep = score_spec(task, w.text)
    assert rep.metrics is not None and rep.metrics.pre_comp == 1.0


@pytest.mark.slow
def test_template_jml_spec_accepts_visible_valid_cases():
    task = example("jml", "array_max")
    [w] = TemplateWriter().write(task)
    assert w.text is not None
    assert "a != null" in w.text and "a[i] <= \\result" in w.text
    valid = [c for c in visible_cases(task) if c.bucket.value.endswith("complete")]
    assert score_spec(task, w.text, cases=valid,
                      empty_by_design=[Bucket.pre_sound, Bucket.post_sound]).passed_all


def test_synthesize_writes_files_and_jobs_that_run_scores(tmp_path):
    res = CliRunner().invoke(app, ["synthesize", str(bundled_folder("verus")), "-o",
                                   str(tmp_path / "out"), "--writer", "templates"])
    assert res.exit_code == 0, res.output
    lines = (tmp_path / "out" / "jobs.jsonl").read_text().splitlines()
    assert len(lines) == 7
    first = json.loads(lines[0])
    assert first["spec"] == "binary_search_first/templates-0.rs"
    assert (tmp_path / "out" / first["spec"]).is_file()
    jobs = jobs_from_file(tmp_path / "out" / "jobs.jsonl")
    summary = run_batch(jobs, tmp_path / "results.jsonl", BatchOptions(), workers=1,
                        progress=False)
    assert summary.computed == 7 and summary.errors == 0 and summary.invalid == 0


def test_synthesize_bad_input_is_one_line_exit_2(tmp_path):
    res = CliRunner().invoke(app, ["synthesize", str(tmp_path / "nope"), "-o",
                                   str(tmp_path / "o")])
    assert res.exit_code == 2 and "not a task folder" in res.output
    res = CliRunner().invoke(app, ["synthesize", str(bundled_folder("verus")), "-o",
                                   str(tmp_path / "o"), "--writer", "dspy"])
    assert res.exit_code == 2 and "--lm" in res.output
    res = CliRunner().invoke(app, ["synthesize", str(bundled_folder("verus")), "-o",
                                   str(tmp_path / "o"), "--writer", "daikon"])
    assert res.exit_code == 2 and "expected one of" in res.output
