"""``adequacy export hf`` and ``adequacy import hf``: task folders as a Hugging Face dataset.

The folder written is what the Hub serves and ``datasets.load_dataset`` reads: ``README.md``
(the dataset card: licence, sources, columns, and the ``configs`` entry naming the data file)
and ``data/test-00000-of-00001.parquet``, one row per task. A row has the columns a user
filters and reads (statement, language, signature, skeleton, gold spec and reference where
present, the cases of each bucket with their provenance) and ``files``: every file of the task
folder, byte for byte, from which ``import hf`` writes the folder back. A row whose columns
and files disagree (edited in one place only) is refused on import, naming the task.

Inputs and outputs of cases are JSON text in the columns: a column has one type across rows,
and one task's input is a list of integers where another's is a string.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import stat
import tempfile
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from adequacy.errors import InputError, TaskError
from adequacy.extensions.importer import ImportReport, Problem
from adequacy.model.task import Task
from adequacy.model.verdicts import BUCKETS
from adequacy.scoring.keys import task_content_hash
from adequacy.taskdirs.discovery import discover_tasks
from adequacy.taskdirs.load import load_task

DATA_FILE = "data/test-00000-of-00001.parquet"
SPLIT = "test"
_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$")
_SKIP = {"__pycache__", ".DS_Store"}
MAX_FILE_BYTES = 64 << 20


def _datasets() -> Any:
    try:
        import datasets
    except ImportError:
        raise InputError("the Hugging Face `datasets` package is not installed: pip install "
                         "'spec-adequacy[hf]'") from None
    return datasets


@contextlib.contextmanager
def _quiet(ds: Any) -> Iterator[None]:
    """datasets' progress bars, off while we call it (our commands print their own summary)."""
    was = ds.are_progress_bars_disabled()
    ds.disable_progress_bars()
    try:
        yield
    finally:
        if not was:
            ds.enable_progress_bars()


def features() -> Any:
    ds = _datasets()
    s = ds.Value("string")
    case = {"id": s, "input": s, "output": s, "origin": s, "seed": ds.Value("int64"),
            "visible": ds.Value("bool")}
    param = {"name": s, "type": s}
    return ds.Features({
        "task_id": s, "folder": s, "language": s, "title": s, "statement": s, "source": s,
        "tags": ds.List(s), "difficulty": s, "every_input_valid": ds.Value("bool"),
        "signature": {"inputs": ds.List(param), "outputs": ds.List(param)},
        "skeleton_file": s, "skeleton": s, "spec_file": s, "gold_spec": s,
        "reference": ds.List({"path": s, "content": s}),
        "cases": {b.value: ds.List(case) for b in BUCKETS},
        "case_counts": {b.value: ds.Value("int64") for b in BUCKETS},
        "task_digest": s, "adequacy_version": s,
        "files": ds.List({"path": s, "content": s}),
    })


# ------------------------------------------------------------------ export


def task_files(task: Task) -> list[tuple[str, str]]:
    """Every file of the task folder (relative POSIX path, text), sorted; caches skipped. A
    symlink is refused (it could publish a file from anywhere), as is a file that is not
    UTF-8 text."""
    root = task.root
    out: list[tuple[str, str]] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIP)
        here = Path(dirpath)
        for d in dirnames:
            if (here / d).is_symlink():
                raise TaskError("is a symbolic link; export copies only the task's own files",
                                file=str(here / d))
        for name in sorted(filenames):
            p = here / name
            if name in _SKIP or name.endswith(".pyc"):
                continue
            st = p.lstat()
            if stat.S_ISLNK(st.st_mode) or not stat.S_ISREG(st.st_mode):
                raise TaskError("is not a regular file (a symbolic link?); export copies only "
                                "the task's own files", file=str(p))
            if st.st_size > MAX_FILE_BYTES:
                raise TaskError(f"larger than {MAX_FILE_BYTES >> 20} MiB", file=str(p))
            try:
                text = p.read_bytes().decode("utf-8")
            except UnicodeDecodeError:
                raise TaskError("not UTF-8 text; a dataset row holds text files only",
                                file=str(p)) from None
            out.append((p.relative_to(root).as_posix(), text))
    return out


def _case(c: Any) -> dict[str, Any]:
    return {"id": c.id, "input": json.dumps(c.input, ensure_ascii=False),
            "output": None if c.output is None else json.dumps(c.output, ensure_ascii=False),
            "origin": c.origin, "seed": c.seed, "visible": c.visible}


