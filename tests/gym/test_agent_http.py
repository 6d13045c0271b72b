"""`adequacy agent` through litellm's real HTTP path: a scripted OpenAI-compatible server on
127.0.0.1 answers in DSPy's chat format and reports token usage, which must reach the rollout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

pytest.importorskip("dspy")

from .conftest import VERUS  # noqa: E402
from .test_gym import GOLD_BSF  # noqa: E402


def _fields(**kw: str) -> str:
    return "".join(f"[[ ## {k} ## ]]\n{v}\n\n" for k, v in kw.items()) + "[[ ## completed ## ]]"


ANSWERS = [
    _fields(next_thought="submit the spec", next_tool_name="submit",
            next_tool_args=json.dumps({"spec": GOLD_BSF})),
    _fields(next_thought="done", next_tool_name="finish", next_tool_args="{}"),
    _fields(reasoning="submitted", spec=GOLD_BSF),
]


class Scripted(BaseHTTPRequestHandler):
    calls = 0

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        n = int(self.headers.get("content-length", 0))
        self.rfile.read(n)
        i = min(Scripted.calls, len(ANSWERS) - 1)
        Scripted.calls += 1
        body = json.dumps({
            "id": f"c{i}", "object": "chat.completion", "created": 0, "model": "scripted",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": ANSWERS[i]}}],
            "usage": {"prompt_tokens": 100 + i, "completion_tokens": 10, "total_tokens": 110 + i},
        }).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def test_agent_cli_over_http(tmp_path: Path) -> None:
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Scripted)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        out = tmp_path / "rollouts.jsonl"
        env = {**os.environ, "OPENAI_API_KEY": "test", "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
        r = subprocess.run(
            [sys.executable, "-m", "adequacy", "agent", str(VERUS / "binary_search_first"),
             "--lm", "openai/scripted", "--api-base", f"http://127.0.0.1:{srv.server_port}/v1",
             "--steps", "4", "-o", str(out)],
            capture_output=True, text=True, env=env, timeout=300)
    finally:
        srv.shutdown()
    assert r.returncode == 0, r.stderr[-2000:]
    assert "Pass@1 1.000" in r.stdout
    line = json.loads(out.read_text().splitlines()[0])
    assert line["report"]["passed_all"] and line["producer"]["command"] == "agent"
    rec = line["extra"]
    assert rec["submitted_by"] == "agent"
    assert [s["tool"] for s in rec["trajectory"]] == ["submit", "finish"]
    assert [s["prompt_tokens"] for s in rec["trajectory"]] == [100, 101]
    assert rec["prompt_tokens"] == 100 + 101 + 102 and rec["completion_tokens"] == 30
    assert Scripted.calls == 3
