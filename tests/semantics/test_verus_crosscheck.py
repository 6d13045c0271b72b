"""--cross-check over every bundled Verus spec: the engines never disagree (fidelity rule 4),
and no spec the front end accepts is reported invalid (rule 1). A cross-check with one
deciding engine compares nothing, so each spec must be decided by two engines (skipped where
fewer than two engines are available here)."""

from __future__ import annotations

from pathlib import Path

import pytest
from verus_bundled_specs import example_specs, verina_gold_specs

from adequacy.extensions import registry
from adequacy.scoring.runner import score_spec
from adequacy.scoring.spec_report import SpecReport

pytestmark = pytest.mark.slow

EXAMPLES = example_specs()


ONE_ENGINE: dict[str, str] = {}
"""Example tasks only one engine decides, and why: their cross-check compares nothing.
(euclid_mod's int fields are outside exec_spec, but the smt engine decides its cases.)"""


def _deciding(rep: SpecReport) -> set[str]:
    """Engines that decided at least one case of the spec."""
    return {e.name for e in rep.engines if e.decided}


def _need_two_engines() -> None:
    owner = registry.registry().owner("verus")
    usable = [e.name for e, info in registry.registry().engine_infos(owner)
              if info.available and info.default]
    if len(usable) < 2:
        pytest.skip(f"a cross-check needs two available default engines (have {usable})")


@pytest.mark.parametrize(("task", "spec"), EXAMPLES,
                         ids=[f"{t.id}/{s.name}" for t, s in EXAMPLES])
def test_examples_cross_check_without_disagreement(task: object, spec: Path) -> None:
    _need_two_engines()
    rep = score_spec(task, spec.read_text(), str(spec), cross_check=True)  # type: ignore[arg-type]
    assert rep.status == "scored", rep.error or rep.invalid
    assert rep.disagreements == []
    deciding = _deciding(rep)
    tid = task.id  # type: ignore[attr-defined]
    if tid in ONE_ENGINE:
        assert len(deciding) == 1, f"{tid} is decided by {deciding}: drop it from ONE_ENGINE"
        pytest.skip(f"only {deciding} decides {tid}: {ONE_ENGINE[tid]}")
    assert len(deciding) >= 2, [e.model_dump() for e in rep.engines]


@pytest.mark.dataset
def test_verina_gold_cross_check_without_disagreement(datasets_dir: Path,
                                                      tmp_path: Path) -> None:
    _need_two_engines()
    specs = verina_gold_specs(datasets_dir, tmp_path)
    if not specs:
        pytest.skip("no verina folder in the datasets")
    bad = []
    for task, spec in specs:
        rep = score_spec(task, spec.read_text(), str(spec), cross_check=True)
        # every case decided and passed (a task without pre_sound cases cannot pass all
        # buckets under the every-bucket-tested rule, so buckets are checked one by one)
        missed = sum(b.failed + b.unknown for b in rep.buckets.values())
        if rep.status != "scored" or rep.disagreements or missed or len(_deciding(rep)) < 2:
            bad.append((task.id, rep.status, len(rep.disagreements), rep.error))
    assert bad == []
