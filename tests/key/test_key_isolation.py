"""One KeY worker serves spec after spec (its start-up costs seconds). Nothing one spec
loads may decide another's cases: KeY's only process-wide caches are the parsed taclet base
and the default settings (set on every request); each request builds a fresh environment of
its own folder's classes. Checked where a stale cache keyed by class or method names would
show: two specs of the same class ``Solution`` whose helper ``f`` of the same signature means
different things, proved alternately on the same worker."""

from __future__ import annotations

from pathlib import Path

import pytest
from key_support import with_spec, write_task

from adequacy.extensions.backend import Limits, engine_named
from adequacy.taskdirs.load import load_task
from adequacy_openjml.plugin import OpenJmlBackend

pytestmark = [pytest.mark.slow, pytest.mark.requires("key")]


def code(k: int) -> str:
    return f"""public class Solution {{
    public static int solve(int x) {{
        return f(x);
    }}

    /*@ public normal_behavior
      @ ensures \\result == x + {k};
      @ pure @*/
    public static int f(int x) {{
        return x + {k};
    }}
}}
"""


def test_same_class_and_helper_names_across_specs_do_not_leak(tmp_path: Path) -> None:
    # By hand: with f(x) == x + k, "ensures \result == f(x)" holds for (x=1, result=2) iff
    # k == 1, and for (x=1, result=3) iff k == 2.
    cases = {"post_complete": [{"id": "r2", "input": {"x": 1}, "output": {"result": 2}}],
             "post_sound": [{"id": "r3", "input": {"x": 1}, "output": {"result": 3}}]}
    b = OpenJmlBackend()
    key = engine_named(b, "key")
    seen: list[dict[str, str]] = []
    for k in (1, 2, 1):
        task = load_task(write_task(tmp_path / f"t{len(seen)}", code(k), {"x": "i32"},
                                    cases=cases))
        spec = b.load_spec(task, with_spec(code(k), "    //@ ensures \\result == f(x);"),
                           "S.java")
        got = key.check(spec, task, task.all_cases(), Limits(case_seconds=20))
        seen.append({v.case_id: v.value.value for v in got})
    assert seen == [{"r2": "true", "r3": "false"}, {"r2": "false", "r3": "true"},
                    {"r2": "true", "r3": "false"}], seen
