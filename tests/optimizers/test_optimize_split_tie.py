"""``optimize`` prints the split it made, refuses a split the user asked for that leaves a
split empty, and on a tie on validation says so and keeps the seed.

The tie by hand: a task LM whose answers hold no spec makes every spec of the seed and of the
optimized program unwritten, so both score 0.0 on validation: nothing shows the optimized
program is better (before: "chosen on validation: optimized")."""

from __future__ import annotations

import pytest

pytest.importorskip("dspy", reason="needs the optimize extra: pip install -e '.[optimize]'")

import json  # noqa: E402
from pathlib import Path  # noqa: E402

from typer.testing import CliRunner  # noqa: E402

from adequacy.cli import app  # noqa: E402
from adequacy.examples import bundled_folder  # noqa: E402
from fake_endpoint import refused_base  # noqa: E402

from .conftest import example  # noqa: E402

VERUS = bundled_folder("verus")


def _optimize(tmp: Path, tasks: list[Path], split: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(app, ["optimize", *map(str, tasks), "-o", str(tmp / "out"),
                                 "--split", split, "--max-metric-calls", "2", "--lm",
                                 "openai/served-model", "--api-base", refused_base(),
                                 "--retry-wait", "0", "--tries", "1"],
                           env={"OPENAI_API_KEY": "sk-test-not-a-key"})
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r.exit_code, r.stdout, r.stderr


def test_the_split_is_printed_and_an_empty_asked_split_refused(tmp_path: Path) -> None:
    three = [VERUS / n for n in ("binary_search_first", "coprime_check", "euclid_mod")]
    code, out, err = _optimize(tmp_path / "a", three, "4/2/1")
    assert code == 2 and "--split 4/2/1 of 3 tasks leaves the test split empty" in err, err
    assert "train 2, validation 1, test 0" in err
    assert not (tmp_path / "a" / "out").exists()  # refused before anything ran
    # 7 tasks: the sizes asked for, said before the run (which then stops: no endpoint)
    code, out, err = _optimize(tmp_path / "b", [VERUS], "4/2/1")
    assert "split 4/2/1 of 7 tasks (seed 0): train 4, validation 2, test 1" in out, out + err
    assert code == 2 and "cannot connect" in err


def test_a_tie_on_validation_keeps_the_seed_and_says_so(tmp_path: Path) -> None:
    from adequacy_optimizers.optimize import OptimizeOptions, optimize
    from scripted_lm import ScriptedLM

    tasks = [example("verus", n) for n in ("binary_search_first", "coprime_check",
                                           "euclid_mod")]
    t_lm = ScriptedLM(lambda messages: {"spec": "no spec here"})
    r_lm = ScriptedLM(lambda messages: json.dumps({"new_instruction": "Write the spec."}))
    res = optimize(tasks, tmp_path / "run", t_lm, r_lm,
                   OptimizeOptions(max_metric_calls=2, proportions=(1, 1, 1)))
    assert res.seed_val is not None and res.optimized_val is not None
    assert res.seed_val.adequacy == res.optimized_val.adequacy == 0.0
    assert res.tie and res.chosen == "seed"
    table = (tmp_path / "run" / "table.md").read_text()
    assert "chosen on validation: seed (a tie: seed and optimized both 0.000" in table
