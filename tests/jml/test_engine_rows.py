"""JML engines are imported one at a time from their ENGINES rows (as Verus's are): one
broken engine module is listed unavailable with its error and rac still scores."""

from __future__ import annotations

import pytest
from jml_support import EXAMPLES

from adequacy.errors import EngineUnavailable
from adequacy.extensions.backend import Limits
from adequacy.model.verdicts import Truth
from adequacy.taskdirs.load import load_task
from adequacy_openjml import plugin


def test_a_broken_engine_module_does_not_take_rac_down(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path) -> None:
    broken = tmp_path / "broken_engine_mod.py"
    broken.write_text("raise RuntimeError('this engine module is broken')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(plugin, "ENGINES", (
        plugin.ENGINES[0], ("openjml", "broken_engine_mod", "Engine", False, 30)))
    rac, bad = plugin.OpenJmlBackend().engines()
    info = bad.info()
    assert not info.available and "this engine module is broken" in info.reason
    assert info.fidelity == 30 and not info.default
    task = load_task(EXAMPLES / "abs_value")
    spec = plugin.OpenJmlBackend().load_spec(
        task, (EXAMPLES / "abs_value" / "specs" / "gold.java").read_text(), "gold.java")
    with pytest.raises(EngineUnavailable):
        bad.check(spec, task, task.all_cases(), Limits())
    if not rac.info().available:
        pytest.skip(f"rac unavailable here: {rac.info().reason}")
    verdicts = rac.check(spec, task, task.all_cases(), Limits())
    # the gold spec of abs_value is faithful: every case is decided and passes
    assert verdicts and all(v.value is not Truth.unknown and v.passed for v in verdicts)


def test_rows_declare_default_and_fidelity_once() -> None:
    infos = {e.name: e.info() for e in plugin.OpenJmlBackend().engines()}
    assert {n: (i.default, i.fidelity) for n, i in infos.items()} == {
        r[0]: (r[3], r[4]) for r in plugin.ENGINES}
    # versions follow engine_version: the tool's version, then the engine's sources' hash
    assert all("+src." in i.version for i in infos.values())
