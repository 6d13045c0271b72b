"""Tasks and cases on disk (docs/tasks.md).

```
<task>/task.toml      id, language, title, provenance, tags, difficulty,
                      [signature.input] name = "type", [signature.output] name = "type",
                      [structs.NAME] field = "type", [constraints] (free-form, for mutators),
                      [verus] / [jml] (backend-specific settings)
<task>/statement.md
<task>/<skeleton>      the file the language's backend declares (skeleton.rs, Solution.java)
<task>/tests/{pre_complete,pre_sound,post_complete,post_sound}.jsonl
<task>/reference/     optional
```
Loading collects every problem with file, line and field; ``load_task`` raises the first,
``check_task`` returns them all (``adequacy task validate`` prints them all).
"""

from __future__ import annotations

import difflib
import json
import re
import tomllib
from pathlib import Path
from typing import Any

from adequacy.errors import (
    InputError,
    JsonError,
    Located,
    TaskError,
    TypeSyntaxError,
    ValueTypeError,
)
from adequacy.extensions import registry
from adequacy.model.task import Case, Param, Task, TaskFiles
from adequacy.model.textfiles import parse_json, read_text
from adequacy.model.toml_lines import key_line
from adequacy.model.types import parse_type
from adequacy.model.values import MAX_INT_DIGITS, validate
from adequacy.model.verdicts import BUCKETS, Bucket

ORIGINS: tuple[str, ...] = ("official", "hack", "mutant", "generated", "sample", "explored",
                             "program_mutant", "blind_spot")
#: how many mutants one case may name in ``made_by``, and how long each name may be.
MADE_BY_MAX = 256
MADE_BY_LEN = 300
NOTE_LEN = 2000
TOP_KEYS = ("id", "language", "title", "provenance", "tags", "difficulty", "signature",
            "structs", "constraints", "every_input_valid", "every_input_valid_reason",
            "thin_invalid_domain", "thin_invalid_domain_reason")


def task_files(language: str) -> TaskFiles | None:
    """The task files the owner of ``language`` declares (``Registry.owner``); None without
    an installed backend of the language."""
    from adequacy.errors import BackendError

    try:
        return registry.registry().owner(language).task_files
    except BackendError:
        return None


_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}")


def _is_name(tid: str) -> bool:
    """Ids name folders (``gym make`` writes OUT/<id>, results are keyed by them): a path
    (``/abs``, ``../../x``) would let a task file choose where we write and delete."""
    return _NAME.fullmatch(tid) is not None and ".." not in tid


def _rel(task_dir: Path, p: Path) -> str:
    try:
        return str(p.relative_to(task_dir.parent))
    except ValueError:
        return str(p)


def _unknown(key: str, allowed: list[str] | tuple[str, ...] | set[str], where: str) -> str:
    """``unknown key 'clas' in [jml] (did you mean 'class'?)``."""
    near = difflib.get_close_matches(key, sorted(allowed), n=1, cutoff=0.6)
    hint = f" (did you mean {near[0]!r}?)" if near else (
        f" (allowed: {', '.join(sorted(allowed))})" if allowed else "")
    return f"unknown key {key!r}{' in ' + where if where else ''}{hint}"


def _read_header(task_dir: Path, errors: list[Located]) -> dict[str, Any] | None:
    path = task_dir / "task.toml"
    fname = _rel(task_dir, path)
    if not path.is_file():
        errors.append(TaskError("missing task.toml", file=fname))
        return None
    try:
        text = read_text(path, "task.toml")
    except InputError as e:
        errors.append(TaskError(e.message, file=fname, line=e.line))
        return None
    try:
        data = tomllib.loads(text)
    except RecursionError:
        errors.append(TaskError("TOML nested too deeply", file=fname))
        return None
    except ValueError as e:
        if isinstance(e, tomllib.TOMLDecodeError):
            _toml_syntax_error(e, fname, errors)
            return None
        # e.g. an integer beyond Python's digit limit (values.MAX_INT_DIGITS)
        why = str(e).split(";")[0]
        if "integer string conversion" in why:
            why = f"an integer has more than {MAX_INT_DIGITS} digits"
        errors.append(TaskError(f"TOML value refused: {why}", file=fname))
        return None
    data["__text__"] = text
    return data


