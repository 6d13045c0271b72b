"""Import Spec-Harness records (SpecGenBench, FormalBench) as JML task folders.

A record holds the Java method (``code``), a Scanner harness (``test_code``) and raw-text pairs
(``test_inputs`` as "official", ``generated_test_cases`` as "generated"). Each pair is typed
through the record's own harness (see ``harness.py``) and kept only if it round-trips; inputs go
to pre_complete, (input, output) to post_complete. Nothing of the data is bundled: users pass
their own download, and the provenance names the artifact and its GPL-3.0 licence.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from adequacy.plugin import (
    AdequacyError,
    Bucket,
    Case,
    DatasetError,
    ImportReport,
    Problem,
    SeqType,
    TaskError,
    Type,
    load_task,
    reason_kind,
    write_cases,
)

from ..signature import JavaSignatureError
from .detect import detect_dataset
from .harness import Harness, ReadError, build_harness
from .readers import HarnessUnsupported

DATASETS = {
    "specgenbench": {
        "file": "sgb.jsonl", "name": "SpecGenBench",
        "origin": "the Spec-Harness artifact (Mondego/VeriAct, benchmarks/specgenbench/sgb.jsonl)",
    },
    "formalbench": {
        "file": "fb.jsonl", "name": "FormalBench",
        "origin": "the Spec-Harness artifact (Mondego/VeriAct, benchmarks/formalbench/fb.jsonl)",
    },
}
PAIR_SOURCES = (("test_inputs", "official"), ("generated_test_cases", "generated"))


def _toml_str(s: str) -> str:
    # JSON string escapes are valid TOML basic-string escapes.
    return json.dumps(s, ensure_ascii=False)


def _toml_key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else _toml_str(k)


def _find_source(src: Path, dataset: str) -> Path:
    if src.is_file():
        return src
    if src.is_dir():
        for cand in (src / DATASETS[dataset]["file"],
                     src / dataset / DATASETS[dataset]["file"]):
            if cand.is_file():
                return cand
        found = sorted(src.glob("*.jsonl"))
        if len(found) == 1:
            return found[0]
    raise TaskError(f"no {DATASETS[dataset]['file']} found (pass the JSONL file or its folder)",
                    file=str(src))


def _safe_id(task_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", task_id).strip(".") or "task"


def post_state_type(t: Type) -> str:
    """Schema of a parameter's post-state: a Java method cannot make the caller's array
    reference null (nor change its length), so the post-state of an array parameter that the
    call accepted is a non-null sequence (``seq``), not a nullable ``array``; element types
    keep their Java nullability. This keeps impossible outputs out of ``post_sound``."""
    if isinstance(t, SeqType) and t.kind == "array":
        return str(SeqType(t.elem, "seq"))
    return str(t)


def _task_toml(rec: dict[str, Any], tid: str, h: Harness, dataset: str) -> str:
    info = DATASETS[dataset]
    title = str(rec.get("origin_id") or tid)
    tags = [dataset] + ([str(rec["category"])] if rec.get("category") else [])
    static = bool(re.search(r"\bstatic\b[^;{}()]*\bsolve\s*\(", rec["code"]))
    lines = [
        f"id = {_toml_str(tid)}",
        'language = "jml"',
        f"title = {_toml_str(title)}",
        "provenance = " + _toml_str(
            f"{info['name']} record {rec.get('task_id')} (origin {rec.get('origin_id')}), from "
            f"{info['origin']}; the data is licensed GPL-3.0 by the artifact. Converted by "
            f"`adequacy import {dataset}`: raw Scanner text typed through the record's "
            "Test harness with a round-trip check."),
        "tags = [" + ", ".join(_toml_str(t) for t in tags) + "]",
        "",
        "[signature.input]",
    ]
    lines += [f"{_toml_key(n)} = {_toml_str(str(t))}" for n, _, t in h.params]
    post_state: list[str] = []
    lines += ["", "[signature.output]"]
    if h.output_name is not None and h.output_type is not None:
        if h.output_name != "result":
            post_state.append(h.output_name)
            lines.append(f"{_toml_key(h.output_name)} = "
                         f"{_toml_str(post_state_type(h.output_type))}")
        else:
            lines.append(f"{_toml_key(h.output_name)} = {_toml_str(str(h.output_type))}")
    elif h.java_return == "void":
        # Nothing printed: the effect of a void method is the post-state of its arrays.
        for n, jtype, t in h.params:
            if jtype.endswith("[]"):
                lines.append(f"{_toml_key(n)} = {_toml_str(post_state_type(t))}")
                post_state.append(n)
    lines += [
        "",
        "[jml]",
        f"class = {_toml_str(str(rec.get('class_name') or 'Solution'))}",
        'method = "solve"',
        "java_params = [" + ", ".join(_toml_str(j) for _, j, _ in h.params) + "]",
        f"java_return = {_toml_str(h.java_return)}",
        f"static = {'true' if static else 'false'}",
    ]
    if post_state:
        lines.append("post_state = [" + ", ".join(_toml_str(n) for n in post_state) + "]")
    return "\n".join(lines) + "\n"


def _statement(rec: dict[str, Any], dataset: str) -> str:
    title = rec.get("origin_id") or rec.get("task_id")
    parts = [f"# {title}", ""]
    doc = str(rec.get("javadoc") or "").strip()
    if doc and doc != "N/A":
        parts += [doc, ""]
    else:
        parts += ["The source gives no informal description; the intended behaviour is the one "
                  "of `Solution.solve` in `Solution.java`.", ""]
    if rec.get("category"):
        parts += [f"Category: {rec['category']}.", ""]
    parts.append(f"From {DATASETS[dataset]['name']} ({rec.get('task_id')}).")
    return "\n".join(parts) + "\n"


def _convert_record(rec: dict[str, Any], dest: Path, dataset: str, report: ImportReport,
                    visible: int) -> None:
    tid = _safe_id(str(rec.get("task_id") or ""))
    lists = {key: rec.get(key) or [] for key, _ in PAIR_SOURCES}
    pairs = [(origin, i, p) for key, origin in PAIR_SOURCES
             for i, p in enumerate(lists[key] if isinstance(lists[key], list) else [])]
    report.count("pairs_total", len(pairs))
    outcome = report.outcome(tid)

    def fail(stage: str, reason: str, case: str | None = None) -> None:
        outcome.problems.append(Problem(kind=reason_kind(reason), detail=reason, case=case,
                                        stage=stage))

    for key, v in lists.items():
        if not isinstance(v, list):
            fail("task", f"{key} is not a JSON array")

    missing = [k for k in ("code", "test_code") if not isinstance(rec.get(k), str)]
    if missing:
        fail("task", f"the record has no {' or '.join(missing)} text")
        return
    try:
        h = build_harness(rec["code"], rec["test_code"])
    except (HarnessUnsupported, JavaSignatureError, DatasetError) as e:
        fail("task", f"{type(e).__name__}: {e}")
        return
    pre: list[Case] = []
    post: list[Case] = []
    seen_in: set[str] = set()
    seen_out: dict[str, str] = {}
    shown = 0
    for origin, i, pair in pairs:
        cid = f"{origin}-{i:03d}"
        if not isinstance(pair, dict):
            fail("input", "the pair is not a JSON object", cid)
            continue
        try:
            inp = h.read_input(str(pair.get("input", "")))
        except ReadError as e:
            fail("input", str(e), cid)
            continue
        report.count("inputs_converted")
        key = json.dumps(inp, sort_keys=True)
        try:
            out = h.read_output(str(pair.get("output", "")))
        except ReadError as e:
            out = None
            fail("output", str(e), cid)
        else:
            report.count("pairs_converted")
        vis = origin == "official" and shown < visible
        if key not in seen_in:
            seen_in.add(key)
            pre.append(Case(id=cid, bucket=Bucket.pre_complete, input=inp, origin=origin,
                            visible=vis))
        if out is not None:
            assert h.output_name is not None
            okey = json.dumps(out, sort_keys=True)
            if key in seen_out:
                if seen_out[key] != okey:
                    fail("duplicate", "conflicting output for an input seen before (kept the "
                                      "first)", cid)
                continue
            seen_out[key] = okey
            post.append(Case(id=cid, bucket=Bucket.post_complete, input=inp,
                             output={h.output_name: out}, origin=origin, visible=vis))
        if vis:
            shown += 1
    if not pre:
        fail("task", "no test pair converted")
        return
    task_dir = dest / tid
    if task_dir.exists():
        shutil.rmtree(task_dir)
    (task_dir / "tests").mkdir(parents=True)
    (task_dir / "task.toml").write_text(_task_toml(rec, tid, h, dataset), encoding="utf-8")
    (task_dir / "statement.md").write_text(_statement(rec, dataset), encoding="utf-8")
    (task_dir / "Solution.java").write_text(str(rec["code"]), encoding="utf-8")
    write_cases(task_dir, Bucket.pre_complete, pre)
    write_cases(task_dir, Bucket.post_complete, post)
    try:
        load_task(task_dir)
    except AdequacyError as e:
        fail("task", f"written task does not load: {e}")
        shutil.rmtree(task_dir)
        return
    outcome.converted, outcome.dest = True, str(task_dir)
    outcome.counts = {Bucket.pre_complete.value: len(pre), Bucket.post_complete.value: len(post)}


def _records(path: Path) -> Iterator[tuple[int, str]]:
    with path.open(encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            if raw.strip():
                yield lineno, raw


def spec_harness_ids(src: Path, dataset: str) -> list[str]:
    """The task ids (task folder names) of ``src``'s records in file order, as ``only`` of
    ``import_spec_harness`` takes them; lines that are not records are left out."""
    out: list[str] = []
    for _lineno, raw in _records(_find_source(Path(src), dataset)):
        try:
            rec = json.loads(raw)
        except json.JSONDecodeError:
            continue
        if isinstance(rec, dict):
            out.append(_safe_id(str(rec.get("task_id") or "")))
    return out


def import_spec_harness(src: Path, dest: Path, dataset: str, *, visible: int = 3,
                        only: list[str] | None = None) -> ImportReport:
    """Convert every record of ``src`` (a JSONL file or a folder holding it) under ``dest``.

    ``visible``: how many official pairs per task may be shown to a spec writer.
    ``only``: restrict to these task ids (``spec_harness_ids``; the record's own
    ``task_id`` is accepted too).
    """
    src, dest = Path(src), Path(dest)
    path = _find_source(src, dataset)
    found = detect_dataset(path)
    if found is not None and found != dataset:
        raise TaskError(f"holds {DATASETS[found]['name']} tasks, not "
                        f"{DATASETS[dataset]['name']}: use `adequacy import {found}`",
                        file=str(path))
    report = ImportReport(importer=dataset, src=str(path), dest=str(dest))
    dest.mkdir(parents=True, exist_ok=True)
    for lineno, raw in _records(path):
        try:
            rec = json.loads(raw)
        except json.JSONDecodeError as e:
            if only is None:
                report.outcome(f"line {lineno}").problems.append(Problem(
                    kind="not valid JSON", detail=f"not valid JSON: {e.msg}"))
            continue
        if not isinstance(rec, dict):
            continue
        if only is not None and rec.get("task_id") not in only and _safe_id(
                str(rec.get("task_id") or "")) not in only:
            continue
        _convert_record(rec, dest, dataset, report, visible)
    return report


def import_specgenbench(src: Path, dest: Path, **opts: Any) -> ImportReport:
    """SpecGenBench: 120 methods with official and generated pairs."""
    return import_spec_harness(src, dest, "specgenbench", **opts)


def import_formalbench(src: Path, dest: Path, **opts: Any) -> ImportReport:
    """FormalBench (MBJP): 662 methods, 2-3 official pairs each."""
    return import_spec_harness(src, dest, "formalbench", **opts)
