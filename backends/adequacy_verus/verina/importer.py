"""Convert VERINA task folders into Verus task folders (docs/tasks.md).

One VERINA folder holds ``task.json`` (with the Lean ``signature``; older copies also have
``signature.json``), ``description.txt``, ``test.json`` (``input``, ``expected``, ``unexpected``)
and ``reject_inputs.json``. The four kinds of values route one-to-one into the four buckets.

By default a task converts only when every one of its values converts: silently dropping, say,
the one reject input whose number does not fit ``u64`` would make a weaker task look like the
original. ``strict=False`` keeps such tasks minus the failing cases and lists each dropped case.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adequacy.plugin import Bucket, Case, ImportReport, Problem, TaskOutcome, write_cases

from .lean_types import LeanType, LeanTypeError, parse_lean_type, schema_text
from .lean_values import LeanValueError, convert
from .skeleton_bridge import NoSkeleton, make_skeleton
from .statement import verus_statement

#: Cases of each completeness bucket shown to a spec writer; the rest are for evaluation.
VISIBLE_PER_BUCKET = 3
OUTPUT_FIELD = "result"
SOURCE = "VERINA (github.com/sunblaze-ucb/verina, datasets/verina, Apache-2.0)"

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class Refusal(Exception):
    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.problem = Problem(kind=kind, detail=detail)


@dataclass
class VerinaTask:
    """A VERINA task in memory, ready to write."""

    task_id: str
    fn_name: str
    inputs: list[tuple[str, str, LeanType]]  # (name, schema type text, Lean type)
    output: tuple[str, LeanType]
    skeleton: str
    statement: str
    upstream: str
    cases: dict[Bucket, list[Case]]
    dropped: list[Problem] = field(default_factory=list)
    every_input_valid: bool = False
    """The Lean precondition is ``True`` (and no reject input was given)."""


_PRECOND = re.compile(r"--\s*!benchmark\s+@start\s+precond\s*\n(.*?)--\s*!benchmark\s+@end\s+"
                      r"precond\b", re.S)


def lean_precondition_is_true(folder: Path) -> bool:
    """Whether task.lean's precondition block is exactly ``True`` (comments aside): VERINA's
    own statement that every input of the types is valid."""
    lean = folder / "task.lean"
    if not lean.is_file():
        return False
    m = _PRECOND.search(lean.read_text(encoding="utf-8", errors="replace"))
    if m is None:
        return False
    body = re.sub(r"--[^\n]*", "", re.sub(r"/-.*?-/", "", m.group(1), flags=re.S)).strip()
    return body == "True"


def is_task_folder(p: Path) -> bool:
    return (p / "test.json").is_file() and (
        (p / "task.json").is_file() or (p / "signature.json").is_file())


def _natural_key(p: Path) -> list[Any]:
    return [int(s) if s.isdigit() else s for s in re.split(r"(\d+)", p.name)]


def find_task_folders(src: Path) -> list[Path]:
    """``src`` may be one task folder or a folder of them (the dataset as downloaded)."""
    if is_task_folder(src):
        return [src]
    if not src.is_dir():
        return []
    return sorted((p for p in src.iterdir() if p.is_dir() and is_task_folder(p)),
                  key=_natural_key)


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise Refusal("bad task files", f"{path.name}: {e}") from None


def _signature(folder: Path) -> tuple[str, list[tuple[str, str]], str, str, str]:
    """(function name, [(param, Lean type)], Lean return type, task id, upstream note)."""
    meta: dict[str, Any] = {}
    sig: Any = None
    if (folder / "task.json").is_file():
        meta = _read_json(folder / "task.json")
        if not isinstance(meta, dict):
            raise Refusal("bad task files", "task.json is not an object")
        sig = meta.get("signature")
    if sig is None and (folder / "signature.json").is_file():
        sig = _read_json(folder / "signature.json")
    if not isinstance(sig, dict) or not isinstance(sig.get("parameters"), list):
        raise Refusal("bad task files", "no signature with a parameter list")
    params: list[tuple[str, str]] = []
    for p in sig["parameters"]:
        name = p.get("param_name", p.get("name")) if isinstance(p, dict) else None
        ty = p.get("param_type", p.get("type")) if isinstance(p, dict) else None
        if not isinstance(name, str) or not isinstance(ty, str):
            raise Refusal("bad task files", f"malformed parameter {p!r}")
        params.append((name, ty))
    ret = sig.get("return_type")
    if not isinstance(ret, str):
        raise Refusal("bad task files", "signature has no return_type")
    task_id = meta.get("id") if isinstance(meta.get("id"), str) else folder.name
    up = (meta.get("metadata") or {}).get("upstream") or {}
    upstream = ""
    if isinstance(up, dict) and up.get("name"):
        upstream = f"; upstream {up['name']}" + (f" {up['task_id']}" if up.get("task_id") else "")
    return str(sig.get("name") or task_id), params, ret, str(task_id), upstream


def _map_type(text: str, what: str) -> tuple[str, LeanType]:
    try:
        lt = parse_lean_type(text)
    except LeanTypeError as e:
        raise Refusal("unparsable Lean type", f"{what}: {e}") from None
    try:
        return schema_text(lt), lt
    except LeanTypeError as e:
        raise Refusal(f"unsupported type {e.what}", f"{what} ({text}): {e}") from None


def convert_task(folder: Path, strict: bool = True) -> VerinaTask:
    """Read and convert one VERINA folder; ``Refusal`` says why it cannot be converted."""
    fn_name, params, ret, task_id, upstream = _signature(folder)
    if not _IDENT.match(task_id):
        raise Refusal("bad task files", f"task id {task_id!r} is not a plain identifier")
    inputs: list[tuple[str, str, LeanType]] = []
    for name, ty in params:
        st, lt = _map_type(ty, f"parameter {name}")
        inputs.append((name, st, lt))
    if len({n for n, _, _ in inputs}) != len(inputs):
        raise Refusal("bad task files", "two parameters share a name")
    out_text, out_lt = _map_type(ret, "return type")
    try:
        skeleton = make_skeleton([(n, st) for n, st, _ in inputs], (OUTPUT_FIELD, out_text),
                                 fn_name)
    except NoSkeleton as e:
        raise Refusal("no Verus skeleton", str(e)) from None
    desc = folder / "description.txt"
    statement = verus_statement(desc.read_text(encoding="utf-8")) if desc.is_file() else ""
    tests = _read_json(folder / "test.json")
    rejects = _read_json(folder / "reject_inputs.json") if (
        folder / "reject_inputs.json").is_file() else []
    if not isinstance(tests, list) or not isinstance(rejects, list):
        raise Refusal("bad task files", "test.json and reject_inputs.json must be JSON arrays")
    names = [n for n, _, _ in inputs]
    dropped: list[Problem] = []

    def bad(kind: str, detail: str) -> None:
        if strict:
            raise Refusal(kind, detail)
        dropped.append(Problem(kind=kind, detail=detail))

    def conv_input(obj: Any, where: str) -> dict[str, Any] | None:
        raw = obj.get("input") if isinstance(obj, dict) else None
        if not isinstance(raw, dict) or set(raw) != set(names):
            bad("bad task files", f"{where}: input must name exactly {', '.join(names)}")
            return None
        out: dict[str, Any] = {}
        for name, _, lt in inputs:
            try:
                out[name] = convert(raw[name], lt)
            except LeanValueError as e:
                bad(_value_kind(str(e)), f"{where} input {name}: {e}")
                return None
        return out

    def conv_output(raw: Any, where: str) -> dict[str, Any] | None:
        try:
            return {OUTPUT_FIELD: convert(raw, out_lt)}
        except LeanValueError as e:
            bad(_value_kind(str(e)), f"{where}: {e}")
            return None

    cases: dict[Bucket, list[Case]] = {b: [] for b in Bucket}
    for i, t in enumerate(tests):
        where = f"test {i}"
        inp = conv_input(t, where)
        if inp is None:
            continue
        cases[Bucket.pre_complete].append(Case(id=f"t{i}", bucket=Bucket.pre_complete, input=inp))
        if "expected" not in t:
            bad("bad task files", f"{where}: no expected output")
            continue
        exp = conv_output(t["expected"], f"{where} expected")
        if exp is not None:
            cases[Bucket.post_complete].append(
                Case(id=f"t{i}", bucket=Bucket.post_complete, input=inp, output=exp))
        seen: list[Any] = []
        unexpected = t.get("unexpected") or []
        if not isinstance(unexpected, list):
            bad("bad task files", f"{where}: unexpected must be a list")
            continue
        for j, u in enumerate(unexpected):
            wrong = conv_output(u, f"{where} unexpected {j}")
            if wrong is None:
                continue
            if exp is not None and wrong == exp:
                bad("unexpected equals expected",
                    f"{where} unexpected {j}: {u!r} is the expected output")
                continue
            if wrong in seen:
                continue  # the same wrong output twice adds nothing but weight
            seen.append(wrong)
            cases[Bucket.post_sound].append(
                Case(id=f"t{i}_u{j}", bucket=Bucket.post_sound, input=inp, output=wrong))
    for i, r in enumerate(rejects):
        inp = conv_input(r, f"reject input {i}")
        if inp is not None:
            cases[Bucket.pre_sound].append(Case(id=f"r{i}", bucket=Bucket.pre_sound, input=inp))
    if not cases[Bucket.pre_complete] or not cases[Bucket.post_complete]:
        raise Refusal("no usable tests", "no test converted")
    for b in (Bucket.pre_complete, Bucket.post_complete):
        cases[b] = [c.model_copy(update={"visible": k < VISIBLE_PER_BUCKET})
                    for k, c in enumerate(cases[b])]
    total = not cases[Bucket.pre_sound] and lean_precondition_is_true(folder)
    return VerinaTask(task_id=task_id, fn_name=fn_name, inputs=inputs, output=(out_text, out_lt),
                     skeleton=skeleton, statement=statement, upstream=upstream, cases=cases,
                     dropped=dropped, every_input_valid=total)


def _value_kind(msg: str) -> str:
    if "out of range" in msg:
        return "value out of range"
    if "round trip" in msg:
        return "round trip failed"
    return "unparsable value"


def _toml_str(s: str) -> str:
    # JSON string syntax with ASCII escapes is valid TOML basic-string syntax
    return json.dumps(s, ensure_ascii=True)


def task_toml(c: VerinaTask) -> str:
    kind = c.task_id.split("_")[1] if c.task_id.count("_") >= 2 else ""
    sig_in = " ".join(f"({n} : {lt})" for n, _, lt in c.inputs)
    provenance = (f"{SOURCE}: task {c.task_id} (Lean function {c.fn_name}){c.upstream}. "
                  "Statement and tests imported unchanged; values converted from Lean text "
                  "(Int -> i64, Nat -> u64).")
    lines = [
        f"id = {_toml_str(c.task_id)}",
        'language = "verus"',
        f"title = {_toml_str(c.fn_name)}",
        f"provenance = {_toml_str(provenance)}",
        "tags = " + json.dumps(["verina"] + ([f"verina_{kind}"] if kind else [])),
    ]
    if kind in ("basic", "advanced"):
        lines.append(f"difficulty = {_toml_str(kind)}")
    if c.every_input_valid:
        lines += ["every_input_valid = true", 'every_input_valid_reason = "importer: the Lean '
                  'precondition of task.lean is True"']
    lines += ["", "[signature.input]"]
    lines += [f"{n} = {_toml_str(st)}" for n, st, _ in c.inputs]
    lines += ["", "[signature.output]", f"{OUTPUT_FIELD} = {_toml_str(c.output[0])}", "",
              "[verus]", f"lean_signature = {_toml_str(f'{c.fn_name} {sig_in} : {c.output[1]}')}",
              ""]
    return "\n".join(lines)


def write_task(c: VerinaTask, dest: Path) -> Path:
    """Write one converted task under ``dest``, replacing an earlier import of the same id but
    never a folder that is not a task (a mistyped DEST must not lose a user's files)."""
    folder = dest / c.task_id
    if folder.exists():
        if not (folder / "task.toml").is_file():
            raise Refusal("destination in the way", f"{folder} exists and is not a task folder")
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    (folder / "task.toml").write_text(task_toml(c), encoding="utf-8")
    (folder / "statement.md").write_text(c.statement, encoding="utf-8")
    for b, cs in c.cases.items():
        write_cases(folder, b, cs)
    (folder / "skeleton.rs").write_text(c.skeleton, encoding="utf-8")
    return folder


def import_verina(src: Path, dest: Path, *, strict: bool = True,
                  only: list[str] | None = None, **_options: Any) -> ImportReport:
    """The ``adequacy import verina SRC DEST`` importer.

    ``only`` restricts the import to the named task ids. A task that cannot be converted is
    recorded with its reason and nothing is written for it.
    """
    src, dest = Path(src), Path(dest)
    report = ImportReport(importer="verina", src=str(src), dest=str(dest))
    folders = find_task_folders(src)
    if not folders:
        report.outcomes.append(TaskOutcome(task_id=src.name, converted=False, problems=[Problem(
            kind="bad task files", detail=f"{src}: no VERINA task folders (with test.json and "
                                          "task.json) found")]))
        return report
    dest.mkdir(parents=True, exist_ok=True)
    for folder in folders:
        if only is not None and folder.name not in only:
            continue
        try:
            c = convert_task(folder, strict=strict)
        except Refusal as r:
            report.outcomes.append(TaskOutcome(task_id=folder.name, converted=False,
                                               problems=[r.problem]))
            continue
        try:
            out = write_task(c, dest)
        except Refusal as r:
            report.outcomes.append(TaskOutcome(task_id=c.task_id, converted=False,
                                               problems=[r.problem]))
            continue
        report.outcomes.append(TaskOutcome(
            task_id=c.task_id, converted=True, dest=str(out), problems=c.dropped,
            counts={b.value: len(cs) for b, cs in c.cases.items()}))
    return report
