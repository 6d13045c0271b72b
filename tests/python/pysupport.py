"""Building Python tasks in temporary folders and scoring specs on them (tests only)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from adequacy.plugin import Bucket, Case, Limits, Task, Verdict, load_task

EXAMPLES = Path(__file__).resolve().parents[2] / "backends" / "adequacy_python" / "examples"


def make_task(root: Path, inputs: dict[str, str], output: str = "bool",
              cases: dict[str, list[dict[str, Any]]] | None = None,
              function: str = "f", every_input_valid: bool = False) -> Task:
    """A task folder with the given signature; ``cases`` per bucket name (ids added)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "tests").mkdir(exist_ok=True)
    lines = [f'id = "{root.name}"', 'language = "python"']
    if every_input_valid:
        lines.append("every_input_valid = true")
    lines += ["[signature.input]", *[f'{k} = "{v}"' for k, v in inputs.items()],
              "[signature.output]", f'result = "{output}"', "[python]",
              f'function = "{function}"']
    (root / "task.toml").write_text("\n".join(lines) + "\n")
    params = ", ".join(inputs)
    (root / "skeleton.py").write_text(f"def {function}({params}):\n    \"\"\"Doc.\"\"\"\n")
    for b in Bucket:
        rows = (cases or {}).get(b.value, [])
        (root / "tests" / f"{b.value}.jsonl").write_text(
            "".join(json.dumps({"id": f"c{i}", **r}) + "\n" for i, r in enumerate(rows)))
    return load_task(root)


def loaded(task: Task, text: str, path: str = "spec.py") -> Any:
    from adequacy_python.plugin import PythonBackend

    return PythonBackend().load_spec(task, text, path)


def check(task: Task, text: str, cases: list[Case] | None = None,
          limits: Limits | None = None) -> list[Verdict]:
    from adequacy_python.engine import ExecEngine

    spec = loaded(task, text)
    return ExecEngine().check(spec, task, cases if cases is not None else task.all_cases(),
                              limits or Limits(case_seconds=3.0, memory_mb=512))


def pre_case(inp: dict[str, Any], cid: str = "p") -> Case:
    return Case(id=cid, bucket=Bucket.pre_complete, input=inp)


def post_case(inp: dict[str, Any], out: Any, cid: str = "q") -> Case:
    return Case(id=cid, bucket=Bucket.post_complete, input=inp, output={"result": out})