def _toml_syntax_error(e: tomllib.TOMLDecodeError, fname: str, errors: list[Located]) -> None:
    # tomllib's message ends with "(at line L, column C)"
    msg = str(e)
    line = None
    if "at line " in msg:
        try:
            line = int(msg.split("at line ")[1].split(",")[0])
        except ValueError:
            line = None
    errors.append(TaskError(f"TOML syntax error: {msg}", file=fname, line=line))


def _parse_signature(
    task_dir: Path, head: dict[str, Any], errors: list[Located]
) -> tuple[list[Param], list[Param], dict[str, dict[str, str]]]:
    fname = _rel(task_dir, task_dir / "task.toml")
    text = head["__text__"]
    structs_raw = head.get("structs", {})
    structs: dict[str, dict[str, str]] = {}
    if not isinstance(structs_raw, dict):
        errors.append(TaskError("[structs] must be a table of tables", file=fname, field="structs"))
    else:
        for name, fields in structs_raw.items():
            if not isinstance(fields, dict) or not all(isinstance(v, str) for v in fields.values()):
                errors.append(TaskError("must map field names to type strings", file=fname,
                                        line=key_line(text, f"[structs.{name}]"),
                                        field=f"structs.{name}"))
                continue
            structs[name] = dict(fields)
    sig = head.get("signature")
    if not isinstance(sig, dict):
        errors.append(TaskError("missing [signature] table with input and output tables",
                                file=fname, field="signature"))
        return [], [], structs
    for k in sig:
        if k not in ("input", "output"):
            errors.append(TaskError(_unknown(k, ("input", "output"), "[signature]"), file=fname,
                                    line=key_line(text, f"[signature.{k}]")
                                    or key_line(text, k, "signature"),
                                    field=f"signature.{k}"))
    out: dict[str, list[Param]] = {"input": [], "output": []}
    for part in ("input", "output"):
        table = sig.get(part, {})
        if not isinstance(table, dict):
            errors.append(TaskError("must be a table of name = \"type\"", file=fname,
                                    field=f"signature.{part}"))
            continue
        for name, ty in table.items():
            where = f"signature.{part}.{name}"
            line = key_line(text, name, f"signature.{part}") or key_line(text, name)
            if not isinstance(ty, str):
                errors.append(TaskError(f"type must be a string, got {ty!r}", file=fname,
                                        line=line, field=where))
                continue
            try:
                out[part].append(Param(name=name, type=parse_type(ty, structs), type_text=ty))
            except TypeSyntaxError as e:
                errors.append(TaskError(e.message, file=fname, line=line, field=where))
            except RecursionError:
                errors.append(TaskError("type nested too deeply", file=fname, line=line,
                                        field=where))
    if not out["output"] and isinstance(sig.get("output"), dict):
        errors.append(TaskError("a task needs at least one output", file=fname,
                                field="signature.output"))
    return out["input"], out["output"], structs


