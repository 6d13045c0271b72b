"""The inspect_ai task end to end with inspect's mock model (scripted answers, never a model's
result): the gold spec scores 1 in every bucket, a flawed one scores below 1 in the bucket it
fails, the check tool answers on visible cases, and the log read back with inspect's own reader
and data-frame function shows the per-bucket scores; no hidden case is anywhere in the log."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai", reason="inspect-ai is not installed (pip install "
                    "'spec-adequacy[inspect]')")

from inspect_ai import eval as inspect_eval  # noqa: E402
from inspect_ai.log import read_eval_log  # noqa: E402
from inspect_ai.model import ModelOutput, ModelUsage, get_model  # noqa: E402

from adequacy.taskdirs.load import load_task  # noqa: E402

from .conftest import EXAMPLES  # noqa: E402

pytestmark = pytest.mark.slow

BSF = EXAMPLES[0] / "binary_search_first"
EUCLID = EXAMPLES[0] / "euclid_mod"
ABS = EXAMPLES[1] / "abs_value"
ANSWERS = {"binary_search_first": BSF / "specs" / "flawed_post_too_weak.rs",
           "euclid_mod": EUCLID / "specs" / "gold.rs",
           "jml_abs_value": ABS / "specs" / "gold.java"}


def _usage(o: ModelOutput) -> ModelOutput:
    # the mock counts tokens with tiktoken, which downloads its tables; none can be fetched here
    o.usage = ModelUsage(input_tokens=100, output_tokens=50, total_tokens=150)
    return o


def scripted(messages: list[Any], tools: list[Any], tool_choice: Any, config: Any
             ) -> ModelOutput:
    """The scripted model: on a task's first turn it calls check with its answer, then answers
    with the spec in a fenced block (the task is named in the prompt's statement file)."""
    prompt = str(messages[0].content)
    tid = next(t for t in ANSWERS if f"==== statement.md\n{_statement(t)}" in prompt)
    spec = ANSWERS[tid].read_text()
    fence = "java" if tid.startswith("jml") else "rust"
    if tools and not any(getattr(m, "role", "") == "tool" for m in messages):
        return _usage(ModelOutput.for_tool_call("mockllm/model", "check", {"spec": spec}))
    return _usage(ModelOutput.from_content("mockllm/model",
                                           f"Here is the spec:\n```{fence}\n{spec}```\n"))


def _statement(tid: str) -> str:
    root = {"binary_search_first": BSF, "euclid_mod": EUCLID, "jml_abs_value": ABS}[tid]
    return load_task(root).statement


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Any:
    logs = tmp_path_factory.mktemp("inspect-logs")
    model = get_model("mockllm/model", custom_outputs=scripted)
    tasks = ",".join(str(p) for p in (BSF, EUCLID, ABS))
    # the registered name, as `inspect eval adequacy/spec_adequacy` resolves it
    result = inspect_eval("adequacy/spec_adequacy", task_args={"tasks": tasks}, model=model,
                          log_dir=str(logs), display="none", max_samples=1)
    assert result[0].status == "success", result[0].error
    return read_eval_log(result[0].location)


def test_per_bucket_scores_and_metrics_in_the_log(log: Any) -> None:
    scores = {s.id: s.scores["adequacy_scorer"] for s in log.samples}
    assert scores["euclid_mod"].value == {"pre_complete": 1.0, "pre_sound": 1.0,
                                          "post_complete": 1.0, "post_sound": 1.0,
                                          "passed_all": 1.0}
    assert scores["jml_abs_value"].value["passed_all"] == 1.0
    weak = scores["binary_search_first"].value
    assert weak["post_sound"] < 1.0 and weak["passed_all"] == 0.0
    assert all(weak[b] == 1.0 for b in ("pre_complete", "pre_sound", "post_complete"))
    metrics = {s.name: s.metrics for s in log.results.scores}
    assert set(metrics) == {"pre_complete", "pre_sound", "post_complete", "post_sound",
                            "passed_all"}
    assert metrics["passed_all"]["mean"].value == pytest.approx(2 / 3)
    assert metrics["post_sound"]["mean"].value == pytest.approx((weak["post_sound"] + 2) / 3)
    assert "stderr" in metrics["post_sound"]


def test_the_check_tool_answered_on_visible_cases(log: Any) -> None:
    sample = next(s for s in log.samples if s.id == "binary_search_first")
    tool = [m for m in sample.messages if m.role == "tool"]
    assert len(tool) == 1 and "visible cases passed" in str(tool[0].content)


def test_inspect_data_frames_show_the_bucket_scores(log: Any) -> None:
    pytest.importorskip("pandas")
    from inspect_ai.analysis import evals_df, samples_df

    evals = evals_df(log.location)
    for b in ("pre_complete", "pre_sound", "post_complete", "post_sound", "passed_all"):
        assert f"score_{b}_mean" in evals.columns and f"score_{b}_stderr" in evals.columns
    assert evals["score_passed_all_mean"].iloc[0] == pytest.approx(2 / 3)
    samples = samples_df(log.location)
    assert len(samples) == 3
    by_id = {r["id"]: r["score_adequacy_scorer"] for _, r in samples.iterrows()}
    value = by_id["euclid_mod"]
    value = json.loads(value) if isinstance(value, str) else value
    assert value["passed_all"] == 1.0


def test_no_hidden_case_in_the_log(log: Any) -> None:
    """Samples, model turns, tool answers and scores: only visible cases may appear."""
    import zipfile

    from gym.leaks import Hidden, leaks_in, renderings

    with zipfile.ZipFile(log.location) as z:  # .eval logs are zip archives of JSON
        blob = "\n".join(z.read(n).decode("utf-8", "replace") for n in z.namelist())
    for root in (BSF, EUCLID, ABS):
        task = load_task(root)
        sample = next(s for s in log.samples if s.id == task.id)
        gym = Path(sample.metadata["gym_folder"])
        shown = {f"{json.loads(ln)['bucket']}/{json.loads(ln)['id']}"
                 for ln in (gym / "visible_cases.jsonl").read_text().splitlines()
                 if ln.strip()} if gym.exists() else None
        visible = shown if shown is not None else {c.key for c in task.all_cases()
                                                   if c.visible}
        allowed = task.statement + task.skeleton + "".join(
            g.read_text() for g in (root / "specs").glob("*.*"))
        hidden = []
        for c in task.all_cases():
            if c.key in visible:
                continue
            ins, outs = renderings(task, c)
            hidden.append(Hidden(task.id, c.key, {i for i in ins if i not in allowed},
                                 {o for o in outs if o not in allowed}))
        assert not leaks_in(blob, hidden)
        # the scan finds hidden cases where they are (the task's own case files)
        cases = "".join(p.read_text() for p in sorted((root / "tests").glob("*.jsonl")))
        assert len(leaks_in(cases, hidden)) == len([h for h in hidden if h.inputs])
