"""``adequacy gym make``: one folder per task, holding nothing an agent may not see.

Visible cases are drawn only from the completeness buckets and only among the cases the task
marks ``visible`` (docs/tasks.md: the rest are for evaluation). The worked example comes
from a different task and carries that task's gold spec and visible cases only. The folder's
``.gym/task`` is a loadable task with the visible cases alone, so ``check`` needs nothing else.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import stat
import tomllib
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from adequacy.errors import TaskError
from adequacy.extensions import registry
from adequacy.extensions.texts import GymTexts
from adequacy.gym.manifest import PRIVATE, GymManifest, seal_manifest, write_manifest
from adequacy.gym.proving import prover_name
from adequacy.gym.texts import GENERIC, instructions
from adequacy.model.task import Case, Task
from adequacy.model.verdicts import Bucket
from adequacy.scoring.keys import task_content_hash
from adequacy.taskdirs.discovery import discover_tasks
from adequacy.taskdirs.load import load_task, task_files

GOLD_NAMES = ("specs/gold", "reference/gold")


class MadeFolder(BaseModel):
    model_config = ConfigDict(extra="forbid")

    task_id: str
    folder: str
    visible: int
    example_task: str | None
    warning: str = ""


def spec_file_name(task: Task) -> str:
    """The file an agent completes (the backend's ``spec_file``, else the skeleton's name:
    JML keeps the class's file name, javac wants it); a plain file name, never a path."""
    files = task.declared_files()
    for name in (files.skeleton, files.spec_file or files.skeleton):
        if Path(name).name != name or name in (".", ".."):
            raise TaskError(f"the {task.language} backend names a task file {name!r}, not a "
                            "plain file name")
    return files.spec_file or files.skeleton


def shipped_dirs() -> list[Path]:
    """The worked-example folders the installed backends ship (``Backend.gym_example_dir``),
    used unless ``--examples`` names others."""
    found = (b.gym_example_dir for b in registry.registry().backends.values())
    return sorted(d for d in found if d is not None and d.is_dir())


def source_files(task: Task) -> list[Path]:
    """Every file of the task whose content ``gym make`` copies (or draws cases from)."""
    names = ["task.toml", "statement.md", task.declared_files().skeleton,
             *(f"tests/{b.value}.jsonl" for b in Bucket)]
    paths = [task.root / n for n in names]
    gold = gold_spec(task)
    return [p for p in (*paths, *([gold] if gold else [])) if os.path.lexists(p)]


def refuse_foreign_files(task: Task) -> None:
    """Refuse a task whose copied files are not its own: a symlink (``statement.md`` ->
    ``/etc/passwd``, ``specs/`` -> another task's folder) resolving outside the task folder, or
    a hard link (a second name of a file that may live anywhere on the file system). Either
    would put text we never meant to publish in an agent-readable folder."""
    root = task.root.resolve()
    for p in source_files(task):
        rel = p.relative_to(task.root)
        real = p.resolve()
        if not real.is_relative_to(root):
            raise TaskError(f"{rel} leads outside the task folder (to {real}); gym make copies "
                            "only the task's own files", file=str(p))
        st = real.stat()
        if not stat.S_ISREG(st.st_mode):
            raise TaskError(f"{rel} is not a regular file", file=str(p))
        if st.st_nlink > 1:
            raise TaskError(f"{rel} is a hard link ({st.st_nlink} names): gym make copies only "
                            "files the task folder alone holds (copy it instead of linking)",
                            file=str(p))


def gold_spec(task: Task) -> Path | None:
    ext = Path(task.declared_files().skeleton).suffix
    for stem in GOLD_NAMES:
        p = task.root / f"{stem}{ext}"
        if p.is_file():
            return p
    return None


def draw_visible(task: Task, n: int, seed: int) -> list[Case]:
    """Up to ``n`` cases from the completeness buckets that the task lets a writer see,
    alternating post_complete and pre_complete (post cases show an output too)."""
    rng = random.Random(f"{seed}/{task.id}")
    pools = []
    for b in (Bucket.post_complete, Bucket.pre_complete):
        pool = [c for c in task.cases.get(b, []) if c.visible]
        rng.shuffle(pool)
        pools.append(pool)
    picked: list[Case] = []
    while len(picked) < n and any(pools):
        for pool in pools:
            if pool and len(picked) < n:
                picked.append(pool.pop())
    return picked


def case_line(c: Case) -> str:
    d: dict[str, object] = {"bucket": c.bucket.value, "id": c.id, "input": c.input}
    if c.output is not None:
        d["output"] = c.output
    return json.dumps(d, ensure_ascii=False)


def _write_visible_task(task: Task, cases: list[Case], dest: Path) -> None:
    """A loadable copy of the task with only ``cases``: what ``check`` scores against."""
    dest.mkdir(parents=True)
    (dest / "task.toml").write_text(
        _without_constraints((task.root / "task.toml").read_text(encoding="utf-8"),
                             task.root / "task.toml"),
        encoding="utf-8")
    (dest / "statement.md").write_text(task.statement, encoding="utf-8")
    shutil.copyfile(task.skeleton_path, dest / task.declared_files().skeleton)
    (dest / "tests").mkdir()
    for b in Bucket:
        mine = [c for c in cases if c.bucket == b]
        lines = [c.model_dump_json(exclude={"line", "bucket"}, exclude_none=True) for c in mine]
        (dest / "tests" / f"{b.value}.jsonl").write_text(
            "".join(line + "\n" for line in lines), encoding="utf-8")


_TABLE = re.compile(r"^\s*\[\[?\s*(?P<name>[^\]#]*?)\s*\]")
_CONSTRAINTS = re.compile(r"""^["']?constraints["']?\s*(\.|$)""")


def _without_constraints(toml: str, where: Path) -> str:
    """task.toml minus its ``[constraints]`` tables: hints for mutators (value ranges, shapes of
    invalid inputs) that a spec writer is not meant to read off. The result is parsed again and
    refused if a constraint survived (an inline ``constraints = {...}``, a dotted key)."""
    out, skip = [], False
    for line in toml.splitlines(keepends=True):
        m = _TABLE.match(line)
        if m:
            skip = _CONSTRAINTS.match(m.group("name").replace(" ", "")) is not None
        if not skip:
            out.append(line)
    text = "".join(out)
    try:
        left = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        left = {"constraints": None}
    if "constraints" in left:
        raise TaskError("cannot strip the constraints from task.toml for the agent's copy; "
                        "write them as a [constraints] table", file=str(where))
    return text


def _write_example(ex: Task, gold: Path, n: int, seed: int, dest: Path) -> None:
    dest.mkdir()
    (dest / "statement.md").write_text(f"(task {ex.id})\n\n{ex.statement}", encoding="utf-8")
    shutil.copyfile(gold, dest / spec_file_name(ex))
    cases = draw_visible(ex, n, seed)
    (dest / "visible_cases.jsonl").write_text("".join(case_line(c) + "\n" for c in cases),
                                               encoding="utf-8")


def texts_for(language: str) -> GymTexts:
    """The language's backend's texts, or the generic ones when it has none."""
    texts = registry.registry().owner(language).gym_texts()
    return texts if isinstance(texts, GymTexts) else GENERIC


def worked_examples(batch: Sequence[Task], candidates: Sequence[Task]) -> list[Task]:
    """The candidates that may serve as worked examples for ``batch``: with a gold spec, and
    neither a task of the batch nor a copy of one under another id (same statement or gold
    spec). An example from the batch would give an agent, through a neighbour's
    ``example/``, the gold spec of a task it is graded on."""
    ids = {t.id for t in batch}
    seen = {t.statement.strip() for t in batch} - {""}
    golds = {g.read_bytes() for g in (gold_spec(t) for t in batch) if g is not None}
    out = []
    for e in candidates:
        gold = gold_spec(e)
        if gold is None or e.id in ids or e.statement.strip() in seen \
                or gold.read_bytes() in golds:
            continue
        out.append(e)
    return out


def make_gym(tasks: Sequence[Path], out: Path, visible: int = 3, seed: int = 0,
             force: bool = False, examples: Sequence[Path] = ()) -> list[MadeFolder]:
    """Write ``out/<task id>/`` for every task; refuse to overwrite a folder unless ``force``.

    Worked examples come from ``examples`` when given, else from the tasks shipped in
    the installed backends (``Backend.gym_example_dir``); never from the batch (see ``worked_examples``). Every path
    written or deleted is a direct child of the resolved OUT, and a task whose copied files are
    symlinks out of it or hard links is refused (``refuse_foreign_files``)."""
    if visible < 0:
        raise TaskError(f"--visible must be >= 0, got {visible}")
    loaded = [load_task(d) for d in discover_tasks(tasks)]
    if not loaded:
        raise TaskError("no tasks found", file=", ".join(map(str, tasks)))
    ids = [t.id for t in loaded]
    folded = [i.casefold() for i in ids]  # one folder on a case-insensitive file system
    dup = sorted({i for i in ids if folded.count(i.casefold()) > 1})
    if dup:
        raise TaskError(f"two tasks share the id {dup[0]!r}; gym folders are named by id")
    for t in loaded:
        if task_files(t.language) is None:
            raise TaskError(f"no installed backend serves {t.language!r} tasks",
                            file=str(t.root / "task.toml"))
    extra = worked_examples(loaded, [load_task(d) for d in discover_tasks(examples or shipped_dirs())])
    # the shipped examples are package files: installers such as uv hard-link those
    for t in (*loaded, *(extra if examples else ())):
        refuse_foreign_files(t)
        spec_file_name(t)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise TaskError(f"cannot make the gym folder: {e.strerror}", file=str(out)) from None
    root = out.resolve()
    folders = {t.id: folder_in(root, t.id) for t in loaded}
    for folder in folders.values():
        if os.path.lexists(folder) and not force:
            raise TaskError("gym folder exists (use --force to replace it)", file=str(folder))
    made: list[MadeFolder] = []
    for t in loaded:
        folder = folders[t.id]
        if os.path.lexists(folder):
            _remove_gym_folder(folder)
        folder.mkdir()
        cases = draw_visible(t, visible, seed)
        spec_file = spec_file_name(t)
        texts = texts_for(t.language)
        (folder / "INSTRUCTIONS.md").write_text(
            instructions(texts, spec_file, prover_name(t.language)), encoding="utf-8")
        (folder / "LANGUAGE_NOTES.md").write_text(texts.notes, encoding="utf-8")
        (folder / "statement.md").write_text(t.statement, encoding="utf-8")
        shutil.copyfile(t.skeleton_path, folder / spec_file)
        (folder / "visible_cases.jsonl").write_text("".join(case_line(c) + "\n" for c in cases),
                                                    encoding="utf-8")
        ex = next((o for o in extra if o.language == t.language), None)
        if ex is not None:
            gold = gold_spec(ex)
            assert gold is not None
            _write_example(ex, gold, visible, seed, folder / "example")
        _write_visible_task(t, cases, folder / PRIVATE / "task")
        write_manifest(folder, seal_manifest(GymManifest(
            task_id=t.id, language=t.language, task_hash=task_content_hash(t),
            source=str(t.root.resolve()), spec_file=spec_file,
            visible=[c.key for c in cases], seed=seed,
            example_task=ex.id if ex else None)))
        warn = []
        if len(cases) < visible:
            warn.append(f"only {len(cases)} visible completeness case(s) in the task")
        if ex is None:
            warn.append(f"no {t.language} worked example outside the batch: no example/")
        made.append(MadeFolder(task_id=t.id, folder=str(folder), visible=len(cases),
                               example_task=ex.id if ex else None, warning="; ".join(warn)))
    return made


def folder_in(root: Path, name: str) -> Path:
    """``root/name``, refused unless it is a direct child of ``root`` (the resolved OUT): task
    ids are validated as names, and this holds even for a Task built some other way."""
    folder = root / name
    if folder.parent != root or name in ("", ".", "..") or "/" in name or "\0" in name:
        raise TaskError(f"task id {name[:80]!r} is not a folder name inside {root}")
    return folder


def _remove_gym_folder(folder: Path) -> None:
    """``--force`` replaces gym folders only: never a symlink (whose target may be anywhere)
    and never a folder that ``gym make`` did not write (OUT may be a folder with other work)."""
    if folder.is_symlink() or not folder.is_dir():
        raise TaskError("exists and is not a gym folder (a symlink or a file); remove it "
                        "yourself", file=str(folder))
    if not (folder / "gym.json").is_file() or (folder / "gym.json").is_symlink():
        raise TaskError("exists and is not a gym folder (no gym.json); --force replaces gym "
                        "folders only, remove it yourself", file=str(folder))
    shutil.rmtree(folder)
