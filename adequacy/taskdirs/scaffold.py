"""A new task folder a person fills in: ``adequacy task new NAME [--lang L] [--input a=T]...``.

Every other ``new`` makes its folder; a task's folder holds five plain files whose names and
shapes are easy to get slightly wrong (a bucket file misspelt, a signature table misnamed), so
they are written here: ``task.toml`` (the signature given on the command line, or a commented
template when none is), ``statement.md``, the four empty bucket files, and the skeleton the
language's backend derives from the signature. Nothing that exists is overwritten, and a
failure leaves no half-made folder behind.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from pydantic import BaseModel

from adequacy.errors import AdequacyError, TypeSyntaxError
from adequacy.model.types import parse_type
from adequacy.model.verdicts import BUCKETS

_PARAM = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(.+)$")
_ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}")


class Scaffold(BaseModel):
    """What ``new_task`` wrote."""

    folder: str
    written: list[str]
    """Files written, relative to the folder, in the order written."""
    template: bool
    """The task.toml is a commented template (no signature given): fill it in, then run
    ``task new`` again for the skeleton."""
    skeleton_note: str = ""
    """Why no skeleton was written, where none was."""


def parse_params(specs: list[str], option: str) -> list[tuple[str, str]]:
    """``["a=i64", "xs=seq<i64>"]`` -> names and types, each type parsed (an error names the
    option and the text)."""
    out: list[tuple[str, str]] = []
    for s in specs:
        m = _PARAM.match(s.strip())
        if m is None:
            raise AdequacyError(f"{option} {s!r}: expected NAME=TYPE, e.g. {option} a=i64")
        name, typ = m.group(1), m.group(2).strip()
        try:
            parse_type(typ)
        except TypeSyntaxError as e:
            raise AdequacyError(f"{option} {s!r}: {e.message}") from None
        if any(n == name for n, _ in out):
            raise AdequacyError(f"{option} {name!r} given twice")
        out.append((name, typ))
    return out


def _toml_table(name: str, params: list[tuple[str, str]]) -> str:
    rows = "".join(f"{n} = {json.dumps(t)}\n" for n, t in params)
    return f"[{name}]\n{rows}"


def task_toml(task_id: str, language: str, inputs: list[tuple[str, str]],
              outputs: list[tuple[str, str]], title: str = "") -> str:
    """A task.toml with the given signature and the optional keys commented."""
    return (
        f"id = {json.dumps(task_id)}\n"
        f"language = {json.dumps(language)}\n"
        f"title = {json.dumps(title or task_id.replace('_', ' '))}\n"
        "# provenance = \"where the task comes from\"\n"
        "# tags = [\"arrays\"]\n"
        "# difficulty = \"easy\"\n"
        "# every_input_valid = true   # a total function: no input is invalid\n\n"
        "# argument name = type, in order (types: docs/tasks.md)\n"
        + _toml_table("signature.input", inputs) + "\n"
        "# output fields; an unnamed return value is `result`\n"
        + _toml_table("signature.output", outputs)
        + "\n# [constraints]              # stated input constraints, used by mutators\n"
        "# x = [0, 100]\n")


def template_toml(task_id: str, language: str, languages: list[str]) -> str:
    """A task.toml to fill in: every key explained, the signature tables empty."""
    return (
        "# A new task: fill in the signature, then run `adequacy task new "
        f"{task_id}` again to write\n# the skeleton it implies. Format: docs/tasks.md.\n"
        f"id = {json.dumps(task_id)}   # a name, not a path\n"
        f"language = {json.dumps(language)}   # installed: {', '.join(languages)}\n"
        f"title = {json.dumps(task_id.replace('_', ' '))}\n"
        "# provenance = \"where the task comes from\"\n"
        "# tags = [\"arrays\"]\n"
        "# difficulty = \"easy\"\n"
        "# every_input_valid = true   # a total function: no input is invalid\n\n"
        "[signature.input]            # argument name = type, in order, e.g.\n"
        "# a = \"seq<i64>\"\n# key = \"i64\"\n\n"
        "[signature.output]           # output fields; an unnamed return value is `result`\n"
        "# result = \"option<usize>\"\n\n"
        "# [structs.Point]            # named structs the types above use\n"
        "# x = \"i64\"\n\n"
        "# [constraints]              # stated input constraints, used by mutators\n"
        "# key = [0, 100]\n")


STATEMENT = ("# {title}\n\nWhat the function must do, in your own words: what a valid input is, "
             "and what the output must be for each valid input. Spec writers (people and "
             "models) read this.\n")


def new_task(folder: Path, language: str, languages: list[str],
             inputs: list[tuple[str, str]], outputs: list[tuple[str, str]],
             title: str = "") -> Scaffold:
    """Make ``folder`` a task: the files above, none overwritten. A signature writes the
    skeleton too (through the language's backend); none writes the commented template."""
    from adequacy.extensions import registry

    task_id = folder.name
    if not _ID.fullmatch(task_id) or ".." in task_id:
        raise AdequacyError(f"{folder}: the folder's name is the task's id and must be a name "
                            "([A-Za-z0-9_.-], at most 128 characters)")
    if (folder / "task.toml").exists():
        raise AdequacyError(f"{folder / 'task.toml'} exists: edit it (or remove it) to change "
                            "the signature")
    if folder.exists() and not folder.is_dir():
        raise AdequacyError(f"{folder}: exists and is not a folder")
    template = not inputs and not outputs
    if not template and not outputs:
        raise AdequacyError("give the output too: --output NAME=TYPE (a return value is "
                            "`result`, e.g. --output result=i64)")
    made_folder = not folder.exists()
    written: list[str] = []

    def put(rel: str, text: str) -> None:
        p = folder / rel
        if p.exists():
            return
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
        written.append(rel)

    try:
        folder.mkdir(parents=True, exist_ok=True)
        put("task.toml", template_toml(task_id, language, languages) if template
            else task_toml(task_id, language, inputs, outputs, title))
        put("statement.md", STATEMENT.format(title=title or task_id.replace("_", " ")))
        for b in BUCKETS:
            put(f"tests/{b.value}.jsonl", "")
        note = ""
        if not template:
            backend = registry.registry().owner(language)
            made = backend.new_skeleton(folder)
            if made is None:
                note = (f"write {folder / backend.task_files.skeleton} by hand (the "
                        f"{backend.name} backend writes no skeleton)")
            else:
                put(made[0], made[1])
    except BaseException:
        # nothing half made: the folder we created goes, files we wrote in another go
        if made_folder:
            shutil.rmtree(folder, ignore_errors=True)
        else:
            for rel in written:
                (folder / rel).unlink(missing_ok=True)
        raise
    return Scaffold(folder=str(folder), written=written, template=template, skeleton_note=note)


def example_case(inputs: list[tuple[str, str]], outputs: list[tuple[str, str]]) -> str:
    """One case line of the right shape, for the message after ``task new`` (values are
    placeholders of each type, not a claim about the task)."""
    def value(t: str) -> object:
        t = t.replace(" ", "")
        if t == "bool":
            return False
        if t in ("string", "char"):
            return "a"
        if t.startswith(("seq<", "array<", "list<", "set<", "multiset<", "map<")):
            return []
        if t.startswith("option<"):
            return None
        if t.startswith(("f32", "f64")):
            return 0.0
        return 0

    return json.dumps({"id": "c1", "input": {n: value(t) for n, t in inputs},
                       "output": {n: value(t) for n, t in outputs}})
