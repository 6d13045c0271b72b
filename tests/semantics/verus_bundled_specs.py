"""Every bundled Verus spec with its task: examples/verus/*/specs and examples/verina-gold
(whose tasks are imported from the VERINA dataset when it is present)."""

from __future__ import annotations

from pathlib import Path

from adequacy.examples import bundled_folder
from adequacy.model.task import Task
from adequacy.taskdirs.load import load_task
from adequacy_verus.verina.importer import import_verina

REPO = Path(__file__).resolve().parents[2]


def example_specs() -> list[tuple[Task, Path]]:
    out = []
    for task_dir in sorted(p for p in (bundled_folder("verus")).iterdir() if p.is_dir()):
        task = load_task(task_dir)
        out += [(task, spec) for spec in sorted((task_dir / "specs").glob("*.rs"))]
    return out


def verina_gold_specs(datasets: Path | None, work: Path) -> list[tuple[Task, Path]]:
    """Empty when the VERINA dataset is absent."""
    gold = sorted((bundled_folder("verina-gold")).glob("*.rs"))
    if datasets is None or not (datasets / "verina").is_dir():
        return []
    import_verina(datasets / "verina", work, only=[p.stem for p in gold])
    return [(load_task(work / p.stem), p) for p in gold]
