"""The spec writers on a third-party language: the toy backend (tests/fixtures/toy_backend)
gives every text, extraction and rendering, so the optimizers need no edit for it.

Truth worked out by hand from the toy task (``x`` a non-negative integer, ``result == x + 1``):
pre_complete x in {0, 1, 2, 5}, pre_sound x in {-1, -4}, post_complete (0,1) (3,4) (8,9),
post_sound (0,0) (3,5).
"""

from __future__ import annotations

import pytest

pytest.importorskip("dspy", reason="needs the optimize extra: pip install -e '.[optimize]'")

import json  # noqa: E402
from pathlib import Path  # noqa: E402

from adequacy.model.verdicts import Bucket  # noqa: E402
from adequacy.scoring.runner import score_spec  # noqa: E402
from adequacy.taskdirs.load import load_task  # noqa: E402
from adequacy_optimizers.dspy_writer import DSPyWriter  # noqa: E402
from adequacy_optimizers.extract import ExtractionError, spec_ext, spec_from_answer  # noqa: E402
from adequacy_optimizers.programs import signature_for, task_inputs  # noqa: E402
from adequacy_optimizers.synthesize import synthesize  # noqa: E402
from adequacy_optimizers.templates import TemplateWriter  # noqa: E402
from scripted_lm import ScriptedLM, prompt_text  # noqa: E402
from toy_support import GOLD, run_cli, toy_task_with_visible  # noqa: E402


@pytest.fixture
def task_dir(tmp_path: Path) -> Path:
    return toy_task_with_visible(tmp_path / "src" / "toy_succ")


def test_signature_and_inputs_come_from_the_backend(toy: None, task_dir: Path) -> None:
    sig = signature_for("toy")
    assert set(sig.input_fields) == {"statement", "skeleton", "samples"}
    assert "toy spec" in sig.instructions
    inputs = task_inputs(load_task(task_dir))
    assert inputs["skeleton"].startswith("pre:") and '"x": 0' in inputs["samples"]
    assert spec_ext("toy") == "toy"


def test_spec_from_answer_uses_the_backends_extraction(toy: None, task_dir: Path) -> None:
    task = load_task(task_dir)
    ans = "Sure! Here it is:\n```toy\npre: x >= 0\npost: result == x + 1\n```\nDone."
    assert spec_from_answer(task, ans) == GOLD
    with pytest.raises(ExtractionError, match="no `pre:` or `post:` line"):
        spec_from_answer(task, "I cannot do that.")


def test_templates_writer_on_toy(toy: None, task_dir: Path) -> None:
    """The template spec states only comparisons with x and constants: it passes both pre
    buckets and post_complete, and it cannot reject (3, 5): no conjunction of comparisons of
    result with x or a constant accepts (0,1), (3,4), (8,9) and rejects (3,5) but `result <= x
    + 1`, which is not a candidate (5 > 3, 5 >= 0, 5 != 3 all hold)."""
    task = load_task(task_dir)
    [w] = TemplateWriter().write(task)
    assert w.error is None and w.text is not None and "pre: x >= 0" in w.text
    rep = score_spec(task, w.text)
    assert rep.status == "scored"
    by = rep.buckets
    assert by[Bucket.pre_complete].passed == by[Bucket.pre_complete].total
    assert by[Bucket.pre_sound].passed == by[Bucket.pre_sound].total == 2
    assert by[Bucket.post_complete].passed == by[Bucket.post_complete].total == 3
    failed = [v.case_id for v in rep.verdicts if v.bucket == Bucket.post_sound and not v.passed]
    assert failed == ["w3"]


def test_scripted_dspy_writer_and_synthesize_on_toy(toy: None, task_dir: Path,
                                                     tmp_path: Path) -> None:
    seen: list[str] = []

    def answer(messages: list[dict[str, object]]) -> dict[str, str]:
        seen.append(prompt_text(messages))  # type: ignore[arg-type]
        return {"spec": f"```toy\n{GOLD}```"}

    summary = synthesize([task_dir.parent], tmp_path / "out", DSPyWriter(ScriptedLM(answer)))
    assert summary.failed == 0 and summary.specs == 1
    assert "toy spec" in seen[0] and "toy file to complete" in seen[0]
    [job] = [json.loads(ln) for ln in (tmp_path / "out" / "jobs.jsonl").read_text().splitlines()]
    assert job["spec"].endswith(".toy")
    text = (tmp_path / "out" / job["spec"]).read_text()
    assert text == GOLD and score_spec(load_task(task_dir), text).passed_all


@pytest.mark.slow
def test_synthesize_cli_with_templates_on_installed_toy(installed_toy: Path, task_dir: Path,
                                                         tmp_path: Path) -> None:
    proc = run_cli(["synthesize", str(task_dir.parent), "-o", str(tmp_path / "out"),
                    "--writer", "templates"], installed_toy)
    assert proc.returncode == 0, proc.stderr
    [job] = [json.loads(ln) for ln in (tmp_path / "out" / "jobs.jsonl").read_text().splitlines()]
    assert (tmp_path / "out" / job["spec"]).read_text().startswith("pre: x >= 0")
