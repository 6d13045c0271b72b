"""generate_task on small tasks whose reference we know by heart (hand-worked truth).

isqrt: the reference is ``math.isqrt``, which raises ValueError exactly on negative numbers,
so every generated valid pair must be (n >= 0, floor(sqrt(n))) and every generated invalid
input must be negative. double: the reference is total, so the task must come out
``every_input_valid`` with its evidence, and with no invalid input at all.
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from typing import Any

import pytest

from adequacy.errors import AdequacyError
from adequacy.model.verdicts import Bucket
from adequacy.scoring.spec_report import SpecReport
from adequacy.taskdirs.load import load_task
from adequacy_mutators import generate_task

ISQRT_TOML = """id = "isqrt"
language = "verus"
title = "integer square root"

[signature.input]
n = "i32"

[signature.output]
result = "i32"
"""
ISQRT_CASES = [({"n": n}, {"result": math.isqrt(n)}) for n in (0, 1, 4, 9, 15, 100)]
ISQRT_REF = "import math\ndef reference(inp):\n    return {'result': math.isqrt(inp['n'])}\n"

DOUBLE_TOML = ISQRT_TOML.replace('"isqrt"', '"double"').replace('result = "i32"',
                                                                 'result = "i64"')
DOUBLE_CASES = [({"n": n}, {"result": 2 * n}) for n in (-7, 0, 3, 12)]
DOUBLE_REF = "def reference(inp):\n    return {'result': 2 * inp['n']}\n"


def make_task(tmp: Path, name: str, toml: str, cases: list[Any],
              files: dict[str, str]) -> Path:
    d = tmp / name
    (d / "tests").mkdir(parents=True)
    (d / "task.toml").write_text(toml)
    (d / "skeleton.rs").write_text("// skeleton\n")
    with (d / "tests" / "post_complete.jsonl").open("w") as f:
        for i, (inp, out) in enumerate(cases):
            f.write(json.dumps({"id": f"c{i}", "input": inp, "output": out}) + "\n")
    (d / "reference").mkdir()
    for fname, text in files.items():
        (d / "reference" / fname).write_text(text)
    return d


def lines(d: Path, bucket: str) -> list[dict[str, Any]]:
    p = d / "tests" / f"{bucket}.jsonl"
    return [json.loads(x) for x in p.read_text().splitlines()] if p.exists() else []


def test_isqrt_pairs_are_right_and_invalid_inputs_are_negative(tmp_path: Path) -> None:
    d = make_task(tmp_path, "isqrt", ISQRT_TOML, ISQRT_CASES, {"reference.py": ISQRT_REF})
    rep = generate_task(d, valid=30, seed=0)
    assert rep.reference == "reference.py"
    assert rep.valid_added == 30
    gen = [c for c in lines(d, "post_complete") if c["origin"] == "generated"]
    assert len(gen) == 30
    for c in gen:
        n = c["input"]["n"]
        # shaped like the task's own: 0..100 seen, widened by a quarter, never below zero
        assert 0 <= n <= 125
        assert c["output"] == {"result": math.isqrt(n)}
        assert c["seed"] == 0 and c["visible"] is False
    pre_c = {json.dumps(c["input"]) for c in lines(d, "pre_complete")}
    assert {json.dumps(c["input"]) for c in gen} <= pre_c
    bad = lines(d, "pre_sound")
    assert bad, "isqrt refuses negative numbers: boundary values must find some"
    assert all(c["input"]["n"] < 0 for c in bad)
    assert {-1, -2147483648} <= {c["input"]["n"] for c in bad}  # schema.negative, schema.min
    assert rep.pre_operators.get("schema.negative") == 1
    task = load_task(d)
    assert not task.every_input_valid
    assert all(c.origin == "generated" and c.seed == 0 for c in task.cases[Bucket.pre_sound])


def test_same_seed_same_cases_rerun_adds_nothing_other_seed_differs(tmp_path: Path) -> None:
    a = make_task(tmp_path / "a", "isqrt", ISQRT_TOML, ISQRT_CASES, {"reference.py": ISQRT_REF})
    b = tmp_path / "b"
    shutil.copytree(a, b)
    c = tmp_path / "c"
    shutil.copytree(a, c)
    generate_task(a, valid=20, seed=0)
    generate_task(b, valid=20, seed=0)
    generate_task(c, valid=20, seed=1)
    for bucket in ("post_complete", "pre_complete", "pre_sound"):
        assert lines(a, bucket) == lines(b, bucket)
    assert lines(a, "post_complete") != lines(c, "post_complete")
    again = generate_task(a, valid=20, seed=0)
    assert again.valid_added == 0 and again.pre_sound_added == 0
    assert lines(a, "post_complete") == lines(b, "post_complete")


def test_total_reference_makes_the_task_every_input_valid(tmp_path: Path) -> None:
    d = make_task(tmp_path, "double", DOUBLE_TOML, DOUBLE_CASES, {"reference.py": DOUBLE_REF})
    rep = generate_task(d, valid=40, seed=3)
    assert rep.inferred_every_input_valid and rep.pre_sound_added == 0
    assert rep.every_input_valid_reason.startswith("inferred: the reference is total on ")
    assert rep.reference_kinds == {"returned": rep.reference_runs}
    # -7..12 widened by a quarter of the span (4.75) each way: -11..16, all of it drawn
    drawn = {c["input"]["n"] for c in lines(d, "post_complete") if c["origin"] == "generated"}
    assert drawn == set(range(-11, 17)) - {-7, 0, 3, 12}
    assert rep.reference_runs >= len(drawn) + 2  # and the i32 extremes
    task = load_task(d)
    assert task.every_input_valid
    assert task.every_input_valid_reason == rep.every_input_valid_reason
    assert not task.cases[Bucket.pre_sound]
    for c in task.cases[Bucket.post_complete]:
        assert c.output == {"result": 2 * c.input["n"]}
    # once set, a rerun leaves task.toml alone
    text = (d / "task.toml").read_text()
    generate_task(d, valid=40, seed=3)
    assert (d / "task.toml").read_text() == text


def test_an_author_saying_false_is_not_overruled(tmp_path: Path) -> None:
    toml = DOUBLE_TOML.replace('title = "integer square root"\n',
                               'title = "integer square root"\nevery_input_valid = false\n')
    d = make_task(tmp_path, "double", toml, DOUBLE_CASES, {"reference.py": DOUBLE_REF})
    rep = generate_task(d, valid=10, seed=0)
    assert not rep.inferred_every_input_valid
    assert not load_task(d).every_input_valid  # and task.toml still parses


def test_task_toml_is_never_cut_by_the_inference(tmp_path: Path) -> None:
    # a line inside a multi-line string that looks like a table header: inserting there
    # would change the string (or break the file)
    toml = DOUBLE_TOML.replace('title = "integer square root"\n',
                               'title = "integer square root"\nprovenance = """\n[by hand]\n"""\n')
    d = make_task(tmp_path, "double", toml, DOUBLE_CASES, {"reference.py": DOUBLE_REF})
    rep = generate_task(d, valid=40, seed=0)
    assert (d / "task.toml").read_text() == toml
    assert not rep.inferred_every_input_valid
    assert any("not written" in n for n in rep.notes)
    assert not load_task(d).every_input_valid


def test_cases_covering_every_input_of_the_types_make_it_every_input_valid(tmp_path: Path
                                                                           ) -> None:
    toml = ('id = "and"\nlanguage = "verus"\n\n[signature.input]\na = "bool"\nb = "bool"\n\n'
            '[signature.output]\nresult = "bool"\n')
    all4 = [({"a": a, "b": b}, {"result": a and b}) for a in (False, True) for b in (False, True)]
    d = make_task(tmp_path, "and", toml, all4, {})  # no reference at all: not needed
    rep = generate_task(d, valid=10, seed=0)
    assert rep.every_input_valid_reason == "the task's valid cases cover all 4 inputs of the types"
    assert load_task(d).every_input_valid
    d3 = make_task(tmp_path / "three", "and", toml, all4[:3], {})
    assert not generate_task(d3, valid=10, seed=0).every_input_valid  # one input unknown


def test_a_validator_blocks_the_inference_and_labels_inputs(tmp_path: Path) -> None:
    # the reference is total, but the task says only even numbers are valid
    validator = "def valid(inp):\n    return inp['n'] % 2 == 0\n"
    cases = [({"n": n}, {"result": 2 * n}) for n in (-6, 0, 4, 12)]
    d = make_task(tmp_path, "double", DOUBLE_TOML, cases,
                  {"reference.py": DOUBLE_REF, "validator.py": validator})
    rep = generate_task(d, valid=25, seed=0)
    assert not rep.inferred_every_input_valid
    assert all(c["input"]["n"] % 2 == 0 for c in lines(d, "post_complete"))
    bad = lines(d, "pre_sound")
    assert bad and all(c["input"]["n"] % 2 == 1 for c in bad)  # -1 and the i32 max, say


def test_a_reference_that_times_out_proves_nothing(tmp_path: Path, monkeypatch: Any) -> None:
    import adequacy_mutators._generate as g

    monkeypatch.setattr(g, "PY_SECONDS", 0.2)
    loops = ("def reference(inp):\n    n = inp['n']\n    while n < 0:\n        pass\n"
             "    return {'result': 2 * n}\n")
    d = make_task(tmp_path, "double", DOUBLE_TOML,
                  [({"n": n}, {"result": 2 * n}) for n in (0, 3, 12)], {"reference.py": loops})
    rep = generate_task(d, valid=10, seed=0)
    assert rep.reference_kinds.get("timeout", 0) >= 1
    assert rep.pre_sound_added == 0  # not terminating is not evidence of invalidity here
    assert not rep.inferred_every_input_valid
    assert any("timeout" in n for n in rep.notes)


def test_state_of_a_reference_never_crosses_calls(tmp_path: Path) -> None:
    # right on a fresh start, wrong once it has run: each call runs in a fresh sandboxed
    # child, so the counter is 1 on every call and every pair is the right one (2n)
    ref = ("CALLS = [0]\ndef reference(inp):\n    CALLS[0] += 1\n"
           "    return {'result': 2 * inp['n'] + (1 if CALLS[0] > 1 else 0)}\n")
    d = make_task(tmp_path, "double", DOUBLE_TOML, DOUBLE_CASES, {"reference.py": ref})
    rep = generate_task(d, valid=20, seed=0)
    assert rep.valid_added == 20
    assert not any("reference distrusted" in n for n in rep.notes)
    pairs = [json.loads(x) for x in (d / "tests" / "post_complete.jsonl").read_text(
        encoding="utf-8").splitlines()]
    assert all(p["output"]["result"] == 2 * p["input"]["n"] for p in pairs)


def test_a_reference_that_differs_from_the_recorded_pairs_is_distrusted(tmp_path: Path
                                                                        ) -> None:
    # a conversion that differs from the dataset's: the task's own pairs, run with the first
    # drawn inputs, catch it before any of its outputs becomes a case
    ref = "def reference(inp):\n    return {'result': 2 * inp['n'] + (1 if inp['n'] > 2 else 0)}\n"
    d = make_task(tmp_path, "double", DOUBLE_TOML, DOUBLE_CASES, {"reference.py": ref})
    rep = generate_task(d, valid=20, seed=0)
    assert rep.valid_added == 0 and rep.pre_sound_added == 0
    assert not rep.inferred_every_input_valid
    assert any("reference distrusted" in n and "differs from the recorded" in n
               for n in rep.notes)
    assert not (d / "tests" / "pre_complete.jsonl").exists()


def test_without_a_reference_no_pair_is_made(tmp_path: Path) -> None:
    d = make_task(tmp_path, "isqrt", ISQRT_TOML, ISQRT_CASES, {})
    rep = generate_task(d, valid=10, seed=0)
    assert rep.valid_added == 0 and not rep.inferred_every_input_valid
    assert any("no reference" in n for n in rep.notes)


def test_broken_reference_is_a_task_error(tmp_path: Path) -> None:
    d = make_task(tmp_path, "isqrt", ISQRT_TOML, ISQRT_CASES, {"reference.py": "def (:\n"})
    with pytest.raises(AdequacyError) as e:
        generate_task(d, valid=10, seed=0)
    assert "reference.py" in str(e.value)


def test_a_bad_seed_field_is_refused_with_its_line(tmp_path: Path) -> None:
    d = make_task(tmp_path, "isqrt", ISQRT_TOML, ISQRT_CASES, {})
    with (d / "tests" / "post_complete.jsonl").open("a") as f:
        f.write(json.dumps({"id": "x", "input": {"n": 2}, "output": {"result": 1},
                            "seed": "zero"}) + "\n")
    with pytest.raises(AdequacyError) as e:
        load_task(d)
    assert "seed must be an integer" in str(e.value) and e.value.line == 7  # type: ignore[attr-defined]


def test_report_origins_must_count_the_scored_cases() -> None:
    from adequacy.model.metrics import bucket_stats
    from adequacy.model.verdicts import Truth, Verdict

    vs = [Verdict(case_id="a", bucket=Bucket.pre_complete, value=Truth.true, engine="e")]
    base = dict(key="k", task_id="t", task_path="p", spec_path=None, spec_sha="s",
                language="l", status="scored")
    ok = SpecReport(**base, verdicts=vs, origins={"generated": 1}).finish()  # type: ignore[arg-type]
    assert ok.origins == {"generated": 1}
    with pytest.raises(ValueError, match="origins"):
        SpecReport(**base, verdicts=vs, buckets=bucket_stats(vs),  # type: ignore[arg-type]
                   origins={"generated": 2})


def test_lean_true_precondition_is_recognised(tmp_path: Path) -> None:
    from adequacy_verus.verina.importer import lean_precondition_is_true

    def lean(body: str) -> Path:
        d = tmp_path / str(abs(hash(body)))
        d.mkdir()
        (d / "task.lean").write_text(
            "-- !benchmark @start precond_aux\n-- !benchmark @end precond_aux\n"
            "def f_precond (a : Int) : Prop :=\n  -- !benchmark @start precond\n"
            f"{body}\n  -- !benchmark @end precond\n")
        return d

    assert lean_precondition_is_true(lean("  True"))
    assert lean_precondition_is_true(lean("  -- nothing to ask\n  True /- total -/"))
    assert not lean_precondition_is_true(lean("  a > 0"))
    assert not lean_precondition_is_true(lean("  True ∧ a > 0"))
    assert not lean_precondition_is_true(tmp_path)  # no task.lean


JAVA = """public class Solution {
    public static int solve(int[] a, int i) {
        if (i < 0) throw new IllegalArgumentException("negative index");
        return a[i];
    }
}
"""
JAVA_TOML = """id = "at"
language = "jml"
title = "element at an index"

