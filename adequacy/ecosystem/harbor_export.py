"""``adequacy export harbor``: our tasks as Harbor task folders, and the folder as a dataset.

One folder per task, in the layout Harbor's own task model reads (``task.toml``,
``instruction.md``, ``environment/``, ``tests/``, ``solution/``):

- ``environment/`` is what the agent's image is built from, and holds nothing hidden: a wheel
  of this project without its bundled example tasks (with ``constraints.txt`` pinning what it
  installs) and a copy of the task
  with the visible cases only, from which the image build makes a gym folder at
  ``/app/<id>`` (so ``adequacy check`` and the MCP server work inside) and then deletes the
  copy. No path of the exporting machine is written anywhere.
- ``tests/`` holds the whole task, hidden cases included, and ``test.sh``. Harbor copies it in
  only to grade, and the task asks for a *separate* verifier: a fresh container of the same
  image, into which only the agent's spec file is carried (an artifact). Nothing the agent did
  to its own container (a patched grader, a planted reward file) reaches the grade.
- ``solution/solve.sh`` writes the gold spec, where the task has one (``harbor run -a oracle``).

At the top of OUT, ``dataset.toml`` lists every task with the content digest Harbor computes,
and ``metric.py`` is the dataset's metric (per-bucket means, solved rate).
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
import shutil
import tempfile
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, field_validator

from adequacy.ecosystem import toml_write as tw
from adequacy.ecosystem.wheel import (
    build_wheel,
    bundled_in_wheel,
    check_wheel,
    constraints,
    image_wheel,
)
from adequacy.errors import InputError, TaskError
from adequacy.gym.make import (
    _without_constraints,
    draw_visible,
    gold_spec,
    refuse_foreign_files,
    shipped_dirs,
    spec_file_name,
)
from adequacy.gym.texts import BUCKETS_TEXT
from adequacy.model.task import Case, Task
from adequacy.model.verdicts import BUCKETS, Bucket
from adequacy.scoring.keys import task_content_hash
from adequacy.taskdirs.discovery import discover_tasks
from adequacy.taskdirs.load import load_task

HARBOR_NAME = re.compile(r"^[a-zA-Z0-9][a-zA-Z0-9._-]*$")
"""A part of Harbor's ``org/name`` (its ``ORG_NAME_PATTERN``), without ``..``."""
WORKSPACE = "/app"
"""Where the image puts the gym folder: ``/app/<task id>``."""
SCHEMA_VERSION = "1.4"
"""The task.toml schema version written (Harbor's ``TaskConfig.schema_version``)."""
MARK = "adequacy_export"
"""A key of ``[metadata]`` naming the folders this command wrote (``--force`` replaces only
those)."""


class BackendRecipe(BaseModel):
    """A language's ``ContainerRecipe`` and the backend it comes from (``adequacy setup
    --backend`` names it)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    backend: str
    apt: tuple[str, ...] = ()
    prepare: bool = False
    engines: tuple[str, ...]


def recipe_for(language: str) -> BackendRecipe | None:
    """What an image needs for ``language``, from the backend that owns it (the
    ``container_recipe`` capability); None when it gives none."""
    from adequacy.errors import BackendError
    from adequacy.extensions import registry

    try:
        owner = registry.registry().owner(language)
    except BackendError:
        return None
    got = owner.container_recipe()
    if got is None:
        return None
    return BackendRecipe(backend=owner.name, apt=got.apt, prepare=got.prepare, engines=got.engines)


class HarborOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    org: str = "spec-adequacy"
    """The ``org`` of each task's Harbor name (``org/<task id>``)."""
    visible: int = Field(default=3, ge=0)
    seed: int = 0
    base_image: str = "python:3.12-slim"
    """Pin it (``python:3.12-slim@sha256:...``) for reproducible images; ``harbor lint
    --select ALL`` reports an unpinned one (docs/ecosystem.md)."""
    agent_timeout: float = Field(default=1800.0, gt=0)
    verifier_timeout: float = Field(default=900.0, gt=0)
    build_timeout: float = Field(default=1800.0, gt=0)
    cpus: int = Field(default=2, ge=1)
    memory_mb: int = Field(default=4096, ge=512)
    storage_mb: int = Field(default=10240, ge=1024)
    wheel: Path | None = None
    """A wheel of this project to install in the images; None builds one from the checkout."""
    force: bool = False

    @field_validator("base_image")
    @classmethod
    def _one_image_reference(cls, v: str) -> str:
        """An image reference and nothing else: the value is written into the Dockerfile."""
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._/:@+-]*", v):
            raise ValueError(f"--base-image {v!r} is not an image reference "
                             "(NAME[:TAG][@sha256:DIGEST])")
        return v


