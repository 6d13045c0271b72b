"""Java reads unicode escapes before it lexes (JLS 3.3); so must the JML front end.

The attack: ``// note \\u000a if (true) return 42;`` was a comment to the front end and a
statement to KeY, so ``adequacy verify`` proved ``ensures \\result == 42`` on abs_value, and
KeY's verdicts for that poison filled the shared cache under the key of an honest spec.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from adequacy.errors import SpecInvalid
from adequacy.examples import bundled_folder
from adequacy.model.verdicts import Truth
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.load import load_task
from adequacy_openjml.engines.key.stubs import render_key_stubs
from adequacy_openjml.jml.load import load
from adequacy_openjml.jml.reader import read_source
from adequacy_openjml.jml.unicode import java_input
from adequacy_openjml.stubs import render_stubs

ABS = bundled_folder("jml") / "abs_value"

BODY = """    public static int solve(int x) {
        if (x < 0)
            return -x;
        return x;
    }
}
"""


def spec(jml: str, inside: str = "") -> str:
    body = BODY.replace("{\n        if", "{\n" + inside + "        if", 1) if inside else BODY
    return f"public class Solution {{\n\n    {jml}\n{body}"


POISON = spec("//@ ensures \\result == 42;", "        // note \\u000a if (true) return 42;\n")


def test_escaped_line_break_in_a_comment_is_code() -> None:
    task = load_task(ABS)
    with pytest.raises(SpecInvalid) as e:
        load(task, POISON, "poison.java")
    assert "code altered" in e.value.message and e.value.line == 6


def test_carriage_return_ends_a_line_comment() -> None:
    """JLS 3.4: a lone CR is a line terminator, so the code after it is not in the comment."""
    task = load_task(ABS)
    text = spec("//@ ensures \\result == 42;", "        // note \r if (true) return 42;\n")
    with pytest.raises(SpecInvalid, match="code altered"):
        load(task, text, "cr.java")


def test_verify_refuses_the_poison_before_key_starts(tmp_path: Path) -> None:
    """On main, KeY read the hidden statement and said "verified"; now the front end refuses
    the spec (exit 3), so no engine ever reads it. An empty cache (no `adequacy setup`, so no
    KeY worker): the spec's fault is found before any prover is looked for."""
    p = tmp_path / "poison.java"
    p.write_text(POISON)
    env = dict(os.environ, ADEQUACY_CACHE=str(tmp_path / "empty-cache"))
    r = subprocess.run([sys.executable, "-m", "adequacy", "verify", str(ABS), str(p)],
                       capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 3, r.stdout + r.stderr
    assert "code altered" in r.stdout + r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.slow
@pytest.mark.requires("javac")
def test_escapes_in_jml_read_as_java_reads_them() -> None:
    """``\\u0026\\u0026`` is ``&&`` to Java: the clause means what KeY reads, and rac decides
    it like the plain spelling (on main the lexer saw a backslash keyword and refused it)."""
    task = load_task(ABS)
    plain = spec("//@ ensures \\result >= 0 && (\\result == x || \\result == -x);")
    escaped = spec("//@ ensures \\result >= 0 \\u0026\\u0026 (\\result == x || \\result == -x);")
    a = score_spec(task, plain, "plain.java", cache=None)
    b = score_spec(task, escaped, "escaped.java", cache=None)
    va = [(v.bucket, v.case_id, v.value) for v in a.verdicts]
    vb = [(v.bucket, v.case_id, v.value) for v in b.verdicts]
    assert b.status == "scored" and va == vb and any(t == Truth.false for *_k, t in va)
    assert load(task, plain).source.normalized() == load(task, escaped).source.normalized()


@pytest.mark.parametrize(("raw", "java"), [
    ("\\u0041", "A"),
    ("\\uuuu0041", "A"),                 # any number of u's
    ("\\\\u0041", "\\\\u0041"),          # even backslashes before: not an escape
    ("\\\\\\u0041", "\\\\A"),            # odd: the last one starts an escape
    ("\\u005cu0041", "\\u0041"),         # a produced backslash starts nothing
    ("\\u005c\\u0041", "\\A"),           # the next raw backslash still counts from the raw text
    ("a\r\nb\rc", "a\nb\nc"),
    ("\\ud83d\\ude00", "\U0001F600"),
])
def test_translation_follows_jls_3_3(raw: str, java: str) -> None:
    assert java_input(raw) == java


def test_malformed_escape_is_invalid_with_its_line() -> None:
    with pytest.raises(SpecInvalid) as e:
        java_input("class A {\n int x = 1; // \\u00G1\n}", "a.java")
    assert e.value.line == 2 and "illegal unicode escape" in e.value.message


def test_escape_that_would_be_read_again_is_refused() -> None:
    """``\\u005cu0022`` is the six characters ``\\u0022`` to Java; a rebuilt text holding them
    would be translated once more by the engine, so the front end refuses it."""
    text = 'public class A {\n  //@ ensures "\\u005cu0022" != null;\n  static int f() { return 0; }\n}\n'
    with pytest.raises(SpecInvalid) as e:
        read_source(text, "a.java")
    assert e.value.line == 2


def test_engines_get_only_the_checked_tokens() -> None:
    """The text every engine reads (rac's unit, the OpenJML and KeY stubs, KeY's verify
    file) is rebuilt from tokens: no comment survives but the JML the front end read, so an
    annotation syntax we do not read (``//+KeY@``) cannot reach KeY."""
    task = load_task(ABS)
    text = spec("//@ ensures \\result >= 0;\n    //+KeY@ ensures \\result == 42;\n"
                "    /*+KeY@ ensures false; @*/")
    js = load(task, text, "keyed.java")
    assert "KeY" not in js.source.text and "42" not in js.source.text
    cases = [c for c in task.all_cases()][:3]
    assert "42" not in render_stubs(js, task, cases).text
    assert "42" not in render_key_stubs(js, task, cases).text


def test_cache_key_keeps_what_the_lexer_joins() -> None:
    """``>>`` (a shift) and ``> >`` are two programs to javac; the key (which on main joined
    tokens with spaces) keeps them apart, as it keeps a ``//@`` line's end."""
    shift = read_source("class A { int f(int x) { return x >> 1; } }")
    gt = read_source("class A { int f(int x) { return x > > 1; } }")
    assert shift.normalized() != gt.normalized()


@pytest.mark.slow
@pytest.mark.requires("javac")
def test_poison_leaves_nothing_in_a_shared_cache(tmp_path: Path) -> None:
    """On main the poison was scored (its hidden statement read by KeY) and its verdicts went
    into the cache under the key of the honest spec with the same comment-free tokens; now
    the poison is invalid, and the victim computes its own verdicts."""
    from adequacy.scoring.cache import VerdictCache

    task = load_task(ABS)
    cache = VerdictCache(tmp_path / "verdicts.sqlite")
    poison = score_spec(task, POISON, "poison.java", cache=cache)
    assert poison.status == "invalid"
    victim = spec("//@ ensures \\result == 42;")
    rep = score_spec(task, victim, "victim.java", cache=cache)
    assert cache.hits == 0 and not any(v.cached for v in rep.verdicts)
    assert not rep.passed_all
