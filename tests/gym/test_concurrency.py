"""Submit-once and check logs under concurrency: threads (as the MCP server runs its tools) and
processes (two ``adequacy submit`` at once), all released together by a barrier.

Without a lock every caller reads "not submitted" before the first grade is written (a grade
takes far longer than reading state.json), so the barrier makes the race certain, not lucky.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from adequacy.gym import GymTools
from adequacy.gym.manifest import PRIVATE
from adequacy.gym.state import read_state
from adequacy.records.log import read_results

from .conftest import VERUS

GOLD_BSF = (VERUS / "binary_search_first" / "specs" / "gold.rs").read_text()
GOLD_EUCLID = (VERUS / "euclid_mod" / "specs" / "gold.rs").read_text()
N = 5


def _records(folder: Path) -> list[dict[str, object]]:
    """The submission log's records through the one results reader (report and gym fields)."""
    p = folder / PRIVATE / "submissions.jsonl"
    if not p.exists():
        return []
    return [{**r.record.report.model_dump(), **r.record.extra} for r in read_results(p)]


def test_threads_submit_once(gym: Path) -> None:
    tools = GymTools(gym)
    barrier = threading.Barrier(N)
    answers: list[str] = []

    def go() -> None:
        barrier.wait()
        answers.append(tools.submit("binary_search_first", GOLD_BSF))

    threads = [threading.Thread(target=go) for _ in range(N)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    graded = [a for a in answers if a.startswith("submitted")]
    assert len(graded) == 1 and "PASS: yes" in graded[0], answers
    assert sum("already submitted" in a for a in answers) == N - 1
    recs = _records(gym / "binary_search_first")
    assert [r["submission"] for r in recs] == [1]
    assert read_state(gym / "binary_search_first").submissions == 1


# a child imports everything first, then waits for the go file: all start grading together
CHILD = """
import sys, time
from pathlib import Path

import pytest
from adequacy.cli import main
import adequacy.gym.session, adequacy.scoring.runner
go = Path(sys.argv[1])
Path(sys.argv[2]).touch()
while not go.exists():
    time.sleep(0.001)
sys.argv = ["adequacy", "submit", sys.argv[3]]
main()
"""


@pytest.mark.slow
def test_processes_submit_once(gym: Path, tmp_path: Path) -> None:
    folder = gym / "euclid_mod"
    go = tmp_path / "go"
    procs = [subprocess.Popen([sys.executable, "-c", CHILD, str(go), str(tmp_path / f"ready{i}"),
                               str(folder)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for i in range(N)]
    deadline = time.monotonic() + 120
    while not all((tmp_path / f"ready{i}").exists() for i in range(N)):
        assert time.monotonic() < deadline, "children did not start"
        time.sleep(0.01)
    go.touch()
    outs = [p.communicate(timeout=300) for p in procs]
    codes = [p.returncode for p in procs]
    graded = [o for o, _ in outs if o.startswith("submitted")]
    assert len(graded) == 1, (codes, outs)
    assert sorted(codes) == [1] + [2] * (N - 1), (codes, outs)  # the skeleton fails, exit 1
    assert all("already submitted" in e for (o, e), c in zip(outs, codes, strict=True) if c == 2)
    assert not any("Traceback" in e for _, e in outs)
    assert [r["submission"] for r in _records(folder)] == [1]


def test_concurrent_checks_count_and_log_each(gym: Path) -> None:
    tools = GymTools(gym)
    barrier = threading.Barrier(N)
    folder = gym / "binary_search_first"
    # spec i differs only by a comment: each log must hold its own spec
    specs = [GOLD_BSF + f"\n// check {i}\n" for i in range(N)]
    answers: dict[int, str] = {}

    def go(i: int) -> None:
        barrier.wait()
        answers[i] = tools.check("binary_search_first", specs[i])

    threads = [threading.Thread(target=go, args=(i,)) for i in range(N)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # the gold spec passes every visible case, whoever runs beside it
    assert all(a.startswith("check: 3 of 3 visible cases passed") for a in answers.values()), \
        answers
    assert read_state(folder).checks == N
    logs = folder / PRIVATE / "logs"
    logged = sorted(p.read_text() for p in logs.glob("check-*.spec"))
    assert logged == sorted(specs)
    assert len(list(logs.glob("check-*.txt"))) == N
    assert len(list(logs.glob("check-*.json"))) == N


DEEP = GOLD_EUCLID.replace(
    "spec fn post_spec(input: Input, output: Output) -> bool {\n    output.result",
    "spec fn depth(n: int) -> int\n    decreases n\n{\n    if n <= 0 { 0 } else { 1 + depth(n - 1) }"
    "\n}\n\nspec fn post_spec(input: Input, output: Output) -> bool {\n    depth(3000) == 3000 "
    "&& output.result")


THREADS = """
import json, sys, threading
from pathlib import Path

import pytest
import adequacy.gym.session as session
from adequacy.gym import GymTools
session._cache = lambda: None  # every run evaluates (a cached verdict would hide the race)
gym, spec, n = Path(sys.argv[1]), Path(sys.argv[2]).read_text(), int(sys.argv[3])
tools = GymTools(gym)
barrier = threading.Barrier(n)
answers = {}
def go(i):
    barrier.wait()
    answers[i] = (tools.submit("euclid_mod", spec) if i == 0
                  else tools.check("euclid_mod", spec + f"\\n// {i}\\n"))
threads = [threading.Thread(target=go, args=(i,)) for i in range(n)]
for t in threads: t.start()
for t in threads: t.join()
print(json.dumps(answers))
"""


@pytest.mark.slow
def test_concurrent_checks_and_a_submit_give_the_verdicts_of_a_lone_run(gym: Path,
                                                                        tmp_path: Path) -> None:
    """A recursive spec fn 3000 deep: alone, the gold spec with it passes every case. Run beside
    other runs in threads (as MCP tools are), it must still pass and the server must live: the
    interpreter's recursion limit and thread stack size are process-wide. Run in a child, since
    the race can abort the process."""
    assert DEEP != GOLD_EUCLID
    spec = tmp_path / "deep.rs"
    spec.write_text(DEEP)
    r = subprocess.run([sys.executable, "-c", THREADS, str(gym), str(spec), str(N)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, (r.returncode, r.stderr[-2000:])
    answers = json.loads(r.stdout)
    assert "PASS: yes" in answers["0"], answers["0"]
    for i in range(1, N):
        assert answers[str(i)].startswith("check: 3 of 3 visible cases passed"), answers[str(i)]
