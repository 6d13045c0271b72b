"""One JVM for a task's reference batches: fresh statics per batch, the same outcomes as a JVM
per batch, idle lanes sharing a stateless reference's long batch, and ``fill_task`` writing
what ``generate_task`` then ``mutate_task`` write."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from jml_support import write_task

from adequacy.examples import bundled_folder
from adequacy.extensions.backend import Limits
from adequacy.sandbox import lanes
from adequacy.taskdirs.load import load_task
from adequacy_mutators import fill_task, generate_task, mutate_task
from adequacy_mutators._generate import generate_loaded
from adequacy_openjml.engines.rac import reference as ref
from adequacy_openjml.plugin import OpenJmlBackend

pytestmark = [pytest.mark.slow, pytest.mark.requires("javac")]


COUNTER = """public class Solution {
    static int calls;
    public static int solve(int x) { calls++; return x * 10 + calls; }
}
"""

SLOW = """public class Solution {
    public static int solve(int x) {
        int r = 0;
        for (int i = 0; i < x; i++) { r = (r + i) % 1000003; }
        return r;
    }
}
"""


def _results(outs: list) -> list[object]:
    return [o.output["result"] if o.kind == "returned" else o.kind for o in outs]


def test_each_batch_starts_from_fresh_statics_in_one_jvm(tmp_path: Path) -> None:
    task = load_task(write_task(tmp_path / "t", COUNTER, inputs={"x": "i32"}))
    with OpenJmlBackend().reference_session(task, Limits(case_seconds=5)) as s:
        first = _results(s.outcomes([{"x": 1}, {"x": 2}, {"x": 3}]))
        worker = s._lanes[0].run.worker
        second = _results(s.outcomes([{"x": 7}]))
        assert s._lanes[0].run.worker is worker  # the same JVM served both batches
        assert not s.stateless  # a static counter: never shared among JVMs
    # within a batch the state carries (as in one JVM per batch); a new batch starts afresh
    assert first == [11, 22, 33]
    assert second == [71]
    # the same as one reference_outcomes call (its own JVM) per batch
    b = OpenJmlBackend()
    assert _results(b.reference_outcomes(task, [{"x": 7}])) == [71]


def test_idle_lanes_share_a_stateless_batch_with_the_same_outcomes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    task = load_task(write_task(tmp_path / "t", SLOW, inputs={"x": "i32"}))
    inputs = [{"x": 20_000_000 + k} for k in range(24)]
    alone = _results(OpenJmlBackend().reference_outcomes(task, inputs, Limits(case_seconds=30)))
    assert all(isinstance(v, int) for v in alone)
    monkeypatch.setattr(ref, "HELP_AFTER", 0.1)
    with lanes.limit(3), lanes.held(), OpenJmlBackend().reference_session(
            task, Limits(case_seconds=30)) as s:
        assert s.stateless
        shared = _results(s.outcomes(inputs))
        assert s.helpers >= 1
    assert shared == alone  # in the batch's order, each input's own outcome
    # with no idle lane (the default: one), no helper starts
    with OpenJmlBackend().reference_session(task, Limits(case_seconds=30)) as s:
        assert _results(s.outcomes(inputs[:8])) == alone[:8]
        assert s.helpers == 0


def test_fill_task_writes_what_generate_then_mutate_write(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    for d in (a, b):
        shutil.copytree(bundled_folder("jml") / "abs_value", d,
                        ignore=shutil.ignore_patterns("specs"))
    generate_task(a, valid=20, seed=3)
    mutate_task(a, per_case=2, seed=3)
    rep = fill_task(b, valid=20, per_case=2, seed=3)
    assert rep.generate is not None and rep.mutate is not None
    assert rep.generate.valid_added > 0 and rep.mutate.post_sound_added > 0
    files = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    for f in files:
        assert (a / f).read_bytes() == (b / f).read_bytes(), f
    # mutation reused generation's outcomes: fewer runs than inputs asked about
    assert rep.reference_runs < rep.generate.reference_runs + len(
        load_task(b).cases["post_complete"])


def test_a_stateful_reference_is_asked_again_by_mutation(tmp_path: Path) -> None:
    # a static field: mutation's oracle runs every valid input itself, as with a JVM per call
    root = _mod_task(tmp_path / "t")
    (root / "Solution.java").write_text(MOD.replace(
        "public static int solve", "static int seen;\n    public static int solve"))
    rep = fill_task(root, valid=10, per_case=2, seed=0)
    assert rep.generate is not None and rep.mutate is not None
    valid_inputs = len(load_task(root).cases["post_complete"])
    assert rep.reference_runs == rep.generate.reference_runs + valid_inputs
    # the stateless one reuses generation's outcomes
    again = _mod_task(tmp_path / "u")
    rep2 = fill_task(again, valid=10, per_case=2, seed=0)
    assert rep2.reference_runs < rep2.generate.reference_runs + valid_inputs


def test_generate_hands_on_the_task_as_it_reads_back(tmp_path: Path) -> None:
    root = tmp_path / "t"
    shutil.copytree(bundled_folder("jml") / "abs_value", root,
                    ignore=shutil.ignore_patterns("specs"))
    rep, after = generate_loaded(load_task(root), root, valid=10, seed=1)
    assert rep.written
    back = load_task(root)
    assert (after.every_input_valid, after.every_input_valid_reason) == (
        back.every_input_valid, back.every_input_valid_reason)
    assert set(after.cases) == set(back.cases)
    for bucket, cases in back.cases.items():
        assert [c.model_dump() for c in after.cases[bucket]] == [c.model_dump() for c in cases]


MOD = """public class Solution {
    public static int solve(int x) { return x % 7; }
}
"""


def _mod_task(root: Path) -> Path:
    write_task(root, MOD, inputs={"x": "i32"})
    rows = [(x, x % 7 if x >= 0 else -((-x) % 7)) for x in (3, 12, -5, 40, 0, 99)]
    (root / "tests" / "post_complete.jsonl").write_text("".join(
        f'{{"id": "c{i}", "input": {{"x": {x}}}, "output": {{"result": {r}}}}}\n'
        for i, (x, r) in enumerate(rows)))
    (root / "tests" / "pre_complete.jsonl").write_text("".join(
        f'{{"id": "c{i}", "input": {{"x": {x}}}}}\n' for i, (x, _) in enumerate(rows)))
    return root


def test_lazy_generation_writes_what_running_every_draw_writes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # x % 7 is total: the inference's evidence counts every drawn input, those a lazy run
    # left unrun included, so the reason (with its counts) is the same either way
    lazy = _mod_task(tmp_path / "lazy")
    rep = generate_task(lazy, valid=10, seed=0)
    assert rep.inferred_every_input_valid
    eager = _mod_task(tmp_path / "eager")
    monkeypatch.setattr(ref.JvmReferenceSession, "stateless", property(lambda self: False))
    rep2 = generate_task(eager, valid=10, seed=0)
    assert rep2.every_input_valid_reason == rep.every_input_valid_reason
    for f in ("task.toml", "tests/post_complete.jsonl", "tests/pre_complete.jsonl"):
        assert (lazy / f).read_text() == (eager / f).read_text(), f
    # the reason counts more inputs than the pairs made: the unrun draws did run
    assert int(rep.every_input_valid_reason.split("total on ")[1].split()[0]) > 10 + 6


def test_tasks_at_once_make_what_one_at_a_time_makes(tmp_path: Path) -> None:
    from adequacy_mutators import fill_tasks

    def tasks(root: Path) -> list[Path]:
        out = []
        for name in ("abs_value", "array_max", "is_prime"):
            shutil.copytree(bundled_folder("jml") / name, root / name,
                            ignore=shutil.ignore_patterns("specs"))
            out.append(root / name)
        return out

    one = fill_tasks(tasks(tmp_path / "one"), jobs=1, valid=15, per_case=2, seed=5)
    many = fill_tasks(tasks(tmp_path / "many"), jobs=3, valid=15, per_case=2, seed=5)
    assert all(r is not None and r.mutate is not None for r in one + many)
    a, b = tmp_path / "one", tmp_path / "many"
    files = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    for f in files:
        assert (a / f).read_bytes() == (b / f).read_bytes(), f