class ExportedTask(BaseModel):
    model_config = ConfigDict(extra="forbid")

    task_id: str
    name: str
    """Harbor's ``org/name``."""
    folder: str
    digest: str
    """``sha256:<hex>``, as Harbor's packager computes it."""
    visible: int
    has_solution: bool


class HarborExport(BaseModel):
    model_config = ConfigDict(extra="forbid")

    out: str
    wheel: str
    tasks: list[ExportedTask]


def harbor_name(org: str, task_id: str) -> str:
    for part, what in ((org, "--org"), (task_id, "task id")):
        if not HARBOR_NAME.match(part) or ".." in part:
            raise TaskError(f"{what} {part!r} cannot be part of a Harbor task name (letters, "
                            "digits, '.', '_', '-', starting with a letter or digit)")
    return f"{org}/{task_id}"


def untested_buckets(task: Task) -> list[Bucket]:
    """Buckets without a case that the task does not declare empty: no spec can pass them,
    so the oracle itself would score 0."""
    return [b for b in BUCKETS if not task.cases.get(b)
            and not (b is Bucket.pre_sound and task.every_input_valid)]


def _refuse_shipped(task: Task) -> None:
    """The gym's shipped worked examples sit, gold spec and all, inside the wheel the image
    installs: exporting one would hand the agent its own answer."""
    for d in discover_tasks(shipped_dirs()):
        head = tomllib.loads((d / "task.toml").read_text(encoding="utf-8"))
        statement = (d / "statement.md").read_text(encoding="utf-8").strip()
        if head.get("id") == task.id or (statement and statement == task.statement.strip()):
            raise TaskError("this task is one of the gym's shipped worked examples, whose gold "
                            "spec the image carries; it cannot be exported as a graded task",
                            file=str(task.root / "task.toml"))


def load_for_export(paths: Sequence[Path]) -> list[Task]:
    """Every task, checked for what an export needs; the first problem is an error naming
    the task."""
    tasks = [load_task(d) for d in discover_tasks(paths)]
    seen: dict[str, str] = {}
    for t in tasks:
        low = t.id.casefold()
        if low in seen:
            raise TaskError(f"two tasks share the id {t.id!r} (up to case); task folders are "
                            "named by id", file=str(t.root))
        seen[low] = t.id
        if recipe_for(t.language) is None:
            raise TaskError(f"the backend of {t.language!r} tasks gives no container recipe "
                            "(Backend.container_recipe): its tasks cannot be graded in an "
                            "image", file=str(t.root / "task.toml"))
        empty = untested_buckets(t)
        if empty:
            raise TaskError(f"bucket {', '.join(b.value for b in empty)} has no case, so no "
                            "spec (the gold one included) can pass it: run `adequacy cases "
                            "generate` and `adequacy mutate` on the task first",
                            file=str(t.root))
        refuse_foreign_files(t)
        spec_file_name(t)
        _refuse_shipped(t)
    return tasks


# ------------------------------------------------------------------ file contents


def case_line(c: Case) -> str:
    return c.model_dump_json(exclude={"line", "bucket"}, exclude_none=True)


