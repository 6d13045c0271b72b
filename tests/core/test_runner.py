"""The runner: engine chains, cache, cross-check, invalid specs, limits reaching engines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adequacy.errors import BackendError, SpecInvalid
from adequacy.extensions import registry
from adequacy.extensions.backend import EngineInfo, Limits
from adequacy.model.verdicts import Bucket, Truth
from adequacy.scoring.cache import VerdictCache
from adequacy.scoring.runner import resolve_engines, score_spec
from adequacy.taskdirs.load import load_task

GOLD = "pre: x >= 0\npost: result == x + 1\n"
WEAK_PRE = "pre: x >= -1\npost: result == x + 1\n"   # accepts x = -1: fails pre_sound n1 only
WEAK_POST = "pre: x >= 0\npost: result > x\n"        # accepts 5 for x = 3: fails post_sound w3


def test_gold_passes_everything(toy: None, toy_task: Path) -> None:
    rep = score_spec(load_task(toy_task), GOLD, "gold.toy")
    assert rep.status == "scored" and rep.passed_all
    assert rep.exit_code == 0
    assert rep.metrics is not None and rep.metrics.harness_at(1.0)
    assert {b: s.total for b, s in rep.buckets.items()} == {
        Bucket.pre_complete: 4, Bucket.pre_sound: 2, Bucket.post_complete: 3,
        Bucket.post_sound: 2}


def test_flawed_specs_fail_their_bucket(toy: None, toy_task: Path) -> None:
    task = load_task(toy_task)
    rep = score_spec(task, WEAK_PRE)
    assert not rep.passed_all and rep.exit_code == 1
    failed = {(v.bucket, v.case_id) for v in rep.verdicts if not v.passed}
    assert failed == {(Bucket.pre_sound, "n1")}
    assert rep.metrics is not None and rep.metrics.pre_comp == 0.5
    rep = score_spec(task, WEAK_POST)
    assert {(v.bucket, v.case_id) for v in rep.verdicts if not v.passed} == {
        (Bucket.post_sound, "w3")}


def test_chain_falls_back_only_on_unknown(toy: None, toy_task: Path, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "log"
    monkeypatch.setenv("ADEQUACY_TOY_LOG", str(log))
    rep = score_spec(load_task(toy_task), GOLD, "g", engines=["picky", "exact"])
    assert rep.passed_all
    by_engine = {v.case_id: v.engine for v in rep.verdicts}
    # odd x (1, 7, -1, 3, 3) is unknown to picky, so exact decided those five cases
    assert {k for k, e in by_engine.items() if e == "exact"} == {"p1", "p7", "n1", "c3", "w3"}
    calls = log.read_text().split("\n")
    assert calls[0] == "picky g 11" and calls[1] == "exact g 5"


def test_unknown_counts_as_failed_when_strict(toy: None, toy_task: Path) -> None:
    task = load_task(toy_task)
    strict = score_spec(task, GOLD, engines=["picky"])
    assert not strict.passed_all
    assert strict.buckets[Bucket.pre_complete].unknown == 2
    assert strict.metrics is not None and strict.metrics.pre_corr == 0.5
    lenient = score_spec(task, GOLD, engines=["picky"], strict=False)
    assert lenient.passed_all
    assert lenient.metrics is not None and lenient.metrics.pre_corr == 1.0


def test_cross_check_reports_disagreements(toy: None, toy_task: Path) -> None:
    rep = score_spec(load_task(toy_task), GOLD, engines=["exact", "liar"], cross_check=True)
    assert len(rep.disagreements) == 11
    d = rep.disagreements[0]
    assert d.values == {"exact": Truth.true, "liar": Truth.false}
    # the chain order decides the verdict: exact first
    assert rep.passed_all


def test_invalid_spec_is_data_with_line(toy: None, toy_task: Path) -> None:
    rep = score_spec(load_task(toy_task), "pre: x >= 0\npost: what is this\n", "s.toy")
    assert rep.status == "invalid" and rep.exit_code == 3
    assert rep.invalid is not None
    assert (rep.invalid.file, rep.invalid.line) == ("s.toy", 2)


def test_unavailable_engine_requested_is_an_error(toy: None) -> None:
    with pytest.raises(BackendError, match="install gone-tool"):
        resolve_engines("toy", engines=["gone"])
    with pytest.raises(BackendError, match="no engine 'nope'"):
        resolve_engines("toy", engines=["nope"])
    with pytest.raises(BackendError, match="no installed backend scores 'cobol'"):
        resolve_engines("cobol")


def test_default_chain_lists_unavailable_engines(toy: None) -> None:
    chain, skipped = resolve_engines("toy")
    assert [r.info.name for r in chain] == ["exact"]
    assert [s.name for s in skipped] == ["gone"]


def test_cache_hits_skip_the_engine(toy: None, toy_task: Path, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "log"
    monkeypatch.setenv("ADEQUACY_TOY_LOG", str(log))
    cache = VerdictCache(tmp_path / "c.sqlite")
    task = load_task(toy_task)
    first = score_spec(task, GOLD, "a", cache=cache)
    # same spec up to comments and order: normalised text is equal -> all hits
    second = score_spec(task, "# a comment\npost: result == x + 1\npre: x >= 0\n", "b",
                        cache=cache)
    assert first.passed_all and second.passed_all
    assert all(v.cached for v in second.verdicts)
    assert log.read_text().count("\n") == 1
    third = score_spec(task, WEAK_POST, "c", cache=cache)
    assert not any(v.cached for v in third.verdicts)


def test_unknown_verdicts_are_not_cached(toy: None, toy_task: Path, tmp_path: Path) -> None:
    cache = VerdictCache(tmp_path / "c.sqlite")
    task = load_task(toy_task)
    score_spec(task, GOLD, engines=["picky"], cache=cache)
    again = score_spec(task, GOLD, engines=["picky"], cache=cache)
    assert sum(v.cached for v in again.verdicts) == 6  # the 5 odd-x cases are recomputed


def test_limits_are_passed_down(toy: None, toy_task: Path, monkeypatch: pytest.MonkeyPatch
                                ) -> None:
    import adequacy_toy.plugin as toy_plugin
    seen: list[Limits] = []
    orig = toy_plugin.ToyEngine.check

    def spy(self, spec, task, cases, limits):  # type: ignore[no-untyped-def]
        seen.append(limits)
        return orig(self, spec, task, cases, limits)

    monkeypatch.setattr(toy_plugin.ToyEngine, "check", spy)
    rep = score_spec(load_task(toy_task), GOLD, limits=Limits(case_seconds=1.5, spec_seconds=7))
    assert rep.status == "scored", rep.error
    assert seen and seen[0].case_seconds == 1.5 and seen[0].spec_seconds == 7
    assert rep.options is not None and rep.options.limits.case_seconds == 1.5


def test_cache_key_depends_on_task_settings(toy_task: Path) -> None:
    from adequacy.scoring.cache import verdict_key

    task = load_task(toy_task)
    case = task.cases[Bucket.post_sound][0]
    k1 = verdict_key("e", "1", "spec", task, case)
    changed = task.model_copy(update={"settings": {"method": "other"}})
    assert verdict_key("e", "1", "spec", changed, case) != k1
    assert verdict_key("e", "2", "spec", task, case) != k1
    pre = task.cases[Bucket.pre_sound][0]
    assert verdict_key("e", "1", "spec", task, pre) != verdict_key(
        "e", "1", "spec", task, pre.model_copy(update={"input": {"x": -2}}))


def test_cross_check_takes_the_most_faithful_engine(toy: None, toy_task: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # Fidelity rule 4: the final verdict comes from the highest-ranked engine that decided,
    # whatever the chain order; every disagreement is still reported.
    import adequacy_toy.plugin as toy_plugin

    real = toy_plugin.ToyEngine.info

    def ranked(self: object) -> EngineInfo:
        e = real(self)  # type: ignore[arg-type]
        return e.model_copy(update={"fidelity": {"exact": 2, "liar": 1}.get(e.name, 0)})
    monkeypatch.setattr(toy_plugin.ToyEngine, "info", ranked)
    rep = score_spec(load_task(toy_task), GOLD, engines=["liar", "exact"], cross_check=True)
    assert len(rep.disagreements) == 11
    assert rep.passed_all and all(v.engine == "exact" for v in rep.verdicts)
    # the other way round the liar outranks exact, and its answers are the final ones
    registry.registry().refresh()  # engine infos are asked once per registry
    monkeypatch.setattr(toy_plugin.ToyEngine, "info", lambda self: real(self).model_copy(
        update={"fidelity": {"exact": 1, "liar": 2}.get(real(self).name, 0)}))
    rep = score_spec(load_task(toy_task), GOLD, engines=["exact", "liar"], cross_check=True)
    assert not rep.passed_all and {v.engine for v in rep.verdicts} == {"liar"}


def test_engine_compile_failure_is_unknown_not_invalid(toy: None, toy_task: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # Fidelity rule 1: only the front end (load_spec) may call a spec invalid; an engine that
    # raises SpecInvalid from check() leaves its cases unknown and keeps the others' verdicts.
    import adequacy_toy.plugin as toy_plugin

    real = toy_plugin.ToyEngine.check

    def failing(self: Any, spec: object, task: object, cases: object, limits: object
                ) -> object:
        if self.name == "picky":
            raise SpecInvalid("picky cannot compile this", file="s.toy", line=2)
        return real(self, spec, task, cases, limits)
    monkeypatch.setattr(toy_plugin.ToyEngine, "check", failing)
    task = load_task(toy_task)
    rep = score_spec(task, GOLD, "s.toy", engines=["picky", "exact"], cross_check=True)
    assert rep.status == "scored" and rep.exit_code != 3 and rep.passed_all
    assert all(v.engine == "exact" and v.decided for v in rep.verdicts)
    only = score_spec(task, GOLD, "s.toy", engines=["picky"])
    assert only.status == "scored" and only.invalid is None
    assert all(v.value is Truth.unknown for v in only.verdicts)
    assert "outside picky's fragment: picky cannot compile this (spec line 2)" in \
        only.verdicts[0].reason


def test_deadline_bounds_the_whole_chain(toy: None, toy_task: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A caller's deadline (a search's budget) holds across the chain: each engine gets only
    the time left, and an engine reached after it does not run (its cases stay unknown)."""
    import time

    import adequacy_toy.plugin as toy_plugin
    seen: list[tuple[str, float]] = []

    def slow(self, spec, task, cases, limits):  # type: ignore[no-untyped-def]
        # an engine that spends all the time it is given (a cold compile), then decides nothing
        seen.append((self.name, limits.spec_seconds))
        time.sleep(limits.spec_seconds)
        return [toy_plugin.Verdict(case_id=c.id, bucket=c.bucket, value=Truth.unknown,
                                   engine=self.name, reason="slow") for c in cases]

    def quick(self, spec, task, cases, limits):  # type: ignore[no-untyped-def]
        seen.append((self.name, limits.spec_seconds))
        return [toy_plugin.Verdict(case_id=c.id, bucket=c.bucket, value=Truth.unknown,
                                   engine=self.name, reason="quick") for c in cases]

    monkeypatch.setattr(toy_plugin.ToyEngine, "check", slow)
    t0 = time.monotonic()
    rep = score_spec(load_task(toy_task), GOLD, engines=["picky", "exact"],
                     limits=Limits(spec_seconds=60), deadline=time.monotonic() + 0.8)
    took = time.monotonic() - t0
    assert rep.status == "scored", rep.error
    assert took < 1.5, took
    assert len(seen) == 1 and seen[0][1] <= 0.8
    runs = {e.name: e for e in rep.engines}
    assert "deadline" in runs["exact"].skipped
    assert all(v.value == Truth.unknown for v in rep.verdicts)
    # without a deadline each engine gets its full spec_seconds, as before
    seen.clear()
    monkeypatch.setattr(toy_plugin.ToyEngine, "check", quick)
    score_spec(load_task(toy_task), GOLD, engines=["picky", "exact"],
               limits=Limits(spec_seconds=60))
    assert seen == [("picky", 60), ("exact", 60)]