def _read_cases(
    task_dir: Path, bucket: Bucket, inputs: list[Param], outputs: list[Param],
    errors: list[Located],
) -> list[Case]:
    path = task_dir / "tests" / f"{bucket.value}.jsonl"
    if not path.exists():
        return []
    fname = _rel(task_dir, path)
    try:
        text = read_text(path, "bucket file (JSON lines)")
    except InputError as e:
        errors.append(TaskError(e.message, file=fname, line=e.line))
        return []
    cases: list[Case] = []
    seen: dict[str, int] = {}
    in_types = {p.name: p.type for p in inputs}
    out_types = {p.name: p.type for p in outputs}
    # lines end at "\n" only: str.splitlines() would also cut at U+0085, U+2028 and the other
    # Unicode line breaks, which JSON strings may hold unescaped (a wrong output of a program
    # mutant, a string case of a dataset)
    for lineno, raw in enumerate(text.split("\n"), 1):
        raw = raw.removesuffix("\r")
        if not raw.strip():
            continue

        def err(msg: str, field: str | None = None, _l: int = lineno) -> None:
            errors.append(TaskError(msg, file=fname, line=_l, field=field))

        try:
            obj = parse_json(raw)
        except JsonError as e:
            err(str(e))
            continue
        if not isinstance(obj, dict):
            err("a case must be a JSON object")
            continue
        known = {"id", "input", "output", "origin", "seed", "visible", "made_by", "note"}
        unknown_keys = sorted(set(obj) - known)
        if unknown_keys:
            err(f"unknown key {unknown_keys[0]!r} (allowed: {', '.join(sorted(known))})",
                unknown_keys[0])
            continue
        cid = obj.get("id")
        if not isinstance(cid, (str, int)) or isinstance(cid, bool):
            err("missing or non-string id", "id")
            continue
        cid = str(cid)
        if cid in seen:
            err(f"duplicate case id {cid!r} (first on line {seen[cid]})", "id")
            continue
        seen[cid] = lineno
        origin = obj.get("origin", "official")
        if origin not in ORIGINS:
            err(f"origin must be one of {', '.join(ORIGINS)}, got {origin!r}", "origin")
            continue
        visible = obj.get("visible", False)
        if not isinstance(visible, bool):
            err("visible must be true or false", "visible")
            continue
        seed = obj.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            err("seed must be an integer (the generator seed of a generated case)", "seed")
            continue
        made_by = obj.get("made_by", [])
        if not isinstance(made_by, list) or len(made_by) > MADE_BY_MAX or not all(
                isinstance(m, str) and 0 < len(m) <= MADE_BY_LEN for m in made_by):
            err(f"made_by must be a list of at most {MADE_BY_MAX} mutant names (strings of "
                f"1 to {MADE_BY_LEN} characters)", "made_by")
            continue
        note = obj.get("note", "")
        if not isinstance(note, str) or len(note) > NOTE_LEN:
            err(f"note must be a string of at most {NOTE_LEN} characters", "note")
            continue
        ok = True
        inp = obj.get("input")
        if not isinstance(inp, dict):
            err("missing input object", "input")
            continue
        for name in inp:
            if name not in in_types:
                err(f"unknown argument {name!r} (signature has {', '.join(in_types) or 'none'})",
                    f"input.{name}")
                ok = False
        for name, ty in in_types.items():
            if name not in inp:
                err(f"missing argument {name!r}", f"input.{name}")
                ok = False
                continue
            try:
                validate(inp[name], ty, f"input.{name}")
            except ValueTypeError as e:
                err(e.message, e.field)
                ok = False
        out = obj.get("output")
        if bucket.predicate == "pre":
            if "output" in obj:
                err(f"a {bucket.value} case must not have an output (pre buckets test inputs "
                    "only)", "output")
                ok = False
        elif not isinstance(out, dict):
            err(f"a {bucket.value} case needs an output object", "output")
            ok = False
        else:
            for name in out:
                if name not in out_types:
                    err(f"unknown output field {name!r}", f"output.{name}")
                    ok = False
            for name, ty in out_types.items():
                if name not in out:
                    err(f"missing output field {name!r}", f"output.{name}")
                    ok = False
                    continue
                try:
                    validate(out[name], ty, f"output.{name}")
                except ValueTypeError as e:
                    err(e.message, e.field)
                    ok = False
        if ok:
            cases.append(Case(id=cid, bucket=bucket, input=inp,
                              output=out if bucket.predicate == "post" else None,
                              origin=origin, seed=seed, visible=visible,
                              made_by=tuple(made_by), note=note, line=lineno))
    return cases


def _check_skeleton(task_dir: Path, language: str, files: TaskFiles,
                    errors: list[Located]) -> None:
    path = task_dir / files.skeleton
    fname = _rel(task_dir, path)
    if not path.is_file():
        errors.append(TaskError(f"missing {files.skeleton} (a {language} task needs it)",
                                file=fname))
        return
    try:
        text = read_text(path, files.skeleton)
    except InputError as e:
        errors.append(TaskError(e.message, file=fname, line=e.line))
        return
    if not text.strip():
        errors.append(TaskError(f"{files.skeleton} is empty ({files.empty_skeleton})",
                                file=fname))


