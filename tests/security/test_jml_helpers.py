"""JML helper methods that try hostile actions through the real rac engine: each case is
unknown ("forbidden"), nothing is written on the host, and no process is left behind."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from containment_support import procs_with, wait_until

from adequacy.examples import bundled_folder
from adequacy.extensions.backend import Limits, engine_named
from adequacy.taskdirs.load import load_task
from adequacy_openjml.plugin import OpenJmlBackend

pytestmark = [pytest.mark.slow, pytest.mark.requires("javac")]

REPO = Path(__file__).resolve().parents[2]
TASK = bundled_folder("jml") / "swap_case"
TOKEN = f"adequacy-jml-{uuid.uuid4().hex}"

HELPERS = {
    "read-passwd": 'return java.nio.file.Files.readString(java.nio.file.Path.of("/etc/passwd"))'
                   '.length() > 0;',
    "read-readme": f'return java.nio.file.Files.readString(java.nio.file.Path.of('
                   f'"{REPO / "README.md"}")).length() > 0;',
    "write-tmp": f'java.nio.file.Files.writeString(java.nio.file.Path.of("/tmp/{TOKEN}"), "x");'
                 ' return true;',
    "write-project": f'java.nio.file.Files.writeString(java.nio.file.Path.of("{REPO}/{TOKEN}"),'
                     ' "x"); return true;',
    "exec": f'new ProcessBuilder("/bin/sh", "-c", "sleep 100 # {TOKEN}").start(); return true;',
    "socket": 'new java.net.Socket("127.0.0.1", 22).close(); return true;',
    "caught": f'try {{ java.nio.file.Files.writeString(java.nio.file.Path.of("/tmp/{TOKEN}"), '
              '"x"); } catch (Throwable t) { } if (s == null) throw new java.io.IOException(); '
              'return true;',
}


@pytest.mark.parametrize("name", list(HELPERS))
def test_hostile_helper_makes_the_case_unknown_and_leaves_nothing(name: str) -> None:
    task = load_task(TASK)
    code = (TASK / "Solution.java").read_text()
    spec = code.replace(
        "    public static String solve",
        "    /*@ pure @*/ static boolean evil(String s) { try { " + HELPERS[name] +
        " } catch (java.io.IOException e) { return false; } }\n"
        "    //@ requires s == null || s.length() > 2 || evil(s);\n"
        "    public static String solve")
    b = OpenJmlBackend()
    loaded = b.load_spec(task, spec, f"{name}.java")
    # the front end cannot vouch for such a helper (its cases are unknown); the
    # sandbox underneath must contain it all the same, so this test runs rac without the gap
    assert loaded.data.gap and "pure method evil" in loaded.data.gap
    loaded.data.gap = None
    pre = [c for c in task.all_cases() if c.bucket.predicate == "pre"]
    by_id = {v.case_id: v for v in engine_named(b, "rac").check(
        loaded, task, pre, Limits(case_seconds=15))}
    assert by_id["empty"].value.value == "unknown", by_id["empty"]
    assert "forbidden" in by_id["empty"].reason, by_id["empty"].reason
    for d in (Path("/tmp"), REPO, Path.home()):
        assert not (d / TOKEN).exists()
    assert wait_until(lambda: not procs_with(TOKEN), 3), procs_with(TOKEN)
