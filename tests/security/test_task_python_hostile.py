"""A task's own Python code (``reference/reference.py``, ``checker.py``, ``validator.py``) is a
stranger's code: it runs only in the sandboxed task-code worker, never in our process.

Each attack is a reference that also answers honestly on other inputs: the attack must not
succeed (no secret read, no file written, no connection made, our process untouched), must
not hang or crash the caller, and the honest calls around it keep their outputs.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
import time
from pathlib import Path

import pytest

from adequacy.errors import TaskError
from adequacy.sandbox.pycode import TaskFunction
from adequacy_mutators import generate_task, mutate_task

HONEST = "    return {'result': 2 * inp['n']}\n"


def _ref(tmp: Path, attack: str, setup: str = "") -> TaskFunction:
    src = (f"{setup}\ndef reference(inp):\n    if inp['n'] == 99:\n"
           + "".join(f"        {ln}\n" for ln in attack.splitlines()) + HONEST)
    p = tmp / "task" / "reference" / "reference.py"
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(src, encoding="utf-8")
    return TaskFunction(p, "reference", seconds=2.0).load()


def _run(f: TaskFunction, extra: dict[str, object] | None = None) -> list[object]:
    calls = [[{"n": 1}], [{"n": 99, **(extra or {})}], [{"n": 5}]]
    outs = f.call_many(calls)
    assert outs[0].kind == "returned" and outs[0].value == {"result": 2}
    assert outs[2].kind == "returned" and outs[2].value == {"result": 10}
    return [outs[1].kind, outs[1].value, outs[1].reason]


def test_reading_a_file_outside_the_task_fails(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-42", encoding="utf-8")
    f = _ref(tmp_path, f"return {{'result': open({str(secret)!r}).read()}}")
    kind, value, _ = _run(f)
    assert kind == "threw" and "TOP-SECRET" not in json.dumps(value)
    # nor the task's own folder: the code is sent as text, no folder is bound
    folder = str(tmp_path / "task")
    g = _ref(tmp_path, f"import os\nreturn {{'result': os.listdir({folder!r})}}")
    assert _run(g)[0] == "threw"


def test_writing_to_the_cache_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    monkeypatch.setenv("ADEQUACY_CACHE", str(cache))
    target = cache / "verdicts.sqlite"
    f = _ref(tmp_path, f"open({str(target)!r}, 'w').write('planted')\nreturn {{'result': 0}}")
    kind, _, _ = _run(f)
    assert kind == "threw"
    assert not target.exists() and list(cache.iterdir()) == []


def test_a_socket_reaches_nothing(tmp_path: Path) -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(0.2)
    port = server.getsockname()[1]
    accepted: list[object] = []

    def serve() -> None:
        end = time.monotonic() + 6
        while time.monotonic() < end:
            try:
                accepted.append(server.accept())
            except OSError:
                continue

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    f = _ref(tmp_path, f"import socket\ns = socket.create_connection(('127.0.0.1', {port}), 1)\n"
                       "return {'result': 1}")
    kind, _, _ = _run(f)
    t.join()
    server.close()
    assert kind == "threw" and accepted == []


def test_a_loop_is_cut_at_its_deadline(tmp_path: Path) -> None:
    f = _ref(tmp_path, "while True:\n    pass")
    t0 = time.monotonic()
    kind, _, _ = _run(f)
    assert kind == "timeout"
    assert time.monotonic() - t0 < 15
    # a loop that swallows every exception is cut the same way
    g = _ref(tmp_path, "while True:\n    try:\n        pass\n    except BaseException:\n"
                       "        pass")
    assert _run(g)[0] == "timeout"


def test_the_parents_state_is_out_of_reach(tmp_path: Path) -> None:
    os.environ.pop("ADEQUACY_PWNED", None)
    me = os.getpid()
    f = _ref(tmp_path, "import os, sys, builtins, signal\n"
                       "os.environ['ADEQUACY_PWNED'] = '1'\n"
                       "builtins.len = lambda x: 0\n"
                       "print(json_reply)\nsys.stdout.flush()\n"
                       "os.write(1, json_reply.encode())\n"
                       "try:\n    os.kill(inp['me'], signal.SIGTERM)\nexcept OSError:\n    pass\n"
                       "os.kill(os.getppid(), signal.SIGKILL)\nreturn {'result': 7}",
             setup="json_reply = '{\"id\": \"2\", \"ok\": true, \"outcomes\": []}\\n'")
    kind, value, _ = _run(f, {"me": me})
    assert os.getpid() == me and "ADEQUACY_PWNED" not in os.environ
    assert len([1, 2]) == 2
    # killing the worker from inside costs that call its word, nothing else (the honest
    # calls around it kept theirs, checked in _run)
    assert kind == "failed"
    # and a later call still works (a fresh worker)
    assert f({"n": 3}) == {"result": 6}


def test_state_never_crosses_calls(tmp_path: Path) -> None:
    f = _ref(tmp_path, "return {'result': -1}",
             setup="import builtins\nSEEN = []\nbuiltins.SEEN_ALL = getattr(builtins, "
                   "'SEEN_ALL', 0) + 1\n")
    src = ("SEEN = []\ndef reference(inp):\n    SEEN.append(1)\n"
           "    return {'result': len(SEEN)}\n")
    (tmp_path / "s.py").write_text(src, encoding="utf-8")
    g = TaskFunction(tmp_path / "s.py", "reference").load()
    assert [o.value for o in g.call_many([[{"n": i}] for i in range(5)])] == [{"result": 1}] * 5
    assert f({"n": 1}) == {"result": 2}


@pytest.mark.parametrize("module", [
    "while True:\n    pass\n",
    "import sys\nsys.exit(3)\n",
    "open('/etc/shadow').read()\n",
    "raise SystemExit\n",
    "x = [0] * (10 ** 10)\n",
])
def test_an_attack_at_import_is_a_task_error(tmp_path: Path, module: str) -> None:
    p = tmp_path / "reference.py"
    p.write_text(module + "def reference(inp):\n    return {'result': 0}\n", encoding="utf-8")
    t0 = time.monotonic()
    with pytest.raises(TaskError) as e:
        TaskFunction(p, "reference").load()
    assert str(p) in str(e.value)
    assert time.monotonic() - t0 < 60


DOUBLE_TOML = """id = "double"
language = "verus"
title = "double"

