"""Helpers for the KeY tests: tiny JML tasks written on the fly, and the skip condition."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from adequacy.examples import bundled_folder

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = bundled_folder("jml")

# the cross-check helpers live with the benchmarks that print the same table
sys.path.insert(0, str(REPO / "benchmarks"))
from jml_crosscheck import (  # noqa: E402
    bundled,
    cross_check,
    decided,
    problem,
    sgb_gold,
)

__all__ = ["EXAMPLES", "REPO", "bundled", "cross_check", "decided", "problem",
           "sgb_gold", "with_spec", "write_task"]



def write_task(root: Path, code: str, inputs: dict[str, str], output: str = "i32",
               cases: dict[str, list[dict[str, object]]] | None = None) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    sig_in = "\n".join(f'{k} = "{v}"' for k, v in inputs.items())
    (root / "task.toml").write_text(
        f'id = "t_{root.name}"\nlanguage = "jml"\n\n[signature.input]\n{sig_in}\n\n'
        f'[signature.output]\nresult = "{output}"\n\n[jml]\nclass = "Solution"\n'
        'method = "solve"\n')
    (root / "Solution.java").write_text(code)
    (root / "tests").mkdir(exist_ok=True)
    for bucket, rows in (cases or {}).items():
        (root / "tests" / f"{bucket}.jsonl").write_text(
            "".join(json.dumps(r) + "\n" for r in rows))
    return root


def with_spec(code: str, jml: str, before: str = "    public static") -> str:
    return code.replace(before, jml + "\n" + before, 1)
