"""Hostile Python specs: what the front end refuses, and what the sandboxed worker contains when
the front end is bypassed or the spec only burns resources.

Each runtime attack is scored beside honest cases, which must keep their verdicts: a spec that
burns its cases makes them ``unknown`` (never a crash, a hang or a verdict of another spec).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from adequacy.plugin import Bucket, Case, Limits, SpecInvalid, Truth

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from python.pysupport import check, loaded, make_task, post_case, pre_case  # noqa: E402

LIMITS = Limits(case_seconds=2.0, memory_mb=512, timeout_streak=0)

FRONT_END = {
    "__import__": "def pre(x):\n    return __import__('os').getpid() > 0\n",
    "ctypes": "import ctypes\n\ndef pre(x):\n    return ctypes.sizeof(ctypes.c_int) == 4\n",
    "gc.get_objects": "import gc\n\ndef pre(x):\n    return len(gc.get_objects()) > x\n",
    "finalizer class": "class Leak:\n    def __del__(self):\n        pass\n\n"
                       "def pre(x):\n    return True\n",
    "finalizer by type()": "def fin(self):\n    pass\n\ndef pre(x):\n"
                           "    return type('Leak', (), {'__del__': fin})() is not None\n",
    "sys.setrecursionlimit": "import sys\n\ndef pre(x):\n    sys.setrecursionlimit(10**6)\n"
                             "    return True\n",
    "read the case file": "def pre(x):\n    return '\"x\": 5' in open('/proc/self/fd/0').read()\n",
    "frame of a generator": "def pre(x):\n    g = (i for i in [x])\n"
                            "    return g.gi_frame.f_back is None\n",
    "state across cases": "seen = []\n\ndef pre(x):\n    global seen\n    seen = seen + [x]\n"
                          "    return len(seen) == 1\n",
}


@pytest.mark.parametrize("name", sorted(FRONT_END))
def test_the_front_end_refuses(name: str, tmp_path: Path) -> None:
    task = make_task(tmp_path / "t", {"x": "int"})
    with pytest.raises(SpecInvalid) as e:
        loaded(task, FRONT_END[name])
    assert e.value.line is not None and e.value.engine is None


HONEST = [pre_case({"x": 1}, "honest1"), pre_case({"x": -1}, "honest2")]


def _attack(tmp_path: Path, hostile_branch: str, n_bad: int = 1) -> tuple[list[Truth], float]:
    """Verdicts of a spec that attacks on x == 99 and is honest (x > 0) otherwise."""
    task = make_task(tmp_path / "t", {"x": "int"})
    spec = (f"def pre(x):\n    if x == 99:\n{hostile_branch}\n    return x > 0\n")
    cases = [*HONEST[:1], *[pre_case({"x": 99}, f"bad{i}") for i in range(n_bad)], *HONEST[1:]]
    t0 = time.monotonic()
    vs = check(task, spec, cases, LIMITS)
    return [v.value for v in vs], time.monotonic() - t0


RESOURCE = {
    "while True in a helper": "        def spin():\n            while True:\n                pass\n"
                              "        return spin()",
    "10**10**10": "        return 10**10**10 > 0",
    "'x' * 10**12": "        return len('x' * 10**12) > 0",
    "deep recursion": "        def down(n):\n            return down(n + 1)\n        return down(0)",
    "sum in C for ever": "        return sum(range(10**13)) > 0",
    "catching MemoryError as Exception": "        try:\n            return len('x' * 10**12) > 0\n"
                                         "        except Exception:\n            return True",
    "catching RecursionError as Exception":
        "        def down(n):\n            return down(n + 1)\n"
        "        try:\n            return down(0)\n        except Exception:\n            return True",
    "finally that loops": "        try:\n            return True\n        finally:\n"
                          "            while True:\n                pass",
    "generator finalizer": "        def g():\n            try:\n                yield 1\n"
                           "            finally:\n                while True:\n                    pass\n"
                           "        it = g()\n        next(it)\n        return True",
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RESOURCE))
def test_resource_attacks_are_unknown_and_contained(name: str, tmp_path: Path) -> None:
    values, seconds = _attack(tmp_path, RESOURCE[name])
    assert values == [Truth.true, Truth.unknown, Truth.false], (name, values)
    assert seconds < 20, seconds


@pytest.mark.slow
def test_state_cannot_cross_cases(tmp_path: Path) -> None:
    """A module-level list and a mutable default are made anew for every case, so a spec
    cannot count the cases it saw: the same verdicts in any order."""
    task = make_task(tmp_path / "t", {"x": "int"})
    spec = ("seen = []\n\n\ndef note(v, log=[]):\n    log.append(v)\n    return len(log)\n\n\n"
            "def pre(x):\n    seen.append(x)\n    return len(seen) == 1 and note(x) == 1\n")
    cases = [pre_case({"x": i}, f"c{i}") for i in range(6)]
    forward = [v.value for v in check(task, spec, cases, LIMITS)]
    backward = [v.value for v in check(task, spec, list(reversed(cases)), LIMITS)]
    assert forward == [Truth.true] * 6 and backward == forward


@pytest.mark.slow
def test_a_spec_sees_only_the_current_case(tmp_path: Path) -> None:
    """The worker holds one case at a time and reads requests from a private descriptor:
    stdin is /dev/null to the spec's process (a bypassed front end could not read the next
    case either). Checked with a reference (full Python, no front end) that reads fd 0."""
    from adequacy_python.reference import reference_outcomes

    task = make_task(tmp_path / "t", {"x": "int"}, "string")
    (tmp_path / "t" / "reference").mkdir()
    (tmp_path / "t" / "reference" / "solution.py").write_text(
        "import os\n\ndef f(x):\n    data = os.read(0, 100000)\n"
        "    print('{\"id\": \"9\", \"kind\": \"returned\", \"output\": {\"result\": \"forged\"}}')\n"
        "    os.write(1, b'{\"id\": \"3\", \"v\": \"true\"}\\n')\n"
        "    return repr(data)\n")
    outs = reference_outcomes(task, [{"x": 1}, {"x": 2}], LIMITS, twice=False)
    assert [o.output for o in outs] == [{"result": "b''"}, {"result": "b''"}], outs


@pytest.mark.slow
def test_the_worker_refuses_code_the_front_end_did_not_check(tmp_path: Path) -> None:
    """A spec sent straight to an engine is checked again in the worker before it compiles:
    the engine reports the spec outside its reach (the runner makes its cases unknown)."""
    from adequacy.plugin import LoadedSpec
    from adequacy_python.engine import ExecEngine
    from adequacy_python.frontend import PySpec

    task = make_task(tmp_path / "t", {"x": "int"})
    text = "def pre(x):\n    return __import__('os').system('true') == 0\n"
    forged = LoadedSpec(backend="python", task_id=task.id, text=text, normalized=text,
                        data=PySpec(text=text, inputs=("x",), outputs=("result",), forms=(),
                                    pre=("def pre",), post=()))
    with pytest.raises(SpecInvalid) as e:
        ExecEngine().check(forged, task, [pre_case({"x": 1})], LIMITS)
    assert e.value.engine == "exec" and "__import__" in e.value.message


@pytest.mark.slow
def test_hash_order_is_caught_where_two_seeds_disagree(tmp_path: Path) -> None:
    """A value that depends on the iteration order of a set of strings is decided only where
    two interpreters (two hash seeds) agree. Reading whether a word sits in the first half of
    the order is a coin toss per seed, so over 30 sets the two seeds disagree on about half:
    those are unknown, with the reason (the chance that none is caught is 2**-30). The same
    question asked of the sorted set is decided everywhere."""
    task = make_task(tmp_path / "t", {"s": "set<string>"})
    cases = [pre_case({"s": [f"w{k}x{i}" for i in range(20)]}, f"c{k}") for k in range(30)]
    spec = "def pre(s):\n    return list(s).index(min(s)) < 10\n"
    sound = "def pre(s):\n    return sorted(s).index(min(s)) < 10\n"
    vs = check(task, spec, cases, LIMITS)
    caught = [v for v in vs if v.value == Truth.unknown]
    assert len(caught) >= 3 and all("hash seeds" in v.reason for v in caught), vs
    assert all(v.value == Truth.true for v in check(task, sound, cases, LIMITS))


@pytest.mark.slow
def test_a_crash_of_the_worker_is_unknown_and_the_rest_goes_on(tmp_path: Path) -> None:
    """Recursion through C (nested lists compared) can exhaust the C stack: whatever the
    interpreter does (RecursionError, or a dead worker), the case is unknown and a fresh
    worker takes the next case."""
    task = make_task(tmp_path / "t", {"x": "int"}, "int")
    spec = ("def deep(n):\n    v = []\n    for _ in range(n):\n        v = [v]\n    return v\n\n\n"
            "def post(x, result):\n    if x == 99:\n        return deep(10**6) == deep(10**6)\n"
            "    return result == x\n")
    cases = [post_case({"x": 1}, 1, "a"), post_case({"x": 99}, 99, "b"),
             post_case({"x": 2}, 3, "c")]
    vs = check(task, spec, cases, LIMITS)
    assert [v.value for v in vs] == [Truth.true, Truth.unknown, Truth.false], vs


def test_bucket_names_are_the_core_ones() -> None:
    assert Case(id="a", bucket=Bucket.pre_sound, input={}).bucket.predicate == "pre"


@pytest.mark.slow
def test_long_chains_are_python_s_own_limit(tmp_path: Path) -> None:
    """A 4,000-term sum compiles in Python, so it is a spec (decided); a 20,000-term one is
    past Python's own parser (it raises RecursionError): invalid with a line, never a crash."""
    task = make_task(tmp_path / "t", {"x": "int"})
    long = "def pre(x):\n    return " + " + ".join(["x"] * 4000) + " == 4000 * x\n"
    [v] = check(task, long, [pre_case({"x": 3})], LIMITS)
    assert v.value == Truth.true, v
    with pytest.raises(SpecInvalid, match="nests too deeply"):
        loaded(task, "def pre(x):\n    return " + " + ".join(["x"] * 20000) + " > 0\n")