[signature.input]
n = "i64"

[signature.output]
result = "i64"
"""


def test_generate_and_mutate_survive_a_hostile_reference(tmp_path: Path) -> None:
    d = tmp_path / "double"
    (d / "tests").mkdir(parents=True)
    (d / "reference").mkdir()
    (d / "task.toml").write_text(DOUBLE_TOML, encoding="utf-8")
    (d / "skeleton.rs").write_text("// skeleton\n", encoding="utf-8")
    with (d / "tests" / "post_complete.jsonl").open("w", encoding="utf-8") as fh:
        for n in (0, 3, 12):
            fh.write(json.dumps({"id": f"c{n}", "input": {"n": n},
                                 "output": {"result": 2 * n}}) + "\n")
    marker = tmp_path / "written-by-the-reference"
    (d / "reference" / "reference.py").write_text(
        "import os\n"
        "def reference(inp):\n"
        "    try:\n"
        f"        open({str(marker)!r}, 'w').write('x')\n"
        "    except OSError:\n"
        "        pass\n"
        "    if inp['n'] > 1000:\n"
        "        while True:\n"
        "            pass\n"
        "    return {'result': 2 * inp['n']}\n", encoding="utf-8")
    gen = generate_task(d, valid=10, seed=0)
    mut = mutate_task(d, per_case=2, seed=0)
    assert gen.valid_added > 0 and mut.post_sound_added > 0
    assert not marker.exists()
    # nothing of the task was imported into this process
    assert not any(m.startswith("_adequacy_oracle") for m in sys.modules)


def test_huge_results_are_refused_not_carried(tmp_path: Path) -> None:
    # 8 MB per call: over the per-call cap; the honest calls around it keep their outputs
    f = _ref(tmp_path, "return {'result': 'x' * (8 * 1024 * 1024)}")
    kind, value, reason = _run(f)
    assert kind == "failed" and value is None and "too large" in str(reason)
