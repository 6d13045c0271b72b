"""Helpers for JML tests: tiny tasks written on the fly."""

from __future__ import annotations

import json
from pathlib import Path

from adequacy.examples import bundled_folder
from adequacy.extensions.backend import Limits, engine_named
from adequacy.model.task import Case
from adequacy.model.verdicts import Bucket, Verdict
from adequacy.taskdirs.load import load_task
from adequacy_openjml.plugin import OpenJmlBackend

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = bundled_folder("jml")

TWO_INTS = """public class Solution {
    public static int solve(int x, int y) {
        return x + y;
    }
}
"""



def write_task(root: Path, code: str = TWO_INTS, inputs: dict[str, str] | None = None,
               output: str = "i32") -> Path:
    inputs = inputs or {"x": "i32", "y": "i32"}
    (root / "tests").mkdir(parents=True, exist_ok=True)  # a task folder holds tests/
    sig_in = "\n".join(f'{k} = "{v}"' for k, v in inputs.items())
    (root / "task.toml").write_text(
        f'id = "t"\nlanguage = "jml"\n\n[signature.input]\n{sig_in}\n\n'
        f'[signature.output]\nresult = "{output}"\n\n[jml]\nclass = "Solution"\n'
        'method = "solve"\n')
    (root / "Solution.java").write_text(code)
    return root


def with_spec(code: str, jml: str, before: str = "    public static") -> str:
    return code.replace(before, jml + "\n" + before, 1)


class Runner:
    def __init__(self, root: Path, code: str) -> None:
        self.task = load_task(root)
        self.code = code
        self.backend = OpenJmlBackend()

    def pre(self, jml: str, *inputs: dict, limits: Limits | None = None) -> list[Verdict]:
        cases = [Case(id=str(k), bucket=Bucket.pre_complete, input=i)
                 for k, i in enumerate(inputs)]
        spec = self.backend.load_spec(self.task, with_spec(self.code, jml), "Spec.java")
        return engine_named(self.backend, "rac").check(spec, self.task, cases, limits or Limits())

    def post(self, jml: str, *pairs: tuple[dict, object],
             limits: Limits | None = None) -> list[Verdict]:
        cases = [Case(id=str(k), bucket=Bucket.post_complete, input=i,
                      output=o if isinstance(o, dict) and "result" in o else {"result": o})
                 for k, (i, o) in enumerate(pairs)]
        spec = self.backend.load_spec(self.task, with_spec(self.code, jml), "Spec.java")
        return engine_named(self.backend, "rac").check(spec, self.task, cases, limits or Limits())


def values(vs: list[Verdict]) -> list[str]:
    return [v.value.value for v in vs]


def read_jsonl(p: Path) -> list[dict]:
    return [json.loads(x) for x in p.read_text().splitlines() if x.strip()]


ABS_VALUE = EXAMPLES / "abs_value"


def gold_with_line(anchor: str, added: str, root: Path = ABS_VALUE) -> tuple[str, int]:
    """The task's gold spec with ``added`` on its own line right after ``anchor`` (which must
    occur once), and the number of that new line: where an error about it must point."""
    gold = (root / "specs" / "gold.java").read_text()
    assert gold.count(anchor) == 1
    line = gold[:gold.index(anchor)].count("\n") + 2
    return gold.replace(anchor, f"{anchor}\n    {added}"), line


def load_gold_with(anchor: str, added: str, root: Path = ABS_VALUE) -> None:
    """Load the gold with the added line through the JML front end (raises on a bad spec)."""
    from adequacy_openjml.jml.load import load

    text, _line = gold_with_line(anchor, added, root)
    load(load_task(root), text, "gold.java")


def invalid_at(anchor: str, added: str, root: Path = ABS_VALUE) -> tuple[int, str]:
    """(line the front end blamed minus the added line's, its message) for a spec it must
    refuse: 0 means the error points at the added line itself."""
    import pytest

    from adequacy.errors import SpecInvalid
    from adequacy_openjml.jml.load import load

    text, line = gold_with_line(anchor, added, root)
    with pytest.raises(SpecInvalid) as e:
        load(load_task(root), text, "gold.java")
    assert e.value.file == "gold.java"
    return (e.value.line or 0) - line, e.value.message
