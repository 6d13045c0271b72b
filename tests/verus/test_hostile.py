"""Hostile specs are rejected before compiling or contained at run time; the batch goes on."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from adequacy.errors import SpecInvalid
from adequacy.examples import bundled_folder
from adequacy.extensions.backend import Limits, engine_named
from adequacy.extensions.registry import registry
from adequacy.model.verdicts import Truth
from adequacy.taskdirs.load import load_task
from adequacy_verus.exec_spec import engine as exec_engine
from adequacy_verus.syntax.lexer import tokenize

TASK = bundled_folder("verus") / "count_in_range"
HOSTILE = Path(__file__).resolve().parent / "hostile"
#: name -> [line the front end must name, a word its message must contain]
EXPECTED = tomllib.loads((HOSTILE / "expected.toml").read_text(encoding="utf-8"))
ISSUE_ATTACK = "issue10_cr_string_alias_exec_fn"


def hostile(name: str) -> str:
    return (HOSTILE / f"{name}.rs").read_bytes().decode("utf-8")  # no newline translation
GOLD_PRE = "spec fn pre_spec(input: Input) -> bool {\n    input.lo <= input.hi\n}"


def variant(pre_body: str, helpers: str = "") -> str:
    gold = (TASK / "specs" / "gold.rs").read_text()
    assert GOLD_PRE in gold
    return gold.replace(GOLD_PRE, helpers + "\nspec fn pre_spec(input: Input) -> bool {\n    "
                        + pre_body + "\n}")


REJECTED = {
    "include": variant('include!("/etc/passwd")'),
    "include_str": variant('include_str!("/etc/passwd").len() > 0'),
    "unsafe": variant("unsafe { true }"),
    "process": variant('std::process::Command::new("sh").arg("-c").arg("touch /tmp/pwned")'
                       ".status().is_ok()"),
    "env": variant('env!("HOME").len() > 0'),
    "path_attr": '#[path = "/etc/passwd"]\nmod evil;\n' + variant("true"),
    "exec_fn": variant("true", "fn helper() { std::fs::remove_file(\"/tmp/x\").unwrap(); }"),
}

CONTAINED = {
    # no decreases, no base case: a runaway (stack overflow or endless loop)
    "recursion": variant("forever(input.lo) == 0 || input.lo <= input.hi",
                         "spec fn forever(x: i32) -> i32 decreases x { forever(x) + 1 }"),
    # doubles a sequence a hundred million times
    "allocation": variant("big(input.arr, 0).len() == 0 || input.lo <= input.hi",
                          "spec fn big(s: Seq<i32>, n: u64) -> Seq<i32> decreases n "
                          "{ if n > 100000000 { s } else { big(s.add(s).push(1), n + 1) } }"),
}


@pytest.mark.parametrize("name", sorted(REJECTED))
def test_rejected_by_the_backend_with_a_line(name: str) -> None:
    task = load_task(TASK)
    with pytest.raises(SpecInvalid) as e:
        registry().backends["verus"].load_spec(task, REJECTED[name], f"{name}.rs")
    assert e.value.line is not None and e.value.file == f"{name}.rs"


@pytest.mark.parametrize("name", ["include", "include_str", "unsafe", "process", "env",
                                  "path_attr"])
def test_exec_spec_refuses_them_even_without_the_front_end(name: str) -> None:
    # Never compiled; by fidelity rule 1 the engine's refusal is unknown (the front end is
    # what calls these specs invalid, test above), with the spec line in the reason.
    task = load_task(TASK)
    verdicts = exec_engine.check(REJECTED[name], task, task.all_cases(), Limits(), path="x.rs")
    assert all(v.value is Truth.unknown and "spec line" in v.reason for v in verdicts)
    assert all(v.reason.startswith("outside exec_spec's fragment:") for v in verdicts)
    assert not Path("/tmp/pwned").exists()


@pytest.mark.slow
def test_runaway_specs_are_contained_and_the_batch_continues() -> None:
    """A batch: hostile, gold, hostile; every spec gets verdicts, gold ones are right."""
    task = load_task(TASK)
    b = registry().backends["verus"]
    limits = Limits(case_seconds=1.0, memory_mb=512, spec_seconds=120)
    cases = task.cases[next(iter(task.cases))][:2]  # two pre_complete cases
    batch = [("recursion", CONTAINED["recursion"]), ("gold", (TASK / "specs" / "gold.rs")
                                                     .read_text()),
             ("allocation", CONTAINED["allocation"])]
    results = {}
    for name, text in batch:
        spec = b.load_spec(task, text, f"{name}.rs")
        results[name] = engine_named(b, "exec_spec").check(spec, task, cases, limits)
    assert [v.value for v in results["gold"]] == [Truth.true, Truth.true]
    for name in ("recursion", "allocation"):
        vs = results[name]
        assert len(vs) == len(cases)
        assert all(v.value is Truth.unknown for v in vs), vs
        assert all(any(w in v.reason for w in ("timeout", "stack overflow", "out of memory",
                                               "harness died", "cpu"))
                   for v in vs), [v.reason for v in vs]


def test_the_corpus_template_itself_is_a_valid_spec() -> None:
    """Control: the files differ from an accepted spec only by their attack."""
    registry().backends["verus"].load_spec(load_task(TASK), hostile("_control"), "_control.rs")
    assert len(EXPECTED) >= 50 and all((HOSTILE / f"{n}.rs").is_file() for n in EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_hostile_corpus_is_rejected_by_the_front_end_at_its_line(name: str) -> None:
    line, word = EXPECTED[name]
    with pytest.raises(SpecInvalid) as e:
        registry().backends["verus"].load_spec(load_task(TASK), hostile(name), f"{name}.rs")
    assert e.value.engine is None, "the front end, not an engine, must refuse it"
    assert (e.value.file, e.value.line) == (f"{name}.rs", line), e.value
    assert word.lower() in e.value.message.lower(), e.value


@pytest.mark.requires("exec_spec")
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_exec_spec_never_compiles_a_rejected_spec(name: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Called directly (as if the front end had been skipped), the engine still refuses: every
    case is unknown with the refused line (fidelity rule 1: only ``load_spec`` says invalid),
    and neither cargo nor a harness is ever started."""
    started: list[object] = []
    monkeypatch.setattr(exec_engine, "run_limited", lambda *a, **k: started.append(a))
    task = load_task(TASK)
    line, _ = EXPECTED[name]
    verdicts = exec_engine.check(hostile(name), task, task.all_cases(), Limits(),
                                 path=f"{name}.rs")
    assert verdicts and all(v.value == Truth.unknown for v in verdicts)
    assert all(f"(spec line {line})" in v.reason for v in verdicts), verdicts[0].reason
    assert started == []


