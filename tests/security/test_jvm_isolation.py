"""No state crosses specs in the rac engine.

Each attack is one spec that leaves something behind in the JVM that evaluated it (loggers,
interned strings, a finalizer chain, a full heap) and a later, different spec that reads it or
suffers from it. The specs are built here as rac units by hand (the Java the translator would
produce), so the test exercises the engine's isolation whatever the front end's purity rules
accept: the front end is a second line, not this one.
"""

from __future__ import annotations

import pytest

from adequacy.extensions.backend import Limits
from adequacy.model.task import Case, Task
from adequacy.model.verdicts import Bucket, Truth, Verdict
from adequacy.taskdirs.load import load_task
from adequacy_openjml.engines.rac import engine as rac
from adequacy_openjml.engines.rac.build import SIGNATURE, Unit
from adequacy_openjml.jdk import find_java

_JDK = find_java()
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(_JDK is None or _JDK.javac is None, reason="no JDK")]

CODE = "public class Solution {\n    public static int solve(int x, int y) { return x + y; }\n"


@pytest.fixture(scope="module")
def task(tmp_path_factory: pytest.TempPathFactory) -> Task:
    root = tmp_path_factory.mktemp("iso") / "t"
    (root / "tests").mkdir(parents=True)
    (root / "task.toml").write_text(
        'id = "t"\nlanguage = "jml"\n\n[signature.input]\nx = "i32"\ny = "i32"\n\n'
        '[signature.output]\nresult = "i32"\n\n[jml]\nclass = "Solution"\nmethod = "solve"\n')
    (root / "Solution.java").write_text(CODE + "}\n")
    return load_task(root)


def unit(members: str, requires: str) -> Unit:
    """A spec whose one spec case is ``requires <requires>`` (a Java expression over
    ``x`` and ``y``), with extra class members (its helpers)."""
    body = (f"static Object __adq_r0_0{SIGNATURE} {{ int x = (Integer) __p[0]; "
            f"int y = (Integer) __p[1]; return {requires}; }}")
    source = CODE + members + "\n" + body + "\n}\n"
    return Unit(class_name="Solution", source=source,
                plan=[{"normal": True, "req": [["__adq_r0_0", 3]], "ens": []}],
                first_generated_line=1, generated_lines=[], params=[("int", "x"), ("int", "y")],
                result="int", method="solve", static=True)


def cases(n: int, base: int = 0) -> list[Case]:
    return [Case(id=f"c{i}", bucket=Bucket.pre_complete, input={"x": base + i, "y": 7 * i})
            for i in range(n)]


def run(task: Task, u: Unit, cs: list[Case], limits: Limits | None = None) -> list[Verdict]:
    return rac.check(u, "Spec.java", task, cs, limits or Limits(case_seconds=20))


def test_loggers_named_after_cases_do_not_reach_a_later_spec(task: Task) -> None:
    """loggers named after the hidden cases, listed by the next spec."""
    spy = unit("static boolean note(int x, int y) { java.util.logging.Logger.getLogger("
               "\"adq.seen.\" + x + \".\" + y); return true; }", "note(x, y)")
    assert all(v.value is Truth.true for v in run(task, spy, cases(5, base=4200)))
    reader = unit(
        "static boolean peek() { StringBuilder b = new StringBuilder(); "
        "for (java.util.Enumeration<String> e = java.util.logging.LogManager.getLogManager()"
        ".getLoggerNames(); e.hasMoreElements();) { String n = e.nextElement(); "
        "if (n.startsWith(\"adq.seen.\")) b.append(n).append(' '); } "
        "if (b.length() > 0) throw new IllegalStateException(b.toString()); return true; }",
        "peek()")
    vs = run(task, reader, cases(3))
    assert not any("adq.seen" in v.reason for v in vs), [v.reason for v in vs]
    assert [v.value for v in vs] == [Truth.true] * 3


