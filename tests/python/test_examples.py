"""The bundled Python examples: each spec fails exactly the buckets its expected.toml names,
and one spec written in each of the accepted forms gives the same verdicts."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from adequacy.plugin import Bucket, Limits, load_task

from .pysupport import EXAMPLES, check

pytestmark = pytest.mark.slow
TASKS = sorted(d for d in EXAMPLES.iterdir() if (d / "task.toml").is_file())


def test_three_examples_with_every_kind_of_flaw() -> None:
    assert len(TASKS) >= 3
    for t in TASKS:
        names = {p.name for p in (t / "specs").glob("*.py")}
        assert "gold.py" in names and {"flawed_pre_too_strong.py", "flawed_post_too_strong.py",
                                       "flawed_post_too_weak.py"} <= names, t


@pytest.mark.parametrize("task_dir", TASKS, ids=[t.name for t in TASKS])
def test_each_spec_fails_its_buckets(task_dir: Path) -> None:
    task = load_task(task_dir)
    expected = tomllib.loads((task_dir / "specs" / "expected.toml").read_text())["specs"]
    for name, want in expected.items():
        text = (task_dir / "specs" / name).read_text()
        verdicts = check(task, text, limits=Limits(case_seconds=5.0))
        failed = sorted({v.bucket.value for v in verdicts if not v.passed})
        assert failed == sorted(want["fails"]), (name, failed, verdicts)
        assert all(v.decided for v in verdicts), (name, verdicts)


FORMS = {
    "functions": "def pre(x, lo, hi):\n    return lo <= hi\n\n\n"
                 "def post(x, lo, hi, result):\n    return result == max(lo, min(x, hi))\n",
    "assert functions": "def pre(x, lo, hi):\n    assert lo <= hi\n\n\n"
                        "def post(x, lo, hi, result):\n    assert result == max(lo, min(x, hi))\n",
    "icontract": "import icontract\n\n\n@icontract.require(lambda lo, hi: lo <= hi)\n"
                 "@icontract.ensure(lambda x, lo, hi, result: result == max(lo, min(x, hi)))\n"
                 "def clamp(x, lo, hi):\n    pass\n",
    "deal": "import deal\n\n\n@deal.pre(lambda x, lo, hi: lo <= hi)\n"
            "@deal.ensure(lambda x, lo, hi, result: result == max(lo, min(x, hi)))\n"
            "def clamp(x, lo, hi):\n    pass\n",
    "assert block with a def pre": "def pre(x, lo, hi):\n    return lo <= hi\n\n\n"
                                   "assert return_value == max(lo, min(x, hi))\n",
}


def test_the_forms_mean_the_same() -> None:
    task = load_task(EXAMPLES / "clamp")
    results = {name: [(v.bucket, v.case_id, v.value) for v in check(task, text)]
               for name, text in FORMS.items()}
    first = results["functions"]
    assert all(v[2].value != "unknown" for v in first)
    assert all(r == first for r in results.values()), results
    assert {b for b, _, _ in first} == set(Bucket)
