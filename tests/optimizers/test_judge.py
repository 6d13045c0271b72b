"""LLM-as-judge bookkeeping with scripted judges on binary_search_first's bundled specs.

Truth from examples/verus/binary_search_first/specs/expected.toml: gold.rs passes every case,
the four flawed_*.rs specs each fail a bucket. So the evaluator accepts 1 and rejects 4; a judge
that calls everything faithful misses 4/4 and raises no false alarm; one that calls nothing
faithful misses 0/4 and raises 1/1 false alarm.
"""

from __future__ import annotations

import pytest

pytest.importorskip("dspy", reason="needs the optimize extra: pip install -e '.[optimize]'")

import shutil  # noqa: E402

from typer.testing import CliRunner  # noqa: E402

from adequacy.cli import app  # noqa: E402
from adequacy.examples import bundled_folder
from adequacy.taskdirs.load import load_task  # noqa: E402
from adequacy_optimizers.judge import judge_one, summarize  # noqa: E402
from scripted_lm import ScriptedLM, prompt_text  # noqa: E402

from .conftest import example  # noqa: E402


def _records(faithful: str):
    task = example("verus", "binary_search_first")
    lm = ScriptedLM(lambda m: {"faithful": faithful, "reason": "scripted"})
    specs = sorted((bundled_folder("verus") / "binary_search_first" / "specs").glob("*.rs"))
    return [judge_one(task, p.read_text(), str(p), lm) for p in specs]


def test_always_accepting_judge_misses_every_rejected_spec():
    s = summarize(_records("True"))
    assert (s.evaluator_accepts, s.evaluator_rejects) == (1, 4)
    assert s.misses == 4 and s.miss_rate == 1.0 and s.false_alarm_rate == 0.0
    assert s.usage.calls == 5 and s.usage.prompt_tokens > 0


def test_always_rejecting_judge_raises_false_alarms():
    s = summarize(_records("False"))
    assert s.miss_rate == 0.0 and s.false_alarms == 1 and s.false_alarm_rate == 1.0


def test_unreadable_judge_answers_are_counted_apart():
    s = summarize(_records("perhaps, who knows"))
    assert s.unreadable == 5 and s.miss_rate is None


def test_judge_cli_needs_a_model(tmp_path):
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text("")
    res = CliRunner().invoke(app, ["judge", str(jobs)])
    assert res.exit_code == 2 and "--lm" in res.output


def test_the_judge_is_asked_to_reason_before_its_verdict():
    """The chat adapter asks for output fields in signature order: the reason must come first,
    or the verdict is written before any reasoning it could use."""
    seen = []

    def respond(messages):
        seen.append(prompt_text(messages))
        return {"reason": "scripted", "faithful": "True"}

    task = example("verus", "binary_search_first")
    spec = bundled_folder("verus") / "binary_search_first" / "specs" / "gold.rs"
    rec = judge_one(task, spec.read_text(), str(spec), ScriptedLM(respond))
    assert rec.judge == "accept" and rec.reason == "scripted"
    prompt = seen[0]
    assert prompt.index("[[ ## reason ## ]]") < prompt.index("[[ ## faithful ## ]]")


def test_a_spec_the_evaluator_could_not_score_is_not_a_reject(tmp_path):
    """A task with no cases cannot be scored (runner: status error); a judge that calls its
    spec unfaithful is then neither right nor a false alarm, and a judge that calls it faithful
    did not miss anything."""
    src = bundled_folder("verus") / "binary_search_first"
    broken = tmp_path / "no_cases"
    shutil.copytree(src, broken)
    shutil.rmtree(broken / "tests")
    (broken / "tests").mkdir()
    gold = (src / "specs" / "gold.rs").read_text()
    for answer in ("True", "False"):
        lm = ScriptedLM(lambda m, a=answer: {"reason": "scripted", "faithful": a})
        rec = judge_one(load_task(broken), gold, "gold.rs", lm)
        assert rec.evaluator == "error" and rec.evaluator_status == "error"
        s = summarize([rec])
        assert (s.evaluator_rejects, s.evaluator_accepts, s.evaluator_errors) == (0, 0, 1)
        assert s.misses == 0 and s.false_alarms == 0
        assert s.miss_rate is None and s.false_alarm_rate is None
