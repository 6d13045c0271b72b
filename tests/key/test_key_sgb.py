"""The key engine agrees with rac on SpecGenBench tasks with our gold specs (examples/sgb-gold).

Slow (KeY), and skipped without ../shared/datasets. A few cases per bucket: SpecGenBench's
cases differ mostly in their numbers; benchmarks/key_sgb.py runs the larger sample.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from key_support import cross_check, decided, problem, sgb_gold

from adequacy.examples import bundled_folder
from adequacy.extensions.backend import Limits
from adequacy.model.verdicts import Bucket, Truth
from adequacy_openjml.importers.spec_harness import import_specgenbench

pytestmark = [pytest.mark.slow, pytest.mark.requires("key")]

GOLD = bundled_folder("sgb-gold")


def test_gold_specs_on_specgenbench_agree_with_rac(datasets_dir: Path, tmp_path: Path) -> None:
    src = datasets_dir / "specgenbench" / "sgb.jsonl"
    if not src.exists():
        pytest.skip(f"{src} is missing")
    import_specgenbench(src, tmp_path / "sgb")
    pairs = sgb_gold(GOLD, tmp_path / "sgb", per_bucket=2)
    assert len(pairs) == len(list(GOLD.glob("*.java"))) >= 8
    for task, spec in pairs:
        rep = cross_check(task, spec, Limits(case_seconds=20, spec_seconds=300))
        assert not problem(rep), (task.id, problem(rep))
        assert rep.disagreements == [], (task.id, rep.disagreements)
        # the gold spec is adequate on every case, wrong outputs and invalid inputs included
        # (truth by construction: jml_crosscheck.with_wrong_outputs and SGB_INVALID)
        assert all(v.value is (Truth.true if v.bucket.expects else Truth.false)
                   for v in rep.verdicts), (task.id, rep.verdicts)
        # these gold specs need no String reasoning: KeY decides every stub check
        assert decided(rep, "key") == len(rep.verdicts), (task.id, rep.engines)
    # pre_sound and post_sound were exercised, not only the complete buckets
    buckets = {c.bucket for t, _ in pairs for c in t.all_cases()}
    assert buckets == set(Bucket)
