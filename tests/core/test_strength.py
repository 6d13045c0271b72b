"""Task strength on the toy language: spec mutants' fates, survivors judged, blind spots closed,
program mutants of a ``reference.py``, and the program-mutant kill ratio of a spec.

The toy task is "successor of a non-negative number" (tests/fixtures/toy_task): pre_complete
x = 0, 1, 2; pre_sound x = -1, -4; post_complete (0, 1), (3, 4), (8, 9); post_sound (0, 0)
and (3, 5). Every expectation below is worked out by hand from those cases.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adequacy.extensions.registry import registry
from adequacy.records.html import qa_of
from adequacy.records.html._qa import percentile
from adequacy.scoring.options import ScoreOptions
from adequacy.scoring.runner import score_spec
from adequacy.search.strength import benchmark_qa, row_of, task_strength
from adequacy.taskdirs.load import load_task
from adequacy_mutators import program_mutants_task

pytestmark = pytest.mark.usefixtures("toy")

OPTS = ScoreOptions()


def _gold(task_dir: Path, text: str) -> Path:
    p = task_dir / "specs" / "gold.toy"
    p.parent.mkdir(exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


def _drop_case(task_dir: Path, bucket: str, cid: str) -> None:
    p = task_dir / "tests" / f"{bucket}.jsonl"
    keep = [ln for ln in p.read_text().splitlines() if json.loads(ln)["id"] != cid]
    p.write_text("".join(ln + "\n" for ln in keep))


def test_every_mutant_of_the_gold_is_killed_and_the_refused_one_is_not(toy_task: Path) -> None:
    gold = _gold(toy_task, "pre: x >= 0\npost: result == x + 1\n")
    rep, found = task_strength(load_task(toy_task), gold, OPTS, budget=1.0)
    assert rep.error is None and found == []
    by = {(m.operator, m.line, m.description): m for m in rep.mutants}
    # x > 0 fails p0 (x = 0); x == 0 fails p1; x >= 1 fails p0; x >= -1 accepts n1 (x = -1)
    assert by[("cmp.strengthen", 1, ">= -> >")].killed_by == "pre_complete/p0"
    assert by[("cmp.strengthen", 1, ">= -> ==")].killed_by == "pre_complete/p1"
    assert by[("const.shift", 1, "0 -> -1")].killed_by == "pre_sound/n1"
    # result <= x + 1 accepts w0 (0 -> 0); result >= x + 1 accepts w3 (3 -> 5)
    assert by[("cmp.weaken", 2, "== -> <=")].killed_by == "post_sound/w0"
    assert by[("cmp.weaken", 2, "== -> >=")].killed_by == "post_sound/w3"
    # the toy front end refuses "not (...)": invalid, never counted killed, nor in the ratio
    negated = [m for m in rep.mutants if m.operator == "guard.negate"]
    assert len(negated) == 2 and all(m.status == "invalid" and not m.killed_by
                                     for m in negated)
    assert rep.invalid == 2 and rep.killed == rep.made - 2 and rep.blind_spots == 0
    assert rep.strength == 1.0 and rep.strength_after == 1.0


def test_a_survivor_is_a_blind_spot_and_its_case_closes_it(toy_task: Path) -> None:
    _drop_case(toy_task, "post_sound", "w3")  # nothing now rejects a too-large result
    gold = _gold(toy_task, "pre: x >= 0\npost: result == x + 1\n")
    task = load_task(toy_task)
    rep, found = task_strength(task, gold, OPTS, budget=4.0)
    (ge,) = [m for m in rep.mutants if m.description == "== -> >=" and m.line == 2]
    assert ge.status == "survived" and ge.blind_spot and ge.found_by == "sampling"
    assert ge.equivalent is None and ge.closed
    # its counterexample: a valid x with a result above x + 1, which the gold rejects
    (d,) = ge.counterexamples
    assert d.predicate == "post" and d.left is True and d.right is False
    assert d.output is not None and d.output["result"] > d.input["x"] + 1 >= 1
    assert len(found) == 1 and found[0].bucket.value == "post_sound"
    assert found[0].origin == "blind_spot" and found[0].made_by == ("spec cmp.weaken@2#2",)
    assert rep.blind_spots == 1 and rep.closed == 1
    n = rep.killed + rep.blind_spots
    assert rep.strength == rep.killed / n and rep.strength_after == 1.0
    # the case kills the mutant when scored with the task's cases
    mutant = "pre: x >= 0\npost: result >= x + 1\n"
    after = score_spec(task, mutant, None, OPTS, cases=[*task.all_cases(), *found])
    assert any(v.case_id == found[0].id and not v.passed for v in after.verdicts)


def test_an_equivalent_survivor_says_how_it_was_judged(toy_task: Path) -> None:
    # the second precondition line is implied by the first: dropping it changes nothing
    gold = _gold(toy_task, "pre: x >= 0\npre: x > -5\npost: result == x + 1\n")
    rep, found = task_strength(load_task(toy_task), gold, OPTS, budget=1.5)
    (drop,) = [m for m in rep.mutants if m.operator == "clause.true" and m.line == 2]
    assert drop.status == "survived" and not drop.blind_spot
    assert drop.equivalent == "sampling" and "not a proof" in drop.equivalence
    assert "sampled" in drop.equivalence
    assert rep.equivalent.get("sampling", 0) >= 1 and found == []
    # the toy language answers no symbolic questions: the report says so, and why
    assert "answers no symbolic questions" in rep.symbolic and "sampling only" in rep.symbolic
    # equivalents are outside the ratio: every non-equivalent mutant is killed
    assert rep.blind_spots == 0 and rep.strength == 1.0


def test_a_gold_that_fails_a_case_kills_nothing_with_it(toy_task: Path) -> None:
    # the gold says nothing about post: every post_sound case fails it (w0, w3), so those
    # cases prove nothing against a mutant
    gold = _gold(toy_task, "pre: x >= 0\n")
    rep, _ = task_strength(load_task(toy_task), gold, OPTS, budget=0.5)
    assert rep.gold_failures == 2
    assert not any(m.killed_by.startswith("post_sound/") for m in rep.mutants)


def test_no_gold_no_spec_mutants(toy_task: Path) -> None:
    rep, found = task_strength(load_task(toy_task), None, OPTS)
    assert rep.made == 0 and rep.strength is None and found == []
    assert any("no gold spec" in n for n in rep.notes)


def test_unknown_operator_is_refused(toy_task: Path) -> None:
    with pytest.raises(ValueError, match="unknown mutation operator"):
        registry().backend_for("toy").spec_mutants(load_task(toy_task), "pre: x >= 0\n", ["cmp.flip"])


REFERENCE = "def reference(inp):\n    return {'result': inp['x'] + 1}\n"


def test_program_mutants_of_a_reference(toy_task: Path) -> None:
    (toy_task / "reference").mkdir()
    (toy_task / "reference" / "reference.py").write_text(REFERENCE)
    rep = program_mutants_task(toy_task, write=True)
    by = {m.description: m for m in rep.mutants}
    # x - 1, x + 2 and x + 0 are wrong on every valid input; w0 (0 -> 0) is x + 0's output
    # at 0 and w3 (3 -> 5) is x + 2's at 3, so two of three were recorded before
    assert set(by) == {"+ -> -", "1 -> 2", "1 -> 0"}
    assert all(m.status == "wrong" for m in rep.mutants)
    assert by["1 -> 0"].recorded_before and by["1 -> 2"].recorded_before
    assert not by["+ -> -"].recorded_before
    assert rep.strength_before == pytest.approx(2 / 3) and rep.strength_after == 1.0
    task = load_task(toy_task)
    sound = task.cases["post_sound"] if "post_sound" in task.cases else \
        task.cases[next(b for b in task.cases if b.value == "post_sound")]
    named = {lab for c in sound for lab in c.made_by}
    assert named == {m.label for m in rep.mutants}
    minus = [c for c in sound if "arith.swap@reference/reference.py:2" in c.made_by]
    assert minus and all(c.origin == "program_mutant" and
                         c.output == {"result": c.input["x"] - 1} for c in minus)
    assert len(minus) <= 3  # --per-mutant's default
    # a spec's kill ratio: the gold rejects every wrong program; "result >= x" accepts x + 2
    # and x + 0 and rejects only x - 1
    gold = score_spec(task, "pre: x >= 0\npost: result == x + 1\n", None, OPTS)
    weak = score_spec(task, "pre: x >= 0\npost: result >= x\n", None, OPTS)
    assert gold.program_mutants is not None and weak.program_mutants is not None
    assert (gold.program_mutants.killed, gold.program_mutants.mutants) == (3, 3)
    assert (weak.program_mutants.killed, weak.program_mutants.mutants) == (1, 3)
    assert set(weak.program_mutants.survivors) == {
        "const.shift@reference/reference.py:2", "const.shift@reference/reference.py:2#2"}
    # running again adds nothing
    again = program_mutants_task(toy_task, write=True)
    assert again.cases_added == 0 and again.strength_before == 1.0


@pytest.mark.slow
def test_a_reference_mutant_that_loops_or_throws_is_crash_only(toy_task: Path) -> None:
    (toy_task / "reference").mkdir()
    (toy_task / "reference" / "reference.py").write_text(
        "def reference(inp):\n    while inp['x'] < 0:\n        pass\n"
        "    return {'result': inp['x'] + 1}\n")
    rep = program_mutants_task(toy_task, write=False)
    by = {(m.operator, m.description): m for m in rep.mutants}
    # "while not (x < 0)" loops on every valid input: it gives no wrong output
    assert by[("cond.negate", "negate the while condition")].status == "crash-only"
    # "x < 0" -> "x <= 0" loops on x = 0 only and is right elsewhere: same on the others
    assert by[("cmp.boundary", "< -> <=")].status in ("crash-only", "same")


def test_percentiles_and_the_benchmark_table() -> None:
    assert percentile([0.0, 1.0], 0.1) == pytest.approx(0.1)
    assert percentile([5.0], 0.1) == 5.0 and percentile([], 0.5) is None
    from adequacy.search.strength import StrengthReport
    reps = [StrengthReport(task=f"t{i}", path="", killed=k, blind_spots=b)
            for i, (k, b) in enumerate([(9, 1), (1, 1), (4, 0), (0, 0)])]
    qa = benchmark_qa(reps, worst=2)
    spec = qa.summary[0]
    # strengths 0.9, 0.5, 1.0 (the fourth has no mutant of known fate)
    assert spec.measure == "spec-mutant strength"
    assert spec.tasks == 3 and spec.median == 0.9
    assert spec.p10 == pytest.approx(0.5 + 0.2 * 0.4)
    assert spec.worst == ["t1", "t0"]
    assert qa_of([row_of(r) for r in reps], worst=2) == qa
    assert [r.note for r in qa.rows] == ["no gold spec"] * 4


@pytest.mark.slow
def test_the_command_measures_adds_and_writes_reports(tmp_path: Path, installed_toy: Path
                                                      ) -> None:
    import shutil

    from toy_support import FIXTURES, run_cli

    task = tmp_path / "toy_succ"
    shutil.copytree(FIXTURES / "toy_task", task)
    _drop_case(task, "post_sound", "w3")
    _gold(task, "pre: x >= 0\npost: result == x + 1\n")
    out = tmp_path / "s.jsonl"
    proc = run_cli(["task", "strength", str(task), "--add", "--budget", "3", "--out", str(out),
                    "--no-programs"], installed_toy)
    assert proc.returncode == 0, proc.stderr
    assert "blind spots 1, closed 1" in proc.stdout and "spec strength" in proc.stdout
    assert "added 1 blind-spot case(s)" in proc.stdout
    added = [json.loads(ln) for ln in (task / "tests" / "post_sound.jsonl").read_text()
             .splitlines() if json.loads(ln).get("origin") == "blind_spot"]
    assert len(added) == 1 and added[0]["made_by"] == ["spec cmp.weaken@2#2"]
    (rep,) = [json.loads(ln) for ln in out.read_text().splitlines()]
    assert rep["task"] == "toy_succ" and rep["blind_spots"] == 1
    # measured again, the blind spot is gone: every non-equivalent mutant is killed
    again = run_cli(["task", "strength", str(task), "--json", "--no-programs", "--budget",
                     "1"], installed_toy)
    first = json.loads(again.stdout.splitlines()[0])
    assert first["blind_spots"] == 0 and first["spec_strength"] == 1.0
    summary = json.loads(again.stdout.splitlines()[-1])
    assert summary["summary"][0]["measure"] == "spec-mutant strength"
    bad = run_cli(["task", "strength", str(task), "--gold", str(tmp_path / "nope")],
                  installed_toy)
    assert bad.returncode == 2 and "--gold must be a folder" in bad.stderr
    typo = run_cli(["task", "strength", str(task), "--operator", "cmp.flip"], installed_toy)
    assert typo.returncode == 2 and "unknown mutation operator" in typo.stderr