def write_task_copy(task: Task, dest: Path, cases: Sequence[Case] | None) -> None:
    """A loadable copy of the task: with every case and task.toml as it is (``cases`` None),
    or with only ``cases`` and without its ``[constraints]`` (hints a spec writer is not
    meant to read off)."""
    dest.mkdir(parents=True)
    toml_text = (task.root / "task.toml").read_text(encoding="utf-8")
    if cases is not None:
        toml_text = _without_constraints(toml_text, task.root / "task.toml")
    (dest / "task.toml").write_text(toml_text, encoding="utf-8")
    (dest / "statement.md").write_text(task.statement, encoding="utf-8")
    skeleton = task.declared_files().skeleton
    shutil.copyfile(task.skeleton_path, dest / skeleton)
    (dest / "tests").mkdir()
    for b in BUCKETS:
        if cases is None:
            src = task.root / "tests" / f"{b.value}.jsonl"
            if src.is_file():
                shutil.copyfile(src, dest / "tests" / f"{b.value}.jsonl")
            continue
        mine = [c for c in cases if c.bucket == b]
        (dest / "tests" / f"{b.value}.jsonl").write_text(
            "".join(case_line(c) + "\n" for c in mine), encoding="utf-8")


def task_toml(task: Task, name: str, spec_path: str, n_visible: int, recipe: BackendRecipe,
              opts: HarborOptions) -> str:
    from adequacy.version import __version__

    counts = {b.value: len(task.cases.get(b, [])) for b in BUCKETS}
    description = (f"Write the {task.language} specification (precondition and postcondition) "
                   f"of: {task.title or task.id}. Graded by spec-adequacy on four buckets of "
                   "cases.")
    parts = [
        f"schema_version = {tw.string(SCHEMA_VERSION)}\n"
        f"artifacts = {tw.value([spec_path])}\n",
        tw.table("task", {"name": name, "description": description,
                          "keywords": ["spec-adequacy", "formal-specification", task.language,
                                       *task.tags]}),
        tw.table("metadata", {
            MARK: 1, "language": task.language, "title": task.title,
            "source_benchmark": task.provenance, "difficulty": task.difficulty,
            "tags": list(task.tags), "adequacy_version": __version__,
            "task_digest": task_content_hash(task), "spec_file": spec_path,
            "visible_cases": n_visible, "seed": opts.seed, "engines": list(recipe.engines),
            "strict": True, "every_input_valid": task.every_input_valid,
            "cases": counts, "reward": "1.0 when every bucket passes; the four bucket "
            "fractions beside it"}),
        tw.table("verifier", {"timeout_sec": float(opts.verifier_timeout),
                              "environment_mode": "separate", "network_mode": "no-network"}),
        tw.table("agent", {"timeout_sec": float(opts.agent_timeout), "user": "agent",
                           "network_mode": "no-network"}),
        tw.table("environment", {"build_timeout_sec": float(opts.build_timeout),
                                 "cpus": opts.cpus, "memory_mb": opts.memory_mb,
                                 "storage_mb": opts.storage_mb, "network_mode": "public",
                                 "workdir": f"{WORKSPACE}/{task.id}"}),
        tw.array_table("environment.mcp_servers", {
            "name": "spec-gym", "transport": "stdio", "command": "adequacy",
            "args": ["mcp", "--gym", WORKSPACE, "--task", task.id]}),
    ]
    return tw.checked("\n".join(parts))


def dockerfile(task: Task, wheel: str, n_visible: int, recipe: BackendRecipe,
               opts: HarborOptions) -> str:
    from adequacy.version import __version__

    lines = [
        f"# The agent's environment for the spec-adequacy task {task.id} (spec-adequacy "
        f"{__version__}).",
        "# It holds the visible cases only: the hidden ones arrive with tests/ at grading time,",
        "# in a separate verifier container.",
        f"FROM {opts.base_image}",
    ]
    if recipe.apt:
        lines.append("RUN apt-get update && apt-get install -y --no-install-recommends "
                     + " ".join(shlex.quote(a) for a in recipe.apt)
                     + " && rm -rf /var/lib/apt/lists/*")
    setup = f"RUN adequacy setup --backend {shlex.quote(recipe.backend)}"
    lines += [
        "COPY dist/ /opt/adequacy/dist/",
        "RUN python -m pip install --no-cache-dir -c /opt/adequacy/dist/constraints.txt "
        f"\"/opt/adequacy/dist/{wheel}[gym]\"",
        # each user keeps its own cache, grader key and gym ledger (the engines refuse a cache
        # folder another uid owns): root grades in the verifier's container, `agent` checks
        f"RUN useradd --create-home --shell /bin/bash agent && mkdir -p {WORKSPACE} "
        f"&& chown agent:agent {WORKSPACE}",
        "COPY task/ /opt/adequacy/task/",
        *([setup] if recipe.prepare else []),
        "USER agent",
        *([setup] if recipe.prepare else []),
        # the gym folder keeps its own visible-only copy of the task
        f"RUN adequacy gym make /opt/adequacy/task/{task.id} {WORKSPACE} --visible {n_visible} "
        f"--seed {opts.seed}",
        "USER root",
        # the source copy goes: `adequacy submit` (which would grade on visible cases only)
        # answers that the task is absent
        "RUN rm -rf /opt/adequacy/task",
        f"WORKDIR {WORKSPACE}/{task.id}",
    ]
    return "\n".join(lines) + "\n"


