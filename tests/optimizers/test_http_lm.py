"""Once through litellm's real HTTP path: the fake OpenAI-compatible server on 127.0.0.1.

The server answers binary_search_first with its gold spec in DSPy's chat format and every other
task with prose (no spec), reports token usage, and fails the very first request with HTTP 503
so that the retry path runs. What this shows: model strings, --api-base, retries, extraction,
token accounting and the jobs file work end to end over HTTP; nothing about any real model.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from adequacy.batch.pool import BatchOptions, jobs_from_file, run_batch
from adequacy.cli import app
from adequacy.examples import bundled_folder
from fake_endpoint import FakeEndpoint, fields

from .conftest import gold

GOLD = gold("verus", "binary_search_first")


def _reply(prompt: str, i: int) -> str:
    if "// First occurrence in a sorted sequence" in prompt:
        return fields(spec=f"```rust\n{GOLD}```")
    return fields(spec="I am not sure how to write this one.")


@pytest.fixture
def server():
    with FakeEndpoint(_reply, fail_first=[503]) as lm:
        yield lm


@pytest.mark.slow
def test_synthesize_over_http_with_retry(server, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-key")
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    for name in ("binary_search_first", "coprime_check"):
        (tasks / name).symlink_to(bundled_folder("verus") / name)
    res = CliRunner().invoke(app, ["synthesize", str(tasks), "-o", str(tmp_path / "out"),
                                   "--writer", "dspy", "--lm", "openai/local-model",
                                   "--api-base", server.base, "--no-cache", "--tries", "2",
                                   "--retry-wait", "0"])
    assert res.exit_code == 0, res.output
    assert "2 specs for 2 tasks" in res.output and "1 the writer failed to write" in res.output
    assert len(server.seen) == 3  # the 503 was retried once
    assert all(s["path"].endswith("/chat/completions") for s in server.seen)
    assert {s["model"] for s in server.seen} == {"local-model"}
    writes = [json.loads(x) for x in (tmp_path / "out" / "writes.jsonl").read_text().splitlines()]
    ok = next(w for w in writes if w["task_id"] == "binary_search_first")
    bad = next(w for w in writes if w["task_id"] == "coprime_check")
    assert ok["usage"]["prompt_tokens"] == 100 and ok["usage"]["completion_tokens"] == 20
    assert ok["text"] is not None and bad["text"] is None and "unparseable" in bad["error"]
    summary = run_batch(jobs_from_file(tmp_path / "out" / "jobs.jsonl"),
                        tmp_path / "results.jsonl", BatchOptions(), workers=1, progress=False)
    # the answer without a spec is the writer's failure, not an invalid spec
    assert summary.passed_all == 1 and summary.invalid == 0 and summary.writer_failed == 1
    assert "writer failed 1" in summary.footer(tmp_path / "results.jsonl")
    again = run_batch(jobs_from_file(tmp_path / "out" / "jobs.jsonl"),
                      tmp_path / "results.jsonl", BatchOptions(), workers=1, progress=False)
    assert again.computed == 0 and again.skipped_done == 2 and again.writer_failed == 1
    lines = (tmp_path / "results.jsonl").read_text().splitlines()
    assert sorted(json.loads(x)["report"]["status"] for x in lines) == ["scored", "writer failed"]
