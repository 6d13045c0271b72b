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

from adequacy.errors import TaskError
from adequacy.model.task import Case
from adequacy.model.verdicts import Bucket, Truth
from adequacy.scoring.options import ScoreOptions
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.load import load_task
from adequacy_openjml.stubs import render_stubs
from adequacy_openjml.task_from import convert

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
    from adequacy_openjml.jml.load import check_task
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
    from adequacy_openjml.jml.load import load
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


_VARIANT = PROGRAM.read_text().replace(
    '    private /*@ spec_public @*/ String log = "";\n',
    '    private /*@ spec_public @*/ String log = "";\n'
    '    private /*@ spec_public @*/ java.util.Random rng;\n'
    '    private static int count;\n').replace(
    "    //@ requires 0 < amount && amount <= 1000;\n    //@ ensures balance == \\old(balance);",
    "    //@ ensures \\result == amount;\n"
    "    public static int echo(int amount) {\n        return amount;\n    }\n\n"
    "    //@ requires 0 < amount && amount <= 1000;\n    //@ ensures balance == \\old(balance);")


@pytest.mark.parametrize(("method", "out", "setting", "says"), [
    ("deposit", 'balance = "string"', '["balance"]', "a int field, but the output field"),
    ("deposit", 'rng = "i32"', '["rng"]', "the task schema cannot express"),
    ("deposit", 'count = "i32"', '["count"]', "not an instance field that class Account"),
    ("deposit", 'nope = "i32"', '["nope"]', "not an instance field that class Account"),
    ("deposit", 'balance = "i32"', '["log"]', "not an output field named like it"),
    ("echo", 'balance = "i32"', '["balance"]', "echo is static"),
])
def test_post_fields_errors_name_the_line_and_the_reason(tmp_path: Path, method: str, out: str,
                                                          setting: str, says: str) -> None:
    """Each way ``post_fields`` can fail to describe the code is a TaskError at the key's line
    of task.toml: a type that is not the field's would be converted by the reference and read
    back by rac as another type, so it is refused rather than scored."""
    from adequacy_openjml.jml.load import check_task
    d = tmp_path / "t"
    (d / "tests").mkdir(parents=True)
    (d / "Solution.java").write_text(_VARIANT)
    toml = ('id = "acct"\nlanguage = "jml"\n\n[signature.input]\namount = "i32"\n\n'
            f'[signature.output]\n{out}\n\n[jml]\nclass = "Account"\n'
            f'method = "{method}"\n'
            f'static = {"true" if method == "echo" else "false"}\n'
            f"post_fields = {setting}\n")
    (d / "task.toml").write_text(toml)
    with pytest.raises(TaskError) as e:
        check_task(load_task(d))
    assert e.value.field == "jml.post_fields"
    assert says in e.value.message, e.value.message
    assert e.value.file == str(d / "task.toml")
    assert e.value.line == toml.splitlines().index(f"post_fields = {setting}") + 1


def test_a_nullable_output_of_a_reference_field_is_accepted(tmp_path: Path) -> None:
    from adequacy_openjml.jml.load import check_task
    d = tmp_path / "t"
    (d / "tests").mkdir(parents=True)
    (d / "Solution.java").write_text(PROGRAM.read_text())
    (d / "task.toml").write_text(
        'id = "acct"\nlanguage = "jml"\n\n[signature.input]\namount = "i32"\n\n'
        '[signature.output]\nlog = "nullable<string>"\n\n[jml]\nclass = "Account"\n'
        'method = "deposit"\nstatic = false\npost_fields = ["log"]\n')
    check_task(load_task(d))


_HELPER = PROGRAM.read_text().replace(
    "    //@ requires 0 < amount && amount <= 1000;\n    //@ ensures balance == \\old(balance) + "
    "amount;\n",
    "    //@ ensures \\result == balance;\n"
    "    public /*@ pure @*/ int getBalance() {\n        return balance;\n    }\n\n"
    "    //@ requires 0 < amount && amount <= 1000;\n    //@ ensures balance == \\old(balance) + "
    "amount;\n")


