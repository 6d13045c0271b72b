"""Once through litellm's real HTTP path: a tiny OpenAI-compatible server on 127.0.0.1.

The server answers binary_search_first with its gold spec in DSPy's chat format and every other
task with prose (no spec), reports token usage, and fails the very first request with HTTP 503
so that the retry path runs. What this shows: model strings, --api-base, retries, extraction,
token accounting and the jobs file work end to end over HTTP; nothing about any real model.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from typer.testing import CliRunner

from adequacy.batch import BatchOptions, jobs_from_file, run_batch
from adequacy.cli import app

from .conftest import EXAMPLES, gold

GOLD = gold("verus", "binary_search_first")


class _Handler(BaseHTTPRequestHandler):
    seen: list[dict] = []
    failed_once = False

    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).seen.append({"path": self.path, "model": body.get("model")})
        if not type(self).failed_once:
            type(self).failed_once = True
            self.send_response(503)
            self.end_headers()
            self.wfile.write(b'{"error": {"message": "busy"}}')
            return
        prompt = "\n".join(str(m.get("content")) for m in body["messages"])
        if "// First occurrence in a sorted sequence" in prompt:
            content = f"[[ ## spec ## ]]\n```rust\n{GOLD}```\n\n[[ ## completed ## ]]"
        else:
            content = "[[ ## spec ## ]]\nI am not sure how to write this one.\n\n[[ ## completed ## ]]"
        reply = {"id": "x", "object": "chat.completion", "created": 0, "model": body["model"],
                 "choices": [{"index": 0, "finish_reason": "stop",
                              "message": {"role": "assistant", "content": content}}],
                 "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}}
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture
def server():
    _Handler.seen, _Handler.failed_once = [], False
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    th = threading.Thread(target=srv.serve_forever, daemon=True)
    th.start()
    yield f"http://127.0.0.1:{srv.server_address[1]}/v1"
    srv.shutdown()
    srv.server_close()


def test_synthesize_over_http_with_retry(server, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-key")
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    for name in ("binary_search_first", "coprime_check"):
        (tasks / name).symlink_to(EXAMPLES / "verus" / name)
    res = CliRunner().invoke(app, ["synthesize", str(tasks), "-o", str(tmp_path / "out"),
                                   "--writer", "dspy", "--lm", "openai/local-model",
                                   "--api-base", server, "--no-cache", "--retries", "2"])
    assert res.exit_code == 0, res.output
    assert "2 specs for 2 tasks" in res.output and "1 without a usable spec" in res.output
    assert len(_Handler.seen) >= 3  # the 503 was retried
    assert all(s["path"].endswith("/chat/completions") for s in _Handler.seen)
    assert {s["model"] for s in _Handler.seen} == {"local-model"}
    writes = [json.loads(x) for x in (tmp_path / "out" / "writes.jsonl").read_text().splitlines()]
    ok = next(w for w in writes if w["task_id"] == "binary_search_first")
    bad = next(w for w in writes if w["task_id"] == "coprime_check")
    assert ok["usage"]["prompt_tokens"] == 100 and ok["usage"]["completion_tokens"] == 20
    assert ok["text"] is not None and bad["text"] is None and "unparseable" in bad["error"]
    summary = run_batch(jobs_from_file(tmp_path / "out" / "jobs.jsonl"),
                        tmp_path / "results.jsonl", BatchOptions(), workers=1, progress=False)
    assert summary.passed_all == 1 and summary.invalid == 1
