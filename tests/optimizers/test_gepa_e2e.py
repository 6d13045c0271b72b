"""End to end: GEPA through dspy.GEPA on bundled Verus tasks, with scripted LMs.

The scripted task LM answers each task with its gold spec when its instruction contains the
phrase KEY, and with the untouched skeleton (both predicates `true`) otherwise. The scripted
reflection LM appends KEY to the instruction only when the feedback it is shown names a failing
bucket. So the optimized program can beat the seed only if the whole loop works: the metric's
feedback reaches the reflection LM, GEPA installs the proposed instruction, the program sends
it to the task LM, extraction and scoring see the better spec, and the result is saved.
What this does not show: that GEPA finds good instructions for a real model.
"""

from __future__ import annotations

import pytest

pytest.importorskip("dspy", reason="needs the optimize extra: pip install -e '.[optimize]'")

import json  # noqa: E402

import dspy  # noqa: E402

from adequacy.examples import bundled_folder
from adequacy_optimizers.optimize import OptimizeOptions, optimize  # noqa: E402
from adequacy_optimizers.programs import SpecWriterProgram  # noqa: E402
from scripted_lm import ScriptedLM, prompt_text  # noqa: E402

from .conftest import example, gold  # noqa: E402

KEY = "State every constraint of the statement, including which inputs are invalid."
NAMES = ["binary_search_first", "coprime_check", "count_in_range", "euclid_mod",
         "is_palindrome", "remove_at", "smallest_divisor"]


def task_lm() -> ScriptedLM:
    tasks = [example("verus", n) for n in NAMES]
    golds = {t.title: gold("verus", n) for t, n in zip(tasks, NAMES, strict=True)}
    skeletons = {t.title: t.skeleton for t in tasks}

    def respond(messages):
        system = str(messages[0].get("content", ""))
        user = str(messages[-1].get("content", ""))
        title = next(t for t in golds if f"// {t}\n" in user)
        text = golds[title] if KEY in system else skeletons[title]
        return {"spec": f"```rust\n{text}```"}

    return ScriptedLM(respond)


def reflection_lm() -> ScriptedLM:
    def respond(messages):
        prompt = prompt_text(messages).split("[[ ## current_instruction ## ]]")[-1]
        cur, _, rest = prompt.partition("[[ ## examples_with_feedback ## ]]")
        cur = cur.strip()
        if "_sound (" in rest and " pass" in rest and KEY not in cur:
            return json.dumps({"new_instruction": f"{cur}\n{KEY}"})
        return json.dumps({"new_instruction": cur})

    return ScriptedLM(respond)


def test_gepa_optimized_program_beats_the_seed_on_test(tmp_path):
    tasks = [example("verus", n) for n in NAMES]
    t_lm, r_lm = task_lm(), reflection_lm()
    res = optimize(tasks, tmp_path / "run", t_lm, r_lm,
                   OptimizeOptions(family="zs", max_metric_calls=24, proportions=(3, 1, 3),
                                   seed=1))
    assert res.seed_test is not None and res.optimized_test is not None
    assert res.optimized_test.adequacy > res.seed_test.adequacy
    assert res.optimized_test.adequacy == 1.0  # the gold of every test task passes all cases
    out = tmp_path / "run"
    for f in ("program.json", "instructions.json", "table.md", "candidates.jsonl",
              "calls.jsonl", "splits.json", "scores.json"):
        assert (out / f).is_file(), f
    instr = json.loads((out / "instructions.json").read_text())
    assert all(KEY not in v for v in instr["seed"].values())
    assert any(KEY in v for v in instr["optimized"].values())
    cands = [json.loads(x) for x in (out / "candidates.jsonl").read_text().splitlines()]
    assert len(cands) >= 2 and any(c["pareto"] for c in cands)
    calls = [json.loads(x) for x in (out / "calls.jsonl").read_text().splitlines()]
    assert {c["role"] for c in calls} >= {"task", "reflection", "evaluation"}
    assert all(c["prompt_tokens"] > 0 for c in calls)
    # no test or validation task was scored inside the loop: the splits never overlap
    splits = json.loads((out / "splits.json").read_text())
    assert not set(splits["train"]) & (set(splits["val"]) | set(splits["test"]))
    # the saved program loads and carries the evolved instruction
    prog = SpecWriterProgram("verus", "zs")
    prog.load(str(out / "program.json"))
    assert any(KEY in p.signature.instructions for _, p in prog.named_predictors())
    with dspy.context(lm=t_lm):
        ans = prog(**__import__("adequacy_optimizers.programs", fromlist=["x"]).task_inputs(
            tasks[0]))
    assert "forall" in ans.spec
    assert bundled_folder("verus").is_dir()
    # every spec scored on val and test is in the results log, apart by program
    from adequacy.records.html import read_records

    recs = read_records([out / "results.jsonl"])
    assert len(recs) == 2 * (len(splits["val"]) + len(splits["test"]))
    test_by: dict[str, list[bool]] = {}
    for r in recs:
        assert r.producer.command == "optimize" and r.producer.family == "zs"
        if r.extra["split"] == "test":
            test_by.setdefault(r.approach, []).append(r.report.passed_all)
    sha = __import__("hashlib").sha256((out / "program.json").read_bytes()).hexdigest()
    assert test_by == {"dspy-zs / dummy": [False] * 3,
                       f"dspy-zs@{sha[:8]} / dummy": [True] * 3}
