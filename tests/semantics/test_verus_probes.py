"""Verus semantics probes against every available engine: a decided verdict must be Verus's.

The probes and the source of each expected value are in ``verus_probe_data.py``. ``unknown`` is
always allowed; a decided verdict that differs from the hand-worked truth, or any decided
verdict on a case Verus leaves unspecified, fails (fidelity rules 2 and 3, docs/design.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from verus_probe_data import PROBES, available_engines, run_probe, wrong

from adequacy.examples import bundled_folder
from adequacy.model.verdicts import Truth
from adequacy.scoring.runner import score_spec

pytestmark = pytest.mark.slow

ENGINES = available_engines()


def test_the_suite_is_big_enough_and_cited() -> None:
    assert len(PROBES) >= 35
    assert len({p.name for p in PROBES}) == len(PROBES)
    for p in PROBES:
        assert p.source and any(w is not None for _, w in p.cases), p.name
    assert sum(1 for p in PROBES for _, w in p.cases if w is None) >= 8  # unspecified cases


@pytest.mark.parametrize("probe", PROBES, ids=[p.name for p in PROBES])
def test_decided_means_correct(probe: object, tmp_path: Path) -> None:
    got = run_probe(probe, tmp_path, ENGINES)  # type: ignore[arg-type]
    bad = [w for vs in got.values() for w in wrong(probe, vs)]  # type: ignore[arg-type]
    assert bad == []


#: Gaps the issue named, now decided: (probe, engine) pairs that must decide every case Verus
#: specifies (undecided there would mean the fix regressed, not that an answer is wrong).
MUST_DECIDE = [
    ("chain_first_link_false", "interp"), ("negated_guard_forall", "interp"),
    ("chain_last_link_false", "interp"),
    ("rem_euclid", "exec_spec"), ("div_euclid", "exec_spec"), ("odd_via_helper", "exec_spec"),
    ("chain_char_range", "exec_spec"), ("chain_descending", "exec_spec"),
    ("chain_index_bounds", "exec_spec"), ("char_successor", "exec_spec"),
    ("chain_first_link_false", "exec_spec"),
]


@pytest.mark.parametrize(("name", "engine"), MUST_DECIDE, ids=[f"{n}-{e}" for n, e in MUST_DECIDE])
def test_named_gaps_are_decided(name: str, engine: str, tmp_path: Path) -> None:
    if engine not in ENGINES:
        pytest.skip(f"{engine} is not available here")
    probe = next(p for p in PROBES if p.name == name)
    verdicts = run_probe(probe, tmp_path, [engine])[engine]
    for (inp, want), v in zip(probe.cases, verdicts, strict=True):
        if want is not None:
            assert v.value is Truth.of(want), (inp, v.reason)


def test_undefined_is_unknown_everywhere(tmp_path: Path) -> None:
    """Rule 3 on the cases Verus leaves unspecified: every engine says unknown, with a reason."""
    for probe in PROBES:
        idx = [k for k, (_, w) in enumerate(probe.cases) if w is None]
        if not idx:
            continue
        got = run_probe(probe, tmp_path, ENGINES)
        for engine, vs in got.items():
            for k in idx:
                assert vs[k].value is Truth.unknown and vs[k].reason, (probe.name, engine, k)


def test_engine_gap_is_unknown_and_keeps_interp_verdicts(tmp_path: Path) -> None:
    """Rule 1 through the runner: `pow` has no exec_ counterpart, so exec_spec leaves its
    cases unknown naming the spec line, while the spec stays valid and interp's verdicts
    stand, with --cross-check as in the default chain."""
    from verus_probe_data import build_task, spec_text

    probe = next(p for p in PROBES if p.name == "vstd_pow")
    task = build_task(probe, tmp_path)
    text = spec_text(probe, task)
    line = text.splitlines().index("    " + probe.pre) + 1
    for cross in (False, True):
        rep = score_spec(task, text, "pow.rs", cross_check=cross)
        assert rep.status == "scored" and rep.invalid is None, rep.error
        assert [v.value for v in rep.verdicts] == [Truth.true, Truth.true, Truth.true,
                                                   Truth.false]
        assert all(v.engine == "interp" for v in rep.verdicts)
        assert rep.disagreements == []
    if "exec_spec" in ENGINES:
        verdicts = run_probe(probe, tmp_path / "again", ["exec_spec"])["exec_spec"]
        assert all(v.value is Truth.unknown for v in verdicts)
        assert all(f"spec line {line}" in v.reason and "pow" in v.reason for v in verdicts)


def test_seq_view_is_rejected_by_the_front_end(tmp_path: Path) -> None:
    """vstd implements View for exec types only (view.rs): `s@` on a Seq does not type-check."""
    from verus_probe_data import Probe, build_task, spec_text

    from adequacy.errors import SpecInvalid
    from adequacy.extensions.registry import registry

    probe = Probe("seq_view", "vstd view.rs", {"s": "seq<i64>"}, "input.s@.len() == 0",
                  [({"s": []}, True)])
    task = build_task(probe, tmp_path)
    text = spec_text(probe, task)
    with pytest.raises(SpecInvalid) as e:
        registry().backends["verus"].load_spec(task, text, "view.rs")
    assert e.value.line == text.splitlines().index("    " + probe.pre) + 1
    assert "has no View" in e.value.message


def test_step_limit_unknowns_reach_only_a_faithful_engine(tmp_path: Path) -> None:
    """The issue's case: interp stopped at its step limit and the default chain handed the case
    to exec_spec, which answered `% 3 >= 0` false on negative numbers. Now exec_spec computes
    Verus's Euclidean `%` (always >= 0 for divisor 3), so the chain's answer is Verus's."""
    from verus_probe_data import Probe, build_task, spec_text

    from adequacy.extensions.backend import Limits

    if "exec_spec" not in ENGINES:
        pytest.skip("exec_spec is not available here")
    probe = Probe("mod_chain", "Verus guide reference-arithmetic.md", {"s": "seq<i64>"},
                  "forall|i: usize| 0 <= i < input.s.len() ==> input.s[i as int] % 3 >= 0",
                  [({"s": [-5, -1, -7, 4, -2, -3] * 50}, True), ({"s": [-4]}, True)])
    task = build_task(probe, tmp_path)
    rep = score_spec(task, spec_text(probe, task), "mod.rs", limits=Limits(steps=50))
    assert [v.value for v in rep.verdicts] == [Truth.true, Truth.true]
    assert rep.verdicts[0].engine == "exec_spec"  # the long case: interp hit its step limit
    assert rep.verdicts[1].engine == "interp"


