"""``package convert --lm``: the round-trip failures reach the model and the loop stops at the
first program that converts every official test (a scripted LM, never a model's result).

The scripted LM answers first with an io.py whose printer forgets the line end (every text
then differs at its last byte), and with the right one only when its prompt quotes that
failure. So io.py is written only if the feedback loop works."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("dspy", reason="needs the optimize extra: pip install -e '.[optimize]'")
from adequacy.examples import bundled_folder
from adequacy_optimizers.package_convert import convert_package  # noqa: E402
from scripted_lm import ScriptedLM, prompt_text  # noqa: E402

ROOT = bundled_folder("packages") / "any_divisor"
RIGHT = (ROOT / "adequacy" / "io.py").read_text()
WRONG = RIGHT.replace("return f\"{value['n']}\\n\"", "return f\"{value['n']}\"").replace(
    "return f\"{value['result']}\\n\"", "return f\"{value['result']}\"")


def test_feedback_loop_writes_io_py(tmp_path: Path) -> None:
    assert WRONG != RIGHT
    pkg = tmp_path / "any_divisor"
    shutil.copytree(ROOT, pkg)
    (pkg / "adequacy" / "io.py").unlink()
    prompts: list[str] = []

    def respond(messages):
        text = prompt_text(messages)
        prompts.append(text)
        code = RIGHT if "does not round-trip" in text else WRONG
        return {"io_py": f"```python\n{code}```"}

    lm = ScriptedLM(respond)
    r = convert_package(pkg, lm, attempts=3)
    assert r.converted and len(r.attempts) == 2
    # the 7 inputs fail (their answers are not tried: an output is parsed with its input)
    assert len(r.attempts[0].failures) == 7
    assert "differs from t at byte 1" in r.attempts[0].failures[0]  # "6\n" vs "6"
    assert "end of text" in r.attempts[0].failures[0]
    assert (pkg / "adequacy" / "io.py").read_text() == RIGHT


def test_dropped_when_no_attempt_converts(tmp_path: Path) -> None:
    pkg = tmp_path / "any_divisor"
    shutil.copytree(ROOT, pkg)
    (pkg / "adequacy" / "io.py").unlink()
    lm = ScriptedLM(lambda m: {"io_py": f"```python\n{WRONG}```"})
    r = convert_package(pkg, lm, attempts=2)
    assert not r.converted and len(r.attempts) == 2 and r.written is None
    assert not (pkg / "adequacy" / "io.py").exists()


@pytest.mark.slow
def test_cli_over_http_writes_io_py_and_stops_when_the_endpoint_is_down(
        tmp_path: Path, monkeypatch) -> None:
    """``adequacy package convert --lm`` through litellm's real HTTP path to the local fake
    endpoint: the second reply (after the round-trip feedback) is written; a refused endpoint
    stops the command with exit 2 and writes nothing."""
    import dspy
    from dspy.clients.cache import Cache
    from typer.testing import CliRunner

    from adequacy.cli import app
    from fake_endpoint import FakeEndpoint, fields, refused_base

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-key")
    monkeypatch.setattr(dspy, "cache", Cache(enable_disk_cache=False, enable_memory_cache=True,
                                             disk_cache_dir=None))
    pkg = tmp_path / "any_divisor"
    shutil.copytree(ROOT, pkg)
    (pkg / "adequacy" / "io.py").unlink()

    def reply(prompt: str, i: int) -> str:
        code = RIGHT if "does not round-trip" in prompt else WRONG
        return fields(io_py=f"```python\n{code}```")

    with FakeEndpoint(reply) as srv:
        res = CliRunner().invoke(app, ["package", "convert", str(pkg), "--lm",
                                       "openai/served-model", "--api-base", srv.base,
                                       "--retry-wait", "0"])
    assert res.exit_code == 0, res.output
    assert "in attempt 2" in res.output and len(srv.seen) == 2
    assert (pkg / "adequacy" / "io.py").read_text() == RIGHT
    (pkg / "adequacy" / "io.py").unlink()
    res = CliRunner().invoke(app, ["package", "convert", str(pkg), "--lm",
                                   "openai/served-model", "--api-base", refused_base(),
                                   "--retry-wait", "0", "--tries", "1", "--no-cache"])
    assert res.exit_code == 2
    assert not (pkg / "adequacy" / "io.py").exists()