@pytest.mark.parametrize(("clause", "skipped"), [
    ("getBalance() == \\old(balance) + amount", True),
    ("this.getBalance() != \\old(getBalance())", True),
    ("balance == \\old(getBalance()) + amount", False),
])
def test_stubs_leave_a_helper_read_after_the_call_alone(tmp_path: Path, clause: str,
                                                         skipped: bool) -> None:
    """A stub makes no call, so ``getBalance()`` in ensures would read the object before it,
    where ``balance`` is also ``\\old(balance)``: ``getBalance() != \\old(getBalance())`` is
    true on every derived case (deposit adds amount > 0) yet would be false in the stub, and
    ``getBalance() == \\old(balance) + amount`` the other way round, whatever the case's
    output. The stub engines must leave such a case unknown (as rac does); under ``\\old`` the
    helper reads the pre-state, which the stub has, so that case keeps its stubs."""
    from adequacy_openjml.jml.load import load
    d = tmp_path / "t"
    (d / "tests").mkdir(parents=True)
    (d / "Solution.java").write_text(_HELPER)
    (d / "task.toml").write_text(
        'id = "acct"\nlanguage = "jml"\n\n[signature.input]\namount = "i32"\n\n'
        '[signature.output]\nbalance = "i32"\nlog = "string"\n\n[jml]\nclass = "Account"\n'
        'method = "deposit"\nstatic = false\npost_fields = ["balance", "log"]\n')
    task = load_task(d)
    text = _HELPER.replace("ensures balance == \\old(balance) + amount;", f"ensures {clause};")
    assert clause in text
    spec = load(task, text, "Account.java")
    case = Case(id="c", bucket=Bucket.post_complete, input={"amount": 5},
                output={"balance": 5, "log": "d"})
    sf = render_stubs(spec, task, [case])
    if skipped:
        assert "ensures call getBalance on the object after the call" in sf.skipped["c"]
        assert not [s for s in sf.stubs if s.case_id == "c"]
    else:
        assert not sf.skipped
        assert any(s.kind == "post_not" for s in sf.stubs)


@pytest.mark.slow
def test_mutants_change_the_field_outputs_and_rac_rejects_them(tmp_path: Path) -> None:
    """``adequacy mutate`` on a task with field outputs: the wrong outputs are wrong field
    values (labelled by the reference, which reports the fields), so post_sound gets cases,
    and the program's own contract rejects every one (deposit's ensures fix both fields: a
    fresh object's balance becomes amount and its log "d")."""
    from adequacy_mutators import mutate_task
    dest = tmp_path / "t"
    convert(PROGRAM, "deposit", dest, draws=6)
    mutate_task(dest, per_case=3, seed=0, inputs=False)
    task = load_task(dest)
    right = {json.dumps(r["input"], sort_keys=True): r["output"]
             for r in _rows(dest / "tests" / "post_complete.jsonl")}
    wrong = task.cases[Bucket.post_sound]
    assert len(wrong) >= 6
    changed = set()
    for c in wrong:
        good = right[json.dumps(c.input, sort_keys=True)]
        diff = [k for k in good if c.output is not None and c.output[k] != good[k]]
        assert len(diff) == 1, (c, good)
        changed.update(diff)
    assert changed == {"balance", "log"}
    spec = (dest / "specs" / "original.java").read_text()
    rep = score_spec(task, spec, "original.java", ScoreOptions(engines=["rac"]))
    post = [v for v in rep.verdicts if v.bucket is Bucket.post_sound]
    assert len(post) == len(wrong) and all(v.value is Truth.false for v in post), post


BUFFER = REPO / "tests" / "fixtures" / "programs" / "Buffer.java"


def _task(d: Path, method: str, static: bool, inputs: str, outputs: str, rows: list[dict],
          extra: str = "") -> Path:
    (d / "tests").mkdir(parents=True)
    (d / "Solution.java").write_text(BUFFER.read_text())
    (d / "task.toml").write_text(
        f'id = "buf"\nlanguage = "jml"\n\n[signature.input]\n{inputs}\n\n'
        f'[signature.output]\n{outputs}\n\n[jml]\nclass = "Buffer"\nmethod = "{method}"\n'
        f"static = {str(static).lower()}\n{extra}")
    (d / "tests" / "post_complete.jsonl").write_text(
        "".join(json.dumps({"id": f"c{k}", **r}) + "\n" for k, r in enumerate(rows)))
    return d