def test_sh(task: Task, spec_path: str, recipe: BackendRecipe) -> str:
    engines = " ".join(f"--engine {shlex.quote(e)}" for e in recipe.engines)
    spec_arg = shlex.quote(spec_path)
    return f"""#!/bin/bash
# Grades {spec_path} on every case of the task. The hidden cases arrive with this folder
# (/tests/task) after the agent has finished, in a fresh container of the task's image
# (verifier.environment_mode = "separate"): only the spec file is carried over from the
# agent's container. Writes /logs/verifier/reward.json (numbers only: reward and the four
# bucket fractions), ctrf.json (one test per case) and adequacy-report.json (the full report).
set -uo pipefail
mkdir -p /logs/verifier
exec python3 -m adequacy.ecosystem.harbor_verifier --task /tests/task --spec {spec_arg} \\
    {engines} --out /logs/verifier
"""


def solve_sh(gold_text: str, spec_path: str) -> str:
    mark = "ADEQUACY_GOLD_SPEC"
    lines = set(gold_text.splitlines())
    while mark in lines:
        mark += "_"
    body = gold_text if gold_text.endswith("\n") else gold_text + "\n"
    return (f"#!/bin/bash\n# The task's gold spec: what `harbor run -a oracle` writes before "
            f"grading.\nset -euo pipefail\ncat > {shlex.quote(spec_path)} <<'{mark}'\n{body}"
            f"{mark}\n")


def instruction_md(task: Task, spec_file: str, n_visible: int) -> str:
    folder = f"{WORKSPACE}/{task.id}"
    return f"""# Write the {task.language} specification of {task.title or task.id}

Your working folder is `{folder}`. Complete `{folder}/{spec_file}`: write the precondition
(which inputs the function promises to handle) and the postcondition (which outputs are
correct for such an input), so that the spec says exactly what the statement below says.
`INSTRUCTIONS.md` in that folder explains the spec file's format and `LANGUAGE_NOTES.md` what
the spec language and our engines accept; `example/` is a worked example on another task.

## The statement

{task.statement.strip()}

## How your spec is graded

{BUCKETS_TEXT}
## Checking your work

- `adequacy check` (run it in `{folder}`) scores your spec on {n_visible} visible case(s),
  listed in `visible_cases.jsonl`, and prints each failing case with the engine's reason, or
  the line of a syntax or type error. Visible cases are valid inputs and correct outputs only;
  run it as often as you like.
- Agents with MCP support also have the `spec-gym` server: `check`, `read_file`,
  `list_tasks`.

## When you are done

Leave your spec in `{folder}/{spec_file}`: after you stop, that file alone is graded on every
case, visible and hidden, in a fresh container. The hidden cases are not in this environment,
so `adequacy submit` does not work here; nothing else you write is kept.
"""


# ------------------------------------------------------------------ digests (Harbor's packager)


def packaged_files(task_dir: Path) -> list[Path]:
    """The files Harbor's packager hashes: task.toml, instruction.md, and everything under
    environment/, tests/ and solution/ (an export writes nothing its ignore rules drop)."""
    files = [task_dir / n for n in ("task.toml", "instruction.md", "README.md",
                                    "trajectory.json") if (task_dir / n).is_file()]
    for sub in ("environment", "tests", "solution", "steps"):
        root = task_dir / sub
        if root.is_dir():
            files += [p for p in root.rglob("*") if p.is_file()]
    return sorted(files, key=lambda p: p.relative_to(task_dir).as_posix())


