"""The ReAct agent end to end with dspy's own scripted LM (DummyLM: answers in order), on bundled
tasks of both languages. What is scripted is the model's text; the tools, engines and grading
are real. Grades are known by hand: the gold specs pass every case of their tasks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

dspy = pytest.importorskip("dspy")
from dspy.utils.dummies import DummyLM  # noqa: E402

from adequacy_optimizers.agent import AgentOptions, read_rollouts, run_agent, summary_text  # noqa: E402
from adequacy_optimizers.lm import LmUnavailable  # noqa: E402

from .conftest import JML, VERUS  # noqa: E402
from .leaks import hidden_cases, leaks_in  # noqa: E402
from .test_gym import GOLD_BSF, NONE_ONLY  # noqa: E402

GOLD_ABS = (JML / "abs_value" / "specs" / "gold.java").read_text()
WEAK_ABS = GOLD_ABS.replace("//@ ensures \\result == x || \\result == -x;\n", "")


def step(thought: str, tool: str, **args: Any) -> dict[str, Any]:
    return {"next_thought": thought, "next_tool_name": tool, "next_tool_args": args}


def test_agent_checks_fixes_and_submits_verus(tmp_path: Path) -> None:
    lm = DummyLM([
        step("try a first spec", "check", spec=NONE_ONLY),
        step("postc-1 failed: Some is correct there; use the full spec", "check", spec=GOLD_BSF),
        step("all visible pass", "submit", spec=GOLD_BSF),
        step("done", "finish"),
        {"reasoning": "submitted", "spec": GOLD_BSF},
    ])
    out = tmp_path / "rollouts.jsonl"
    recs = run_agent([VERUS / "binary_search_first"], out,
                     AgentOptions(lm="scripted", steps=6), workdir=tmp_path / "w", lm=lm)
    assert len(recs) == 1
    r = read_rollouts(out)[0]
    assert r.task_id == "binary_search_first" and r.passed_all and r.submitted_by == "agent"
    assert [s.tool for s in r.trajectory] == ["check", "check", "submit", "finish"]
    assert "FAIL post_complete/postc-1" in r.trajectory[0].observation
    assert "3 of 3 visible cases passed" in r.trajectory[1].observation
    assert "PASS: yes" in r.trajectory[2].observation
    assert r.checks == 2 and r.harness and r.step_budget == 6
    assert r.prompt_tokens == 0 and r.trajectory[0].prompt_tokens == 0  # DummyLM reports 0
    # the records are SpecReports: the batch summaries read them as they are
    from rich.console import Console

    from adequacy.records.tables import batch_table
    con = Console(record=True, width=120)
    con.print(batch_table(read_rollouts(out)))
    assert "Pass@1 1.000" in con.export_text()
    assert "Pass@1 1.000" in summary_text(recs) and "Harness@0.75 1.000" in summary_text(recs)


def test_agent_jml_budget_and_final_answer(tmp_path: Path) -> None:
    lm = DummyLM([
        step("a weak spec first", "check", spec=WEAK_ABS),
        step("check again", "check", spec=WEAK_ABS),
        {"reasoning": "out of steps", "spec": WEAK_ABS},
    ])
    out = tmp_path / "r.jsonl"
    recs = run_agent([JML / "abs_value"], out, AgentOptions(lm="scripted", steps=2),
                     workdir=tmp_path / "w", lm=lm)
    r = recs[0]
    # the budget of 2 steps ended the loop; the final answer was submitted for the agent
    assert len(r.trajectory) == 2 and r.submitted_by == "final answer"
    # without "result == x || result == -x", a wrong non-negative output (7 -> 8) is accepted
    assert not r.passed_all and r.buckets["post_sound"].passed < r.buckets["post_sound"].total
    assert r.buckets["post_complete"].passed == r.buckets["post_complete"].total
    hidden = hidden_cases(tmp_path / "w" / "rollout-0")
    assert leaks_in(out.read_text(), hidden) == []


def test_no_harness_removes_check(tmp_path: Path) -> None:
    lm = DummyLM([
        step("submit directly", "submit", spec=GOLD_BSF),
        step("done", "finish"),
        {"reasoning": "r", "spec": GOLD_BSF},
    ])
    recs = run_agent([VERUS / "binary_search_first"], tmp_path / "r.jsonl",
                     AgentOptions(lm="scripted", harness=False), workdir=tmp_path / "w", lm=lm)
    assert recs[0].passed_all and not recs[0].harness and recs[0].checks == 0
    # the tool list given to the model has no check tool
    prompt = json.dumps(lm.history[0]["messages"])
    assert "submit" in prompt and "(1) check" not in prompt and "check tool is not available" in prompt


@pytest.mark.slow
def test_unreachable_model_stops_the_run_instead_of_grading_the_skeleton(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # nothing listens on port 9: the LM is retried (3 tries), then the run stops; grading the
    # skeleton as the agent's work would score the endpoint's failure as the model's
    opts = AgentOptions(lm="openai/none", api_base="http://127.0.0.1:9/v1", steps=2,
                        retry_wait=0)
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    with pytest.raises(LmUnavailable, match=r"127.0.0.1:9/v1: cannot connect after 3 tries"):
        run_agent([VERUS / "euclid_mod"], tmp_path / "r.jsonl", opts, workdir=tmp_path / "w")
    assert not (tmp_path / "r.jsonl").exists()
