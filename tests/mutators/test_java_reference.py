"""The JML backend's run_reference as the output oracle of a Java task (needs a JDK)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from adequacy.errors import AdequacyError
from adequacy.examples import bundled_folder
from adequacy.extensions.registry import registry
from adequacy.taskdirs.load import load_task
from adequacy_mutators import mutate_task, params_key

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = bundled_folder("jml") / "swap_case"


@pytest.mark.slow
def test_java_reference_labels_swap_case_mutants(tmp_path: Path) -> None:
    if not EXAMPLE.is_dir():
        pytest.skip("examples/jml/swap_case is not present")
    backend = registry().backend_for("jml")
    if not callable(getattr(backend, "run_reference", None)):
        pytest.skip("the JML backend offers no run_reference")
    d = tmp_path / "swap_case"
    shutil.copytree(EXAMPLE, d)
    task = load_task(d)
    try:
        backend.run_reference(task, [{"s": "a"}])  # type: ignore[attr-defined]
    except AdequacyError as e:
        pytest.skip(f"JVM not usable here: {e}")
    rep = mutate_task(d, per_case=4, seed=0, inputs=False)
    assert "reference(backend)" in rep.output_oracles
    assert rep.post_sound_added > 0
    new = [json.loads(x) for x in (d / "tests" / "post_sound.jsonl").read_text().splitlines()
           if json.loads(x)["origin"] == "mutant"]
    refs = backend.run_reference(task, [c["input"] for c in new])  # type: ignore[attr-defined]
    for c, ref in zip(new, refs, strict=True):
        if ref is not None:  # the Java method's own answer differs from every mutant
            assert params_key(ref, task.outputs) != params_key(c["output"], task.outputs)
