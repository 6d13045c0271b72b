"""A malformed ``tags`` list is a task error with its line, not a model's traceback."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from adequacy.errors import TaskError
from adequacy.examples import bundled_folder
from adequacy.taskdirs.load import load_task

EUCLID = bundled_folder("verus") / "euclid_mod"


def test_nested_tags_are_refused_with_the_line(tmp_path: Path) -> None:
    d = tmp_path / "t"
    shutil.copytree(EUCLID, d)
    toml = d / "task.toml"
    lines = [ln for ln in toml.read_text().splitlines() if not ln.startswith("tags")]
    lines.insert(2, 'tags = [["a"]]')
    toml.write_text("\n".join(lines) + "\n")
    with pytest.raises(TaskError) as e:
        load_task(d)
    assert e.value.line == 3 and "tags" in str(e.value)