[signature.input]
a = "array<i32>"
i = "i32"

[signature.output]
result = "i32"

[jml]
class = "Solution"
method = "solve"
java_params = ["int[]", "int"]
java_return = "int"
static = true
"""


@pytest.mark.slow
def test_java_reference_outcomes_and_generated_cases(tmp_path: Path) -> None:
    from adequacy.extensions.registry import registry

    try:
        backend = registry().backend_for("jml")
    except AdequacyError as e:
        pytest.skip(f"no JML backend: {e}")
    cases = [({"a": [5, 6, 7], "i": 0}, {"result": 5}), ({"a": [5, 6, 7], "i": 2}, {"result": 7}),
             ({"a": [1, 2], "i": 1}, {"result": 2}), ({"a": [9], "i": 0}, {"result": 9})]
    d = make_task(tmp_path, "at", JAVA_TOML, cases, {})
    shutil.rmtree(d / "reference")
    (d / "skeleton.rs").unlink()
    (d / "Solution.java").write_text(JAVA)
    task = load_task(d)
    try:
        outs = backend.reference_outcomes(task, [{"a": [4, 5], "i": 1}, {"a": [4], "i": -1},
                                                 {"a": [4], "i": 3}, {"a": None, "i": 0}])
    except AdequacyError as e:
        pytest.skip(f"JVM not usable here: {e}")
    assert outs is not None
    assert [o.kind for o in outs] == ["returned", "threw", "threw", "threw"]
    assert outs[0].output == {"result": 5}
    assert outs[1].reason == "java.lang.IllegalArgumentException"
    assert backend.implicit_invalid(task, {"a": None, "i": 0}) is not None
    assert backend.implicit_invalid(task, {"a": [1], "i": 0}) is None
    rep = generate_task(d, valid=20, seed=0)
    assert rep.reference == "backend openjml"
    for c in lines(d, "post_complete"):
        a, i = c["input"]["a"], c["input"]["i"]
        assert a is not None and 0 <= i < len(a) and c["output"] == {"result": a[i]}
    bad = lines(d, "pre_sound")
    assert bad and not rep.inferred_every_input_valid
    for c in bad:
        a, i = c["input"]["a"], c["input"]["i"]
        assert a is None or not 0 <= i < len(a)


def test_submit_reports_keep_the_origin_counts() -> None:
    """The gym's submit strips everything that can quote a hidden case; origin counts are
    numbers per origin name only, and an agent is told what its grade rests on."""
    from adequacy.gym.session import _strip
    from adequacy.model.verdicts import Truth, Verdict

    vs = [Verdict(case_id="gen-1", bucket=Bucket.pre_complete, value=Truth.true, engine="e",
                  reason="hidden value 12345")]
    rep = SpecReport(key="k", task_id="t", task_path="p", spec_path=None, spec_sha="s",
                     language="l", status="scored", verdicts=vs,
                     origins={"generated": 1}).finish()
    d = _strip(rep)
    assert d["origins"] == {"generated": 1}
    assert "12345" not in json.dumps(d)


@pytest.mark.dataset
@pytest.mark.slow
def test_import_generates_by_default_and_opts_out(tmp_path: Path, datasets_dir: Path) -> None:
    from typer.testing import CliRunner

    from adequacy.cli.root import app

    sgb = datasets_dir / "specgenbench" / "sgb.jsonl"
    if not sgb.is_file():
        pytest.skip("no specgenbench/sgb.jsonl")
    src = tmp_path / "sgb1.jsonl"
    src.write_text(sgb.read_text().splitlines()[0] + "\n")  # SGB_Abs: |num|
    r = CliRunner().invoke(app, ["import", "specgenbench", str(src), str(tmp_path / "on"),
                                 "--no-mutate"])
    assert r.exit_code == 0, r.output
    assert "generate:" in r.output
    task = load_task(tmp_path / "on" / "SGB_Abs")
    # the dataset's own extra pairs are origin "generated" too, without a seed
    gen = [c for c in task.cases[Bucket.post_complete] if c.seed == 0]
    assert len(gen) == 50 and all(c.origin == "generated" for c in gen)
    assert all(c.output == {"result": abs(c.input["num"])} for c in gen)
    # |num| is defined on every int but MIN_VALUE, where -num overflows: that one input is
    # invalid (JML's safe math for code), so the task is not every_input_valid
    assert not task.every_input_valid
    assert [c.input for c in task.cases[Bucket.pre_sound]] == [{"num": -2147483648}]
    r = CliRunner().invoke(app, ["import", "specgenbench", str(src), str(tmp_path / "off"),
                                 "--no-mutate", "--no-generate"])
    assert r.exit_code == 0 and "generate:" not in r.output
    off = load_task(tmp_path / "off" / "SGB_Abs")
    assert not off.every_input_valid
    assert not [c for c in off.all_cases() if c.seed is not None]


def test_cli_generate_prints_a_line_per_task_and_exits_2_on_bad_input(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from adequacy.cli.root import app

    d = make_task(tmp_path, "double", DOUBLE_TOML, DOUBLE_CASES, {"reference.py": DOUBLE_REF})
    r = CliRunner().invoke(app, ["cases", "generate", str(d), "--valid", "40", "--seed", "3",
                                 "--dry-run"])
    assert r.exit_code == 0, r.output
    flat = " ".join(r.output.split())
    assert "double: +24 valid pairs" in flat and "every_input_valid: inferred:" in flat
    assert "(nothing written)" in flat and not (d / "tests" / "pre_complete.jsonl").exists()
    r = CliRunner().invoke(app, ["cases", "generate", str(d), "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout.splitlines()[0])["task"] == "double"
    r = CliRunner().invoke(app, ["cases", "generate", str(d), "--valid", "1000000000"])
    assert r.exit_code == 2 and "at most" in r.stderr
    r = CliRunner().invoke(app, ["cases", "generate", str(tmp_path / "nope")])
    assert r.exit_code == 2 and "not a task folder" in r.stderr
    for broken in ("raise SystemExit(\n", "import sys\nsys.exit(0)\n"):
        (d / "reference" / "reference.py").write_text(broken)
        r = CliRunner().invoke(app, ["cases", "generate", str(d)])
        assert r.exit_code == 2, r.output
        assert "reference.py" in r.stderr


def test_a_reference_calling_exit_proves_nothing(tmp_path: Path) -> None:
    ref = ("import sys\ndef reference(inp):\n    if inp['n'] > 12:\n        sys.exit(3)\n"
           "    return {'result': 2 * inp['n']}\n")
    d = make_task(tmp_path, "double", DOUBLE_TOML, DOUBLE_CASES, {"reference.py": ref})
    rep = generate_task(d, valid=40, seed=3)
    assert rep.reference_kinds.get("failed", 0) >= 1
    assert all(c["input"]["n"] <= 12 for c in lines(d, "post_complete"))
    assert rep.pre_sound_added == 0 and not rep.inferred_every_input_valid


SWAPCASE_TOML = """id = "swapcase"
language = "verus"
title = "swap the case of one letter"

