"""A spec whose pure helper loops forever stops costing time.

Before: every case paid the full case timeout (206 cases x 10 s on a SpecGenBench task, then
the 600 s spec budget). Now three timeouts in a row give the predicate up, and its remaining
cases are unknown with a reason that says so.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from jml_support import TWO_INTS, with_spec, write_task

from adequacy.extensions.backend import Limits
from adequacy.model.verdicts import Truth
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.load import load_task

pytestmark = [pytest.mark.slow, pytest.mark.requires("javac")]

SPIN = "    /*@ pure @*/ static boolean spin(int a) { while (true) { } }"


def sgb_like(root: Path, n: int = 100) -> Path:
    """An int task with ``n`` pre_complete and ``n`` post_complete cases (SGB_GCD has 222+222)."""
    write_task(root)
    tests = root / "tests"
    tests.mkdir(exist_ok=True)
    pre = [{"id": f"c{i}", "input": {"x": i, "y": 2 * i}} for i in range(n)]
    post = [{"id": f"c{i}", "input": {"x": i, "y": 2 * i}, "output": {"result": 3 * i}}
            for i in range(n)]
    (tests / "pre_complete.jsonl").write_text("".join(json.dumps(c) + "\n" for c in pre))
    (tests / "post_complete.jsonl").write_text("".join(json.dumps(c) + "\n" for c in post))
    return root


def test_looping_helper_in_the_postcondition_is_given_up(tmp_path: Path) -> None:
    task = load_task(sgb_like(tmp_path / "t"))
    spec = with_spec(TWO_INTS, SPIN + "\n    //@ ensures spin(x);")
    t0 = time.monotonic()
    rep = score_spec(task, spec, "Spec.java", limits=Limits(case_seconds=2), engines=["rac"])
    took = time.monotonic() - t0
    pre = [v for v in rep.verdicts if v.bucket.predicate == "pre"]
    post = [v for v in rep.verdicts if v.bucket.predicate == "post"]
    assert len(pre) == len(post) == 100
    assert all(v.value is Truth.true for v in pre)  # the precondition never calls spin
    assert [v.reason.startswith("timeout") for v in post[:3]] == [True, True, True]
    assert all(v.value is Truth.unknown and "3 cases in a row" in v.reason for v in post[3:])
    # 3 timeouts of 2 s, plus a JVM and a compile; without the rule: 100 x 2 s
    assert took < 40, f"took {took:.0f}s"


def test_looping_helper_in_both_clauses(tmp_path: Path) -> None:
    task = load_task(sgb_like(tmp_path / "t"))
    spec = with_spec(TWO_INTS, SPIN + "\n    //@ requires spin(y);\n    //@ ensures spin(x);")
    rep = score_spec(task, spec, "Spec.java", limits=Limits(case_seconds=2), engines=["rac"])
    timeouts = [v for v in rep.verdicts if v.reason.startswith("timeout")]
    assert len(timeouts) == 4  # 3 on the precondition, then 1 on the postcondition
    assert all(v.value is Truth.unknown for v in rep.verdicts)
    assert sum("already given up" in v.reason for v in rep.verdicts) == 99


def test_streak_zero_keeps_paying(tmp_path: Path) -> None:
    task = load_task(sgb_like(tmp_path / "t", n=5))
    spec = with_spec(TWO_INTS, SPIN + "\n    //@ ensures spin(x);")
    rep = score_spec(task, spec, "Spec.java", limits=Limits(case_seconds=1, timeout_streak=0),
                     engines=["rac"])
    post = [v for v in rep.verdicts if v.bucket.predicate == "post"]
    assert all(v.reason.startswith("timeout") for v in post)


def test_real_specgenbench_task_under_a_minute(datasets_dir: Path, tmp_path: Path) -> None:
    """The issue's measurement: SGB_GCD (444 cases) with a looping helper, default limits."""
    from adequacy_openjml.importers.spec_harness import import_specgenbench

    import_specgenbench(datasets_dir / "specgenbench", tmp_path / "sgb")
    task = load_task(tmp_path / "sgb" / "SGB_GCD")
    code = (tmp_path / "sgb" / "SGB_GCD" / "Solution.java").read_text()
    spec = code.replace("\tpublic static int solve",
                        "\t/*@ pure @*/ static boolean spin(int a) { while (true) { } }\n"
                        "\t//@ ensures spin(num1);\n\tpublic static int solve")
    t0 = time.monotonic()
    rep = score_spec(task, spec, "Spec.java", limits=Limits())  # the whole default chain
    took = time.monotonic() - t0
    # rac's verdict first in each merged reason ("rac: ...; smt: ...": smt cannot encode spin)
    assert sum(v.reason.startswith("rac: timeout") for v in rep.verdicts) == 3
    assert took < 60, f"took {took:.0f}s"
