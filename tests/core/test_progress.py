"""Long commands show progress on stderr: a live display on a terminal, lines in a pipe
(rate-limited, a heartbeat for a quiet step), never on stdout; ``--quiet`` or
``ADEQUACY_PROGRESS=off`` silence it."""

from __future__ import annotations

import io
import json
import os
import pty
import re
import select
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from adequacy.console import progress

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _task(tmp_path: Path) -> tuple[Path, Path]:
    task = tmp_path / "toy_succ"
    shutil.copytree(FIXTURES / "toy_task", task)
    spec = tmp_path / "slow.toy"
    spec.write_text("sleep: 1.5\npre: x >= 0\npost: result == x + 1\n")
    return task, spec


def test_score_shows_progress_on_a_terminal(tmp_path: Path, installed_toy: Path) -> None:
    task, spec = _task(tmp_path)
    env = dict(os.environ, PYTHONPATH=str(installed_toy), TERM="xterm", COLUMNS="120")
    cmd = [sys.executable, "-m", "adequacy", "score", str(task), str(spec), "--no-cache",
           "--json"]
    master, slave = pty.openpty()
    proc = subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=slave)
    os.close(slave)
    seen = b""
    end = time.monotonic() + 60
    while time.monotonic() < end:
        r, _, _ = select.select([master], [], [], 0.2)
        if r:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        elif proc.poll() is not None:
            break
    proc.wait(timeout=30)
    os.close(master)
    assert proc.returncode == 0
    assert b"exact: 8 cases" in seen or b"exact:" in seen, seen[-500:]


