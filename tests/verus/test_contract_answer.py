"""An answer written as an exec ``fn`` with ``requires``/``ensures`` (what models often write):
a writer's answer is converted into the task's skeleton; ``score`` on such a file refuses it
(exit 3) and says exactly what the spec would be.

Truths by hand: on euclid_mod, ``requires b != 0 ensures result == a % b`` is the gold spec's
contract (Verus's ``%`` on int is Euclidean), so it passes every case; on binary_search_first
the contract below is the gold spec's, through ``arr@`` views of a ``&Vec``, so it passes too;
``ensures result >= 0`` on euclid_mod accepts the wrong outputs that are non-negative."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from adequacy.cli import app
from adequacy.errors import ExtractionError
from adequacy.examples import bundled_folder
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.load import load_task
from adequacy_verus.writing import verus_spec

EXAMPLES = bundled_folder("verus")

EUCLID = """Here is the function:

```rust
use vstd::prelude::*;

verus! {

fn euclid_mod(a: i64, b: i64) -> (result: i64)
    requires
        b != 0,
    ensures
        result == a % b,
{
    a % b
}

} // verus!
```
"""

SEARCH = """```rust
verus! {
fn first(arr: &Vec<i64>, target: i64) -> (r: Option<usize>)
    requires
        forall|i: usize| 1 <= i < arr@.len() ==> arr@[(i - 1) as int] <= arr@[i as int],
    ensures
        match r {
            Some(k) => k < arr@.len() && arr@[k as int] == target
                && (forall|j: usize| 0 <= j < k ==> arr@[j as int] != target),
            None => forall|j: usize| 0 <= j < arr@.len() ==> arr@[j as int] != target,
        },
{
    let mut i = 0;
    while i < arr.len() { if arr[i] == target { return Some(i); } i += 1; }
    None
}
}
```"""


def _passes(task_dir: Path, text: str) -> bool:
    rep = score_spec(load_task(task_dir), text, "answer.rs", cache=None)
    assert rep.status == "scored", rep.invalid
    return rep.passed_all


def test_a_writers_exec_fn_answer_becomes_the_spec() -> None:
    euclid = load_task(EXAMPLES / "euclid_mod")
    spec = verus_spec(euclid, EUCLID)
    assert "input.b != 0" in spec and "output.result == input.a % input.b" in spec
    assert "fn euclid_mod" not in spec  # the body is dropped, never read
    assert _passes(EXAMPLES / "euclid_mod", spec)
    weak = verus_spec(euclid, EUCLID.replace("result == a % b", "result >= 0"))
    assert not _passes(EXAMPLES / "euclid_mod", weak)
    search = load_task(EXAMPLES / "binary_search_first")
    spec = verus_spec(search, SEARCH)
    assert "input.arr.len()" in spec and "arr@" not in spec and "output.result" in spec
    assert _passes(EXAMPLES / "binary_search_first", spec)


def test_an_exec_fn_of_other_inputs_is_not_taken_for_the_contract() -> None:
    euclid = load_task(EXAMPLES / "euclid_mod")
    with pytest.raises(ExtractionError, match="no `spec fn pre_spec`"):
        verus_spec(euclid, EUCLID.replace("a: i64, b: i64", "x: i64, b: i64"))


def test_score_says_exactly_what_the_exec_fn_would_be(tmp_path: Path) -> None:
    spec = tmp_path / "answer.rs"
    spec.write_text(EUCLID.split("```rust\n")[1].split("```")[0])
    r = CliRunner().invoke(app, ["score", str(EXAMPLES / "euclid_mod"), str(spec),
                                 "--no-cache"])
    assert r.exit_code == 3, r.output
    flat = " ".join(r.output.split())
    assert "is an exec fn" in flat
    assert ("this contract reads: pre_spec { (input.b != 0) } post_spec "
            "{ (output.result == input.a % input.b) }") in flat