def test_the_issue_attack_is_visible_to_the_lexer() -> None:
    """rustc closes ``cr"\\"`` at the second quote (no escapes in raw strings), so the alias
    and the exec fn on the next lines are code, and the lexer must say so."""
    toks = tokenize(hostile(ISSUE_ATTACK), "x.rs")
    cstr = next(t for t in toks if t.kind == "cstr")
    assert (cstr.text, cstr.value, cstr.line) == ('cr"\\"', b"\\", 5)
    words = [(t.line, t.text) for t in toks if t.line in (6, 7)]
    assert words[:4] == [(6, "use"), (6, "std"), (6, "as"), (6, "ss")]
    assert (7, "fn") in words and (7, "exec_leak") in words


def test_the_issue_attack_through_the_cli_exits_3_and_touches_nothing(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from adequacy.cli import app

    pwned = Path("/tmp/adequacy-pwned")
    pwned.unlink(missing_ok=True)
    spec = tmp_path / "attack.rs"
    spec.write_bytes(hostile(ISSUE_ATTACK).encode())
    res = CliRunner().invoke(app, ["score", str(TASK), str(spec), "--no-cache"])
    assert res.exit_code == 3, res.output
    assert f"{spec}:5" in res.output.replace("\n", "")
    assert not pwned.exists()


def test_verus_driver_refuses_a_rejected_spec_before_running_the_verifier(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from adequacy_verus.verus_driver import driver

    started: list[object] = []
    monkeypatch.setattr(driver, "verus_command", lambda: "/nonexistent/verus")
    monkeypatch.setattr(driver, "run_limited", lambda *a, **k: started.append(a))
    task = load_task(TASK)
    with pytest.raises(SpecInvalid) as e:
        driver.check(hostile(ISSUE_ATTACK), task, task.all_cases(), Limits(), path="x.rs")
    assert e.value.line == EXPECTED[ISSUE_ATTACK][0] and started == []
