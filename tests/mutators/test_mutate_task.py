"""mutate_task on small task folders: labelling by each oracle, ids, idempotence, drops."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from adequacy.model.verdicts import Bucket
from adequacy.taskdirs.load import load_task
from adequacy_mutators import mutate_task

SUM_TOML = """id = "sum"
language = "verus"
title = "sum of the first k numbers"

[signature.input]
nums = "array<i32>"
k = "i32"

[signature.output]
result = "i64"

[constraints]
nums.len = [1, 5]
nums.elem = [-100, 100]
k = [0, "nums.len"]
"""

SUM_CASES = [({"nums": [1, 2, 3], "k": 2}, {"result": 3}),
             ({"nums": [5], "k": 1}, {"result": 5}),
             ({"nums": [-4, 4, 0, 7], "k": 0}, {"result": 0})]


def make_task(tmp: Path, toml: str = SUM_TOML, cases: list[Any] = SUM_CASES,
              files: dict[str, str] | None = None) -> Path:
    d = tmp / "task"
    (d / "tests").mkdir(parents=True)
    (d / "task.toml").write_text(toml)
    (d / "skeleton.rs").write_text("// skeleton\n")
    with (d / "tests" / "post_complete.jsonl").open("w") as f:
        for i, (inp, out) in enumerate(cases):
            f.write(json.dumps({"id": f"c{i}", "input": inp, "output": out}) + "\n")
    for name, text in (files or {}).items():
        (d / "reference").mkdir(exist_ok=True)
        (d / "reference" / name).write_text(text)
    return d


def lines(d: Path, bucket: str) -> list[dict[str, Any]]:
    p = d / "tests" / f"{bucket}.jsonl"
    return [json.loads(x) for x in p.read_text().splitlines()] if p.exists() else []


REFERENCE = "def reference(inp):\n    return {'result': sum(inp['nums'][:inp['k']])}\n"
VALIDATOR = ("def valid(inp):\n    n = inp['nums']\n"
             "    return n is not None and 1 <= len(n) <= 5 and all(-100 <= x <= 100 for x in n)"
             " and 0 <= inp['k'] <= len(n)\n")


def test_reference_and_validator_label_everything(tmp_path: Path) -> None:
    d = make_task(tmp_path, files={"reference.py": REFERENCE, "validator.py": VALIDATOR})
    rep = mutate_task(d, per_case=4, seed=7)
    assert rep.output_oracles == ["reference", "recorded"]
    assert rep.input_oracles == ["validator", "constraints"]
    assert rep.post_sound_added == 12 and rep.pre_sound_added > 0
    task = load_task(d)  # the written files load and validate
    ref = {json.dumps(i, sort_keys=True): o for i, o in SUM_CASES}
    for c in task.cases[Bucket.post_sound]:
        assert c.origin == "mutant" and c.id.startswith("m-int.") and len(c.id.rsplit("-", 1)[1]) == 8
        assert c.output != ref[json.dumps(c.input, sort_keys=True)]
    exec_ns: dict[str, Any] = {}
    exec(VALIDATOR, exec_ns)  # noqa: S102 - the test's own validator
    for c in task.cases[Bucket.pre_sound]:
        assert c.origin == "generated" and c.id.startswith("g-")
        assert exec_ns["valid"](c.input) is False
    assert sum(rep.post_operators.values()) == rep.post_sound_added
    assert sum(rep.pre_operators.values()) == rep.pre_sound_added


def test_rerun_is_idempotent_and_keeps_existing_cases(tmp_path: Path) -> None:
    d = make_task(tmp_path, files={"reference.py": REFERENCE})
    hand = {"id": "hand-1", "input": {"nums": [1], "k": 1}, "output": {"result": 99},
            "origin": "hack", "visible": True}
    (d / "tests" / "post_sound.jsonl").write_text(json.dumps(hand) + "\n")
    first = mutate_task(d, per_case=3, seed=1)
    before = lines(d, "post_sound")
    again = mutate_task(d, per_case=3, seed=1)
    assert again.post_sound_added == 0 and again.pre_sound_added == 0
    assert lines(d, "post_sound") == before
    assert before[0] == hand
    assert first.post_sound_total == len(before)
    assert again.dropped["post: duplicate of an existing case"] == first.post_sound_added


def test_same_seed_same_cases_other_seed_other_cases(tmp_path: Path) -> None:
    a = make_task(tmp_path / "a", files={"reference.py": REFERENCE})
    b = make_task(tmp_path / "b", files={"reference.py": REFERENCE})
    c = make_task(tmp_path / "c", files={"reference.py": REFERENCE})
    mutate_task(a, per_case=5, seed=3)
    mutate_task(b, per_case=5, seed=3)
    mutate_task(c, per_case=5, seed=4)
    assert lines(a, "post_sound") == lines(b, "post_sound")
    assert lines(a, "post_sound") != lines(c, "post_sound")


def test_wrong_reference_distrusts_the_case(tmp_path: Path) -> None:
    bad = "def reference(inp):\n    return {'result': sum(inp['nums'])}\n"  # ignores k
    d = make_task(tmp_path, files={"reference.py": bad})
    rep = mutate_task(d, per_case=3, seed=0, inputs=False)
    # cases 0 and 2 disagree with the recorded outputs; only case 1 (k = len) is trusted
    assert rep.post_sound_added == 3
    assert rep.dropped["post: reference rejects the recorded right output"] == 6


def test_non_unique_outputs_need_a_checker(tmp_path: Path) -> None:
    toml = SUM_TOML.replace("[constraints]", "[constraints]\nunique_output = false")
    d = make_task(tmp_path, toml=toml, files={"reference.py": REFERENCE})
    rep = mutate_task(d, per_case=3, seed=0, inputs=False)
    assert rep.post_sound_added == 0
    assert rep.output_oracles == []
    assert any("only a checker" in n for n in rep.notes)
    assert rep.dropped == {"post: no oracle": 9}


def test_checker_accepting_a_mutant_drops_it(tmp_path: Path) -> None:
    # outputs not unique: any result with the right parity is accepted
    toml = SUM_TOML.replace("[constraints]", "[constraints]\nunique_output = false")
    checker = ("def check(inp, out):\n"
               "    return out['result'] % 2 == sum(inp['nums'][:inp['k']]) % 2\n")
    d = make_task(tmp_path, toml=toml, files={"checker.py": checker})
    rep = mutate_task(d, per_case=6, seed=0, inputs=False)
    assert rep.output_oracles == ["checker"]
    assert rep.dropped.get("post: checker: checker accepts", 0) > 0
    for c in lines(d, "post_sound"):
        s = sum(c["input"]["nums"][:c["input"]["k"]])
        assert c["output"]["result"] % 2 != s % 2


def test_oracle_errors_are_counted_not_raised(tmp_path: Path) -> None:
    checker = "def check(inp, out):\n    return 1 / 0\n"
    d = make_task(tmp_path, files={"checker.py": checker})
    rep = mutate_task(d, per_case=2, seed=0, inputs=False, write=False)
    # the recorded oracle still labels; the checker's failures are unknown, not acceptance
    assert rep.post_sound_added == 6
    assert not (d / "tests" / "post_sound.jsonl").exists()


def test_validator_more_lenient_than_constraints_drops(tmp_path: Path) -> None:
    lenient = "def valid(inp):\n    return inp['nums'] is not None and len(inp['nums']) >= 1\n"
    d = make_task(tmp_path, files={"validator.py": lenient})
    rep = mutate_task(d, per_case=6, seed=0, outputs=False)
    assert rep.dropped.get("pre: validator: validator accepts", 0) > 0
    exec_ns: dict[str, Any] = {}
    exec(lenient, exec_ns)  # noqa: S102
    for c in lines(d, "pre_sound"):
        assert exec_ns["valid"](c["input"]) is False


def test_without_validator_constraints_label_and_blind_values_are_dropped(tmp_path: Path
                                                                         ) -> None:
    d = make_task(tmp_path)
    rep = mutate_task(d, per_case=8, seed=0, outputs=False)
    assert rep.input_oracles == ["constraints"]
    assert rep.pre_sound_added > 0
    # k = 0 or the array's first element alone keep every constraint: never labelled invalid
    assert rep.dropped.get("pre: constraints: keeps every stated constraint", 0) > 0
    task = load_task(d)
    from adequacy_mutators import parse_constraints

    cons = parse_constraints(task.constraints, task.inputs)
    for c in task.cases[Bucket.pre_sound]:
        assert cons.violations(c.input)


def test_no_input_oracle_means_no_invalid_inputs(tmp_path: Path) -> None:
    toml = SUM_TOML.split("[constraints]")[0]
    d = make_task(tmp_path, toml=toml)
    rep = mutate_task(d, per_case=5, seed=0, outputs=False)
    assert rep.pre_sound_added == 0
    assert any("no invalid input can be labelled" in n for n in rep.notes)


def test_bad_constraint_is_a_task_error(tmp_path: Path) -> None:
    from adequacy.errors import TaskError

    d = make_task(tmp_path, toml=SUM_TOML + "nums.sorted = 3\n")
    with pytest.raises(TaskError, match="sorted"):
        mutate_task(d)


def test_string_array_char_and_map_outputs(tmp_path: Path) -> None:
    toml = """id = "split"