[signature.input]
c = "char"

[signature.output]
result = "char"
"""
SWAPCASE_REF = ("def reference(inp):\n    c = inp['c']\n"
                "    return {'result': c.swapcase() if len(c.swapcase()) == 1 else c}\n")


def test_char_positions_widen_to_classes_the_examples_use(tmp_path: Path) -> None:
    """SpecGenBench's ChangeCase: its examples used every character they held, so no new input
    could be drawn and the reference ran on 11 inputs, too few for every_input_valid. A class
    seen 3+ times (here punctuation, lowercase) opens; a class seen twice ('0', '1') does not."""
    seen = ["a", "b", "c", "%", "*", "+", "0", "1"]
    cases = [({"c": ch}, {"result": ch.swapcase()}) for ch in seen]
    d = make_task(tmp_path, "swapcase", SWAPCASE_TOML, cases, {"reference.py": SWAPCASE_REF})
    rep = generate_task(d, valid=40, seed=0)
    drawn = {c["input"]["c"] for c in lines(d, "post_complete") if c["origin"] == "generated"}
    assert len(drawn) >= 30
    assert drawn <= set("abcdefghijklmnopqrstuvwxyz!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ ")
    assert not drawn & set("23456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")  # digits, upper: too few seen
    for c in lines(d, "post_complete"):
        assert c["output"] == {"result": c["input"]["c"].swapcase()}  # hand: str.swapcase
    assert rep.inferred_every_input_valid


def test_string_letters_do_not_widen(tmp_path: Path) -> None:
    """The letters of a string stay the examples' own (a binary string stays binary)."""
    toml = SWAPCASE_TOML.replace('c = "char"', 'c = "string"').replace(
        'result = "char"', 'result = "string"').replace('"swapcase"', '"swapstr"')
    cases = [({"c": s}, {"result": s.swapcase()}) for s in ("abc", "%*+", "ab", "c%")]
    ref = "def reference(inp):\n    return {'result': inp['c'].swapcase()}\n"
    d = make_task(tmp_path, "swapstr", toml, cases, {"reference.py": ref})
    generate_task(d, valid=30, seed=0)
    letters = {ch for c in lines(d, "post_complete") for ch in c["input"]["c"]}
    assert letters <= set("abc%*+")
