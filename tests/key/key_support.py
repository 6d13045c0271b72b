"""Helpers for the KeY tests: tiny JML tasks written on the fly, and the skip condition."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adequacy.backends.key import build

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "jml"


def requires_key() -> pytest.MarkDecorator:
    """KeY tests need Java 17+ and the worker jar (CI runs ``adequacy setup`` first)."""
    return pytest.mark.skipif(build.why_unavailable() is not None,
                              reason=f"key engine unavailable: {build.why_unavailable()}")


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
