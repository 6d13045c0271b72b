"""The MCP server through the SDK's own client over stdio (a real child process)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the MCP server needs the gym extra: pip install -e '.[gym]'")
import anyio  # noqa: E402
from mcp import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

from adequacy.model.verdicts import Bucket  # noqa: E402
from adequacy.taskdirs.load import load_task  # noqa: E402

from .conftest import JML, VERUS  # noqa: E402
from .leaks import hidden_cases, leaks_in  # noqa: E402

pytestmark = pytest.mark.slow

GOLD_BSF = (VERUS / "binary_search_first" / "specs" / "gold.rs").read_text()
NONE_ONLY = GOLD_BSF.replace(
    GOLD_BSF[GOLD_BSF.index("spec fn post_spec"):GOLD_BSF.index("} // exec_spec_unverified!")],
    "spec fn post_spec(input: Input, output: Output) -> bool {\n    output.result.is_none()\n}\n\n")
GOLD_ABS = (JML / "abs_value" / "specs" / "gold.java").read_text()


def _text(res: Any) -> str:
    return "\n".join(getattr(c, "text", "") for c in res.content)


async def _session(gym: Path, calls: list[tuple[str, dict[str, Any]]],
                   extra: tuple[str, ...] = ()) -> tuple[list[Any], list[str]]:
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "adequacy", "mcp", "--gym", str(gym), *extra])
    out: list[str] = []
    with open(gym.parent / "server.log", "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            tools = (await session.list_tools()).tools
            for name, args in calls:
                res = await session.call_tool(name, args)
                out.append(_text(res))
    return tools, out


def run_session(gym: Path, calls: list[tuple[str, dict[str, Any]]],
                extra: tuple[str, ...] = ()) -> tuple[list[Any], list[str]]:
    return anyio.run(_session, gym, calls, extra)


def test_a_session_bound_to_one_task_sees_no_other(gym: Path) -> None:
    other = ("binary_search_first", "statement.md")
    _, out = run_session(gym, [
        ("list_tasks", {}),
        ("read_file", {"task_id": other[0], "path": other[1]}),
        ("read_file", {"task_id": "euclid_mod", "path": "../binary_search_first/statement.md"}),
        ("check", {"task_id": other[0]}),
        ("submit", {"task_id": other[0]}),
        ("read_file", {"task_id": "euclid_mod", "path": "statement.md"}),
    ], extra=("--task", "euclid_mod"))
    assert [r["task_id"] for r in json.loads(out[0])] == ["euclid_mod"]
    assert all("no task 'binary_search_first'" in x for x in (out[1], out[3], out[4]))
    assert "outside" in out[2]
    assert not out[5].startswith("error")
    # nothing was counted in the other folder
    assert not (gym / "binary_search_first" / ".gym" / "state.json").exists()


def test_binding_to_an_unknown_task_is_a_usage_error(gym: Path) -> None:
    import subprocess
    r = subprocess.run([sys.executable, "-m", "adequacy", "mcp", "--gym", str(gym), "--task",
                        "nope"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "no task 'nope'" in r.stderr and "Traceback" not in r.stderr


def test_session_lists_checks_and_submits(gym: Path, sources: Path) -> None:
    tools, out = run_session(gym, [
        ("list_tasks", {}),
        ("check", {"task_id": "binary_search_first", "spec": NONE_ONLY}),
        ("submit", {"task_id": "binary_search_first", "spec": GOLD_BSF}),
        ("submit", {"task_id": "binary_search_first", "spec": GOLD_BSF}),
    ])
    names = {t.name for t in tools}
    assert names == {"list_tasks", "read_file", "check", "verify", "submit"}
    assert all(len(t.description or "") > 80 for t in tools)
    listed = {r["task_id"] for r in json.loads(out[0])}
    assert listed == {"binary_search_first", "euclid_mod", "jml_abs_value", "jml_linear_search"}
    # ([1,3,5,7], 5) -> Some(2) is correct; a post_spec of is_none() rejects it
    assert "FAIL post_complete/postc-1" in out[1] and "[1, 3, 5, 7]" in out[1]
    src = load_task(sources / "binary_search_first")
    for b in Bucket:
        n = len(src.cases[b])
        assert f"{b.value} {n}/{n}" in out[2]
    assert "PASS: yes" in out[2]
    assert "already submitted" in out[3]


def test_every_tool_every_argument_shape_leaks_nothing(gym: Path, sources: Path,
                                                       tmp_path: Path) -> None:
    hidden = hidden_cases(gym)
    src_tests = str(sources / "binary_search_first" / "tests" / "post_sound.jsonl")
    (gym / "euclid_mod" / "link").symlink_to(sources / "euclid_mod" / "tests")
    paths = ["", ".", "statement.md", "INSTRUCTIONS.md", "visible_cases.jsonl", "example",
             "example/visible_cases.jsonl", ".gym", ".gym/task/tests/post_sound.jsonl",
             ".gym/task/task.toml", "gym.json", "../binary_search_first/gym.json",
             "../../src/euclid_mod/tests/post_sound.jsonl", "../" * 12 + "etc/passwd",
             src_tests, "/etc/passwd", "link/post_sound.jsonl", "link", "nope.txt",
             "\x00bad", "a" * 5000]
    ids = ["binary_search_first", "euclid_mod", "jml_abs_value", "jml_linear_search",
           "../src/euclid_mod", str(sources / "euclid_mod"), "", "nope", "*", "a" * 3000]
    calls: list[tuple[str, dict[str, Any]]] = [("list_tasks", {})]
    for tid in ids:
        calls += [("read_file", {"task_id": tid, "path": p}) for p in paths]
    wrong = {"verus": NONE_ONLY, "jml": GOLD_ABS.replace("\\result >= 0", "\\result > 0")}
    for tid in ids[:4]:
        lang = "jml" if tid.startswith("jml") else "verus"
        for spec in (None, "", "garbage {", "x" * 300_000, wrong[lang]):
            args: dict[str, Any] = {"task_id": tid}
            if spec is not None:
                args["spec"] = spec
            calls.append(("check", args))
            # one real proof is enough to see what verify says (KeY takes ~30 s here)
            if spec != wrong["jml"] or tid == "jml_abs_value":
                calls.append(("verify", args))
        calls.append(("submit", {"task_id": tid, "spec": wrong[lang]}))
        calls.append(("submit", {"task_id": tid}))
    for tid in ids[4:]:
        calls += [("check", {"task_id": tid}), ("verify", {"task_id": tid}),
                  ("submit", {"task_id": tid})]
    _, out = run_session(gym, calls)
    assert len(out) == len(calls)
    found = [(calls[i], x) for i, text in enumerate(out) for x in leaks_in(text, hidden)]
    assert found == []
    # the hostile reads were refused, the legitimate ones answered
    by_call = dict(zip([json.dumps(c, sort_keys=True) for c in calls], out, strict=False))
    def read(tid: str, p: str) -> str:
        return by_call[json.dumps(("read_file", {"task_id": tid, "path": p}), sort_keys=True)]
    assert "outside" in read("euclid_mod", "../binary_search_first/gym.json")
    assert "outside" in read("euclid_mod", "/etc/passwd")
    assert "outside" in read("euclid_mod", "link/post_sound.jsonl")
    assert "no task" in read("../src/euclid_mod", "statement.md")
    assert "Euclid" in read("euclid_mod", "statement.md") or read("euclid_mod", "statement.md")
    assert not any("Traceback" in x for x in out)


async def _http_session(url: str) -> tuple[list[str], str]:
    from mcp.client.streamable_http import streamable_http_client
    async with streamable_http_client(url) as (read, write), ClientSession(read, write) as s:
        await s.initialize()
        names = [t.name for t in (await s.list_tools()).tools]
        res = await s.call_tool("check", {"task_id": "binary_search_first", "spec": NONE_ONLY})
        return names, _text(res)


def test_streamable_http_transport(gym: Path) -> None:
    import socket
    import subprocess
    import time
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "adequacy", "mcp", "--gym", str(gym),
                             "--transport", "streamable-http", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.3)
        names, text = anyio.run(_http_session, f"http://127.0.0.1:{port}/mcp")
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    assert "submit" in names and "FAIL post_complete/postc-1" in text