def _check_tests_folder(task_dir: Path, errors: list[Located]) -> None:
    """A task needs ``tests/``; a file there that is not one of the four buckets is a typo
    (``pre_sond.jsonl``) whose cases would silently not count."""
    tests = task_dir / "tests"
    fname = _rel(task_dir, tests)
    if not tests.is_dir():
        errors.append(TaskError("missing tests/ folder (it holds the bucket files "
                                + ", ".join(f"{b.value}.jsonl" for b in BUCKETS) + ")",
                                file=fname))
        return
    names = [f"{b.value}.jsonl" for b in BUCKETS]
    for p in sorted(tests.iterdir()):
        if p.name in names:
            if not p.is_file():
                errors.append(TaskError("is a folder, expected a JSON-lines file",
                                        file=_rel(task_dir, p)))
            continue
        if p.name.startswith(".") or p.name.endswith(".tmp"):
            continue
        near = difflib.get_close_matches(p.name, names, n=1, cutoff=0.6)
        hint = (f"did you mean {near[0]!r}?" if near else
                f"bucket files are {', '.join(names)}")
        errors.append(TaskError(f"not a bucket file ({hint})", file=_rel(task_dir, p)))


def check_task(path: str | Path) -> tuple[Task | None, list[Located]]:
    """Load a task, collecting every problem; the task is None when any error was found."""
    task_dir = Path(path)
    errors: list[Located] = []
    if not task_dir.is_dir():
        return None, [TaskError("not a task folder (expected a directory with task.toml)",
                                file=str(task_dir))]
    head = _read_header(task_dir, errors)
    if head is None:
        return None, errors
    fname = _rel(task_dir, task_dir / "task.toml")
    text = head["__text__"]

    def field(name: str, kind: type, default: Any = None, required: bool = False) -> Any:
        if name not in head:
            if required:
                errors.append(TaskError(f"missing required key {name!r}", file=fname, field=name))
            return default
        v = head[name]
        if not isinstance(v, kind):
            errors.append(TaskError(f"must be {kind.__name__}, got {v!r}", file=fname,
                                    line=key_line(text, name), field=name))
            return default
        return v

    tid = field("id", str, "", required=True)
    if tid and not _is_name(tid):
        errors.append(TaskError(f"id must be a name (letters, digits, '_', '-', '.'; no '/', "
                                f"no '..', at most 128 characters), got {tid[:80]!r}",
                                file=fname, line=key_line(text, "id"), field="id"))
    language = field("language", str, "", required=True)
    if language and not language.replace("_", "").isalnum():
        errors.append(TaskError(f"language must be a name (letters, digits, "
                                f"underscores), got {language!r}", file=fname,
                                line=key_line(text, "language"), field="language"))
    allowed = {*TOP_KEYS, language}
    for k in head:
        if k not in allowed and k != "__text__":
            errors.append(TaskError(_unknown(k, allowed, ""), file=fname,
                                    line=key_line(text, f"[{k}]") or key_line(text, k),
                                    field=k))
    table = head.get(language)
    files = task_files(language) if language else None
    if files is not None and table is not None:
        if not isinstance(table, dict):
            errors.append(TaskError(f"[{language}] must be a table", file=fname, field=language))
        else:
            for k in table:
                if k not in files.settings:
                    errors.append(TaskError(_unknown(k, files.settings, f"[{language}]"),
                                            file=fname, line=key_line(text, k, language),
                                            field=f"{language}.{k}"))
    inputs, outputs, structs = _parse_signature(task_dir, head, errors)
    statement = ""
    statement_path = task_dir / "statement.md"
    if statement_path.exists():
        try:
            statement = read_text(statement_path, "statement")
        except InputError as e:
            errors.append(TaskError(e.message, file=_rel(task_dir, statement_path), line=e.line))
    if files is not None:
        _check_skeleton(task_dir, language, files, errors)
    _check_tests_folder(task_dir, errors)
    cases = {b: _read_cases(task_dir, b, inputs, outputs, errors) for b in BUCKETS}
    every_input_valid = field("every_input_valid", bool, False)
    if every_input_valid and cases[Bucket.pre_sound]:
        errors.append(TaskError("every_input_valid = true, yet tests/pre_sound.jsonl has invalid "
                                "inputs (remove one or the other)", file=fname,
                                line=key_line(text, "every_input_valid"),
                                field="every_input_valid"))
    tags = field("tags", list, [])
    if not all(isinstance(t, str) for t in tags):
        errors.append(TaskError("tags must be a list of strings", file=fname,
                                line=key_line(text, "tags"), field="tags"))
    if errors:
        return None, errors
    thin = field("thin_invalid_domain", bool, False)
    if thin and every_input_valid:
        errors.append(TaskError("thin_invalid_domain = true, yet every_input_valid = true (a "
                                "task with no invalid input has no invalid domain to be thin)",
                                file=fname, line=key_line(text, "thin_invalid_domain"),
                                field="thin_invalid_domain"))
        return None, errors
    task = Task(every_input_valid=every_input_valid,
        every_input_valid_reason=field("every_input_valid_reason", str, ""),
        thin_invalid_domain=thin,
        thin_invalid_domain_reason=field("thin_invalid_domain_reason", str, ""),
        id=tid, language=language, title=field("title", str, ""),
        provenance=field("provenance", str, ""), tags=tags,
        difficulty=field("difficulty", str, None), inputs=inputs, outputs=outputs,
        structs=structs, constraints=field("constraints", dict, {}),
        settings=head.get(language, {}) if isinstance(head.get(language, {}), dict) else {},
        statement=statement, root=task_dir.resolve(), cases=cases, files=files,
    )
    if errors:
        return None, errors
    return task, []