@pytest.mark.slow
def test_a_final_arrays_elements_are_state_after_the_call(tmp_path: Path) -> None:
    """``final int[] data`` keeps its reference, but ``put(v)`` sets ``data[0] = v``: rac read
    ``data[0]`` in ensures from the fresh object (0) and rejected the program's own contract
    on every case with v != 0. Truths by hand (tests/fixtures/programs/Buffer.java): a fresh
    Buffer's data is [0, 0, 0], so put(v) returns v and leaves [v, 0, 0]; the contract fixes
    data[0] and the result only, so [v, 1, 0] satisfies it and [v + 1, 0, 0] does not."""
    dest = tmp_path / "t"
    convert(BUFFER, "put", dest, draws=12)
    assert 'post_fields = ["data"]' in (dest / "task.toml").read_text()
    rows = _rows(dest / "tests" / "post_complete.jsonl")
    assert rows and any(r["input"]["v"] != 0 for r in rows)
    for r in rows:
        assert r["output"] == {"result": r["input"]["v"], "data": [r["input"]["v"], 0, 0]}
    task = load_task(dest)
    spec = (dest / "specs" / "original.java").read_text()
    rep = score_spec(task, spec, "original.java", ScoreOptions(engines=["rac"]))
    assert rep.buckets[Bucket.post_complete].passed == len(rows), rep.verdicts
    v = next(r["input"]["v"] for r in rows if r["input"]["v"] != 0)
    cases = [Case(id="weak", bucket=Bucket.post_sound, input={"v": v},
                  output={"result": v, "data": [v, 1, 0]}),
             Case(id="wrong", bucket=Bucket.post_sound, input={"v": v},
                  output={"result": v, "data": [v + 1, 0, 0]})]
    task2 = task.model_copy(update={"cases": {Bucket.post_sound: cases}})
    rep2 = score_spec(task2, spec, "original.java", ScoreOptions(engines=["rac"]))
    assert [x.value for x in rep2.verdicts] == [Truth.true, Truth.false], rep2.verdicts


@pytest.mark.slow
def test_a_final_array_not_recorded_is_unknown_after_the_call(tmp_path: Path) -> None:
    """Without ``post_fields`` the case holds no post-state of ``data``: put(5) does leave
    data[0] == 5, so the contract is true there, and rac must not say false (it did)."""
    d = _task(tmp_path / "t", "put", False, 'v = "i32"', 'result = "i32"',
              [{"input": {"v": 5}, "output": {"result": 5}}])
    rep = score_spec(load_task(d), BUFFER.read_text(), "Buffer.java",
                     ScoreOptions(engines=["rac"]))
    post = [x for x in rep.verdicts if x.bucket is Bucket.post_complete]
    assert [x.value for x in post] == [Truth.unknown], post
    assert "field data after the call" in post[0].reason


@pytest.mark.slow
def test_a_static_helper_after_the_call_is_unknown(tmp_path: Path) -> None:
    """``tick`` adds one to the static ``count`` and returns it, so ``\\result ==
    getCount()`` holds after every call (on a fresh class: result 1). rac never runs the
    method, so ``getCount()`` read the count before the call and rejected the contract."""
    d = _task(tmp_path / "t", "tick", True, 'k = "i32"', 'result = "i32"',
              [{"input": {"k": 0}, "output": {"result": 1}}])
    rep = score_spec(load_task(d), BUFFER.read_text(), "Buffer.java",
                     ScoreOptions(engines=["rac"]))
    post = [x for x in rep.verdicts if x.bucket is Bucket.post_complete]
    assert [x.value for x in post] == [Truth.unknown], post
    assert "getCount may read a static field after the call" in post[0].reason


@pytest.mark.parametrize(("method", "static", "outputs", "extra", "says"), [
    ("put", False, 'result = "i32"\ndata = "array<i32>"', 'post_fields = ["data"]\n',
     "final field data after the call"),
    ("put", False, 'result = "i32"', "", "field data after the call (the case has no"),
    ("tick", True, 'result = "i32"', "", "ensures call getCount on the object"),
])
def test_stubs_leave_changing_final_and_static_state_alone(tmp_path: Path, method: str,
                                                           static: bool, outputs: str,
                                                           extra: str, says: str) -> None:
    """The stub engines' counterpart of the rac tests above: a stub makes no call, so
    ``data[0]`` and ``getCount()`` would read the state before it; and a stub's body cannot
    assign a final field, so a recorded final array is no help there either."""
    from adequacy_openjml.jml.load import load
    arg = "v" if method == "put" else "k"
    d = _task(tmp_path / "t", method, static, f'{arg} = "i32"', outputs, [], extra)
    task = load_task(d)
    spec = load(task, BUFFER.read_text(), "Buffer.java")
    out = {"result": 1, "data": [1, 0, 0]} if extra else {"result": 1}
    case = Case(id="c", bucket=Bucket.post_complete, input={arg: 1}, output=out)
    sf = render_stubs(spec, task, [case])
    assert says in sf.skipped.get("c", ""), sf.skipped


