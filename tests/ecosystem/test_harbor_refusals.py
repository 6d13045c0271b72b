"""What `adequacy export harbor` refuses, before building anything: each is one line, exit 2."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from adequacy.ecosystem.harbor_export import HarborOptions, export_harbor, harbor_name
from adequacy.errors import TaskError

from .conftest import EXAMPLES


def _copy(tmp_path: Path, name: str = "euclid_mod") -> Path:
    src = tmp_path / "src"
    shutil.copytree(EXAMPLES[0] / name, src / name)
    return src / name


def test_a_bucket_no_spec_can_pass_is_refused(tmp_path: Path) -> None:
    task = _copy(tmp_path)
    (task / "tests" / "pre_sound.jsonl").write_text("")
    with pytest.raises(TaskError, match="pre_sound has no case"):
        export_harbor([task], tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_a_shipped_worked_example_is_refused(tmp_path: Path) -> None:
    """Its gold spec travels inside the wheel the image installs."""
    from adequacy.examples import gym_examples

    shipped = gym_examples("verus")
    task = next(d for d in shipped.iterdir() if (d / "task.toml").is_file())
    with pytest.raises(TaskError, match="shipped worked examples"):
        export_harbor([task], tmp_path / "out")


def test_a_symlinked_task_file_is_refused(tmp_path: Path) -> None:
    task = _copy(tmp_path)
    (tmp_path / "elsewhere.md").write_text("secret")
    (task / "statement.md").unlink()
    (task / "statement.md").symlink_to(tmp_path / "elsewhere.md")
    with pytest.raises(TaskError, match="outside the task folder"):
        export_harbor([task], tmp_path / "out")


@pytest.mark.parametrize("org,tid", [("", "x"), ("a/b", "x"), ("ok", "_starts_with_score"),
                                     ("ok", "a..b"), ("-dash", "x")])
def test_names_harbor_would_refuse(org: str, tid: str) -> None:
    with pytest.raises(TaskError, match="Harbor task name"):
        harbor_name(org, tid)


def test_a_file_given_as_wheel_is_refused(tmp_path: Path) -> None:
    (tmp_path / "x.whl").write_text("not a zip")
    with pytest.raises(Exception, match="wheel of spec-adequacy|not a zip"):
        export_harbor([_copy(tmp_path)], tmp_path / "out",
                      HarborOptions(wheel=tmp_path / "x.whl"))


def test_cli_errors_are_one_line(tmp_path: Path) -> None:
    run = [sys.executable, "-m", "adequacy", "export", "harbor"]
    for args, needle in (([str(tmp_path / "missing"), str(tmp_path / "o")], "missing"),
                         ([str(tmp_path)], "TASKS... and OUT"),
                         ([str(_copy(tmp_path)), str(tmp_path / "o"), "--visible", "-1"],
                          "--visible must be >= 0")):
        r = subprocess.run([*run, *args], capture_output=True, text=True, timeout=120)
        assert r.returncode == 2, r.stderr
        assert len(r.stderr.strip().splitlines()) == 1 and needle in r.stderr, r.stderr


def test_a_language_without_a_container_recipe_is_refused(toy: None, toy_task: Path,
                                                          tmp_path: Path) -> None:
    """The toy language (a third-party backend) gives no `container_recipe`: its tasks cannot
    be graded in an image, and the export says so before writing anything."""
    with pytest.raises(TaskError, match="gives no container recipe"):
        export_harbor([toy_task], tmp_path / "out")
    assert not (tmp_path / "out").exists()
