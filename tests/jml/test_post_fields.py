"""Receiver fields as outputs (``[jml] post_fields``): the reference reports a field's value
after the call, rac reads it where ``ensures`` names the field outside ``\\old``, and the stub
engines (KeY, OpenJML) either state it or leave the case alone. Fixture:
tests/fixtures/programs/Account.java (ours). Truths by hand: a fresh Account has balance 0
and log ""; ``deposit(a)`` leaves balance a and log "d"; ``audit(a)`` also adds a to the
balance, so its own ``ensures balance == \\old(balance)`` is false on every derived case
(a > 0), and a spec can only say so if the case records the balance after the call."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adequacy.backends.openjml.stubs import render_stubs
from adequacy.backends.openjml.task_from import convert
from adequacy.errors import TaskError
from adequacy.options import ScoreOptions
from adequacy.runner import score_spec
from adequacy.tasks import Case, load_task
from adequacy.verdicts import Bucket, Truth

REPO = Path(__file__).resolve().parents[2]
PROGRAM = REPO / "tests" / "fixtures" / "programs" / "Account.java"


def _rows(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


@pytest.mark.slow
def test_task_from_records_fields_after_the_call_and_rac_reads_them(tmp_path: Path) -> None:
    dest = tmp_path / "t"
    convert(PROGRAM, "deposit", dest, draws=12)
    toml = (dest / "task.toml").read_text()
    assert 'post_fields = ["balance", "log"]' in toml
    task = load_task(dest)
    assert {p.name: str(p.type) for p in task.outputs} == {"balance": "i32", "log": "string"}
    rows = _rows(dest / "tests" / "post_complete.jsonl")
    assert rows
    for r in rows:  # a fresh object: balance 0 + amount, log "" + "d"
        assert r["output"] == {"balance": r["input"]["amount"], "log": "d"}
    spec = (dest / "specs" / "original.java").read_text()
    rep = score_spec(task, spec, "original.java", ScoreOptions(engines=["rac"]))
    assert rep.buckets[Bucket.post_complete].passed == len(rows)
    amount = rows[0]["input"]["amount"]
    wrong = [Case(id="w1", bucket=Bucket.post_sound, input={"amount": amount},
                  output={"balance": amount + 1, "log": "d"}),
             Case(id="w2", bucket=Bucket.post_sound, input={"amount": amount},
                  output={"balance": amount, "log": "dd"})]
    task2 = task.model_copy(update={"cases": {Bucket.post_sound: wrong}})
    bad = score_spec(task2, spec, "original.java", ScoreOptions(engines=["rac"]))
    assert [v.value for v in bad.verdicts] == [Truth.false, Truth.false], bad.verdicts


@pytest.mark.slow
def test_without_the_setting_a_field_after_the_call_stays_unknown(tmp_path: Path) -> None:
    dest = tmp_path / "t"
    convert(PROGRAM, "deposit", dest, draws=6)
    text = (dest / "task.toml").read_text().replace('post_fields = ["balance", "log"]\n', "")
    (dest / "task.toml").write_text(text)
    task = load_task(dest)
    spec = (dest / "specs" / "original.java").read_text()
    rep = score_spec(task, spec, "original.java", ScoreOptions(engines=["rac"]))
    assert rep.verdicts and all(v.value is Truth.unknown for v in rep.verdicts
                                if v.bucket is Bucket.post_complete)


@pytest.mark.slow
def test_a_contract_the_method_breaks_is_caught_through_its_fields(tmp_path: Path) -> None:
    dest = tmp_path / "t"
    convert(PROGRAM, "audit", dest, draws=8)
    task = load_task(dest)
    spec = (dest / "specs" / "original.java").read_text()
    rep = score_spec(task, spec, "original.java", ScoreOptions(engines=["rac"]))
    post = [v for v in rep.verdicts if v.bucket is Bucket.post_complete]
    assert post and all(v.value is Truth.false for v in post)


def test_post_fields_must_name_instance_fields_that_are_outputs(tmp_path: Path) -> None:
    d = tmp_path / "t"
    (d / "tests").mkdir(parents=True)
    (d / "Solution.java").write_text(PROGRAM.read_text())
    base = ('id = "acct"\nlanguage = "jml"\n\n[signature.input]\namount = "i32"\n\n'
            '[signature.output]\nbalance = "i32"\n\n[jml]\nclass = "Account"\n'
            'method = "deposit"\nstatic = false\n')
    from adequacy.backends.openjml.jml.load import check_task
    for bad in ('post_fields = ["amount"]', 'post_fields = ["nope"]', 'post_fields = ["log"]'):
        (d / "task.toml").write_text(base + bad + "\n")
        with pytest.raises(TaskError) as e:
            check_task(load_task(d))
        assert e.value.field == "jml.post_fields"
    (d / "task.toml").write_text(base + 'post_fields = ["balance"]\n')
    check_task(load_task(d))


def test_stubs_state_named_fields_and_leave_the_others_alone(tmp_path: Path) -> None:
    """A stub has no call: an unnamed field read after the call would hold its pre-state
    value there, and ``balance == \\old(balance)`` would be proved for every case (KeY did so
    on SpecGen's BankAccount mutants before this)."""
    from adequacy.backends.openjml.jml.load import load
    d = tmp_path / "t"
    (d / "tests").mkdir(parents=True)
    (d / "Solution.java").write_text(PROGRAM.read_text())
    (d / "task.toml").write_text(
        'id = "acct"\nlanguage = "jml"\n\n[signature.input]\namount = "i32"\n\n'
        '[signature.output]\nbalance = "i32"\nlog = "string"\n\n[jml]\nclass = "Account"\n'
        'method = "deposit"\nstatic = false\npost_fields = ["balance", "log"]\n')
    task = load_task(d)
    spec = load(task, PROGRAM.read_text(), "Account.java")
    case = Case(id="c", bucket=Bucket.post_complete, input={"amount": 5},
                output={"balance": 5, "log": "d"})
    sf = render_stubs(spec, task, [case])
    assert not sf.skipped
    post_not = next(s for s in sf.stubs if s.kind == "post_not")
    assert "int __out_balance = 5;" in post_not.locals
    assert "__out_balance" in (post_not.assertion or "")
    bare = task.model_copy(update={"settings": {k: v for k, v in task.settings.items()
                                                if k != "post_fields"}})
    sf2 = render_stubs(spec, bare, [case])
    assert "field balance, log after the call" in sf2.skipped["c"]
