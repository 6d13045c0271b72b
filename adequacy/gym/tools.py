"""The gym's tools as plain functions over a folder of gym folders: what the MCP server and the
spec-writing agent both call.

Each tool comes twice: ``*_result`` (or ``list_rows``) does the work and raises ``ToolFailed``
with a message safe for the model; the plain name returns text and never raises, a failure
being one line ``error: ...`` (what the agent reads). The MCP server calls the raising ones and
turns ``ToolFailed`` into ``ToolError``, so no caller reads a failure back out of prose. Paths are resolved and must
stay inside the task's gym folder, so neither ``../`` nor a symlink reaches a source task.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from adequacy.errors import AdequacyError, PrivatePath, ToolFailed
from adequacy.extensions.backend import Limits
from adequacy.gym.manifest import MANIFEST, read_manifest
from adequacy.gym.private import agent_path, listing
from adequacy.gym.proving import can_verify, verify_text
from adequacy.gym.session import (
    CheckResult,
    GymRecord,
    check,
    grade_text,
    spec_text_of,
    submit,
    visible_task,
)
from adequacy.gym.state import read_state
from adequacy.scoring.verification import why_no_prover

MAX_READ_CHARS = 100_000
ERROR_PREFIX = "error: "
"""How the text tools begin a failure line (for the agent, which reads text only)."""


class GymTools:
    """Tools over ``root``, a folder made by ``adequacy gym make`` (or one gym folder)."""

    def __init__(self, root: Path, limits: Limits | None = None, allow_again: bool = False,
                 only: str | None = None):
        self.root = root.resolve()
        self.limits = limits
        self.allow_again = allow_again
        self.only = only
        """Bind the tools to one task: the others are not listed, read, checked or submitted."""
        self.last_grade: GymRecord | None = None

    def folders(self) -> dict[str, Path]:
        found = self._all_folders()
        return found if self.only is None else {k: v for k, v in found.items() if k == self.only}

    def _all_folders(self) -> dict[str, Path]:
        if (self.root / MANIFEST).is_file():
            return {read_manifest(self.root).task_id: self.root}
        out = {}
        for d in sorted(self.root.iterdir()) if self.root.is_dir() else []:
            if (d / MANIFEST).is_file():
                try:
                    out[read_manifest(d).task_id] = d
                except AdequacyError:
                    continue
        return out

    def _folder(self, task_id: str) -> Path:
        found = self.folders()
        if not isinstance(task_id, str) or task_id not in found:
            shown = ", ".join(list(found)[:20])
            raise AdequacyError(f"no task {str(task_id)[:80]!r} here (tasks: {shown})")
        return found[task_id]

    def list_tasks(self) -> str:
        return json.dumps(self.list_rows(), indent=1)

    def list_rows(self) -> list[dict[str, object]]:
        """One row per task that reads: id, language, title, spec file, counts so far."""
        rows: list[dict[str, object]] = []
        for tid, d in self.folders().items():
            try:
                m = read_manifest(d)
                st = read_state(d)
                title = visible_task(d).title
            except AdequacyError:
                continue  # a broken folder is not a task to work on
            rows.append({"task_id": tid, "language": m.language, "title": title,
                         "spec_file": m.spec_file, "visible_cases": len(m.visible),
                         "checks": st.checks, "submitted": st.submissions > 0})
        return rows

    def read_file(self, task_id: str, path: str = "") -> str:
        return _as_text(self.read_file_result, task_id, path)

    def read_file_result(self, task_id: str, path: str = "") -> str:
        """The file's text or the folder's listing; ``ToolFailed`` saying why not."""
        try:
            folder = self._folder(task_id).resolve()
            if not isinstance(path, str):
                raise ToolFailed("path must be text, e.g. statement.md")
            rel = path or "."
            try:
                target = agent_path(folder, rel)
            except PrivatePath as e:
                raise ToolFailed(f"{e}; give a path relative to the task's folder, e.g. "
                                 "statement.md") from None
            if self._example_of_served_task(folder, target):
                raise ToolFailed(f"{str(path)[:200]!r} is a worked example taken from a task "
                                 "this gym also grades; it is withheld")
            if target.is_dir():
                return "\n".join(listing(folder, rel))
            if not target.is_file():
                raise ToolFailed(f"no file {str(path)[:200]!r} in {task_id}")
            text = target.read_text(encoding="utf-8", errors="replace")
            if len(text) > MAX_READ_CHARS:
                text = text[:MAX_READ_CHARS] + f"\n... (cut at {MAX_READ_CHARS} characters)"
            return text
        except ToolFailed:
            raise
        except (AdequacyError, OSError, ValueError) as e:
            raise ToolFailed(str(e)[:300]) from None

    def _example_of_served_task(self, folder: Path, target: Path) -> bool:
        """A folder made by an older ``gym make`` (or with ``--examples`` naming the batch) can
        hold a served task's gold spec in ``example/``: reading it would give that task away."""
        if not target.is_relative_to(folder / "example"):
            return False
        try:
            ex = read_manifest(folder).example_task
        except AdequacyError:
            return True
        return ex is not None and ex in self._all_folders()

    def check(self, task_id: str, spec: str | None = None) -> str:
        return _as_text(lambda: self.check_result(task_id, spec).text)

    def check_result(self, task_id: str, spec: str | None = None) -> CheckResult:
        """``check`` with its report, for callers that return structured results; raises
        ``ToolFailed`` where ``check`` returns an error line."""
        try:
            return check(self._folder(task_id), spec, self.limits)
        except AdequacyError as e:
            raise ToolFailed(str(e)[:500]) from None
        except Exception as e:  # noqa: BLE001 - a bug of ours; the task copy holds visible cases only
            raise ToolFailed(f"internal error ({type(e).__name__}: {str(e)[:300]})") from None

    def verify(self, task_id: str, spec: str | None = None) -> str:
        return _as_text(self.verify_result, task_id, spec)

    def verify_result(self, task_id: str, spec: str | None = None) -> str:
        """The prover's answer on the spec; ``ToolFailed`` when there is no prover or the call
        is wrong."""
        try:
            folder = self._folder(task_id)
            m = read_manifest(folder)
            if not can_verify(m.language):
                raise ToolFailed(f"no prover for {m.language} tasks is installed here "
                                 f"({why_no_prover(m.language)})")
            text = spec_text_of(folder, m, spec)
            return verify_text(visible_task(folder), text, m.spec_file,
                               self.limits or Limits(spec_seconds=120.0))
        except ToolFailed:
            raise
        except AdequacyError as e:
            raise ToolFailed(str(e)[:500]) from None
        except Exception as e:  # noqa: BLE001 - a bug of ours; the prover sees no case
            raise ToolFailed(f"internal error ({type(e).__name__}: {str(e)[:300]})") from None

    def submit(self, task_id: str, spec: str | None = None) -> str:
        return _as_text(lambda: grade_text(self.submit_record(task_id, spec)))

    def submit_record(self, task_id: str, spec: str | None = None) -> GymRecord:
        """``submit`` with its grade record; raises ``ToolFailed`` where ``submit`` returns an
        error line."""
        try:
            rec = submit(self._folder(task_id), spec, again=self.allow_again,
                         limits=self.limits)
        except AdequacyError as e:
            # raised before grading (unknown task, already submitted, changed source task)
            raise ToolFailed(str(e)[:500]) from None
        except Exception:  # noqa: BLE001 - after grading a message can quote a hidden case
            raise ToolFailed("internal error while submitting (details withheld)") from None
        self.last_grade = rec
        return rec

    def languages(self) -> set[str]:
        """The spec languages of the tasks served (the server offers ``verify`` only where one
        of them has a prover here)."""
        found = set()
        for d in self.folders().values():
            try:
                found.add(read_manifest(d).language)
            except AdequacyError:
                continue
        return found

    def shell(self, task_id: str, command: str, timeout: float = 60.0) -> str:
        return _as_text(lambda: self.shell_result(task_id, command, timeout))

    def shell_result(self, task_id: str, command: str, timeout: float = 60.0) -> str:
        """Run ``command`` with ``bash -c`` in the sandbox, in a copy of the task's gym folder
        (``adequacy.gym.shell``): the MCP ``bash`` tool, offered only when the server is
        started with ``--shell``. ``ToolFailed`` when it cannot run."""
        from adequacy.gym.shell import run_shell
        if not isinstance(command, str) or not command.strip():
            raise ToolFailed("give a command, e.g. ls")
        if len(command) > 100_000:
            raise ToolFailed("the command is longer than 100,000 characters")
        try:
            return run_shell(self._folder(task_id), ["bash", "-c", command],
                             timeout=min(max(timeout, 1.0), 600.0),
                             withheld=list(self._all_folders().values())).text()
        except AdequacyError as e:
            raise ToolFailed(str(e)[:500]) from None
        except OSError as e:
            raise ToolFailed(f"the shell could not run: {e.strerror or e}") from None

def _as_text(tool: Callable[..., str], *args: str | None) -> str:
    """A raising tool's answer as text for the agent: its result, or ``error: <why>``."""
    try:
        return tool(*args)
    except ToolFailed as e:
        return ERROR_PREFIX + str(e)