def test_score_prints_progress_lines_to_a_pipe_and_json_to_stdout(
        tmp_path: Path, installed_toy: Path) -> None:
    # a score in a pipe (CI, `2>log`) used to be silent however long it took
    task, spec = _task(tmp_path)
    env = dict(os.environ, PYTHONPATH=str(installed_toy), ADEQUACY_PROGRESS_EVERY="0")
    env.pop("ADEQUACY_PROGRESS", None)
    p = subprocess.run([sys.executable, "-m", "adequacy", "score", str(task), str(spec),
                        "--no-cache", "--json"], env=env, capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 0
    assert re.search(r"^exact: (\d+) cases: 0/\1 cases", p.stderr, re.M), p.stderr
    assert re.search(r"^exact: (\d+) cases: done, \1/\1 cases", p.stderr, re.M), p.stderr
    json.loads(p.stdout)  # stdout holds the report alone
    env["ADEQUACY_PROGRESS"] = "off"
    q = subprocess.run([sys.executable, "-m", "adequacy", "score", str(task), str(spec),
                        "--no-cache", "--json"], env=env, capture_output=True, text=True,
                       timeout=60)
    assert q.returncode == 0 and "cases" not in q.stderr


ROOT = Path(__file__).resolve().parents[2]
ABS = ("public class Solution {\n    public static int solve(int num) {\n"
       "        if (num < 0) return -num; else return num;\n    }\n}\n")
TEST = """import java.util.*;
public class Test {
    public static void main(String[] args) {
        Scanner scanner = new Scanner(System.in);
        int p0 = Integer.parseInt(scanner.hasNextLine() ? scanner.nextLine().trim() : "");
        int result = Solution.solve(p0);
        System.out.println(result);
    }
}
"""


def _record(tid: str) -> dict[str, object]:
    pairs = [{"input": str(i), "output": str(abs(i))} for i in (-4, 0, 4, 5, 9, -12)]
    return {"task_id": tid, "code": ABS, "test_code": TEST, "test_inputs": pairs,
            "generated_test_cases": [], "class_name": "Solution", "test_name": "Test",
            "javadoc": "N/A", "category": "branch", "origin_id": tid}


def sgb(path: Path, ids: list[str]) -> Path:
    path.write_text("".join(json.dumps(_record(i)) + "\n" for i in ids), encoding="utf-8")
    return path


class _Pipe(io.StringIO):
    def isatty(self) -> bool:
        return False


@pytest.fixture
def pipe(monkeypatch: pytest.MonkeyPatch) -> Iterator[_Pipe]:
    """stderr as a pipe; set in the test's own call phase (pytest's capture puts its own
    stderr back between a fixture's setup and the test)."""
    stream = _Pipe()
    monkeypatch.delenv("ADEQUACY_PROGRESS", raising=False)
    progress.set_mode(None)
    yield stream
    progress.set_mode(None)


def _use(stream: _Pipe, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stderr", stream)


def test_steps_print_lines_in_a_pipe(pipe: _Pipe, monkeypatch: pytest.MonkeyPatch) -> None:
    _use(pipe, monkeypatch)
    monkeypatch.setenv("ADEQUACY_PROGRESS_EVERY", "0")
    with progress.terminal(), progress.steps("generate", 3, "tasks") as bar:
        for name in ("a", "b", "c"):
            bar.advance(note=f"last: {name}")
    lines = pipe.getvalue().splitlines()
    assert lines[0].startswith("generate: 0/3 tasks")
    assert any(ln.startswith("generate: 2/3 tasks") and "last: b" in ln for ln in lines)
    assert lines[-1].startswith("generate: done, 3/3 tasks")


def test_lines_are_rate_limited(pipe: _Pipe, monkeypatch: pytest.MonkeyPatch) -> None:
    _use(pipe, monkeypatch)
    monkeypatch.setenv("ADEQUACY_PROGRESS_EVERY", "3600")
    with progress.terminal(), progress.steps("quick", 1000) as bar:
        for _ in range(1000):
            bar.advance()
    assert pipe.getvalue() == ""  # a step shorter than the interval prints nothing at all


def test_a_quiet_phase_gets_a_heartbeat(pipe: _Pipe, monkeypatch: pytest.MonkeyPatch) -> None:
    _use(pipe, monkeypatch)
    monkeypatch.setenv("ADEQUACY_PROGRESS_EVERY", "0.5")
    with progress.terminal(), progress.phase("cargo builds the harness"):
        time.sleep(1.8)
    lines = pipe.getvalue().splitlines()
    running = [ln for ln in lines if ln.startswith("cargo builds the harness: running")]
    assert 2 <= len(running) <= 5, lines
    assert lines[-1].startswith("cargo builds the harness: done")


def test_threads_of_the_command_report_to_its_display(pipe: _Pipe,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    _use(pipe, monkeypatch)
    monkeypatch.setenv("ADEQUACY_PROGRESS_EVERY", "0")

    def work() -> None:
        with progress.phase("built in a worker thread"):
            pass

    with progress.terminal():
        t = threading.Thread(target=work)
        t.start()
        t.join()
    assert "built in a worker thread: running" in pipe.getvalue()


def test_quiet_and_off_and_no_display_print_nothing(pipe: _Pipe,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    _use(pipe, monkeypatch)
    monkeypatch.setenv("ADEQUACY_PROGRESS_EVERY", "0")
    with progress.steps("library caller", 2) as bar:  # no display opened: a no-op
        bar.advance()
    progress.set_mode("off")
    with progress.terminal(), progress.steps("quiet", 2) as bar:
        bar.advance()
    progress.set_mode(None)
    monkeypatch.setenv("ADEQUACY_PROGRESS", "off")
    with progress.terminal(), progress.phase("off"):
        pass
    assert pipe.getvalue() == ""


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("ADEQUACY_PROGRESS", None)
    env.update(extra)
    return env


def _adequacy() -> list[str]:
    return [sys.executable, "-c", "from adequacy.cli import main; main()"]


def test_import_reports_progress_on_a_piped_stderr(tmp_path: Path) -> None:
    src = sgb(tmp_path / "sgb.jsonl", ["SGB_A", "SGB_B"])
    r = subprocess.run([*_adequacy(), "import", "specgenbench", str(src), str(tmp_path / "out"),
                        "--no-generate", "--no-mutate"],
                       capture_output=True, text=True, timeout=120,
                       env=_env(ADEQUACY_PROGRESS_EVERY="0"))
    assert r.returncode == 0, r.stderr
    assert "import specgenbench: converting all tasks: running" in r.stderr
    assert "import specgenbench: converting all tasks: done" in r.stderr
    assert "running" not in r.stdout and "converted 2 of 2 tasks" in r.stdout
    # --quiet silences it
    q = subprocess.run([*_adequacy(), "import", "specgenbench", str(src),
                        str(tmp_path / "out2"), "--no-generate", "--no-mutate", "--quiet"],
                       capture_output=True, text=True, timeout=120,
                       env=_env(ADEQUACY_PROGRESS_EVERY="0"))
    assert q.returncode == 0 and q.stderr == "", q.stderr


@pytest.mark.slow
def test_import_generation_reports_each_task_on_a_pipe(tmp_path: Path) -> None:
    from adequacy_openjml.engines.rac.worker import jdk_problem
    from adequacy_openjml.jdk import find_java

    why = jdk_problem(find_java())
    if why:
        pytest.skip(why)
    src = sgb(tmp_path / "sgb.jsonl", ["SGB_A", "SGB_B"])
    r = subprocess.run([*_adequacy(), "import", "specgenbench", str(src), str(tmp_path / "out"),
                        "--jobs", "1"], capture_output=True, text=True, timeout=600,
                       env=_env(ADEQUACY_PROGRESS_EVERY="0"))
    assert r.returncode == 0, r.stderr
    lines = r.stderr.splitlines()
    assert any(ln.startswith("import: generate + mutate: 1/2 tasks") for ln in lines), lines
    assert any(ln.startswith("import: generate + mutate: done, 2/2 tasks") for ln in lines)
    assert "generate + mutate" not in r.stdout
