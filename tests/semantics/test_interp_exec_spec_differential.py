"""Differential test: interp and exec_spec on generated preconditions agree on every case both
decide (fidelity rule 4), and both decide some (a differential that compares nothing proves
nothing).

Each spec is coprime_check's gold with ``pre_spec`` replaced by a generated expression over
the ``u32`` inputs: ``+ - * / %``, comparisons (chained ones included), ``&& || ! ==>`` and
literals, so the spec-level promotion to ``int``, Euclidean division, division by zero
(unknown for both) and chained comparisons are exercised. The generator is seeded: a failure
names its seed and prints the spec. Slow: each spec is one cargo build of the exec_spec
harness; skipped where exec_spec is unavailable (no cargo).
"""

from __future__ import annotations

import random
import re

import pytest

from adequacy.examples import bundled_folder
from adequacy.extensions import registry
from adequacy.taskdirs.load import load_task

pytestmark = pytest.mark.slow

TASK = bundled_folder("verus") / "coprime_check"
SEEDS = range(6)


def _int_expr(rng: random.Random, depth: int) -> str:
    if depth == 0 or rng.random() < 0.3:
        return rng.choice(["input.a", "input.b", str(rng.randint(0, 7)),
                           str(rng.choice([2**31, 2**32 - 1]))])
    op = rng.choice(["+", "-", "*", "/", "%"])
    return f"({_int_expr(rng, depth - 1)} {op} {_int_expr(rng, depth - 1)})"


def _bool_expr(rng: random.Random, depth: int) -> str:
    if depth == 0 or rng.random() < 0.3:
        if rng.random() < 0.25:
            return (f"({_int_expr(rng, 1)} <= {_int_expr(rng, 1)} < "
                    f"{_int_expr(rng, 1)})")  # a chained comparison
        cmp = rng.choice(["<", "<=", "==", "!=", ">", ">="])
        return f"({_int_expr(rng, 2)} {cmp} {_int_expr(rng, 2)})"
    k = rng.randrange(4)
    if k == 0:
        return f"!{_bool_expr(rng, depth - 1)}"
    op = ["&&", "||", "==>"][k - 1]
    return f"({_bool_expr(rng, depth - 1)} {op} {_bool_expr(rng, depth - 1)})"


def generated_spec(seed: int) -> str:
    gold = (TASK / "specs" / "gold.rs").read_text()
    body = _bool_expr(random.Random(seed), 3)
    spec, n = re.subn(r"(spec fn pre_spec\(input: Input\) -> bool \{\n).*?(\n\})",
                      lambda m: m.group(1) + "    " + body + m.group(2), gold, count=1,
                      flags=re.S)
    assert n == 1
    return spec


def _need_both() -> None:
    owner = registry.registry().owner("verus")
    have = {e.name for e, info in registry.registry().engine_infos(owner) if info.available}
    if not {"interp", "exec_spec"} <= have:
        pytest.skip(f"needs interp and exec_spec available (have {sorted(have)})")


@pytest.mark.parametrize("seed", SEEDS)
def test_interp_and_exec_spec_agree_on_generated_preconditions(seed: int) -> None:
    from adequacy.scoring.runner import score_spec

    _need_both()
    spec = generated_spec(seed)
    rep = score_spec(load_task(TASK), spec, "spec.rs", engines=["interp", "exec_spec"],
                     cross_check=True, cache=None)
    assert rep.status == "scored", (seed, rep.error or rep.invalid, spec)
    assert rep.disagreements == [], (seed, spec, rep.disagreements)
    decided = {e.name: e.decided for e in rep.engines}
    assert decided.get("interp", 0) > 0 and decided.get("exec_spec", 0) > 0, (seed, decided,
                                                                               spec)
