"""An LM that cannot answer stops the command; it is never scored as the model's bad spec.

Every case goes over litellm's real HTTP path to the fake endpoint on 127.0.0.1 (or to an
address where nothing listens). Truths by hand: a refused connection is retried (3 tries by
default) and then stops the command; a 401 or a 404 "model not found" cannot get better and
stops it at the first request; each stop is exit 2 with one line on stderr and no jobs file,
program, judgement or rollout written. A 429 or 500 is retried; a 500 that lasts all 3 tries
stops the command. Two endpoints serving one model name are two caches' worth of answers.
"""

from __future__ import annotations

import pytest

pytest.importorskip("dspy", reason="needs the optimize extra: pip install -e '.[optimize]'")

import importlib  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import dspy  # noqa: E402
from dspy.clients.cache import Cache  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from adequacy.cli import app  # noqa: E402
from adequacy.examples import bundled_folder
from fake_endpoint import FakeEndpoint, fields, refused_base  # noqa: E402

from .conftest import gold  # noqa: E402

VERUS = bundled_folder("verus")
BSF = VERUS / "binary_search_first"
MODEL = "openai/served-model"


def _reply(prompt: str, i: int) -> str:
    return fields(spec=f"```rust\n{gold('verus', 'binary_search_first')}```")


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    """litellm's import (seconds, on the first LM call) is not what the time bounds measure.
    ``optimizers.lm`` first: it makes litellm use its bundled price table (no download)."""
    for name in ("adequacy_optimizers.lm", "litellm"):  # in this order
        importlib.import_module(name)


