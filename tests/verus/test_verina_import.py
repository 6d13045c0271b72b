"""The VERINA importer on small hand-made task folders, and on the real dataset when present."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from adequacy.model.verdicts import Bucket
from adequacy.taskdirs.load import load_task
from adequacy_verus.verina.importer import import_verina


def make_verina_task(root: Path, tid: str, params: list[tuple[str, str]], ret: str,
                     tests: list[dict[str, Any]], rejects: list[dict[str, Any]],
                     new_style: bool = True) -> Path:
    """A task folder in VERINA's layout, written here (never copied from the dataset)."""
    d = root / tid
    d.mkdir(parents=True)
    sig = {"name": "f", "parameters": [{"param_name": n, "param_type": t} for n, t in params],
           "return_type": ret}
    if new_style:
        (d / "task.json").write_text(json.dumps({
            "id": tid, "signature": sig,
            "metadata": {"upstream": {"name": "handmade", "task_id": "h1"}}}))
    else:
        sig = {"name": "f", "parameters": [{"name": n, "type": t} for n, t in params],
               "return_type": ret}
        (d / "signature.json").write_text(json.dumps(sig))
    (d / "description.txt").write_text(f"Statement of {tid}.")
    (d / "test.json").write_text(json.dumps(tests))
    (d / "reject_inputs.json").write_text(json.dumps(rejects))
    (d / "task.lean").write_text("-- not read by the importer")
    return d


def _tests(n: int) -> list[dict[str, Any]]:
    return [{"input": {"xs": f"#[{i}, {-i - 1}]", "k": i}, "expected": str(i),
             "unexpected": [i + 1, i + 1, i + 2]} for i in range(n)]


@pytest.fixture()
def src(tmp_path: Path) -> Path:
    root = tmp_path / "verina"
    make_verina_task(root, "verina_basic_2", [("xs", "Array Int"), ("k", "Nat")], "Nat",
                     _tests(5), [{"input": {"xs": "#[]", "k": 0}}])
    make_verina_task(root, "verina_basic_10", [("x", "Float")], "Bool", [], [])
    make_verina_task(root, "verina_advanced_1", [("s", "String"), ("c", "Char")],
                     "Option (Nat × Nat)",
                     [{"input": {"s": "a'b", "c": "z"}, "expected": "none",
                       "unexpected": ["some (0, 1)"]}], [], new_style=False)
    make_verina_task(root, "verina_basic_3", [("n", "Nat")], "Nat",
                     [{"input": {"n": 1}, "expected": 1, "unexpected": [0]},
                      {"input": {"n": 2**70}, "expected": 1, "unexpected": [0]}],
                     [{"input": {"n": 0}}])
    return root


def test_routes_values_into_the_four_buckets(src: Path, tmp_path: Path) -> None:
    report = import_verina(src, tmp_path / "out")
    ok = {o.task_id: o for o in report.converted}
    assert set(ok) == {"verina_basic_2", "verina_advanced_1"}
    task = load_task(tmp_path / "out" / "verina_basic_2")
    assert task.id == "verina_basic_2"
    assert [(p.name, p.type_text) for p in task.inputs] == [("xs", "seq<i64>"), ("k", "u64")]
    assert [(p.name, p.type_text) for p in task.outputs] == [("result", "u64")]
    assert task.statement == "Statement of verina_basic_2."
    assert "VERINA" in task.provenance and "Apache-2.0" in task.provenance
    assert "verina_basic_2" in task.provenance
    pc = task.cases[Bucket.pre_complete]
    assert [c.input for c in pc] == [{"xs": [i, -i - 1], "k": i} for i in range(5)]
    assert [c.visible for c in pc] == [True, True, True, False, False]
    post = task.cases[Bucket.post_complete]
    assert [c.output for c in post] == [{"result": i} for i in range(5)]
    assert [c.visible for c in post] == [True, True, True, False, False]
    # duplicate wrong outputs are written once
    sound = task.cases[Bucket.post_sound]
    assert [(c.id, c.output) for c in sound[:2]] == [("t0_u0", {"result": 1}),
                                                     ("t0_u2", {"result": 2})]
    assert not any(c.visible for c in sound)
    assert [c.input for c in task.cases[Bucket.pre_sound]] == [{"xs": [], "k": 0}]
    assert not any(c.visible for c in task.cases[Bucket.pre_sound])
    assert "pub xs: Seq<i64>," in task.skeleton and "pub result: u64," in task.skeleton
    assert ok["verina_basic_2"].counts == {"pre_complete": 5, "pre_sound": 1,
                                           "post_complete": 5, "post_sound": 10}


def test_old_signature_file_strings_chars_and_options(src: Path, tmp_path: Path) -> None:
    import_verina(src, tmp_path / "out")
    task = load_task(tmp_path / "out" / "verina_advanced_1")
    assert [(p.name, p.type_text) for p in task.inputs] == [("s", "string"), ("c", "char")]
    assert task.cases[Bucket.pre_complete][0].input == {"s": "a'b", "c": "z"}
    assert task.cases[Bucket.post_complete][0].output == {"result": None}
    assert task.cases[Bucket.post_sound][0].output == {"result": {"some": [0, 1]}}
    assert task.cases[Bucket.pre_sound] == []


