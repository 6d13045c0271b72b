"""Hostile helper code is contained: the case is unknown, the worker restarts, the batch goes on."""

from __future__ import annotations

import pytest
from jml_support import EXAMPLES

from adequacy.extensions.backend import Limits, engine_named
from adequacy.taskdirs.load import load_task
from adequacy_openjml.plugin import OpenJmlBackend

pytestmark = [pytest.mark.slow, pytest.mark.requires("javac")]

TASK = EXAMPLES / "swap_case"
EVIL = {
    "exit": ("System.exit(3); return true;", "forbidden"),
    "halt": ("Runtime.getRuntime().halt(1); return true;", "forbidden"),
    "loop": ("while (true) { }", "timeout"),
    "catch-death": ("while (true) { try { while (true) { } } catch (Throwable t) { } }",
                    "timeout"),
    "file": ("try { return java.nio.file.Files.readAllBytes(java.nio.file.Path.of("
             "\"/etc/hostname\")).length > 0; } catch (java.io.IOException e) { return false; }",
             "forbidden"),
    "network": ("try { new java.net.Socket(\"127.0.0.1\", 9).close(); return true; } "
                "catch (java.io.IOException e) { return false; }", "forbidden"),
    "alloc": ("long[][] x = new long[100000][]; for (int i = 0; i < x.length; i++) "
              "x[i] = new long[100000]; return x.length > 0;", "out of memory|timeout"),
    "thread": ("new Thread(() -> { while (true) { } }).start(); return true;", "forbidden"),
    "recursion": ("return evil(s);", "stack overflow"),
    # catching the SecurityException must not turn a forbidden action
    # into a decided verdict (before, this case was decided "true")
    "caught-file": ("try { java.nio.file.Files.readAllBytes(java.nio.file.Path.of("
                    "\"/etc/passwd\")); } catch (Throwable t) { } return true;", "forbidden"),
    "caught-exec": ("try { new ProcessBuilder(\"/bin/sh\", \"-c\", \"true\").start(); } "
                    "catch (Throwable t) { } return true;", "forbidden"),
}


@pytest.mark.parametrize("name", list(EVIL))
def test_hostile_helper_is_contained(name: str) -> None:
    body, reason = EVIL[name]
    task = load_task(TASK)
    code = (TASK / "Solution.java").read_text()
    spec = code.replace(
        "    public static String solve",
        f"    /*@ pure @*/ static boolean evil(String s) {{ {body} }}\n"
        "    //@ requires s == null || s.length() > 2 || evil(s);\n"
        "    public static String solve")
    b = OpenJmlBackend()
    loaded = b.load_spec(task, spec, f"{name}.java")
    # the front end cannot vouch for such a helper (its cases are unknown); the
    # sandbox underneath must contain it all the same, so this test runs rac without the gap
    loaded.data.gap = None
    cases = task.all_cases()
    pre = [c for c in cases if c.bucket.predicate == "pre"]
    # Non-timeout cases get a generous limit so that a loaded CI machine cannot turn a stack
    # overflow or a refused call into a timeout; the loops still need the limit to fire.
    limit = 2 if reason == "timeout" else 15
    vs = engine_named(b, "rac").check(loaded, task, pre, Limits(case_seconds=limit))
    by_id = {v.case_id: v for v in vs}
    # "abc" and "Hello World" and "123" are decided without calling evil; "" calls it
    assert by_id["lower"].value.value == "true"
    assert by_id["mixed"].value.value == "true"
    assert by_id["empty"].value.value == "unknown"
    assert any(r in by_id["empty"].reason for r in reason.split("|"))
    # non-null by default: a null String fails the implicit precondition first
    assert by_id["null"].value.value == "false"
    # the worker still serves the gold spec afterwards
    gold = b.load_spec(task, (TASK / "specs" / "gold.java").read_text(), "gold.java")
    assert all(v.passed for v in engine_named(b, "rac").check(gold, task, cases, Limits()))
