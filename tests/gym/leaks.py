"""Find hidden cases in text: every rendering we know of a case (JSON in several layouts, Verus
spec literals with and without type suffixes, Java argument lists), computed from the source
tasks independently of the gym's code.

A pre case leaks when a rendering of its input appears; a post case when renderings of its
input and of its output appear in the same text. A rendering that also belongs to something the
agent may legitimately see (a drawn visible case, a statement, a skeleton, a worked example's
gold spec) cannot be told apart and is excused.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adequacy.gym.manifest import read_manifest
from adequacy.model.task import Case, Task
from adequacy.taskdirs.load import load_task


def _json_forms(d: dict[str, Any]) -> set[str]:
    forms = {json.dumps(d), json.dumps(d, separators=(",", ":")), json.dumps(d, indent=2),
             json.dumps(d, sort_keys=True), json.dumps(d, ensure_ascii=False),
             json.dumps(d, indent=1)}
    return forms


def _plain_rust(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "seq![" + ", ".join(_plain_rust(e) for e in v) + "]"
    if isinstance(v, dict) and set(v) == {"some"}:
        return f"Some({_plain_rust(v['some'])})"
    if v is None:
        return "None"
    if isinstance(v, str):
        return json.dumps(v)
    return str(v)


def _java(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "{" + ", ".join(_java(e) for e in v) + "}"
    if v is None:
        return "null"
    if isinstance(v, str):
        return ("'" + v + "'") if len(v) == 1 else json.dumps(v)
    return str(v)


def _lang_forms(task: Task, values: dict[str, Any], struct: str) -> set[str]:
    forms: set[str] = set()
    names = list(values)
    if task.language == "verus":
        from adequacy_verus.render import struct_expr
        params = {p.name: p.type for p in (task.inputs if struct == "Input" else task.outputs)}
        with contextlib.suppress(Exception):  # a value this renderer cannot show
            forms.add(struct_expr(struct, [(n, values[n], params[n]) for n in names]))
        forms.add(f"{struct} {{ " + ", ".join(f"{n}: {_plain_rust(values[n])}" for n in names)
                  + " }")
    else:
        args = ", ".join(_java(values[n]) for n in names)
        if len(args) >= 6:
            forms.add(args)
    return forms


def renderings(task: Task, c: Case) -> tuple[set[str], set[str]]:
    """(input renderings, output renderings) of one case."""
    ins = _json_forms(c.input) | _lang_forms(task, c.input, "Input")
    outs = set() if c.output is None else (_json_forms(c.output)
                                          | _lang_forms(task, c.output, "Output"))
    return ins, outs


@dataclass
class Hidden:
    task_id: str
    case: str
    inputs: set[str]
    outputs: set[str] = field(default_factory=set)


def hidden_cases(gym: Path) -> list[Hidden]:
    """Every case of every source task not drawn as visible, with its renderings, minus the
    renderings of what is legitimately shown."""
    folders = [d for d in sorted(gym.iterdir()) if (d / "gym.json").is_file()]
    tasks: dict[str, Task] = {}
    shown_in: set[str] = set()
    shown_pairs: set[tuple[str, str]] = set()
    allowed_text: list[str] = []
    visible_ids: dict[str, set[str]] = {}
    for d in folders:
        m = read_manifest(d)
        t = load_task(Path(m.source))
        tasks[t.id] = t
        visible_ids[t.id] = set(m.visible)
        allowed_text += [t.statement, t.skeleton]
        for gold in (t.root / "specs").glob("gold.*"):
            allowed_text.append(gold.read_text(encoding="utf-8"))
    for d in folders:
        m = read_manifest(d)
        t = tasks[m.task_id]
        for c in t.all_cases():
            if c.key in visible_ids[t.id]:
                ins, outs = renderings(t, c)
                shown_in |= ins
                shown_pairs |= {(i, o) for i in ins for o in outs}
        if m.example_task and m.example_task not in tasks:
            pass
    blob = "\n".join(allowed_text)
    out: list[Hidden] = []
    for t in tasks.values():
        for c in t.all_cases():
            if c.key in visible_ids[t.id]:
                continue
            ins, outs = renderings(t, c)
            if c.output is None:
                ins = {i for i in ins if i not in shown_in and i not in blob}
            else:
                outs = {o for o in outs if o not in blob}
                if all((i, o) in shown_pairs for i in ins for o in outs):
                    continue
            out.append(Hidden(t.id, c.key, ins, outs))
    return out


def leaks_in(text: str, hidden: list[Hidden]) -> list[str]:
    """Which hidden cases ``text`` gives away."""
    found = []
    for h in hidden:
        if h.outputs:
            if any(_near(text, i, h.outputs) for i in h.inputs):
                found.append(f"{h.task_id}:{h.case}")
        elif any(i in text for i in h.inputs):
            found.append(f"{h.task_id}:{h.case}")
    return found


def _near(text: str, needle: str, outputs: set[str]) -> bool:
    """An output rendering right after an occurrence of the input (before the next input)."""
    start = text.find(needle)
    while start >= 0:
        end = start + len(needle)
        stop = text.find("input", end)
        window = text[end: min(end + 200, stop if stop >= 0 else len(text))]
        if any(o in window for o in outputs):
            return True
        start = text.find(needle, start + 1)
    return False


def scan_tree(root: Path, hidden: list[Hidden]) -> list[str]:
    found = []
    for p in sorted(root.rglob("*")):
        if p.is_file():
            text = p.read_text(encoding="utf-8", errors="replace")
            found += [f"{p}: {x}" for x in leaks_in(text, hidden)]
    return found
