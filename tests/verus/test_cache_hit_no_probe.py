"""A verdict cache hit starts nothing: no engine check, no toolchain probe, even in
a process that has not asked the engines for their infos yet."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from adequacy.examples import bundled_folder
from adequacy.extensions import registry
from adequacy.scoring.cache import VerdictCache
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.load import load_task

pytestmark = [pytest.mark.slow, pytest.mark.requires("exec_spec")]

TASK = bundled_folder("verus") / "binary_search_first"

_started: list[str] = []
_watching = [False]


def _audit(event: str, args: tuple[object, ...], watching: list[bool] = _watching,
           started: list[str] = _started) -> None:
    # the lists are bound here: at interpreter exit the module's globals are gone, and a hook
    # that reads them would print "Exception ignored in audit hook" on every event
    if watching[0] and event in ("subprocess.Popen", "os.posix_spawn", "os.fork", "os.exec",
                                 "os.system"):
        started.append(event)


sys.addaudithook(_audit)  # audit hooks cannot be removed: it records only while watching


def test_exec_spec_hit_starts_no_process(tmp_path: Path) -> None:
    task = load_task(TASK)
    text = (TASK / "specs" / "gold.rs").read_text()
    cache = VerdictCache(str(tmp_path / "v.sqlite"))
    first = score_spec(task, text, None, engines=["exec_spec"], cache=cache)
    run = [e for e in first.engines if e.name == "exec_spec"][0]
    assert first.passed_all and run.cached == 0 and run.decided == run.cases > 0
    registry.registry().refresh()  # as in a fresh process: every info must be asked again
    _started.clear()
    _watching[0] = True
    try:
        again = score_spec(task, text, None, engines=["exec_spec"], cache=cache)
    finally:
        _watching[0] = False
    run = [e for e in again.engines if e.name == "exec_spec"][0]
    assert run.cached == run.cases and again.passed_all and again.key == first.key
    assert _started == [], "a cache hit started a process"
    # the watch itself works: a probe of a tool not yet remembered is seen
    _watching[0] = True
    try:
        import subprocess
        subprocess.run([sys.executable, "-c", "pass"], check=True)
    finally:
        _watching[0] = False
    assert _started == ["subprocess.Popen"]