@pytest.mark.slow
def test_task_from_refuses_a_method_whose_output_depends_on_earlier_runs(tmp_path: Path) -> None:
    """``tick`` returns a static counter plus one: on a fresh program it returns 1 whatever
    ``k`` is, but the reference's runs share one JVM, so it returned 1, 2, 3... and those
    outputs were recorded as the inputs' right outputs. Run again in the reverse order, the
    same input gets another output, so the method is out of reach; ``put`` (a fresh receiver
    per run, no static state) is not."""
    with pytest.raises(TaskError) as e:
        convert(BUFFER, "tick", tmp_path / "t", draws=6)
    assert "two outputs for the input" in str(e.value)
    assert e.value.line == 20
    assert convert(BUFFER, "put", tmp_path / "u", draws=6).cases > 0


@pytest.mark.slow
@pytest.mark.parametrize("recorded", [["balance", "log"], ["balance"]])
def test_rac_runs_a_helper_on_the_object_after_the_call_when_it_is_whole(
        tmp_path: Path, recorded: list[str]) -> None:
    """``getBalance()`` in ensures reads the object after the call. When the task records
    every field that may change (Account's balance and log), rac's post-state receiver is that
    object, and the helper runs on it: deposit(5) on a fresh Account leaves balance 5, so
    ``getBalance() == \\old(balance) + amount`` is true for output balance 5 and false for 6.
    With log unrecorded the receiver would hold the constructor's log, which the helper might
    read: unknown."""
    d = tmp_path / "t"
    (d / "tests").mkdir(parents=True)
    (d / "Solution.java").write_text(_HELPER)
    outs = "\n".join(f'{n} = "{"i32" if n == "balance" else "string"}"' for n in recorded)
    (d / "task.toml").write_text(
        'id = "acct"\nlanguage = "jml"\n\n[signature.input]\namount = "i32"\n\n'
        f'[signature.output]\n{outs}\n\n[jml]\nclass = "Account"\n'
        f'method = "deposit"\nstatic = false\npost_fields = {json.dumps(recorded)}\n')
    full = {"balance": 5, "log": "d"}
    rows = [{"id": f"c{b}", "input": {"amount": 5},
             "output": {k: v for k, v in {**full, "balance": b}.items() if k in recorded}}
            for b in (5, 6)]
    (d / "tests" / "post_complete.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in rows))
    spec = _HELPER.replace("ensures balance == \\old(balance) + amount;",
                           "ensures getBalance() == \\old(balance) + amount;")
    assert spec != _HELPER
    rep = score_spec(load_task(d), spec, "Account.java", ScoreOptions(engines=["rac"]))
    got = {v.case_id: v.value for v in rep.verdicts if v.bucket is Bucket.post_complete}
    if len(recorded) == 2:
        assert got == {"c5": Truth.true, "c6": Truth.false}, rep.verdicts
    else:
        assert got == {"c5": Truth.unknown, "c6": Truth.unknown}, rep.verdicts


@pytest.mark.parametrize(("text", "fields", "whole"), [
    (_HELPER, ["balance", "log"], True),
    (_HELPER, ["balance"], False),
    (_HELPER.replace("public class Account {", "public class Account extends Object {"),
     ["balance", "log"], False),
    (_HELPER.replace("    private /*@ spec_public @*/ int balance;\n",
                     "    private /*@ spec_public @*/ int balance;\n    static int seen;\n"),
     ["balance", "log"], False),
])
def test_whole_post_state_needs_every_changing_field(text: str, fields: list[str],
                                                     whole: bool) -> None:
    """The rule behind the helper test above: a superclass's fields and a static field are
    state no case records, so the built receiver is then not the object after the call."""
    from adequacy_openjml.engines.rac.build import whole_post_state
    from adequacy_openjml.jml.source import read_source
    src = read_source(text, "Account.java")
    cls = src.classes[0]
    m = next(x for x in cls.methods if x.name == "deposit")
    assert whole_post_state(src, cls, m, fields) is whole