def load_task(path: str | Path) -> Task:
    """Load a task or raise the first problem found (as a ``TaskError`` with file and line)."""
    task, errors = check_task(path)
    if errors:
        first = errors[0]
        if isinstance(first, TaskError):
            raise first
        raise TaskError(first.message, first.file, first.line, first.field)
    assert task is not None
    return task


def write_cases(task_dir: Path, bucket: Bucket, cases: list[Case]) -> None:
    """Write a bucket's JSONL file (whole file, atomically), as importers and mutators do."""
    path = task_dir / "tests" / f"{bucket.value}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".jsonl.tmp")
    with tmp.open("w", encoding="utf-8") as f:
        for c in cases:
            obj: dict[str, Any] = {"id": c.id, "input": c.input}
            if bucket.predicate == "post":
                obj["output"] = c.output
            obj["origin"] = c.origin
            if c.seed is not None:
                obj["seed"] = c.seed
            obj["visible"] = c.visible
            if c.made_by:
                obj["made_by"] = list(c.made_by)
            if c.note:
                obj["note"] = c.note
            f.write(json.dumps(obj, ensure_ascii=False) + "\n")
    tmp.replace(path)


__all__ = ["Case", "ORIGINS", "Param", "Task", "TaskFiles", "check_task", "load_task",
           "task_files", "write_cases"]


def read_signature(task_dir: str | Path) -> tuple[dict[str, Any], list[Param], list[Param]]:
    """(task.toml's table, inputs, outputs) of a task whose other files may not exist yet
    (``adequacy task new`` writes a skeleton from them), checked as ``load_task`` checks them;
    the first problem is raised as a ``TaskError`` with file, line and field."""
    root = Path(task_dir)
    errors: list[Located] = []
    head = _read_header(root, errors)
    inputs: list[Param] = []
    outputs: list[Param] = []
    if head is not None:
        inputs, outputs, _ = _parse_signature(root, head, errors)
    if errors or head is None:
        first = errors[0] if errors else TaskError("missing task.toml", file=str(root))
        raise TaskError(first.message, first.file, first.line, first.field)
    return head, inputs, outputs
