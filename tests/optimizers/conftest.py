"""Shared helpers for the optimizer tests: bundled example tasks and the prover's availability."""

from __future__ import annotations

from pathlib import Path

from adequacy.tasks import Task, load_task

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"


def example(lang: str, name: str) -> Task:
    return load_task(EXAMPLES / lang / name)


def gold(lang: str, name: str) -> str:
    ext = "rs" if lang == "verus" else "java"
    return (EXAMPLES / lang / name / "specs" / f"gold.{ext}").read_text(encoding="utf-8")

