"""--cross-check over every bundled Verus spec: the engines never disagree (fidelity rule 4),
and no spec the front end accepts is reported invalid (rule 1)."""

from __future__ import annotations

from pathlib import Path

import pytest
from verus_bundled_specs import example_specs, verina_gold_specs

from adequacy.runner import score_spec

pytestmark = pytest.mark.slow

EXAMPLES = example_specs()


@pytest.mark.parametrize(("task", "spec"), EXAMPLES,
                         ids=[f"{t.id}/{s.name}" for t, s in EXAMPLES])
def test_examples_cross_check_without_disagreement(task: object, spec: Path) -> None:
    rep = score_spec(task, spec.read_text(), str(spec), cross_check=True)  # type: ignore[arg-type]
    assert rep.status == "scored", rep.error or rep.invalid
    assert rep.disagreements == []
    assert len({e.name for e in rep.engines if e.cases}) >= 1


@pytest.mark.dataset
def test_verina_gold_cross_check_without_disagreement(datasets_dir: Path,
                                                      tmp_path: Path) -> None:
    specs = verina_gold_specs(datasets_dir, tmp_path)
    if not specs:
        pytest.skip("no verina folder in the datasets")
    bad = []
    for task, spec in specs:
        rep = score_spec(task, spec.read_text(), str(spec), cross_check=True)
        # every case decided and passed (a task without pre_sound cases cannot pass all
        # buckets under the every-bucket-tested rule, so buckets are checked one by one)
        missed = sum(b.failed + b.unknown for b in rep.buckets.values())
        if rep.status != "scored" or rep.disagreements or missed:
            bad.append((task.id, rep.status, len(rep.disagreements), rep.error))
    assert bad == []
