"""`adequacy export hf` / `import hf`: `datasets.load_dataset` reads the folder, and the import
writes back task folders identical, byte for byte, to the originals; rows edited in one place
only, paths out of the folder and taken folders are refused."""

from __future__ import annotations

import filecmp
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

datasets = pytest.importorskip("datasets", reason="datasets is not installed (pip install "
                               "'spec-adequacy[hf]')")

from adequacy.ecosystem.hf_dataset import DATA_FILE, export_hf, features, import_hf  # noqa: E402
from adequacy.taskdirs.load import load_task  # noqa: E402

from .conftest import EXAMPLES  # noqa: E402


def _same_tree(a: Path, b: Path) -> list[str]:
    """Paths that differ between two folders (missing on one side, or other bytes)."""
    diff: list[str] = []
    cmp = filecmp.dircmp(a, b, ignore=["__pycache__"])

    def walk(c: filecmp.dircmp[str], rel: str) -> None:
        diff.extend(f"{rel}{n}" for n in c.left_only + c.right_only + c.funny_files)
        for n in c.common_files:
            if (Path(c.left) / n).read_bytes() != (Path(c.right) / n).read_bytes():
                diff.append(f"{rel}{n}")
        for n, sub in c.subdirs.items():
            walk(sub, f"{rel}{n}/")

    walk(cmp, "")
    return diff


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("hf") / "spec-adequacy-bundled"
    export_hf(list(EXAMPLES), out, license_id="mit")
    return out


def test_load_dataset_reads_the_folder(exported: Path, tmp_path: Path) -> None:
    ds = datasets.load_dataset(str(exported), cache_dir=str(tmp_path / "cache"))
    assert list(ds) == ["test"]
    rows = {r["task_id"]: r for r in ds["test"]}
    tasks = {load_task(d).id: load_task(d) for lang in EXAMPLES for d in lang.iterdir()
             if (d / "task.toml").is_file()}
    assert set(rows) == set(tasks)
    r, t = rows["binary_search_first"], tasks["binary_search_first"]
    assert r["statement"] == t.statement and r["language"] == "verus"
    assert r["signature"]["inputs"] == [{"name": "arr", "type": "seq<i64>"},
                                        {"name": "target", "type": "i64"}]
    assert r["gold_spec"] == (t.root / "specs" / "gold.rs").read_text()
    assert [p["path"] for p in r["reference"]] == ["reference/reference.py",
                                                   "reference/validator.py"]
    post = r["cases"]["post_sound"]
    assert len(post) == len(t.cases[t.all_cases()[-1].bucket])
    first = t.cases[t.all_cases()[-1].bucket][0]
    assert json.loads(post[0]["input"]) == first.input
    assert json.loads(post[0]["output"]) == first.output
    assert post[0]["origin"] == first.origin and post[0]["visible"] == first.visible
    assert ds["test"].features == features()
    card = (exported / "README.md").read_text()
    assert card.startswith("---\nlicense: \"mit\"") and f"path: {DATA_FILE}" in card


def test_import_writes_back_identical_task_folders(exported: Path, tmp_path: Path) -> None:
    dest = tmp_path / "back"
    report = import_hf(str(exported), dest)
    assert len(report.converted) == 14 and not report.failed
    for lang in EXAMPLES:
        for d in sorted(p for p in lang.iterdir() if (p / "task.toml").is_file()):
            assert _same_tree(d, dest / d.name) == [], d.name


def _rewrite(exported: Path, out: Path, change: Any) -> Path:
    """A copy of the dataset whose rows went through ``change`` (a hostile or careless
    editor)."""
    rows = [dict(r) for r in datasets.load_dataset(str(exported), cache_dir=str(out / "c"))[
        "test"]]
    for r in rows:
        change(r)
    dst = out / "edited"
    (dst / "data").mkdir(parents=True)
    datasets.Dataset.from_list(rows, features=features()).to_parquet(str(dst / DATA_FILE))
    (dst / "README.md").write_text((exported / "README.md").read_text())
    return dst


def test_rows_edited_in_one_place_or_pointing_out_are_refused(exported: Path,
                                                              tmp_path: Path) -> None:
    def edit(r: dict[str, Any]) -> None:
        if r["task_id"] == "euclid_mod":  # a case relabelled in the column only
            r["cases"]["pre_sound"][0]["visible"] = not r["cases"]["pre_sound"][0]["visible"]
        if r["task_id"] == "remove_at":  # a file written outside the task folder
            r["files"] = [*r["files"], {"path": "../../escaped.txt", "content": "x"}]
        if r["task_id"] == "is_palindrome":
            r["task_id"] = "../is_palindrome"

    dest = tmp_path / "dest"
    report = import_hf(str(_rewrite(exported, tmp_path, edit)), dest)
    failed = {o.task_id: o.problems[0].kind for o in report.failed}
    assert failed == {"euclid_mod": "columns disagree with files",
                      "remove_at": "bad file", "../is_palindrome": "bad task id"}
    assert len(report.converted) == 11
    assert not (tmp_path / "escaped.txt").exists() and not list(tmp_path.rglob("escaped.txt"))
    assert not [p for p in dest.iterdir() if p.name.startswith(".")]  # no staging left


def test_import_does_not_overwrite_a_folder(exported: Path, tmp_path: Path) -> None:
    dest = tmp_path / "dest"
    (dest / "euclid_mod").mkdir(parents=True)
    (dest / "euclid_mod" / "mine.txt").write_text("keep")
    report = import_hf(str(exported), dest)
    assert [o.task_id for o in report.failed] == ["euclid_mod"]
    assert (dest / "euclid_mod" / "mine.txt").read_text() == "keep"


def test_cli_round_trip_and_errors(tmp_path: Path) -> None:
    out = tmp_path / "ds"
    run = [sys.executable, "-m", "adequacy"]
    r = subprocess.run([*run, "export", "hf", str(EXAMPLES[0] / "euclid_mod"), str(out)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    r = subprocess.run([*run, "export", "hf", str(EXAMPLES[0] / "euclid_mod"), str(out)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and "--force" in r.stderr and len(r.stderr.splitlines()) == 1
    r = subprocess.run([*run, "import", "hf", str(out), str(tmp_path / "back")],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert _same_tree(EXAMPLES[0] / "euclid_mod", tmp_path / "back" / "euclid_mod") == []
    r = subprocess.run([*run, "import", "hf", str(tmp_path / "nothing-here"),
                        str(tmp_path / "b2")], capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and r.stderr.startswith("error:")