def test_a_gap_in_post_spec_leaves_pre_cases_decided() -> None:
    """Rule 1, "affected cases": a `Seq<int>` helper reached only from post_spec cannot be
    compiled by the macro (widen.py makes `int` parameters i128, not `int` inside a `Seq`);
    exec_spec then compiles each predicate's part alone, so the pre cases are still decided
    (correctly: the gold spec passes them) and only the post cases are unknown."""

    from adequacy.extensions.backend import Limits, engine_named
    from adequacy.extensions.registry import registry
    from adequacy.taskdirs.load import load_task

    if "exec_spec" not in ENGINES:
        pytest.skip("exec_spec is not available here")
    task = load_task(bundled_folder("verus") / "binary_search_first")
    gold = (task.root / "specs" / "gold.rs").read_text()
    text = gold.replace("spec fn post_spec(input: Input, output: Output) -> bool {\n    match",
                        "spec fn size(x: Seq<int>) -> nat {\n    x.len()\n}\n\n"
                        "spec fn post_spec(input: Input, output: Output) -> bool {\n"
                        "    size(seq![1]) == 1 && match")
    assert text != gold
    backend = registry().backends["verus"]
    spec = backend.load_spec(task, text, "split.rs")
    cases = task.all_cases()
    verdicts = engine_named(backend, "exec_spec").check(spec, task, cases, Limits())
    pre = [v for c, v in zip(cases, verdicts, strict=True) if c.bucket.predicate == "pre"]
    post = [v for c, v in zip(cases, verdicts, strict=True) if c.bucket.predicate == "post"]
    assert pre and all(v.decided and v.passed for v in pre)
    assert post and all(v.value is Truth.unknown and "outside exec_spec's fragment" in v.reason
                        for v in post)