def row(task: Task) -> dict[str, Any]:
    from adequacy.gym.make import gold_spec, spec_file_name
    from adequacy.version import __version__

    files = task_files(task)
    gold = gold_spec(task)
    skeleton = task.declared_files().skeleton
    return {
        "task_id": task.id, "folder": task.root.name, "language": task.language,
        "title": task.title,
        "statement": task.statement, "source": task.provenance, "tags": list(task.tags),
        "difficulty": task.difficulty, "every_input_valid": task.every_input_valid,
        "signature": {"inputs": [{"name": p.name, "type": p.type_text} for p in task.inputs],
                      "outputs": [{"name": p.name, "type": p.type_text} for p in task.outputs]},
        "skeleton_file": skeleton, "skeleton": task.skeleton,
        "spec_file": spec_file_name(task),
        "gold_spec": gold.read_text(encoding="utf-8") if gold else None,
        "reference": [{"path": p, "content": t} for p, t in files
                      if p.startswith("reference/")],
        "cases": {b.value: [_case(c) for c in task.cases.get(b, [])] for b in BUCKETS},
        "case_counts": {b.value: len(task.cases.get(b, [])) for b in BUCKETS},
        "task_digest": task_content_hash(task), "adequacy_version": __version__,
        "files": [{"path": p, "content": t} for p, t in files],
    }


def card(rows: Sequence[dict[str, Any]], license_id: str, name: str) -> str:
    from adequacy.version import __version__

    langs = Counter(r["language"] for r in rows)
    sources = Counter(r["source"] or "(not stated)" for r in rows)
    cases = {b.value: sum(r["case_counts"][b.value] for r in rows) for b in BUCKETS}
    yaml = "\n".join([
        "---", f"license: {json.dumps(license_id)}", f"pretty_name: {json.dumps(name)}",
        "tags:", "- formal-verification", "- specification", "- spec-adequacy",
        *(f"- {json.dumps(lang)}" for lang in sorted(langs)),
        "configs:", "- config_name: default", "  data_files:",
        f"  - split: {SPLIT}", f"    path: {DATA_FILE}", "---", ""])
    src_lines = "\n".join(f"| {s.replace('|', '/')} | {n} |" for s, n in sources.most_common())
    return f"""{yaml}
# {name}

{len(rows)} specification-writing tasks ({', '.join(f'{n} {lang}' for lang, n in
sorted(langs.items()))}) exported by spec-adequacy {__version__}. Each row is one task: write
the precondition and postcondition of a function so that the spec accepts every valid input
and correct output and rejects every invalid input and wrong output. The cases of the four
buckets grade a spec:

| bucket | cases | a faithful spec must |
|---|---|---|
| pre_complete | {cases['pre_complete']} | accept the valid input |
| pre_sound | {cases['pre_sound']} | reject the invalid input |
| post_complete | {cases['post_complete']} | accept the input with its correct output |
| post_sound | {cases['post_sound']} | reject the input with a wrong output |

## Licence and sources

Licence of this export: `{license_id}` (given by the exporter; each task's own source is in
the `source` column and below, and its terms apply to its content).

| source | tasks |
|---|---|
{src_lines}

## Columns

- `task_id`, `folder` (the task folder's name), `language`, `title`, `statement` (the informal specification), `source`, `tags`,
  `difficulty`, `every_input_valid` (the function is total: `pre_sound` is empty by design).
- `signature`: `inputs` and `outputs`, each a name and a type of the task's type language.
- `skeleton_file`, `skeleton`: the file a spec is written into; `spec_file`: its name for a
  spec writer; `gold_spec`: a reference spec where the task has one; `reference`: the
  reference implementation's files.
- `cases`: per bucket, each case's `id`, `input` and `output` (JSON text: values differ in
  type from task to task), `origin` (`official`, `generated`, `mutant`, `hack`, ...), `seed`
  (of a generated case) and `visible` (may be shown to a spec writer; the others are for
  evaluation only).
- `task_digest`: spec-adequacy's content hash of the task; `files`: every file of the task
  folder, which `adequacy import hf` writes back (`pip install 'spec-adequacy[hf]'`).

Score a spec with `adequacy score TASK SPEC` after `adequacy import hf <this dataset> TASKS/`.
"""


def export_hf(paths: Sequence[Path], out: Path, license_id: str = "other",
              name: str | None = None, force: bool = False) -> list[str]:
    """Write the dataset folder; the exported task ids."""
    ds = _datasets()
    tasks = [load_task(d) for d in discover_tasks(paths)]
    ids = [t.id for t in tasks]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise TaskError(f"two tasks share the id {dup[0]!r}")
    rows = [row(t) for t in tasks]
    if out.exists() and any(out.iterdir()):
        if not force:
            raise InputError("exists and is not empty (use --force to replace a dataset "
                             "folder this command wrote)", file=str(out))
        if not (out / DATA_FILE).is_file() or not (out / "README.md").is_file():
            raise InputError("exists and is not a dataset folder `adequacy export hf` wrote; "
                             "remove it yourself", file=str(out))
        shutil.rmtree(out)
    (out / "data").mkdir(parents=True, exist_ok=True)
    with _quiet(ds):
        data = ds.Dataset.from_list(rows, features=features())
        data.to_parquet(str(out / DATA_FILE))
    (out / "README.md").write_text(card(rows, license_id, name or out.resolve().name),
                                   encoding="utf-8")
    return ids


# ------------------------------------------------------------------ import