def test_interned_strings_do_not_reach_a_later_spec(task: Task) -> None:
    """Beyond the issue's list: the JVM's string pool as a set-membership oracle. A string
    whose ``intern()`` is not itself was interned before, by someone else."""
    spy = unit("static java.util.List<String> keep = new java.util.ArrayList<>();\n"
               "static boolean note(int x) { keep.add((\"adq-seen-\" + x).intern()); "
               "return true; }", "note(x)")
    assert all(v.value is Truth.true for v in run(task, spy, cases(4, base=9100)))
    reader = unit("static boolean seen(int x) { String s = new String(\"adq-seen-\" + x); "
                  "return s.intern() == s; }", "seen(9100 + x)")
    vs = run(task, reader, cases(4))
    assert [v.value for v in vs] == [Truth.true] * 4, [v.reason for v in vs]


FINALIZER = """
    static Object saved;
    static final class F {
        @Override protected void finalize() {
            saved = this;  // resurrected: alive after the spec is done
            new F();       // and recreated, so a finalizer is always pending
            byte[] junk = new byte[1 << 20];
            System.gc();
            System.getProperty("user.home");
        }
    }
    static boolean plant() { for (int i = 0; i < 50; i++) new F(); System.gc(); return true; }
"""


def test_a_finalizer_chain_does_not_change_later_verdicts(task: Task) -> None:
    """a finalizer that recreates itself and reads a system property ran on the
    Finalizer thread during later specs and made their cases ``forbidden``."""
    run(task, unit(FINALIZER, "plant()"), cases(2, base=1))
    gold = unit("", "x >= 0")
    for _ in range(3):
        vs = run(task, gold, cases(40))
        assert [v.value for v in vs] == [Truth.true] * 40, \
            sorted({v.reason for v in vs if v.value is not Truth.true})


def test_a_heap_filled_by_a_static_is_not_the_next_specs_heap(task: Task) -> None:
    """a helper that fills the heap into a static field left the worker with no
    memory for later specs, whose cases then ran out of memory."""
    limits = Limits(case_seconds=20, memory_mb=512)  # a 256 MB worker heap
    hog = unit("static java.util.List<long[]> hog = new java.util.ArrayList<>();\n"
               "static boolean fill() { try { while (true) hog.add(new long[1 << 16]); } "
               "catch (OutOfMemoryError e) { } return true; }", "fill()")
    run(task, hog, cases(1), limits)
    needy = unit("static boolean need() { long[] a = new long[4 << 20]; return a.length > 0; }",
                 "need()")
    vs = run(task, needy, cases(3), limits)
    assert [v.value for v in vs] == [Truth.true] * 3, [v.reason for v in vs]


def test_re_checking_the_same_spec_on_other_cases_sees_nothing_of_the_first(
        task: Task) -> None:
    """The gym's order of calls: ``submit`` scores a spec on the hidden cases, then ``check``
    runs the same text on the visible ones. Same spec, other cases: another origin, so what
    the first run saw must not be readable in the second."""
    members = ("static boolean seen(int x) { String s = new String(\"adq-same-\" + x); "
               "return s.intern() == s; }\n"
               "static java.util.List<String> keep = new java.util.ArrayList<>();\n"
               "static boolean note(int x) { keep.add((\"adq-same-\" + x).intern()); "
               "return true; }")
    spec = unit(members, "x < 100 ? seen(x + 7700) : note(x - 100 + 7700)")
    hidden = cases(3, base=100)  # note 7700..7702
    run(task, spec, hidden)
    visible = cases(3)  # ask whether 7700..7702 were seen
    vs = run(task, spec, visible)
    assert [v.value for v in vs] == [Truth.true] * 3, [v.reason for v in vs]



