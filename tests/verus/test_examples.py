"""Every bundled Verus example spec fails exactly the buckets its expected.toml names."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from adequacy.examples import bundled_folder
from adequacy.extensions.backend import Limits, engine_named
from adequacy.extensions.registry import registry
from adequacy.model.verdicts import BUCKETS, Truth
from adequacy.taskdirs.load import load_task

EXAMPLES = bundled_folder("verus")


def _specs() -> list[tuple[Path, str, dict[str, Any]]]:
    out = []
    for task_dir in sorted(p for p in EXAMPLES.iterdir() if p.is_dir()):
        exp = tomllib.loads((task_dir / "specs" / "expected.toml").read_text())["specs"]
        for name, e in exp.items():
            out.append((task_dir, name, e))
    return out


SPECS = _specs()
IDS = [f"{t.name}/{n}" for t, n, _ in SPECS]


def test_the_catalogue_has_what_the_issue_asks_for() -> None:
    tasks = {t.name for t, _, _ in SPECS}
    assert len(tasks) >= 6
    bs = {n: e["fails"] for t, n, e in SPECS if t.name == "binary_search_first"}
    assert sorted(map(tuple, bs.values())) == [(), ("post_complete",), ("post_sound",),
                                               ("pre_complete",), ("pre_sound",)]
    for t in tasks:
        names = [n for tt, n, _ in SPECS if tt.name == t]
        assert "gold.rs" in names and any(n.startswith("flawed_") for n in names)
    # every flawed spec fails exactly one bucket; at least one spec only the interpreter decides
    assert all(len(e["fails"]) == 1 for _, n, e in SPECS if n.startswith("flawed_"))
    assert any(not e["exec_spec"] for _, _, e in SPECS)


@pytest.mark.parametrize(("task_dir", "name", "exp"), SPECS, ids=IDS)
def test_specs_pass_the_front_end(task_dir: Path, name: str, exp: dict[str, Any]) -> None:
    task = load_task(task_dir)
    registry().backends["verus"].load_spec(task, (task_dir / "specs" / name).read_text(), name)


def _failed_buckets(task_dir: Path, name: str, engine: str) -> tuple[set[str], list[str]]:
    task = load_task(task_dir)
    b = registry().backends["verus"]
    spec = b.load_spec(task, (task_dir / "specs" / name).read_text(), name)
    verdicts = engine_named(b, engine).check(spec, task, task.all_cases(), Limits())
    unknown = [f"{v.case_id}: {v.reason}" for v in verdicts if v.value is Truth.unknown]
    return {v.bucket.value for v in verdicts if not v.passed}, unknown


@pytest.mark.slow
@pytest.mark.parametrize(("task_dir", "name", "exp"), SPECS, ids=IDS)
def test_exec_spec_verdicts(task_dir: Path, name: str, exp: dict[str, Any]) -> None:
    failed, unknown = _failed_buckets(task_dir, name, "exec_spec")
    if not exp["exec_spec"]:
        # partly outside the fragment: the cases of a predicate that reaches the gap are
        # unknown with the reason saying so; what exec_spec decides must still be right
        assert unknown, "expected.toml says this spec is outside exec_spec's fragment"
        assert all("outside exec_spec's fragment" in u for u in unknown)
        task = load_task(task_dir)
        b = registry().backends["verus"]
        spec = b.load_spec(task, (task_dir / "specs" / name).read_text(), name)
        decided = [v for v in engine_named(b, "exec_spec").check(spec, task, task.all_cases(),
                                                                      Limits())
                   if v.decided]
        assert {v.bucket.value for v in decided if not v.passed} <= set(exp["fails"])
        return
    assert unknown == []
    assert failed == set(exp["fails"])


@pytest.mark.parametrize(("task_dir", "name", "exp"), SPECS, ids=IDS)
def test_interp_verdicts(task_dir: Path, name: str, exp: dict[str, Any]) -> None:
    interp = pytest.importorskip("adequacy_verus.interp")
    if not hasattr(interp, "evaluate_cases"):
        pytest.skip("interp engine not built yet")
    failed, unknown = _failed_buckets(task_dir, name, "interp")
    assert unknown == []
    assert failed == set(exp["fails"])


def test_every_bucket_name_in_expectations_is_real() -> None:
    names = {b.value for b in BUCKETS}
    assert SPECS
    for _, _, e in SPECS:
        assert set(e["fails"]) <= names
