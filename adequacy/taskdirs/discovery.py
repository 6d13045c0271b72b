"""Which task folders a list of command-line paths names.

Every command that takes "task folders or folders of tasks" (``task validate``, ``run
--tasks``, ``gym make``, ``agent``, ``synthesize``, ``optimize``) goes through
``discover_tasks``, so the same paths name the same tasks everywhere and a typo is the same
error everywhere (before, one command skipped what another reported, and a third scored an
empty list).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from adequacy.errors import TaskError

_NOT = "not a task folder or a folder of tasks"


def is_task_folder(p: Path) -> bool:
    return (p / "task.toml").is_file()


def discover_tasks(paths: Iterable[Path]) -> list[Path]:
    """A task folder stands for itself; any other folder for its subfolders holding a
    ``task.toml`` (one level down, sorted by name). A path that is neither, or a folder with no
    task in it, is an error naming the path: a batch silently missing tasks would report
    scores over a different set than the user asked for. Repeats are dropped, first kept."""
    out: list[Path] = []
    seen: set[Path] = set()
    for p in paths:
        if is_task_folder(p):
            found = [p]
        elif p.is_dir():
            found = sorted(d for d in p.iterdir() if is_task_folder(d))
            if not found:
                raise TaskError(f"{_NOT}: no task.toml in it or in its subfolders",
                                file=str(p))
        elif p.exists():
            raise TaskError(f"{_NOT}: it is a file", file=str(p))
        else:
            raise TaskError(f"{_NOT}: it does not exist", file=str(p))
        for d in found:
            key = d.resolve()
            if key not in seen:
                seen.add(key)
                out.append(d)
    return out


def default_spec_glob(task_dir: Path) -> str:
    """``specs/*`` narrowed to the spec files of the task's backend (the suffix of its
    skeleton, ``specs/*.rs`` for a Verus task): a task's ``specs/`` also holds notes such as
    ``expected.toml``, which scored as a spec is one more "invalid spec" in the results. A task
    whose language no backend serves keeps ``specs/*``; scoring it then says why."""
    from adequacy.taskdirs.load import _read_header, task_files

    head = _read_header(task_dir, [])
    files = task_files(str(head.get("language"))) if head else None
    suffix = Path(files.skeleton).suffix if files else ""
    return f"specs/*{suffix}"
