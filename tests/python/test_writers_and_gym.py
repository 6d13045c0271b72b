"""The spec writers and the gym on Python tasks: every text, extraction and rendering comes
from the Python backend (no edit to the optimizers or the gym). Truth from the clamp example
(tests/python/pysupport.EXAMPLES): its gold spec passes all 19 cases."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from adequacy.plugin import Bucket, ExtractionError, load_task

from .pysupport import EXAMPLES

pytest.importorskip("dspy", reason="needs the optimize extra: pip install -e '.[optimize]'")

GOLD = (EXAMPLES / "clamp" / "specs" / "gold.py").read_text()


@pytest.fixture
def clamp(tmp_path: Path) -> Path:
    dest = tmp_path / "src" / "clamp"
    shutil.copytree(EXAMPLES / "clamp", dest)
    shutil.rmtree(dest / "specs")
    return dest


def test_the_writers_texts_come_from_the_backend() -> None:
    from adequacy_optimizers.extract import spec_ext
    from adequacy_optimizers.programs import signature_for

    sig = signature_for("python")
    assert "Python specification" in sig.instructions and spec_ext("python") == "py"


def test_spec_from_answer(clamp: Path) -> None:
    from adequacy_optimizers.extract import spec_from_answer

    task = load_task(clamp)
    answer = f"Here is the spec.\n```python\n{GOLD}```\nIt clamps."
    assert spec_from_answer(task, answer) == GOLD
    with pytest.raises(ExtractionError, match="no `def pre`"):
        spec_from_answer(task, "```python\nx = 1\n```")


@pytest.mark.slow
def test_the_template_writer_is_a_floor(clamp: Path) -> None:
    """The template spec states schema comparisons true on the visible valid cases (c0, c1:
    x=5 and x=-3 in [0, 10], results 5 and 0): it accepts those, overfits the rest (c2, x=12,
    result 10, breaks `result >= x`) and passes nothing whole: a floor."""
    from adequacy.scoring.runner import score_spec
    from adequacy_optimizers.templates import TemplateWriter

    task = load_task(clamp)
    [w] = TemplateWriter().write(task)
    assert w.error is None and w.text is not None and "def post" in w.text, w
    rep = score_spec(task, w.text)
    assert rep.status == "scored", rep
    visible = [v for v in rep.verdicts if v.case_id in ("c0", "c1")
               and v.bucket in (Bucket.pre_complete, Bucket.post_complete)]
    assert len(visible) == 4 and all(v.passed for v in visible)
    assert not any(v.passed for v in rep.verdicts
                   if v.bucket == Bucket.post_complete and v.case_id == "c2")
    assert not rep.passed_all


@pytest.mark.slow
def test_a_scripted_writer_through_synthesize(clamp: Path, tmp_path: Path) -> None:
    from adequacy.scoring.runner import score_spec
    from adequacy_optimizers.dspy_writer import DSPyWriter
    from adequacy_optimizers.synthesize import synthesize
    from scripted_lm import ScriptedLM, prompt_text

    seen: list[str] = []

    def answer(messages: list[dict[str, object]]) -> dict[str, str]:
        seen.append(prompt_text(messages))  # type: ignore[arg-type]
        return {"spec": f"```python\n{GOLD}```"}

    summary = synthesize([clamp.parent], tmp_path / "out", DSPyWriter(ScriptedLM(answer)))
    assert summary.failed == 0 and summary.specs == 1
    assert "Python specification" in seen[0] and "def pre" in seen[0]
    [job] = [json.loads(ln) for ln in (tmp_path / "out" / "jobs.jsonl").read_text().splitlines()]
    text = (tmp_path / "out" / job["spec"]).read_text()
    assert job["spec"].endswith(".py") and score_spec(load_task(clamp), text).passed_all


def _cli(args: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "adequacy", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=300)


@pytest.mark.slow
def test_gym_make_check_submit(clamp: Path, tmp_path: Path) -> None:
    out = tmp_path / "gym"
    r = _cli(["gym", "make", str(clamp.parent), str(out), "--visible", "2"])
    assert r.returncode == 0, r.stderr
    folder = out / "python_clamp"
    assert "Python specification" in (folder / "INSTRUCTIONS.md").read_text()
    assert (folder / "example" / "spec.py").is_file()  # the backend's gym worked example
    assert "caller promises" in (folder / "example" / "statement.md").read_text()
    (folder / "spec.py").write_text(GOLD)
    r = _cli(["check"], cwd=folder)
    assert r.returncode == 0 and "2 of 2 visible cases passed" in r.stdout, r.stdout + r.stderr
    r = _cli(["submit", str(folder)])
    assert r.returncode == 0 and "post_sound 6/6" in r.stdout, r.stdout + r.stderr


@pytest.mark.slow
def test_mcp_tools(clamp: Path, tmp_path: Path) -> None:
    pytest.importorskip("mcp", reason="the MCP server needs the gym extra")
    import anyio

    from adequacy.gym import make_gym
    from adequacy.gym.mcp_server import build_server

    make_gym([clamp.parent], tmp_path / "gym", visible=2, seed=0, examples=[EXAMPLES])
    server = build_server(tmp_path / "gym")
    weak = "def pre(x, lo, hi):\n    return lo <= hi\n"

    async def session() -> dict[str, str]:
        out = {}
        for tool, args in (("read_file", {"task_id": "python_clamp",
                                          "path": "LANGUAGE_NOTES.md"}),
                           ("check", {"task_id": "python_clamp", "spec": weak}),
                           ("submit", {"task_id": "python_clamp", "spec": weak})):
            res = await server.call_tool(tool, args)
            out[tool] = "\n".join(getattr(c, "text", "") for c in res.content)
        return out

    out = anyio.run(session)
    assert "Python language notes" in out["read_file"]
    assert "2 of 2 visible cases passed" in out["check"]
    assert "post_sound 0/6" in out["submit"] and "PASS: no" in out["submit"], out["submit"]
