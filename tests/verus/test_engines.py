"""The Verus backend's engine objects: the Engine surface, their ranks, and an engine module
that fails to import listed unavailable without stopping the others."""

from __future__ import annotations

import pytest

from adequacy.errors import EngineUnavailable
from adequacy.examples import bundled_folder
from adequacy.extensions.backend import Engine, Limits, engine_named
from adequacy.model.verdicts import Truth
from adequacy.taskdirs.load import load_task
from adequacy_verus import plugin
from adequacy_verus.loaded import VerusSpec

TASK = bundled_folder("verus") / "euclid_mod"


def test_engines_in_chain_order_with_their_ranks() -> None:
    engines = plugin.VerusBackend().engines()
    assert [e.name for e in engines] == ["interp", "exec_spec", "smt", "verus"]
    assert all(isinstance(e, Engine) for e in engines)
    infos = {e.name: e.info() for e in engines}
    assert {n: (i.fidelity, i.default) for n, i in infos.items()} == {
        "interp": (20, True), "exec_spec": (10, True), "smt": (15, True), "verus": (30, False)}
    assert all(i.decides and "unknown" in i.decides for i in infos.values())
    assert infos["interp"].available


def test_an_engine_that_cannot_be_imported_is_listed_unavailable(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plugin, "ENGINES", (
        ("interp", ".interp.engine", "InterpEngine", True, 20),
        ("broken", ".no_such_engine", "Broken", True, 5)))
    b = plugin.VerusBackend()
    interp, broken = b.engines()
    info = broken.info()
    assert not info.available and "no_such_engine" in info.reason and info.fidelity == 5
    task = load_task(TASK)
    spec = b.load_spec(task, (TASK / "specs" / "gold.rs").read_text(), "gold.rs")
    with pytest.raises(EngineUnavailable):
        broken.check(spec, task, task.all_cases(), Limits())
    assert all(v.value is not Truth.unknown
               for v in interp.check(spec, task, task.all_cases(), Limits()))


def test_loaded_spec_carries_the_compiled_program() -> None:
    b = plugin.VerusBackend()
    task = load_task(TASK)
    spec = b.load_spec(task, (TASK / "specs" / "gold.rs").read_text(), "gold.rs")
    assert isinstance(spec.data, VerusSpec)
    assert "pre_spec" in spec.data.program.fns and spec.data.program.module is spec.data.module
    vs = engine_named(b, "interp").check(spec, task, task.all_cases(), Limits())
    assert len(vs) == len(task.all_cases()) and all(v.engine == "interp" for v in vs)