# The compile JVM is shared and reuses one javac context across specs (Compile.java's
# JavacTaskPool): javac only reads the text, but what one unit declared must not be visible
# to the next one's compile (a constant of a class is inlined into the reader's bytecode).
_LEAKS = [
    ("public class Solution { } class Leak { static final int X = 42; }",
     "public class Solution { int f() { return Leak.X; } }"),
    ("public class Solution { static class In { static final int X = 42; } }",
     "public class Solution { int f() { return Solution.In.X; } }"),
    ("public class Solution { } class Leak2 { interface I { int X = 7; } }",
     "public class Solution implements Leak2.I { int f() { return X; } }"),
    ("package adq.secret; public class Solution { } class Leak { static final int X = 1; }",
     "public class Solution { int f() { return adq.secret.Leak.X; } }"),
    # a package outlives the unit in a reused context: the compiler retires the context
    ("package adq.hidden.pkg; public class Solution { }",
     "import adq.hidden.pkg.*; public class Solution { }"),
    # a unit that fails to compile has declared its classes all the same
    ("public class Solution { } class Leak3 { static final int X = 5; } class Broken { x }",
     "public class Solution { int f() { return Leak3.X; } }"),
]


@pytest.mark.parametrize("first,second", _LEAKS)
def test_what_one_unit_declared_is_not_visible_to_the_next_compile(first: str,
                                                                   second: str) -> None:
    """Each pair: the second unit compiles only if it can see the first one's declarations.
    It must fail as it does in a compiler that never saw the first (checked on a fresh
    key each time, so neither is served from the compile cache)."""
    import uuid

    from adequacy_openjml.engines.rac.worker import COMPILER

    tag = uuid.uuid4().hex
    COMPILER.compile(f"leak-a-{tag}", {"class": "Solution", "source": first})
    reply = COMPILER.compile(f"leak-b-{tag}", {"class": "Solution", "source": second})
    assert reply.get("ok") is False, reply
    assert reply.get("errors"), reply


def test_the_compile_jvm_reuses_its_javac_context() -> None:
    """Compiles share one javac context (the point of the pool): without it a warm compile of
    a small spec cost 40-70 ms instead of about 5-15 (benchmarks/optimize_metric.py)."""
    import uuid

    from adequacy_openjml.engines.rac.worker import COMPILER, WARM_UP

    for _ in range(3):
        src = WARM_UP.replace("return x + y;", f"return x + y; /* {uuid.uuid4().hex} */")
        assert COMPILER.compile(uuid.uuid4().hex, {"class": "Solution", "source": src})["ok"]
    with COMPILER.lock:
        stats = COMPILER.worker.request({"op": "stats"}, timeout=30)
    assert stats.get("pooled") is True and stats.get("reused", 0) >= 2, stats


_ODD_UNITS = [
    "module adq.mod { exports adq.p; }",
    "package java.lang; public class Solution { }",
    "package java.util; public class Solution { } class ArrayList { }",
    "public class Solution { } class String { } class Object { } class Integer { }",
    "public class Solution { class java { class util { } } }",
    "}}}{{{ garbage ((",
]
_NORMAL = ("public class Solution { java.util.List<String> xs = new java.util.ArrayList<>(); "
           "Integer n = 3; int f() { return xs.size() + n + \"ab\".length(); } }")


@pytest.mark.parametrize("odd", _ODD_UNITS)
def test_an_odd_unit_does_not_change_how_the_next_one_compiles(odd: str) -> None:
    """A unit that shadows JDK classes, claims a JDK package or is not Java at all must not
    leave the shared compiler unable to compile the next spec (a gold spec would become
    "rac cannot compile" because of another spec)."""
    import uuid

    from adequacy_openjml.engines.rac.worker import COMPILER

    tag = uuid.uuid4().hex
    COMPILER.compile(f"odd-{tag}", {"class": "Solution", "source": odd})
    reply = COMPILER.compile(f"normal-{tag}", {"class": "Solution",
                                               "source": _NORMAL + f" /* {tag} */"})
    assert reply.get("ok") is True, reply
    assert set(reply["classes"]) == {"Solution"}
