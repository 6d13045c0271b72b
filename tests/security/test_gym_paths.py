"""Hostile task folders against ``gym make`` and the gym's tools: ids that are paths, symlinks
and hard links out of a task, a replaced folder that is not ours, a worked example that gives a
neighbour away. Each attack is run as an attacker would (the CLI, real files) and must leave
everything outside OUT as it was, with exit 2 and a message naming the file."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from adequacy.errors import TaskError
from adequacy.examples import bundled_folder
from adequacy.gym import GymTools, make_gym, read_manifest
from adequacy.gym.make import folder_in
from adequacy.gym.manifest import MANIFEST

REPO = Path(__file__).resolve().parents[2]
JML = bundled_folder("jml")
VERUS = bundled_folder("verus")
EXE = [sys.executable, "-m", "adequacy"]


def _task(tmp: Path, src: Path = JML / "abs_value", name: str = "t") -> Path:
    d = tmp / "tasks" / name
    shutil.copytree(src, d)
    return d


def _set_id(task: Path, tid: str) -> None:
    toml = task / "task.toml"
    lines = toml.read_text().splitlines()
    toml.write_text("\n".join([f"id = {json.dumps(tid)}"] + lines[1:]) + "\n")


def _victim(tmp: Path) -> Path:
    v = tmp / "victim"
    v.mkdir()
    (v / "precious.txt").write_text("keep me\n")
    return v


def _gym_make(*args: str) -> subprocess.CompletedProcess[str]:
    r = subprocess.run([*EXE, "gym", "make", *args], capture_output=True, text=True)
    assert "Traceback" not in r.stderr, r.stderr
    return r


@pytest.mark.parametrize("kind", ["absolute", "dotdot", "slash", "dot"])
@pytest.mark.slow
def test_an_id_that_is_a_path_is_refused_and_nothing_is_deleted(tmp_path: Path,
                                                                kind: str) -> None:
    victim = _victim(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    tid = {"absolute": str(victim), "dotdot": "../victim", "slash": "a/b", "dot": ".."}[kind]
    task = _task(tmp_path)
    _set_id(task, tid)
    r = subprocess.run([*EXE, "task", "validate", str(task)], capture_output=True, text=True)
    assert r.returncode == 2 and "task.toml:1: id: id must be a name" in r.stderr + r.stdout
    r = _gym_make(str(task), str(out), "--force")
    assert r.returncode == 2 and "id must be a name" in r.stderr
    assert (victim / "precious.txt").read_text() == "keep me\n"
    assert sorted(os.listdir(victim)) == ["precious.txt"]
    assert os.listdir(out) == []


def test_folder_in_refuses_names_that_are_not_one_component(tmp_path: Path) -> None:
    for bad in ("..", ".", "", "a/b", "/etc", "x\0y"):
        with pytest.raises(TaskError):
            folder_in(tmp_path, bad)
    assert folder_in(tmp_path, "ok") == tmp_path / "ok"


@pytest.mark.slow
def test_force_replaces_gym_folders_only(tmp_path: Path) -> None:
    task = _task(tmp_path)
    out = tmp_path / "out"
    victim = _victim(tmp_path)
    # OUT/<id> a symlink to a folder elsewhere: neither followed nor deleted
    out.mkdir()
    (out / "jml_abs_value").symlink_to(victim)
    r = _gym_make(str(task), str(out), "--force")
    assert r.returncode == 2 and "not a gym folder" in r.stderr
    assert (victim / "precious.txt").is_file() and (out / "jml_abs_value").is_symlink()
    # OUT/<id> a folder of the user's (no gym.json): kept
    (out / "jml_abs_value").unlink()
    (out / "jml_abs_value").mkdir()
    (out / "jml_abs_value" / "notes.txt").write_text("mine\n")
    r = _gym_make(str(task), str(out), "--force")
    assert r.returncode == 2 and "no gym.json" in r.stderr
    assert (out / "jml_abs_value" / "notes.txt").is_file()
    # a gym folder is replaced
    shutil.rmtree(out / "jml_abs_value")
    assert _gym_make(str(task), str(out)).returncode == 0
    (out / "jml_abs_value" / "scratch").write_text("x")
    assert _gym_make(str(task), str(out), "--force").returncode == 0
    assert not (out / "jml_abs_value" / "scratch").exists()


def _refused(tmp_path: Path, task: Path, secret: str, needle: str) -> None:
    out = tmp_path / "out"
    r = _gym_make(str(task), str(out))
    assert r.returncode == 2, r.stdout
    assert needle in r.stderr, r.stderr
    for p in out.rglob("*") if out.exists() else []:
        if p.is_file():
            assert secret not in p.read_text(errors="replace"), p


@pytest.mark.slow
def test_statement_symlink_out_of_the_task_is_refused(tmp_path: Path) -> None:
    task = _task(tmp_path)
    (task / "statement.md").unlink()
    (task / "statement.md").symlink_to("/etc/passwd")
    _refused(tmp_path, task, "root:", "statement.md leads outside the task folder")


@pytest.mark.slow
def test_statement_hard_link_is_refused(tmp_path: Path) -> None:
    task = _task(tmp_path)
    secret = tmp_path / "secret.md"
    secret.write_text("SECRET-GOLD ensures \\result == 42\n")
    (task / "statement.md").unlink()
    os.link(secret, task / "statement.md")
    _refused(tmp_path, task, "SECRET-GOLD", "statement.md is a hard link")


@pytest.mark.slow
def test_symlinked_cases_file_is_refused(tmp_path: Path) -> None:
    task = _task(tmp_path)
    elsewhere = tmp_path / "elsewhere.jsonl"
    shutil.copyfile(task / "tests" / "post_complete.jsonl", elsewhere)
    (task / "tests" / "post_complete.jsonl").unlink()
    (task / "tests" / "post_complete.jsonl").symlink_to(elsewhere)
    _refused(tmp_path, task, "\x00never", "tests/post_complete.jsonl leads outside")


@pytest.mark.slow
def test_symlinked_tests_folder_is_refused(tmp_path: Path) -> None:
    task = _task(tmp_path)
    shutil.move(task / "tests", tmp_path / "real_tests")
    (task / "tests").symlink_to(tmp_path / "real_tests")
    _refused(tmp_path, task, "\x00never", "leads outside the task folder")


@pytest.mark.slow
def test_specs_folder_symlink_to_another_task_is_refused(tmp_path: Path) -> None:
    """A worked example whose specs/ is another task's: its gold spec would be the example."""
    ex = _task(tmp_path, JML / "array_max", "ex")
    shutil.rmtree(ex / "specs")
    (ex / "specs").symlink_to(JML / "linear_search" / "specs")
    task = _task(tmp_path)
    r = _gym_make(str(task), str(tmp_path / "out"), "--examples", str(ex.parent / "ex"))
    assert r.returncode == 2 and "specs/gold.java leads outside" in r.stderr


