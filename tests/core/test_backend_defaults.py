"""The Backend base's declared-folder defaults: example tasks and gold specs come from
``example_dir`` and ``gold_dir``, so no backend rewrites the folder walk."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

from adequacy.extensions.backend import Backend
from adequacy.extensions.registry import registry
from adequacy.extensions.texts import WriterTexts
from adequacy.model.task import Task

REPO = Path(__file__).resolve().parents[2]


class _Folders(Backend):
    name = "folders"
    language = "folders"

    def writer_texts(self) -> WriterTexts:
        return WriterTexts(spec_ext="txt")


def _task(root: Path, task_id: str) -> Task:
    return cast(Task, SimpleNamespace(root=root, id=task_id))


def test_examples_are_the_task_folders_of_the_declared_folder(tmp_path: Path) -> None:
    ex = tmp_path / "examples"
    for name in ("b_task", "a_task"):
        (ex / name).mkdir(parents=True)
        (ex / name / "task.toml").write_text("")
    (ex / "not_a_task").mkdir()
    (ex / "stray.toml").write_text("")
    b = _Folders()
    assert b.example_tasks() == []  # no folder declared: none
    b.example_dir = ex
    assert b.example_tasks() == [ex / "a_task", ex / "b_task"]
    b.example_dir = tmp_path / "absent"
    assert b.example_tasks() == []


def test_gold_is_the_tasks_own_then_the_declared_gold_folder(tmp_path: Path) -> None:
    gold = tmp_path / "golds"
    gold.mkdir()
    (gold / "t1.txt").write_text("dataset gold")
    (gold / "t1.rs").write_text("another language's extension")
    own = tmp_path / "t1"
    b = _Folders()
    assert b.gold_spec(_task(own, "t1")) is None
    b.gold_dir = gold
    assert b.gold_spec(_task(own, "t1")) == "dataset gold"
    assert b.gold_spec(_task(own, "t2")) is None
    (own / "specs").mkdir(parents=True)
    (own / "specs" / "gold.txt").write_text("the task's own")
    assert b.gold_spec(_task(own, "t1")) == "the task's own"


def test_built_in_backends_declare_their_folders() -> None:
    """Each built-in backend finds its bundled examples and an imported dataset's gold by id."""
    declared = [b for b in registry().backends.values() if b.example_dir is not None]
    assert len(declared) >= 2  # both built-in languages bundle examples
    for backend in declared:
        b: Any = backend
        examples = b.example_tasks()
        assert examples, b.name
        assert all((d / "task.toml").is_file() for d in examples)
        ext = b.writer_texts().spec_ext
        golds = sorted(b.gold_dir.glob(f"*.{ext}"))
        assert golds, b.name
        first = golds[0]
        assert b.gold_spec(_task(REPO / "no-such-task", first.stem)) == first.read_text()
