"""A split's evaluation through ``dspy.Evaluate``: threads change nothing but the wall time.

Truth from the bundled specs' expected.toml files: each task's gold spec passes every case
(adequacy 1.0); an answer without a spec block is a writer failure, counted 0; euclid_mod's
flawed specs each fail a bucket (adequacy below 1.0).
"""

from __future__ import annotations

import pytest

pytest.importorskip("dspy", reason="needs the optimize extra: pip install -e '.[optimize]'")

import threading  # noqa: E402

from adequacy.examples import bundled_folder
from adequacy_optimizers.evaluate import evaluate  # noqa: E402
from adequacy_optimizers.programs import SpecWriterProgram  # noqa: E402
from scripted_lm import ScriptedLM, prompt_text  # noqa: E402

from .conftest import example, gold  # noqa: E402

TASKS = ["binary_search_first", "euclid_mod", "coprime_check"]


def _answers() -> dict[str, str]:
    flawed = sorted((bundled_folder("verus") / "euclid_mod" / "specs").glob("flawed_*.rs"))[0]
    return {"First occurrence in a sorted sequence": f"```rust\n{gold('verus', TASKS[0])}```",
            "Euclidean remainder": f"```rust\n{flawed.read_text()}```",
            "": "Sorry, I cannot do that."}


def _lm(threads: set[int]) -> ScriptedLM:
    answers = _answers()

    def respond(messages):
        threads.add(threading.get_ident())
        text = prompt_text(messages)
        answer = next(a for k, a in answers.items() if k in text)
        return {"reasoning": "scripted", "properties": "scripted", "spec": answer}
    return ScriptedLM(respond, delay=0.05)


def _run(threads: int):
    tasks = [example("verus", t) for t in TASKS]
    reports: list = []
    calls: list = []
    seen: set[int] = set()
    score = evaluate(SpecWriterProgram("verus", "zs", []), tasks, _lm(seen), calls=calls,
                     on_report=reports.append, num_threads=threads)
    return score, [r.task_id for r in reports], len(calls), len(seen)


def test_threads_give_the_sequential_result():
    seq, seq_order, seq_calls, _ = _run(1)
    par, par_order, par_calls, par_threads = _run(3)
    assert par_threads > 1  # the LM was called from more than one thread
    by_id = {r.task_id: r for r in seq.per_task}
    assert by_id["binary_search_first"].adequacy == 1.0
    assert 0.0 < by_id["euclid_mod"].adequacy < 1.0
    assert by_id["coprime_check"].status == "writer failed" and by_id["coprime_check"].adequacy == 0.0
    assert seq.writer_failed == 1 and seq.invalid == 1 and seq.tasks == 3
    assert par.model_dump() == seq.model_dump()
    assert par_order == seq_order == ["binary_search_first", "euclid_mod"]
    assert par_calls == seq_calls == 3
