"""KeY on a task whose outputs hold receiver fields (``[jml] post_fields``). A stub makes no
call, so a field read after the call held its pre-state value there and KeY proved
``balance == \\old(balance)`` for every case: it accepted SpecGen BankAccount mutants whose
balance rac rightly rejected. Now the stub reads the case's value after the call (or skips the
case when the task does not record it). Truths by hand (tests/fixtures/programs/Account.java):
``audit(a)`` adds a > 0 to a fresh balance 0, so its own ``ensures balance ==
\\old(balance)`` is false on every derived case."""

from __future__ import annotations

from pathlib import Path

import pytest
from key_support import REPO, cross_check, problem

from adequacy.extensions.backend import Limits
from adequacy.model.verdicts import Truth
from adequacy.taskdirs.load import load_task
from adequacy_openjml.task_from import convert

pytestmark = [pytest.mark.slow, pytest.mark.requires("key")]


@pytest.mark.parametrize("recorded", [True, False])
def test_key_never_reads_a_field_after_the_call_in_its_pre_state(tmp_path: Path,
                                                                  recorded: bool) -> None:
    dest = tmp_path / "t"
    convert(REPO / "tests" / "fixtures" / "programs" / "Account.java", "audit", dest, draws=3)
    if not recorded:
        toml = dest / "task.toml"
        toml.write_text(toml.read_text().replace('post_fields = ["balance"]\n', ""))
    task = load_task(dest)
    rep = cross_check(task, dest / "specs" / "original.java",
                      Limits(case_seconds=30, spec_seconds=300))
    assert not problem(rep), problem(rep)
    assert rep.disagreements == [], rep.disagreements
    post = [v for v in rep.verdicts if v.bucket.predicate == "post"]
    assert post and all(v.value is not Truth.true for v in post), post