def load_rows(source: str) -> list[dict[str, Any]]:
    """Every row of a dataset folder (or a Hub name), all splits."""
    ds = _datasets()
    if Path(source).exists() and not Path(source).is_dir():
        raise InputError("expected a dataset folder or a Hub name, got a file", file=source)
    # a local folder is read through a cache of its own, dropped afterwards: datasets keys its
    # cache of a folder by the files' paths and times, and a folder exported again within the
    # same second was read back stale (the old rows, or an error on the old columns)
    local = Path(source).is_dir()
    with tempfile.TemporaryDirectory(prefix="adequacy-hf-") as tmp:
        try:
            with _quiet(ds):
                loaded = ds.load_dataset(source, cache_dir=tmp if local else None)
                rows = [dict(r) for split in loaded.values() for r in split]
        except Exception as e:  # noqa: BLE001 - datasets raises many kinds; say what it said
            raise InputError(f"datasets.load_dataset could not read it: "
                             f"{str(e).splitlines()[0] if str(e) else type(e).__name__}",
                             file=source) from None
    return rows


def _safe_path(p: Any) -> str | None:
    """A relative POSIX path with no ``..``, or None."""
    if not isinstance(p, str) or not p or "\\" in p or "\0" in p or p.startswith("/"):
        return None
    parts = p.split("/")
    if any(x in ("", ".", "..") for x in parts):
        return None
    return p


def _agrees(task: Task, r: dict[str, Any]) -> str:
    """'' when the structured columns say what the files say, else the first disagreement."""
    if task.id != r.get("task_id"):
        return f"task_id {r.get('task_id')!r} but task.toml says {task.id!r}"
    if task.language != r.get("language"):
        return f"language {r.get('language')!r} but task.toml says {task.language!r}"
    if task.statement != r.get("statement"):
        return "statement differs from statement.md"
    if task.skeleton != r.get("skeleton"):
        return "skeleton differs from the skeleton file"
    cases = r.get("cases") or {}
    for b in BUCKETS:
        want = [_case(c) for c in task.cases.get(b, [])]
        if want != list(cases.get(b.value) or []):
            return f"cases of {b.value} differ from tests/{b.value}.jsonl"
    return ""


def import_hf(source: str, dest: Path) -> ImportReport:
    """Write one task folder per row under ``dest``; a row that cannot be written (a bad id
    or path, columns that disagree with its files, a task that does not load, a folder that
    exists) is recorded as not converted, and the rest go on."""
    rows = load_rows(source)
    report = ImportReport(importer="hf", src=source, dest=str(dest))
    dest.mkdir(parents=True, exist_ok=True)
    root = dest.resolve()
    seen: set[str] = set()
    for i, r in enumerate(rows, 1):
        tid = r.get("task_id")
        label = tid if isinstance(tid, str) and tid else f"row {i}"
        o = report.outcome(label)

        def refuse(kind: str, detail: str, o: Any = o) -> None:
            o.problems.append(Problem(kind=kind, detail=detail))

        if not isinstance(tid, str) or not _NAME.match(tid) or ".." in tid:
            refuse("bad task id", f"row {i}: task_id {tid!r} is not a folder name")
            continue
        if tid.casefold() in seen:
            refuse("duplicate", f"row {i}: task {tid!r} appears twice")
            continue
        seen.add(tid.casefold())
        name = r.get("folder")
        name = name if isinstance(name, str) and _NAME.match(name) and ".." not in name else tid
        if name.casefold() in seen and name != tid:
            name = tid
        seen.add(name.casefold())
        folder = root / name
        if os.path.lexists(folder):
            refuse("exists", f"{folder} exists; import into an empty folder")
            continue
        files = r.get("files")
        if not isinstance(files, list) or not files:
            refuse("no files", f"row {i} ({tid}): no files column")
            continue
        tmp = Path(tempfile.mkdtemp(prefix=f".{tid}.", dir=root))
        try:
            bad = ""
            names: set[str] = set()
            for f in files:
                p = _safe_path(f.get("path") if isinstance(f, dict) else None)
                content = f.get("content") if isinstance(f, dict) else None
                if p is None or not isinstance(content, str):
                    bad = f"a file entry {str(f)[:80]!r} is not a relative path and its text"
                    break
                if p.casefold() in names:
                    bad = f"file {p!r} appears twice"
                    break
                names.add(p.casefold())
                target = tmp / p
                target.parent.mkdir(parents=True, exist_ok=True)
                with target.open("w", encoding="utf-8", newline="") as fh:
                    fh.write(content)
            if bad:
                refuse("bad file", f"{tid}: {bad}")
                continue
            try:
                task = load_task(tmp)
            except TaskError as e:
                refuse("task does not load", f"{tid}: {e.message}"
                       + (f" ({Path(e.file).name}:{e.line})" if e.file and e.line else ""))
                continue
            why = _agrees(task, r)
            if why:
                refuse("columns disagree with files", f"{tid}: {why}")
                continue
            tmp.chmod(0o755)
            tmp.rename(folder)
            o.converted, o.dest = True, str(folder)
            o.counts = {b.value: len(task.cases.get(b, [])) for b in BUCKETS}
        finally:
            if tmp.exists():
                shutil.rmtree(tmp, ignore_errors=True)
    return report
