"""Writing a Python task folder (``task from`` and the HumanEval importer share it)."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adequacy.plugin import Bucket, Case, TaskError, write_cases

from .reference import REFERENCE_FILE


def toml_str(s: str) -> str:
    """A TOML basic string (a JSON string is one)."""
    return json.dumps(s, ensure_ascii=False)


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return json.dumps(v)
    if isinstance(v, str):
        return toml_str(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"no TOML form for {v!r}")


@dataclass
class NewTask:
    id: str
    title: str
    provenance: str
    function: str
    inputs: list[tuple[str, str]]
    """(name, type text) in order."""
    outputs: list[tuple[str, str]]
    statement: str
    skeleton: str
    reference: str
    cases: dict[Bucket, list[Case]] = field(default_factory=dict)
    tags: list[str] = field(default_factory=list)
    every_input_valid: bool = False
    every_input_valid_reason: str = ""
    constraints: dict[str, Any] = field(default_factory=dict)
    validator: str | None = None
    """``reference/validator.py`` (``valid(input) -> bool``): which inputs are valid."""
    checker: str | None = None
    """``reference/checker.py`` (``check(input, output) -> bool``): which outputs are right,
    for a function with several right outputs (``unique_output = false``)."""
    specs: dict[str, str] = field(default_factory=dict)
    """``specs/<name>`` files."""

    def toml(self) -> str:
        lines = [f"id = {toml_str(self.id)}", 'language = "python"',
                 f"title = {toml_str(self.title)}", f"provenance = {toml_str(self.provenance)}"]
        if self.tags:
            lines.append(f"tags = {_toml_value(self.tags)}")
        if self.every_input_valid:
            lines.append("every_input_valid = true")
            if self.every_input_valid_reason:
                lines.append(f"every_input_valid_reason = "
                             f"{toml_str(self.every_input_valid_reason)}")
        lines += ["", "[signature.input]"]
        lines += [f"{n} = {toml_str(t)}" for n, t in self.inputs]
        lines += ["", "[signature.output]"]
        lines += [f"{n} = {toml_str(t)}" for n, t in self.outputs]
        if self.constraints:
            lines += ["", "[constraints]"]
            lines += [f"{toml_str(k)} = {_toml_value(v)}" for k, v in self.constraints.items()]
        lines += ["", "[python]", f"function = {toml_str(self.function)}", ""]
        return "\n".join(lines)


def write_task(dest: Path, t: NewTask) -> None:
    """Write ``t`` at ``dest``, replacing an earlier task folder there but never a folder that
    is not a task (a mistyped DEST must not lose a user's files)."""
    if dest.is_symlink() or (dest.exists() and not (dest / "task.toml").is_file()):
        raise TaskError(f"{dest} exists and is not a task folder: not replacing it",
                        file=str(dest))
    if dest.exists():
        shutil.rmtree(dest)
    (dest / "tests").mkdir(parents=True)
    (dest / "reference").mkdir()
    (dest / "task.toml").write_text(t.toml(), encoding="utf-8")
    (dest / "statement.md").write_text(t.statement.strip() + "\n", encoding="utf-8")
    (dest / "skeleton.py").write_text(t.skeleton, encoding="utf-8")
    (dest / "reference" / REFERENCE_FILE).write_text(t.reference, encoding="utf-8")
    if t.validator is not None:
        (dest / "reference" / "validator.py").write_text(t.validator, encoding="utf-8")
    if t.checker is not None:
        (dest / "reference" / "checker.py").write_text(t.checker, encoding="utf-8")
    for b in Bucket:
        write_cases(dest, b, t.cases.get(b, []))
    if t.specs:
        (dest / "specs").mkdir()
        for name, text in t.specs.items():
            (dest / "specs" / name).write_text(text, encoding="utf-8")
