"""The importers end to end: hand-made records -> task folders that load; then the real data."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from adequacy.model.verdicts import Bucket
from adequacy.taskdirs.load import load_task
from adequacy_openjml.importers import import_formalbench, import_specgenbench
from adequacy_openjml.importers.plugin import adequacy_importers

ABS_TEST = """import java.util.*;
public class Test {
    public static void main(String[] args) {
        Scanner scanner = new Scanner(System.in);
        int p0 = Integer.parseInt(scanner.hasNextLine() ? scanner.nextLine().trim() : "");
        int result = Solution.solve(p0);
        System.out.println(result);
    }
}
"""


def record(task_id: str, code: str, test_code: str, official: list[tuple[str, str]],
           generated: list[tuple[str, str]] = ()) -> dict:  # type: ignore[assignment]
    return {"task_id": task_id, "code": code, "test_code": test_code,
            "test_inputs": [{"input": i, "output": o} for i, o in official],
            "generated_test_cases": [{"input": i, "output": o} for i, o in generated],
            "class_name": "Solution", "test_name": "Test", "javadoc": "N/A",
            "category": "branch", "origin_id": task_id.split("_", 1)[1]}


def write_jsonl(path: Path, recs: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    return path


def test_import_writes_loadable_tasks_and_reports_failures(tmp_path: Path) -> None:
    abs_code = ("public class Solution {\n\tpublic static int solve(int num) {\n"
                "\t\tif (num < 0) return -num; else return num;\n\t}\n}\n")
    recs = [
        record("SGB_Abs", abs_code, ABS_TEST,
               official=[("-4", "4"), ("0", "0"), ("4", "4"), ("5", "5"), ("x", "1"),
                         ("3000000000", "0")],
               generated=[("0", "0"), ("-7", "7"), ("-7", "8"), ("2", "two")]),
        record("SGB_Bad", abs_code, ABS_TEST.replace(
            'Integer.parseInt(scanner.hasNextLine() ? scanner.nextLine().trim() : "")',
            "scanner.nextInt()"), official=[("1", "1")]),
    ]
    src = write_jsonl(tmp_path / "sgb.jsonl", recs)
    report = import_specgenbench(src, tmp_path / "out")
    assert (len(report.outcomes), len(report.converted)) == (2, 1)
    assert report.figures["pairs_total"] == 11
    # converted: -4, 0, 4, 5 (official), 0, -7, -7/8 (generated): 7; the input "2" converts,
    # its output "two" does not; "x" and "3000000000" fail at the input.
    assert report.figures["pairs_converted"] == 7
    assert report.figures["inputs_converted"] == 8
    stages = sorted((tid, p.case, p.stage) for tid, p in report.problems)
    assert stages == [
        ("SGB_Abs", "generated-002", "duplicate"),
        ("SGB_Abs", "generated-003", "output"),
        ("SGB_Abs", "official-004", "input"),
        ("SGB_Abs", "official-005", "input"),
        ("SGB_Bad", None, "task"),
    ]
    task = load_task(tmp_path / "out" / "SGB_Abs")
    assert task.language == "jml"
    assert [(p.name, p.type_text) for p in task.inputs] == [("num", "i32")]
    assert [(p.name, p.type_text) for p in task.outputs] == [("result", "i32")]
    assert task.settings == {"class": "Solution", "method": "solve", "java_params": ["int"],
                             "java_return": "int", "static": True}
    pre = task.cases[Bucket.pre_complete]
    post = task.cases[Bucket.post_complete]
    # duplicates removed: generated "0" repeats official "0"; "-7" appears twice
    assert [c.input["num"] for c in pre] == [-4, 0, 4, 5, -7, 2]
    assert [(c.id, c.input["num"], c.output) for c in post] == [
        ("official-000", -4, {"result": 4}), ("official-001", 0, {"result": 0}),
        ("official-002", 4, {"result": 4}), ("official-003", 5, {"result": 5}),
        ("generated-001", -7, {"result": 7})]
    assert [c.visible for c in post] == [True, True, True, False, False]
    assert {c.origin for c in post} == {"official", "generated"}
    head = tomllib.loads((tmp_path / "out" / "SGB_Abs" / "task.toml").read_text())
    assert "GPL-3.0" in head["provenance"] and "Spec-Harness" in head["provenance"]
    assert (tmp_path / "out" / "SGB_Abs" / "Solution.java").read_text() == abs_code
    assert "Abs" in task.statement
    assert "[input]" in report.summary()


def test_folder_source_and_post_state_output(tmp_path: Path) -> None:
    code = ("public class Solution {\n public static void solve(int[] a, int iBegin, int iEnd)"
            " {\n  for (int i = iBegin; i < iEnd; i++) a[i] = 0;\n }\n}\n")
    test = ABS_TEST.replace(
        '        int p0 = Integer.parseInt(scanner.hasNextLine() ? scanner.nextLine().trim() : "");\n'
        "        int result = Solution.solve(p0);\n        System.out.println(result);\n",
        '        String _line_p0 = scanner.hasNextLine() ? scanner.nextLine().trim() : "";\n'
        "        int[] p0 = _line_p0.isEmpty() ? new int[0] : java.util.Arrays.stream("
        '_line_p0.split("\\\\s+")).mapToInt(Integer::parseInt).toArray();\n'
        '        String[] input = scanner.nextLine().trim().split("\\\\s+");\n'
        "        int p1 = Integer.parseInt(input[0]);\n        int p2 = Integer.parseInt(input[1]);\n"
        "        Solution.solve(p0, p1, p2);\n"
        '        for (int i = 0; i < p0.length; i++) { System.out.print(p0[i] + " "); }\n')
    (tmp_path / "fb").mkdir()
    write_jsonl(tmp_path / "fb" / "fb.jsonl",
                [record("FB_SetZero", code, test, official=[("1 2 3\n0 2", "0 0 3")])])
    report = import_formalbench(tmp_path / "fb", tmp_path / "out")
    assert len(report.converted) == 1 and report.figures["pairs_converted"] == 1
    task = load_task(tmp_path / "out" / "FB_SetZero")
    assert [(p.name, p.type_text) for p in task.outputs] == [("a", "seq<i32>")]
    assert task.settings["post_state"] == ["a"]
    assert task.settings["java_return"] == "void"
    (case,) = task.cases[Bucket.post_complete]
    assert case.input == {"a": [1, 2, 3], "iBegin": 0, "iEnd": 2}
    assert case.output == {"a": [0, 0, 3]}


def test_plugin_exposes_both_importers(tmp_path: Path) -> None:
    found = {i.name: i for i in adequacy_importers()}
    assert set(found) == {"specgenbench", "formalbench"}
    src = write_jsonl(tmp_path / "sgb.jsonl", [record(
        "SGB_Abs", "public class Solution {\n\tpublic static int solve(int num) {\n"
        "\t\treturn num < 0 ? -num : num;\n\t}\n}\n", ABS_TEST, official=[("-4", "4")])])
    report = found["specgenbench"].run(src, tmp_path / "out")
    assert report.importer == "specgenbench" and len(report.converted) == 1


@pytest.mark.dataset
@pytest.mark.slow
def test_specgenbench_converts_every_task(datasets_dir: Path, tmp_path: Path) -> None:
    report = import_specgenbench(datasets_dir / "specgenbench" / "sgb.jsonl", tmp_path)
    assert len(report.converted) == len(report.outcomes) == 120
    # every input converts but one (a matrix row longer than its header, which Java truncates)
    assert report.figures["inputs_converted"] == report.figures["pairs_total"] - 1
    # outputs that do not convert are those of the four void methods whose harness prints nothing
    unconverted = {tid for tid, p in report.problems if p.stage == "output"}
    assert unconverted == {"SGB_ReverseString", "SGB_SelectionSort", "SGB_SelectionSortDesc",
                           "SGB_SortLibrary"}
    assert report.figures["pairs_converted"] >= 23_700
    for d in sorted(tmp_path.iterdir()):
        task = load_task(d)
        assert task.cases[Bucket.pre_complete]
        if d.name not in unconverted:
            assert task.cases[Bucket.post_complete], d.name


@pytest.mark.dataset
@pytest.mark.slow
def test_formalbench_conversion_figures(datasets_dir: Path, tmp_path: Path) -> None:
    report = import_formalbench(datasets_dir / "formalbench", tmp_path)
    assert len(report.outcomes) == 662
    assert len(report.converted) >= 650
    assert report.figures["pairs_converted"] >= 1_950
    for d in sorted(tmp_path.iterdir()):
        load_task(d)


def test_records_of_the_wrong_shape_are_problems_not_crashes(tmp_path: Path) -> None:
    """Each malformed record is reported as that task's problem (the rest still converts);
    none escapes as a bare ValueError/KeyError/AttributeError."""
    abs_code = ("public class Solution {\n\tpublic static int solve(int num) {\n"
                "\t\tif (num < 0) return -num; else return num;\n\t}\n}\n")
    good = record("SGB_Abs", abs_code, ABS_TEST, official=[("-4", "4"), ("0", "0")])
    no_code = {k: v for k, v in record("SGB_NoCode", abs_code, ABS_TEST, [("1", "1")]).items()
               if k != "code"}
    no_main = record("SGB_NoMain", abs_code, "public class Test { }", [("1", "1")])
    bad_pair = record("SGB_BadPair", abs_code, ABS_TEST, [("1", "1")])
    bad_pair["test_inputs"].append("not an object")
    bad_list = record("SGB_BadList", abs_code, ABS_TEST, [("1", "1")])
    bad_list["generated_test_cases"] = 7
    src = write_jsonl(tmp_path / "sgb.jsonl", [good, no_code, no_main, bad_pair, bad_list])
    report = import_specgenbench(src, tmp_path / "out")
    why = {o.task_id: [p.detail for p in o.problems] for o in report.outcomes}
    assert any("no code text" in d for d in why["SGB_NoCode"])
    assert any("no main method" in d for d in why["SGB_NoMain"])
    assert "the pair is not a JSON object" in why["SGB_BadPair"]
    assert "generated_test_cases is not a JSON array" in why["SGB_BadList"]
    assert {o.task_id for o in report.converted} >= {"SGB_Abs"}


def test_importer_errors_are_our_input_error_not_value_error() -> None:
    from adequacy.errors import DatasetError, InputError
    from adequacy_openjml.importers.javatext import JavaConversionError
    from adequacy_openjml.importers.readers import HarnessUnsupported, ReadError
    from adequacy_verus.verina.lean_types import LeanTypeError
    from adequacy_verus.verina.lean_values import LeanValueError
    from adequacy_verus.verina.skeleton_bridge import NoSkeleton
    for cls in (JavaConversionError, HarnessUnsupported, ReadError, LeanTypeError,
                LeanValueError, NoSkeleton):
        assert issubclass(cls, DatasetError) and issubclass(cls, InputError), cls
        assert not issubclass(cls, ValueError), cls
