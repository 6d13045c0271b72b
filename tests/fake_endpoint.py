"""An OpenAI-compatible endpoint for tests and benchmarks: a real HTTP server on 127.0.0.1 that
litellm talks to over its real code path (the HTTP counterpart of ``testing.ScriptedLM``).

It answers with a scripted reply (a function of the prompt and the call number), can fail
with the HTTP errors providers send (400 refused request, 401 bad key, 404 model not found, 429, 500, 503), either
for the first few requests or for all of them, and can be stopped so that its address refuses
connections. What it shows is our handling of real wire behaviour, nothing about any model.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ERRORS: dict[int, dict[str, Any]] = {
    400: {"message": "Invalid request", "type": "invalid_request_error", "code": None},
    401: {"message": "Incorrect API key provided", "type": "invalid_request_error",
          "code": "invalid_api_key"},
    404: {"message": "The model `missing` does not exist", "type": "invalid_request_error",
          "code": "model_not_found"},
    429: {"message": "Rate limit reached", "type": "requests", "code": "rate_limit_exceeded"},
    500: {"message": "internal failure", "type": "server_error", "code": None},
    503: {"message": "busy", "type": "server_error", "code": None},
}


def fields(**kw: str) -> str:
    """An answer in DSPy's chat format."""
    return "".join(f"[[ ## {k} ## ]]\n{v}\n\n" for k, v in kw.items()) + "[[ ## completed ## ]]"


class FakeEndpoint:
    """Start with ``with FakeEndpoint(reply) as lm:``; ``lm.base`` is the ``--api-base``."""

    def __init__(self, reply: Callable[[str, int], str] | None = None,
                 fail_first: list[int] | None = None, fail_all: int | None = None,
                 usage: Callable[[int], tuple[int, int]] = lambda i: (100, 20)) -> None:
        self.reply = reply or (lambda prompt, i: fields(spec="no spec from me"))
        self.fail_first = list(fail_first or [])
        self.fail_all = fail_all
        self.usage = usage
        self.seen: list[dict[str, Any]] = []
        """Every request: path, model, prompt text, the Authorization header."""
        self.answered = 0
        self._srv: ThreadingHTTPServer | None = None
        self.port = 0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def _send(self, code: int, obj: dict[str, Any]) -> None:
                data = json.dumps(obj).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                prompt = "\n".join(str(m.get("content")) for m in body.get("messages", []))
                owner.seen.append({"path": self.path, "model": body.get("model"),
                                   "prompt": prompt,
                                   "authorization": self.headers.get("Authorization")})
                code = owner.fail_all or (owner.fail_first.pop(0) if owner.fail_first
                                          else None)
                if code is not None:
                    self._send(code, {"error": ERRORS[code]})
                    return
                i = owner.answered
                owner.answered += 1
                pt, ct = owner.usage(i)
                self._send(200, {
                    "id": f"c{i}", "object": "chat.completion", "created": 0,
                    "model": body.get("model"),
                    "choices": [{"index": 0, "finish_reason": "stop", "message": {
                        "role": "assistant", "content": owner.reply(prompt, i)}}],
                    "usage": {"prompt_tokens": pt, "completion_tokens": ct,
                              "total_tokens": pt + ct}})

        return Handler

    def start(self) -> FakeEndpoint:
        self._srv = ThreadingHTTPServer(("127.0.0.1", self.port), self._handler())
        self.port = self._srv.server_address[1]
        threading.Thread(target=self._srv.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        """Close the socket: the address now refuses connections."""
        if self._srv is not None:
            self._srv.shutdown()
            self._srv.server_close()
            self._srv = None

    def __enter__(self) -> FakeEndpoint:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def refused_base() -> str:
    """An address where nothing listens (a server started and stopped)."""
    lm = FakeEndpoint().start()
    lm.stop()
    return lm.base