language = "jml"

[signature.input]
s = "nullable<string>"

[signature.output]
words = "array<nullable<string>>"
first = "char"
counts = "map<string, i32>"
"""
    cases = [({"s": "a b"}, {"words": ["a", "b"], "first": "a", "counts": [["a", 1], ["b", 1]]}),
             ({"s": ""}, {"words": [], "first": " ", "counts": []})]
    d = make_task(tmp_path, toml=toml, cases=cases)
    (d / "Solution.java").write_text("class Solution {}\n")
    rep = mutate_task(d, per_case=10, seed=0, inputs=False)
    assert rep.post_sound_added == 20
    fields = {op.split(".")[0] for op in rep.post_operators}
    assert fields == {"words", "first", "counts"}
    load_task(d)


def test_case_ids_name_the_operator_that_made_them(tmp_path: Path) -> None:
    """``m-int.plus_two-<hash>``: the id says which mutation made the wrong output (and
    ``g-<operator>-<hash>`` which made the invalid input); counted per operator, the ids give
    exactly the report's table."""
    import re
    from collections import Counter

    d = make_task(tmp_path, files={"reference.py": REFERENCE, "validator.py": VALIDATOR})
    rep = mutate_task(d, per_case=4, seed=7)
    post = [c["id"] for c in lines(d, "post_sound")]
    pre = [c["id"] for c in lines(d, "pre_sound")]
    shape = re.compile(r"^([mg])-([A-Za-z0-9_.]+)-[0-9a-f]{8,}$")
    assert post and pre and all(shape.match(i) for i in post + pre), post + pre

    def ops(ids: list[str]) -> Counter[str]:
        return Counter(shape.match(i).group(2) for i in ids)  # type: ignore[union-attr]

    slug = {k.replace(":", "."): v for k, v in rep.post_operators.items()}
    assert ops(post) == Counter(slug) and all(i.startswith("m-") for i in post)
    assert ops(pre) == Counter(rep.pre_operators) and all(i.startswith("g-") for i in pre)
