"""``matches`` binds its pattern's names as Verus does (guide: reference-matches.md; syn_verus
``parse_matches``): in the rest of an ``&&`` chain after it and on the right of ``==>``, and
nowhere else. The checker refused the valid ``r matches Some(k) ==> k < n``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from adequacy.errors import SpecInvalid
from adequacy.examples import bundled_folder
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.load import load_task

REPO = Path(__file__).resolve().parents[2]
HEAD = """use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {
exec_spec_unverified! {
pub struct Input { pub arr: Seq<i64>, pub target: i64 }
pub struct Output { pub result: Option<usize> }

spec fn pre_spec(input: Input) -> bool { true }
spec fn post_spec(input: Input, output: Output) -> bool {
    %s
}
}
}
"""


def _task(tmp: Path) -> Path:
    d = tmp / "t"
    src = bundled_folder("verus") / "binary_search_first"
    d.mkdir()
    shutil.copy(src / "task.toml", d / "task.toml")
    shutil.copy(src / "skeleton.rs", d / "skeleton.rs")
    (d / "tests").mkdir()
    arr = [1, 3, 5]
    cases = [  # (id, output) for arr [1, 3, 5], target 3
        ("some1", {"some": 1}), ("some0", {"some": 0}), ("none", None), ("some7", {"some": 7})]
    (d / "tests" / "post_complete.jsonl").write_text("".join(
        json.dumps({"id": i, "input": {"arr": arr, "target": 3}, "output": {"result": o}})
        + "\n" for i, o in cases))
    return d


def _verdicts(tmp: Path, body: str) -> dict[str, str]:
    task = load_task(_task(tmp))
    rep = score_spec(task, HEAD % body, "s.rs", cache=None, engines=["interp"])
    assert rep.status == "scored", rep.invalid
    return {v.case_id: v.value.value for v in rep.verdicts}


@pytest.mark.parametrize(("body", "truth"), [
    # Some(k) ==> k in range and arr[k] == target: some1 true, some0 false (arr[0] = 1),
    # none true (vacuous), some7 false (7 >= 3)
    ("output.result matches Some(k) ==> k < input.arr.len() && input.arr[k as int] == "
     "input.target", {"some1": "true", "some0": "false", "none": "true", "some7": "false"}),
    # the rest of the && chain sees k: some1 true; some0 false; none false; some7 false
    ("output.result matches Some(k) && k < input.arr.len() && input.arr[k as int] == "
     "input.target", {"some1": "true", "some0": "false", "none": "false", "some7": "false"}),
    # an operand before the matches, then the chain: same truths
    ("input.arr.len() > 0 && output.result matches Some(k) && k < input.arr.len() && "
     "input.arr[k as int] == input.target",
     {"some1": "true", "some0": "false", "none": "false", "some7": "false"}),
    # ==> chains: the names reach the conclusion; some7: 7 < 3 false ==> ... is true
    ("output.result matches Some(k) ==> k < input.arr.len() ==> input.arr[k as int] == "
     "input.target", {"some1": "true", "some0": "false", "none": "true", "some7": "true"}),
    # a matches-and as one disjunct (|| binds looser than the matches' &&)
    ("output.result matches Some(k) && k == 1 || output.result is None",
     {"some1": "true", "some0": "false", "none": "true", "some7": "false"}),
])
def test_matches_names_are_in_scope_where_verus_puts_them(tmp_path: Path, body: str,
                                                         truth: dict[str, str]) -> None:
    assert _verdicts(tmp_path, body) == truth


@pytest.mark.parametrize("body", [
    "output.result matches Some(k) || k > 0",
    "(output.result matches Some(k) && k > 0) ==> k < 5",
    "(output.result matches Some(k)) && k > 0",
    "output.result matches Some(k) && k > 0 || k < 5",
])
def test_matches_names_do_not_leak_past_their_scope(tmp_path: Path, body: str) -> None:
    task = load_task(_task(tmp_path))
    with pytest.raises(SpecInvalid) as e:
        from adequacy.extensions.registry import registry
        registry().owner("verus").load_spec(task, HEAD % body, "s.rs")
    assert "`k`" in e.value.message and e.value.line == 11