def _file_sha(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def task_digest(task_dir: Path) -> str:
    """``sha256:<hex>`` of a task folder, as ``harbor``'s ``Packager.compute_content_hash``
    (a test checks the two agree)."""
    outer = hashlib.sha256()
    for f in packaged_files(task_dir):
        outer.update(f"{f.relative_to(task_dir).as_posix()}\0{_file_sha(f)}\n".encode())
    return "sha256:" + outer.hexdigest()


METRIC_PY = '''# /// script
# dependencies = []
# ///
"""The spec-adequacy dataset metric (Harbor's uv-script metric: -i rewards.jsonl -o metric.json).

Each line of the input is one trial's reward.json (reward and the four bucket fractions), or
null for a trial that ended without a reward (an error, a timeout before grading). A trial
without a reward counts 0 everywhere, as in Harbor's own mean: were it left out, a spec that
makes grading fail on the tasks it would do badly on would raise the means.
"""

import argparse
import json
from pathlib import Path

BUCKETS = ("pre_complete", "pre_sound", "post_complete", "post_sound")


def main(input_path: Path, output_path: Path) -> None:
    rows = [json.loads(line) for line in input_path.read_text().splitlines() if line.strip()]
    graded = [r for r in rows if isinstance(r, dict)]
    out = {"trials": len(rows), "graded": len(graded), "ungraded": len(rows) - len(graded),
           # a trial without a reward did not solve its task
           "solved_rate": (sum(1 for r in graded if r.get("reward") == 1.0) / len(rows))
           if rows else 0.0}
    for b in BUCKETS:
        values = [r.get(b, 0.0) if isinstance(r, dict) else 0.0 for r in rows]
        out[f"{b}_mean"] = sum(values) / len(values) if values else 0.0
    output_path.write_text(json.dumps(out))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("-i", "--input-path", type=Path, required=True)
    parser.add_argument("-o", "--output-path", type=Path, required=True)
    args = parser.parse_args()
    main(args.input_path, args.output_path)
'''


def dataset_toml(org: str, out_name: str, tasks: Sequence[tuple[str, str]],
                 metric_digest: str) -> str:
    from adequacy.version import __version__

    name = f"{org}/{re.sub(r'[^A-Za-z0-9._-]', '-', out_name).lstrip('.-_') or 'tasks'}"
    parts = [tw.table("dataset", {
        "name": name, "description": f"{len(tasks)} spec-adequacy tasks: write a formal "
        "specification, graded on four buckets of cases (spec-adequacy "
        f"{__version__}).", "keywords": ["spec-adequacy", "formal-specification"]})]
    parts += [tw.array_table("tasks", {"name": n, "digest": d}) for n, d in tasks]
    parts.append(tw.array_table("files", {"path": "metric.py", "digest": metric_digest}))
    return tw.checked("\n".join(parts))


# ------------------------------------------------------------------ the export


def _ours(folder: Path) -> bool:
    try:
        head = tomllib.loads((folder / "task.toml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    return isinstance(head.get("metadata"), dict) and MARK in head["metadata"]


def _prepare(folder: Path, force: bool) -> None:
    if not os.path.lexists(folder):
        return
    if not force:
        raise TaskError("exists (use --force to replace a folder this command wrote)",
                        file=str(folder))
    if folder.is_symlink() or not folder.is_dir() or not _ours(folder):
        raise TaskError("exists and is not a task folder `adequacy export harbor` wrote; "
                        "--force replaces only those, remove it yourself", file=str(folder))
    shutil.rmtree(folder)


def export_task(task: Task, out: Path, wheel: Path, constraints_text: str,
                opts: HarborOptions) -> ExportedTask:
    recipe = recipe_for(task.language)
    assert recipe is not None  # load_for_export refused the task otherwise
    name = harbor_name(opts.org, task.id)
    folder = out / task.id
    if folder.parent != out:
        raise TaskError(f"task id {task.id!r} is not a folder name inside {out}")
    _prepare(folder, opts.force)
    spec_file = spec_file_name(task)
    spec_path = f"{WORKSPACE}/{task.id}/{spec_file}"
    visible = draw_visible(task, opts.visible, opts.seed)
    tmp = Path(tempfile.mkdtemp(prefix=f".{task.id}.", dir=out))
    try:
        env = tmp / "environment"
        (env / "dist").mkdir(parents=True)
        shutil.copyfile(wheel, env / "dist" / wheel.name)
        (env / "dist" / "constraints.txt").write_text(constraints_text, encoding="utf-8")
        write_task_copy(task, env / "task" / task.id, visible)
        (env / "Dockerfile").write_text(dockerfile(task, wheel.name, len(visible), recipe, opts),
                                        encoding="utf-8")
        tests = tmp / "tests"
        write_task_copy(task, tests / "task", None)
        (tests / "test.sh").write_text(test_sh(task, spec_path, recipe), encoding="utf-8")
        gold = gold_spec(task)
        if gold is not None:
            (tmp / "solution").mkdir()
            (tmp / "solution" / "solve.sh").write_text(
                solve_sh(gold.read_text(encoding="utf-8"), spec_path), encoding="utf-8")
        for script in (tests / "test.sh", tmp / "solution" / "solve.sh"):
            if script.is_file():
                script.chmod(0o755)
        (tmp / "instruction.md").write_text(instruction_md(task, spec_file, len(visible)),
                                            encoding="utf-8")
        (tmp / "task.toml").write_text(task_toml(task, name, spec_path, len(visible), recipe,
                                                 opts), encoding="utf-8")
        tmp.chmod(0o755)
        tmp.rename(folder)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return ExportedTask(task_id=task.id, name=name, folder=str(folder),
                        digest=task_digest(folder), visible=len(visible),
                        has_solution=gold is not None)


def export_harbor(paths: Sequence[Path], out: Path, opts: HarborOptions | None = None,
                  progress: Callable[[str], None] | None = None) -> HarborExport:
    """Write one Harbor task folder per task under ``out``, then ``dataset.toml`` and
    ``metric.py``. Every task is checked before anything is written; ``progress`` hears of
    the slow steps (building the wheel, each task)."""
    opts = opts or HarborOptions()
    tasks = load_for_export(paths)
    for t in tasks:
        harbor_name(opts.org, t.id)
    if opts.wheel is not None:
        check_wheel(opts.wheel)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InputError(f"cannot make the folder: {e.strerror}", file=str(out)) from None
    root = out.resolve()
    for t in tasks:
        if os.path.lexists(root / t.id) and not opts.force:
            raise TaskError("exists (use --force to replace a folder this command wrote)",
                            file=str(root / t.id))
    text, _missing = constraints(("gym",))
    with tempfile.TemporaryDirectory(prefix="adequacy-export-") as tmp:
        if opts.wheel is None and progress:
            progress("building the spec-adequacy wheel the images install ...")
        built = opts.wheel if opts.wheel is not None else build_wheel(Path(tmp) / "built")
        wheel, _dropped = image_wheel(built, Path(tmp) / "image", bundled_in_wheel())
        done = []
        for i, t in enumerate(tasks, 1):
            if progress:
                progress(f"exporting {i}/{len(tasks)} {t.id}")
            done.append(export_task(t, root, wheel, text, opts))
        wheel_name = wheel.name
    write_dataset(root, opts.org)
    return HarborExport(out=str(out), wheel=wheel_name, tasks=done)


def write_dataset(root: Path, org: str) -> None:
    """``metric.py`` and ``dataset.toml`` listing every task folder this command wrote in
    ``root`` (an earlier export into the same folder included), with fresh digests."""
    (root / "metric.py").write_text(METRIC_PY, encoding="utf-8")
    listed = []
    for d in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        if not _ours(d):
            continue
        head = tomllib.loads((d / "task.toml").read_text(encoding="utf-8"))
        listed.append((str(head["task"]["name"]), task_digest(d)))
    (root / "dataset.toml").write_text(
        dataset_toml(org, root.name, listed, "sha256:" + _file_sha(root / "metric.py")),
        encoding="utf-8")
