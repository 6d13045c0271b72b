"""The smoke test of the whole JML pipeline on real data (SpecGenBench, all 120 tasks).

Import every record, then score two specs per task under ``rac``: a tautology, which must
accept every recorded (input, output) pair, and ``ensures false``, which must reject every one.
Each verdict must be *decided* (true / false), so an engine that merely gives up (unknown)
fails here even though strict scoring would count it as a failed case. Two conventions of the
importer are exercised on the way: outputs that are a parameter's post-state (``[jml]
post_state``; ``SetZero``, ``CopyArray``, ``RotateArray``, ...), and methods that return that
same parameter, whose ``\\result`` is then the post-state object.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from adequacy.model.task import Task
from adequacy.model.verdicts import Bucket, Truth
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.load import load_task
from adequacy_openjml.importers.spec_harness import import_specgenbench
from adequacy_openjml.jml.load import annotated

pytestmark = [pytest.mark.slow, pytest.mark.requires("javac")]

#: void methods whose harness prints nothing: inputs only, no pair to score
NO_OUTPUT = {"SGB_ReverseString", "SGB_SelectionSort", "SGB_SelectionSortDesc",
             "SGB_SortLibrary"}
#: non-void methods whose harness prints the array argument they also return
RETURNS_POST_STATE = {"SGB_SetZero", "SGB_CopyArray", "SGB_MoveZeroes", "SGB_Swap"}


@pytest.fixture(scope="module")
def sgb_tasks(datasets_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> list[Task]:
    dest = tmp_path_factory.mktemp("sgb")
    import_specgenbench(datasets_dir / "specgenbench", dest)
    return [load_task(d) for d in sorted(dest.iterdir()) if d.is_dir()]


def tautology(task: Task) -> str:
    """``\\result == \\result``, or for a void method ``p == p`` on its post-state output."""
    if task.settings.get("java_return", "void") != "void":
        return "ensures \\result == \\result;"
    p = task.settings["post_state"][0]
    return f"ensures {p} == {p};"


def test_every_task_imports_with_its_conventions(sgb_tasks: list[Task]) -> None:
    assert len(sgb_tasks) == 120
    no_pairs = {t.id for t in sgb_tasks if not t.cases.get(Bucket.post_complete)}
    assert no_pairs == NO_OUTPUT
    post_state = {t.id for t in sgb_tasks if t.settings.get("post_state")}
    assert post_state == NO_OUTPUT | RETURNS_POST_STATE | {"SGB_RotateArray"}
    assert all(t.settings["static"] is True for t in sgb_tasks)  # every SGB method is static


def test_tautology_scores_one_and_false_scores_zero(sgb_tasks: list[Task]) -> None:
    problems: list[str] = []
    scored_tasks = scored_cases = 0
    for task in sgb_tasks:
        cases = task.cases.get(Bucket.post_complete, [])
        if not cases:
            continue
        for clause, want, metric in ((tautology(task), Truth.true, 1.0),
                                     ("ensures false;", Truth.false, 0.0)):
            rep = score_spec(task, annotated(task, [clause]), "Solution.java",
                             engines=["rac"], cases=cases)
            if rep.status != "scored" or rep.metrics is None:
                problems.append(f"{task.id} [{clause}]: {rep.status} {rep.invalid} {rep.error}")
                continue
            wrong = [v for v in rep.verdicts if v.value != want]
            if rep.metrics.post_corr != metric or wrong or len(rep.verdicts) != len(cases):
                problems.append(f"{task.id} [{clause}]: PostCorr {rep.metrics.post_corr}, "
                                f"{len(wrong)} not {want.value}, e.g. "
                                f"{[(v.case_id, v.reason) for v in wrong[:2]]}")
        scored_tasks += 1
        scored_cases += len(cases)
    assert not problems, "\n".join(problems)
    assert scored_tasks == 116
    assert scored_cases > 23000