def test_refusals_are_reported_with_reasons(src: Path, tmp_path: Path) -> None:
    report = import_verina(src, tmp_path / "out")
    failed = {o.task_id: o.problems[0] for o in report.failed}
    assert failed["verina_basic_10"].kind == "unsupported type Float"
    assert failed["verina_basic_3"].kind == "value out of range"
    assert "test 1 input n" in failed["verina_basic_3"].detail
    assert not (tmp_path / "out" / "verina_basic_10").exists()
    assert not (tmp_path / "out" / "verina_basic_3").exists()
    text = report.summary()
    assert "converted 2 of 4" in text and "value out of range" in text


def test_lenient_mode_drops_only_the_bad_cases(src: Path, tmp_path: Path) -> None:
    report = import_verina(src, tmp_path / "out", strict=False)
    outcome = next(o for o in report.outcomes if o.task_id == "verina_basic_3")
    assert outcome.converted
    assert [p.kind for p in outcome.problems] == ["value out of range"]
    task = load_task(tmp_path / "out" / "verina_basic_3")
    assert [c.input for c in task.cases[Bucket.pre_complete]] == [{"n": 1}]
    assert len(task.cases[Bucket.pre_sound]) == 1


def test_single_task_folder_and_missing_source(src: Path, tmp_path: Path) -> None:
    report = import_verina(src / "verina_basic_2", tmp_path / "one")
    assert [o.task_id for o in report.converted] == ["verina_basic_2"]
    empty = import_verina(tmp_path / "nothing-here", tmp_path / "none")
    assert not empty.converted and empty.failed[0].problems[0].kind == "bad task files"


def test_never_deletes_a_folder_that_is_not_a_task(src: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    (out / "verina_basic_2").mkdir(parents=True)
    (out / "verina_basic_2" / "precious.txt").write_text("keep me")
    report = import_verina(src, out)
    problem = next(o for o in report.failed if o.task_id == "verina_basic_2").problems[0]
    assert problem.kind == "destination in the way"
    assert (out / "verina_basic_2" / "precious.txt").read_text() == "keep me"
    # a second import over a first one replaces it
    import_verina(src, tmp_path / "again")
    assert import_verina(src, tmp_path / "again").converted


def test_round_trip_failure_is_reported(tmp_path: Path) -> None:
    root = tmp_path / "v"
    make_verina_task(root, "verina_basic_8", [("xs", "List Int")], "Int",
                     [{"input": {"xs": "[-0]"}, "expected": 0, "unexpected": [1]}], [])
    problem = import_verina(root, tmp_path / "out").failed[0].problems[0]
    assert problem.kind == "round trip failed"
    assert "'[-0]' printed back as '[0]'" in problem.detail


def test_unexpected_equal_to_expected_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "v"
    make_verina_task(root, "verina_basic_7", [("n", "Int")], "Int",
                     [{"input": {"n": 1}, "expected": 2, "unexpected": ["2"]}], [])
    report = import_verina(root, tmp_path / "out")
    assert report.failed[0].problems[0].kind == "unexpected equals expected"


def test_plugin_exposes_the_importer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from adequacy.extensions import registry
    from adequacy.packages import importer as packages
    from adequacy_verus import importers

    pm = registry.make_manager(load_entry_points=False, plugins=[importers, packages])
    monkeypatch.setattr(registry, "default_manager", lambda: pm)
    found = registry.registry().importers
    assert set(found) == {"verina", "package"}  # package: core's own importer
    report = found["verina"].run(tmp_path / "nothing-here", tmp_path / "out")
    assert report.importer == "verina" and not report.converted
    assert report.failed[0].problems[0].kind == "bad task files"


@pytest.mark.dataset
def test_whole_dataset(datasets_dir: Path, tmp_path: Path) -> None:
    src = datasets_dir / "verina"
    if not src.is_dir():
        pytest.skip("no verina folder in the datasets")
    report = import_verina(src, tmp_path / "out")
    assert len(report.outcomes) == 189
    # figures as measured (docs/verina.md); a change means the importer or the data changed
    assert len(report.converted) == 185
    kinds = {o.task_id: o.problems[0].kind for o in report.failed}
    assert kinds == {
        "verina_basic_25": "unsupported type Float",
        "verina_basic_63": "unsupported type Float",
        "verina_basic_70": "unsupported type function",
        "verina_advanced_10": "value out of range",
    }
    for o in report.converted:
        task = load_task(o.dest)  # every written task loads and validates
        assert task.cases[Bucket.pre_complete] and task.cases[Bucket.post_complete]
        assert sum(c.visible for c in task.all_cases()) == min(
            3, len(task.cases[Bucket.pre_complete])) + min(3, len(task.cases[Bucket.post_complete]))
