"""Mutants on the converted Spec-Harness datasets: none equals its original, none is invalid."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.dataset


def table_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutants_table",
                                                  REPO / "benchmarks" / "mutants_table.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.slow
def test_specgenbench_mutants_never_equal_the_original(datasets_dir: Path) -> None:
    res = table_module().collect(datasets_dir, "specgenbench", per_case=3, seed=0)
    t = res["totals"]
    assert res["tasks_imported"] >= 115
    assert t["mutants"] > 2000
    assert t["equal"] == 0 and t["invalid"] == 0
    outputs = {r["output"] for r in res["tasks"] if r["mutants"]}
    assert {"result: char", "result: array<array<i32>>", "result: f64"} <= outputs
    ops = res["per_operator"]
    assert ops.get("char.case_flip", 0) > 0 and ops.get("float.scale", 0) > 0


@pytest.mark.slow
def test_formalbench_string_arrays_maps_and_sets(datasets_dir: Path) -> None:
    res = table_module().collect(datasets_dir, "formalbench", per_case=3, seed=1)
    t = res["totals"]
    assert t["equal"] == 0 and t["invalid"] == 0
    by_type: dict[str, int] = {}
    for r in res["tasks"]:
        by_type[r["output"]] = by_type.get(r["output"], 0) + r["mutants"]
    for ty in ("result: array<string>", "result: map<string, i32>", "result: set<string>",
               "result: array<array<string>>"):
        assert by_type.get(ty, 0) > 0, ty
