"""A local ``--api-base`` needs no key, ``--api-key`` gives one, and neither is ever written.

Over litellm's real HTTP path to the fake endpoint on 127.0.0.1, with no provider key in the
environment: before, the command stopped at once with "no API key" although a local vLLM or
llama.cpp server reads none."""

from __future__ import annotations

import pytest

pytest.importorskip("dspy", reason="needs the optimize extra: pip install -e '.[optimize]'")

from pathlib import Path  # noqa: E402

from typer.testing import CliRunner  # noqa: E402

from adequacy.cli import app  # noqa: E402
from adequacy.examples import bundled_folder  # noqa: E402
from fake_endpoint import FakeEndpoint, fields  # noqa: E402

from .conftest import gold  # noqa: E402

BSF = bundled_folder("verus") / "binary_search_first"


def _reply(prompt: str, i: int) -> str:
    return fields(spec=f"```rust\n{gold('verus', 'binary_search_first')}```")


@pytest.fixture(autouse=True)
def _no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    for k in list(os.environ):
        if k.endswith("_API_KEY"):
            monkeypatch.delenv(k)


def _synthesize(base: str, out: Path, *extra: str) -> tuple[int, str]:
    r = CliRunner().invoke(app, ["synthesize", str(BSF), "-o", str(out), "--writer", "dspy",
                                 "--lm", "openai/served-model", "--api-base", base,
                                 "--no-cache", "--retry-wait", "0", *extra])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r.exit_code, r.stdout + r.stderr


def test_a_local_endpoint_needs_no_key(tmp_path: Path) -> None:
    with FakeEndpoint(_reply) as srv:
        code, out = _synthesize(srv.base, tmp_path / "out")
    assert code == 0, out
    assert "1 specs for 1 tasks" in out and "(0 the writer failed" in out
    assert [s["authorization"] for s in srv.seen] == ["Bearer no-key"]


def test_api_key_is_sent_and_never_written(tmp_path: Path) -> None:
    key = "sk-test-0123456789abcdef"
    with FakeEndpoint(_reply) as srv:
        code, out = _synthesize(srv.base, tmp_path / "out", "--api-key", key)
    assert code == 0, out
    assert [s["authorization"] for s in srv.seen] == [f"Bearer {key}"]
    assert key not in out
    for p in (tmp_path / "out").rglob("*"):
        if p.is_file():
            assert key not in p.read_text(errors="replace"), p


def test_an_endpoint_that_wants_a_key_says_so(tmp_path: Path) -> None:
    with FakeEndpoint(_reply, fail_all=401) as srv:
        code, out = _synthesize(srv.base, tmp_path / "out")
    assert code == 2
    flat = " ".join(out.split())
    assert "authentication failed" in flat and "pass --api-key or set OPENAI_API_KEY" in flat
