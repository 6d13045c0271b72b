"""What a spec (or a failure of ours) can echo back from a grading run never reaches the agent.

A spec makes engines say things: a JML helper throws an exception whose message holds the case
it saw. On ``check`` that is a visible case and is shown; on ``submit`` it is a hidden one and
nothing of it may reach the answer, the record or any file under OUT. The unit tests put hidden
values into every text field a grading report has (as a crashing engine or a future field
would) and into an exception raised while grading.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from adequacy.gym import GymTools, submit
from adequacy.gym import session as gym_session
from adequacy.gym.manifest import PRIVATE
from adequacy.gym.state import read_state
from adequacy.model.verdicts import InvalidSpec
from adequacy.scoring.spec_report import EngineRun, SpecReport

from .leaks import hidden_cases, scan_tree

ECHO = """public class Solution {

    //@ requires x > Integer.MIN_VALUE;
    //@ ensures echo(x, \\result);
    public static int solve(int x) {
        if (x < 0)
            return -x;
        return x;
    }

    /*@ pure @*/ static boolean echo(int x, int r) {
        throw new IllegalStateException("input {\\"x\\": " + x + "} output {\\"result\\": " + r + "}");
    }
}
"""
SECRET = "HIDDEN-CASE-7f3a {\"x\": -2147483647}"


def _all_text(gym: Path) -> str:
    return "\n".join(p.read_text(errors="replace") for p in gym.rglob("*") if p.is_file())


def test_an_engine_echoing_hidden_cases_on_submit_is_silenced(gym: Path) -> None:
    tools = GymTools(gym)
    seen = tools.check("jml_abs_value", ECHO)
    assert 'IllegalStateException: input {"x": -5}' in seen  # visible: shown
    graded = tools.submit("jml_abs_value", ECHO)
    assert "PASS: no" in graded and "IllegalStateException" not in graded
    hidden = [h for h in hidden_cases(gym) if h.task_id == "jml_abs_value"]
    assert hidden and scan_tree(gym, hidden) == []


def test_an_exception_while_grading_is_withheld_and_counted(gym: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    def crash(*_a: object, **_k: object) -> SpecReport:
        raise ValueError(f"engine bug on {SECRET}")

    monkeypatch.setattr(gym_session, "score_spec", crash)
    answer = GymTools(gym).submit("euclid_mod")
    assert SECRET not in answer and "internal error" in answer
    assert SECRET not in _all_text(gym)
    # a crash is a submission: else a spec crashing on chosen hidden inputs is a free oracle
    assert read_state(gym / "euclid_mod").submissions == 1
    assert "already submitted" in GymTools(gym).submit("euclid_mod")


def test_every_text_field_of_a_grading_report_is_withheld(gym: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    def loud(task: object, text: str, spec_file: str, **_k: object) -> SpecReport:
        return SpecReport(
            key="k", task_id="euclid_mod", task_path="p", spec_path=spec_file, spec_sha="s",
            language="verus", status="invalid", error=f"worker died on {SECRET}",
            invalid=InvalidSpec(message=f"cannot compile harness {SECRET}", file="spec.rs",
                                line=3, engine="exec_spec"),
            engines=[EngineRun(name="exec_spec", skipped=f"unavailable: crashed on {SECRET}")])

    monkeypatch.setattr(gym_session, "score_spec", loud)
    rec = submit(gym / "euclid_mod")
    assert SECRET not in rec.model_dump_json()
    assert rec.engines[0].skipped == "unavailable"
    assert SECRET not in _all_text(gym)
    assert (gym / "euclid_mod" / PRIVATE / "submissions.jsonl").is_file()


@pytest.mark.parametrize("header", ["[constraints]  # ranges for mutators", "[ constraints ]",
                                    "[constraints.x]"])
def test_constraints_never_reach_the_agent_copy(tmp_path: Path, header: str) -> None:
    """A ``[constraints]`` header with a comment or spaces is still a constraints table."""
    from adequacy.gym import make_gym

    from .conftest import JML
    src = tmp_path / "src" / "abs"
    shutil.copytree(JML / "abs_value", src)
    toml = (src / "task.toml").read_text()
    head, _, _ = toml.partition("[constraints]")
    body = "min = -77777\n" if header.endswith(".x]") else "x = [-77777, 88888]\n"
    (src / "task.toml").write_text(head + header + "\n" + body)
    make_gym([src], tmp_path / "g")
    text = (tmp_path / "g" / "jml_abs_value" / PRIVATE / "task" / "task.toml").read_text()
    assert "[signature.input]" in text and "77777" not in text and "88888" not in text


def test_a_broken_source_task_is_named_not_quoted(gym: Path, sources: Path) -> None:
    """The source task broke after the folder was made: a hidden case now has an out-of-range
    value. The loader's message would quote it; submit says where, not what."""
    p = sources / "abs_value" / "tests" / "post_sound.jsonl"
    p.write_text(p.read_text() + '{"id": "broken", "input": {"x": 987654321987}, '
                 '"output": {"result": 1}}\n')
    answer = GymTools(gym).submit("jml_abs_value")
    assert answer.startswith("error") and "post_sound.jsonl" in answer
    assert "987654321987" not in answer