@pytest.fixture(autouse=True)
def _key_and_private_cache(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-key")
    # a private, memory-only answer cache: no test sees another's answers or ~/.dspy_cache
    monkeypatch.setattr(dspy, "cache", Cache(enable_disk_cache=False, enable_memory_cache=True,
                                             disk_cache_dir=None))


def _args(command: str, base: str, tmp: Path) -> list[str]:
    lm = ["--lm", MODEL, "--api-base", base, "--retry-wait", "0"]
    if command == "synthesize":
        return ["synthesize", str(BSF), "-o", str(tmp / "out"), "--writer", "dspy", *lm]
    if command == "optimize":
        return ["optimize", str(VERUS), "-o", str(tmp / "out"), "--split", "3/2/2",
                "--max-metric-calls", "4", *lm]
    if command == "judge":
        jobs = tmp / "jobs.jsonl"
        jobs.write_text(json.dumps({"task": str(BSF), "spec": str(BSF / "specs" / "gold.rs")})
                        + "\n")
        return ["judge", str(jobs), "-o", str(tmp / "out" / "judged.jsonl"), *lm]
    return ["agent", str(BSF), "-o", str(tmp / "out" / "rollouts.jsonl"), "--workdir",
            str(tmp / "work"), "--steps", "2", *lm]


def _results_written(command: str, tmp: Path) -> list[str]:
    """Files that would look like a result of ``command``."""
    names = {"synthesize": ["jobs.jsonl", "writes.jsonl"],
             "optimize": ["program.json", "table.md", "scores.json"],
             "judge": ["judged.jsonl"], "agent": ["rollouts.jsonl"]}[command]
    return [n for n in names if (tmp / "out" / n).exists()]


def _run(args: list[str]) -> tuple[object, float]:
    t0 = time.monotonic()
    res = CliRunner().invoke(app, args)
    return res, time.monotonic() - t0


def _one_line(res) -> str:
    """The one error line (GEPA's own log lines and progress bar may come before it)."""
    lines = [x[x.index("error: "):] for x in res.stderr.splitlines() if "error: " in x]
    assert len(lines) == 1, res.output
    assert lines[0].startswith(f"error: LM {MODEL} at "), lines[0]
    assert "Traceback" not in res.output
    return lines[0]


COMMANDS = ["synthesize", "optimize", "judge", "agent"]


@pytest.mark.parametrize("command", COMMANDS)
def test_endpoint_down_stops_with_exit_2(command, tmp_path):
    base = refused_base()
    res, seconds = _run(_args(command, base, tmp_path))
    assert res.exit_code == 2, res.output
    line = _one_line(res)
    assert f"at {base}: cannot connect after 3 tries" in line
    assert seconds < 10
    assert _results_written(command, tmp_path) == []


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(("status", "reason"), [(401, "authentication failed (HTTP 401)"),
                                                (404, "model not found (HTTP 404)")])
@pytest.mark.slow
def test_auth_and_unknown_model_stop_at_the_first_request(command, status, reason, tmp_path):
    with FakeEndpoint(_reply, fail_all=status) as srv:
        res, seconds = _run(_args(command, srv.base, tmp_path))
    assert res.exit_code == 2, res.output
    assert reason in _one_line(res)
    assert len(srv.seen) == 1  # not retried, and nothing after the breaker tripped
    assert seconds < 10
    assert _results_written(command, tmp_path) == []


def test_no_api_key_stops_synthesize(tmp_path, monkeypatch):
    # the provider's own endpoint (no --api-base) needs a key: stopped before any request.
    # A local --api-base needs none (tests/optimizers/test_api_key.py).
    monkeypatch.delenv("OPENAI_API_KEY")
    args = [a for a in _args("synthesize", "unused", tmp_path) if a not in ("--api-base",
                                                                            "unused")]
    res, _ = _run(args)
    assert res.exit_code == 2, res.output
    line = _one_line(res)
    assert "no API key" in line and "--api-key" in line
    assert _results_written("synthesize", tmp_path) == []


def test_a_lasting_server_error_is_tried_3_times_then_stops(tmp_path):
    with FakeEndpoint(_reply, fail_all=500) as srv:
        res, _ = _run(_args("synthesize", srv.base, tmp_path))
    assert res.exit_code == 2, res.output
    assert "server error (HTTP 500) after 3 tries" in _one_line(res)
    assert len(srv.seen) == 3


def test_a_passing_rate_limit_is_retried(tmp_path):
    with FakeEndpoint(_reply, fail_first=[429, 500]) as srv:
        res, _ = _run(_args("synthesize", srv.base, tmp_path))
    assert res.exit_code == 0, res.output
    assert len(srv.seen) == 3 and srv.answered == 1
    assert "(0 the writer failed to write)" in res.stdout


def test_the_cache_key_includes_the_endpoint(tmp_path):
    with FakeEndpoint(_reply) as a, FakeEndpoint(_reply) as b:
        for srv, out in ((a, "a"), (b, "b"), (a, "a2")):
            args = ["synthesize", str(BSF), "-o", str(tmp_path / out), "--writer", "dspy",
                    "--lm", MODEL, "--api-base", srv.base]
            res, _ = _run(args)
            assert res.exit_code == 0, res.output
    # same model name, same prompt: each endpoint answered once; the rerun at A was a hit
    assert len(a.seen) == 1 and len(b.seen) == 1


def test_gepa_refuses_an_empty_validation_split(tmp_path):
    tasks = [str(VERUS / n) for n in ("binary_search_first", "coprime_check")]
    with FakeEndpoint(_reply) as srv:
        res, _ = _run(["optimize", *tasks, "-o", str(tmp_path / "out"), "--lm", MODEL,
                       "--api-base", srv.base, "--max-metric-calls", "2"])
    assert res.exit_code == 2, res.output
    line = [x for x in res.stderr.splitlines() if x.strip()]
    assert len(line) == 1 and "the validation split is empty (2 tasks" in line[0]
    assert srv.seen == []  # refused before any LM call
    assert not (tmp_path / "out").exists()


def _tasks(tmp: Path, names: list[str]) -> Path:
    d = tmp / "tasks"
    d.mkdir()
    for n in names:
        (d / n).symlink_to(VERUS / n)
    return d


def test_one_refused_request_is_that_specs_writer_failing(tmp_path):
    # a statement a provider refuses must not stop the batch: that spec's writer failed
    tasks = _tasks(tmp_path, ["binary_search_first", "coprime_check"])
    with FakeEndpoint(_reply, fail_first=[400]) as srv:
        res, _ = _run(["synthesize", str(tasks), "-o", str(tmp_path / "out"), "--writer",
                       "dspy", "--lm", MODEL, "--api-base", srv.base, "--retry-wait", "0"])
    assert res.exit_code == 0, res.output
    assert len(srv.seen) == 2 and "(1 the writer failed to write)" in res.stdout
    jobs = [json.loads(x) for x in (tmp_path / "out" / "jobs.jsonl").read_text().splitlines()]
    assert [("writer_failed" in j) for j in jobs] == [True, False]


def test_an_endpoint_refusing_every_request_stops_after_3(tmp_path):
    tasks = _tasks(tmp_path, ["binary_search_first", "coprime_check", "count_in_range",
                              "euclid_mod"])
    with FakeEndpoint(_reply, fail_all=400) as srv:
        res, _ = _run(["synthesize", str(tasks), "-o", str(tmp_path / "out"), "--writer",
                       "dspy", "--lm", MODEL, "--api-base", srv.base, "--retry-wait", "0"])
    assert res.exit_code == 2, res.output
    assert "refused each of the first 3 requests" in _one_line(res)
    assert len(srv.seen) == 3 and _results_written("synthesize", tmp_path) == []


def test_without_validation_the_table_says_so(tmp_path):
    # --allow-no-validation: 2 tasks at the default split have no validation task; the table
    # must not claim a choice "on validation"
    from adequacy_optimizers.optimize import OptimizeOptions, optimize
    from scripted_lm import ScriptedLM

    from .conftest import example

    tasks = [example("verus", n) for n in ("binary_search_first", "coprime_check")]
    t_lm = ScriptedLM(lambda messages: {"spec": "no spec here"})
    r_lm = ScriptedLM(lambda messages: json.dumps({"new_instruction": "Write the spec."}))
    res = optimize(tasks, tmp_path / "run", t_lm, r_lm,
                   OptimizeOptions(max_metric_calls=2, allow_no_validation=True))
    assert res.splits.val == [] and not res.validated
    table = (tmp_path / "run" / "table.md").read_text()
    assert "chosen without validation: optimized (the validation split is empty)" in table
    assert "chosen on validation" not in table


def test_endpoint_down_stops_gepa_running_on_threads(tmp_path):
    # in DSPy's thread pool the stop must still cross the workers to the command
    args = _args("optimize", refused_base(), tmp_path) + ["--threads", "2"]
    res, _ = _run(args)
    assert res.exit_code == 2, res.output
    assert "cannot connect after 3 tries" in _one_line(res)
    assert _results_written("optimize", tmp_path) == []
