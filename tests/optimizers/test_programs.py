"""The six prompt families with a scripted LM: each runs, demos never show the task at hand,
the writer records tokens, and bad answers become scored failures instead of exceptions."""

from __future__ import annotations

import pytest

pytest.importorskip("dspy", reason="needs the optimize extra: pip install -e '.[optimize]'")

import json  # noqa: E402

from adequacy.scoring.runner import score_spec  # noqa: E402
from adequacy_optimizers.dspy_writer import DSPyWriter, build_program  # noqa: E402
from adequacy_optimizers.programs import FAMILIES, SHOTS, samples_text  # noqa: E402
from scripted_lm import ScriptedLM, prompt_text  # noqa: E402

from .conftest import example, gold  # noqa: E402

GOLD = gold("verus", "binary_search_first")


def _lm(answer: str) -> ScriptedLM:
    seen: list[str] = []

    def respond(messages):
        seen.append(prompt_text(messages))
        return {"reasoning": "by the statement", "properties": "1. sorted input",
                "spec": answer}

    lm = ScriptedLM(respond)
    lm.seen = seen  # type: ignore[attr-defined]
    return lm


@pytest.mark.parametrize("family", FAMILIES)
def test_family_writes_a_gold_spec_and_never_demos_the_task(family):
    task = example("verus", "binary_search_first")
    prog = build_program(task, family)
    demos = [d for _, p in prog.named_predictors() for d in p.demos]
    assert len(demos) == SHOTS[family]
    assert all(d.task_id != task.id for d in demos)
    lm = _lm(f"```rust\n{GOLD}```")
    [w] = DSPyWriter(lm, family).write(task)
    assert w.error is None and w.text is not None
    assert score_spec(task, w.text).passed_all
    assert w.usage.calls == (2 if family == "fs-ltm" else 1) and w.usage.prompt_tokens > 0
    # the task's own gold never appears in a prompt (only other tasks' golds, as demos)
    own = "input.arr[j as int] != input.target"
    assert own in GOLD
    assert all(own not in p for p in lm.seen)  # type: ignore[attr-defined]
    if SHOTS[family]:
        assert any("```rust" in p for p in lm.seen)  # type: ignore[attr-defined]


def test_prompt_shows_only_visible_cases():
    task = example("verus", "binary_search_first")
    text = samples_text(task)
    hidden = [c for c in task.all_cases() if not c.visible]
    assert hidden
    shown = [c.input for c in task.all_cases() if c.visible]
    for c in hidden:
        if c.input not in shown:
            assert json.dumps(c.input, ensure_ascii=False) not in text


def test_unparseable_answer_is_a_recorded_failure_not_an_exception():
    task = example("verus", "binary_search_first")
    [w] = DSPyWriter(_lm("Sorry, I cannot do that."), "zs").write(task)
    assert w.text is None and w.error is not None and w.error.startswith("unparseable answer")
    assert w.answer == "Sorry, I cannot do that."


def test_samples_are_distinct_rollouts():
    task = example("verus", "binary_search_first")
    lm = _lm(f"```rust\n{GOLD}```")
    ws = DSPyWriter(lm, "zs").write(task, samples=3)
    assert [w.sample for w in ws] == [0, 1, 2] and all(w.text for w in ws)
