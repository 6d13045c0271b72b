"""Shared helpers for the optimizer tests: bundled example tasks and the prover's availability."""

from __future__ import annotations

from pathlib import Path

from adequacy.examples import bundled_folder
from adequacy.model.task import Task
from adequacy.taskdirs.load import load_task

REPO = Path(__file__).resolve().parents[2]


class _Examples:
    """The bundled examples as ``adequacy examples`` lays them out: ``EXAMPLES / "verus"`` is
    the installed folder that becomes ``DEST/verus``."""

    def __truediv__(self, name: str) -> Path:
        return bundled_folder(name)


EXAMPLES = _Examples()


def example(lang: str, name: str) -> Task:
    return load_task(bundled_folder(lang) / name)


def gold(lang: str, name: str) -> str:
    ext = "rs" if lang == "verus" else "java"
    return (bundled_folder(lang) / name / "specs" / f"gold.{ext}").read_text(encoding="utf-8")