@pytest.mark.slow
def test_a_file_field_with_dotdot_writes_nothing_outside_out(tmp_path: Path) -> None:
    """[jml] class names a class, not a file: gym make writes fixed names inside OUT only."""
    task = _task(tmp_path)
    toml = task / "task.toml"
    toml.write_text(toml.read_text().replace('class = "Solution"', 'class = "../../../pwn"'))
    before = sorted(str(p) for p in tmp_path.parent.rglob("*"))
    out = tmp_path / "out"
    r = _gym_make(str(task), str(out))
    assert r.returncode in (0, 2)
    after = sorted(str(p) for p in tmp_path.parent.rglob("*"))
    new = [p for p in after if p not in before]
    assert all(Path(p).is_relative_to(out) for p in new), new


def test_no_worked_example_comes_from_the_batch(tmp_path: Path) -> None:
    """Without --examples, a task's folder must not hold any batch task's gold spec, so an MCP
    agent reading a neighbour's example/ learns nothing it is graded on."""
    src = [VERUS / "binary_search_first", VERUS / "euclid_mod", JML / "abs_value",
           JML / "linear_search"]
    out = tmp_path / "gym"
    make_gym(src, out)
    golds = [(d / "specs" / ("gold.rs" if d.parent == VERUS else "gold.java")).read_text()
             for d in src]
    tools = GymTools(out)
    assert len(list(out.iterdir())) == len(src)
    for d in sorted(out.iterdir()):
        m = read_manifest(d)
        assert m.example_task is not None and m.example_task.startswith("gym_example_")
        text = tools.read_file(m.task_id, f"example/{m.spec_file}")
        assert "ensures" in text or "post_spec" in text
        assert text not in golds
        for p in d.rglob("*"):
            if p.is_file():
                assert p.read_text(errors="replace") not in golds, p


def test_read_file_withholds_an_example_taken_from_a_served_task(tmp_path: Path) -> None:
    """A folder made the old way (example from the batch): its example/ is refused."""
    out = tmp_path / "gym"
    make_gym([JML / "abs_value", JML / "linear_search"], out)
    d = out / "jml_abs_value"
    m = json.loads((d / MANIFEST).read_text())
    m["example_task"] = "jml_linear_search"
    (d / MANIFEST).write_text(json.dumps(m))
    gold = (JML / "linear_search" / "specs" / "gold.java").read_text()
    (d / "example" / "Solution.java").write_text(gold)
    tools = GymTools(out)
    for p in ("example/Solution.java", "example", "example/../example/Solution.java"):
        text = tools.read_file("jml_abs_value", p)
        assert text.startswith("error") and gold not in text, p
    assert "Absolute" in tools.read_file("jml_abs_value", "statement.md") or \
        tools.read_file("jml_abs_value", "statement.md").strip()


def test_manifest_spec_file_out_of_the_folder_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "gym"
    make_gym([JML / "abs_value"], out)
    d = out / "jml_abs_value"
    secret = tmp_path / "secret.java"
    secret.write_text("SECRET")
    m = json.loads((d / MANIFEST).read_text())
    m["spec_file"] = "../../secret.java"
    (d / MANIFEST).write_text(json.dumps(m))
    text = GymTools(out).check("jml_abs_value")
    assert text.startswith("error") and "outside the task's folder" in text


def test_force_never_deletes_the_source_task(tmp_path: Path) -> None:
    """OUT is the folder of tasks and a task's folder is named by its id: OUT/<id> is the
    source task itself, which --force used to delete."""
    tasks = tmp_path / "tasks"
    task = _task(tmp_path, name="jml_abs_value")
    r = _gym_make(str(task), str(tasks), "--force")
    assert r.returncode == 2 and "no gym.json" in r.stderr
    assert (task / "tests" / "post_sound.jsonl").is_file()


@pytest.mark.slow
def test_an_out_that_cannot_be_a_folder_is_a_usage_error(tmp_path: Path) -> None:
    f = tmp_path / "file"
    f.write_text("x")
    r = _gym_make(str(JML / "abs_value"), str(f))
    assert r.returncode == 2 and "cannot make the gym folder" in r.stderr
    assert "internal error" not in r.stderr
