"""The gym's tools over the Model Context Protocol (official ``mcp`` SDK, 2.x).

The descriptions are written for the model that reads them: they are its only manual. Each tool
is a thin call into ``GymTools``, which confines paths to the task's folder and never touches a
hidden case except through ``submit``'s aggregate grade.

SDK idioms, so a client can act on results without parsing prose: a failed call raises
``ToolError`` (the client sees ``isError``), ``list_tasks``/``check``/``submit`` return a
structured result (with an output schema) beside the text the model reads, every tool carries
annotations (read-only vs the one-shot ``submit``), and ``verify`` is offered only when a served
task's language has a prover installed here.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel

from adequacy.errors import ToolFailed
from adequacy.gym.proving import can_verify
from adequacy.gym.session import grade_text
from adequacy.gym.tools import GymTools
from adequacy.model.verdicts import BUCKETS


class TaskRow(BaseModel):
    task_id: str
    language: str
    title: str
    spec_file: str
    visible_cases: int
    checks: int
    submitted: bool


class TaskList(BaseModel):
    tasks: list[TaskRow]


class CheckOutput(BaseModel):
    task_id: str
    status: str
    """scored | invalid | error (on the visible cases only)"""
    passed_all: bool
    feedback: str


class BucketGrade(BaseModel):
    passed: int
    total: int
    unknown: int = 0


class SubmitOutput(BaseModel):
    """Counts per bucket only: a grade never names a hidden case."""

    task_id: str
    status: str
    passed_all: bool
    submission: int
    buckets: dict[str, BucketGrade]
    grade: str


READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
COUNTED = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False,
                          open_world_hint=False)
"""``check`` changes nothing the agent works on, but each call is counted in the folder."""
ONE_SHOT = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False,
                           open_world_hint=False)
"""``submit`` spends the task's one submission: calling it again is refused, not repeated."""
SHELL = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False,
                        open_world_hint=False)
"""``bash`` may change or delete the agent's files (never the gym's own state)."""

T = TypeVar("T")


def _call(tool: Callable[..., T], *args: str | None) -> T:
    """Run a raising gym tool; its ``ToolFailed`` becomes the SDK's ``ToolError`` (the client
    sees ``isError`` and the reason)."""
    try:
        return tool(*args)
    except ToolFailed as e:
        raise ToolError(str(e)) from None


def _result(text: str, data: BaseModel) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)],
                          structured_content=data.model_dump(mode="json"))

SERVER_INSTRUCTIONS = """\
Spec-writing tasks. Each task asks you to write a formal specification (a precondition and a
postcondition, in the spec language its INSTRUCTIONS.md names) that says exactly what its
statement says. Start with list_tasks, read
the task's INSTRUCTIONS.md, statement.md, the spec file and visible_cases.jsonl with read_file,
write your spec, call check until it passes the visible cases, think about invalid inputs and
wrong outputs the hidden cases will try, then submit once."""


class OneLine(logging.Formatter):
    """A log record on one line: a failed tool call's reason (text an agent chose) and an
    exception's message are joined with `` | ``; the traceback of an unexpected exception
    only with ``ADEQUACY_DEBUG=1``. The SDK's default handler drew each record as a box
    wrapped over several lines, unreadable in a log and in a client's stderr pane."""

    def format(self, record: logging.LogRecord) -> str:
        text = f"{self.formatTime(record, '%H:%M:%S')} {record.levelname} {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            text += f": {type(exc).__name__}: {exc}"
            if os.environ.get("ADEQUACY_DEBUG") == "1":
                text += "\n" + self.formatException(record.exc_info)
                return text
        return " | ".join(part.strip() for part in text.splitlines() if part.strip())


def one_line_logging() -> None:
    """Replace the root handlers the SDK installs (rich boxes) with one line per record on
    stderr (stdout is the stdio transport's)."""
    root = logging.getLogger()
    for h in list(root.handlers):
        root.removeHandler(h)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(OneLine())
    root.addHandler(handler)


def build_server(root: Path, allow_again: bool = False, task: str | None = None,
                 shell: bool = False) -> MCPServer:
    from adequacy.version import __version__

    tools = GymTools(root, allow_again=allow_again, only=task)
    server: MCPServer = MCPServer(name="spec-adequacy-gym", version=__version__,
                                  instructions=SERVER_INSTRUCTIONS)

    @server.tool(annotations=READ_ONLY)
    def list_tasks() -> Annotated[CallToolResult, TaskList]:
        """List the tasks in this gym as JSON: task_id, language (the spec language), title, the
        spec file to complete, how many visible cases, how many checks so far, and whether it
        was submitted. Call this first."""
        rows = _call(tools.list_rows)
        return _result(json.dumps(rows, indent=1),
                       TaskList(tasks=[TaskRow.model_validate(r) for r in rows]))

    @server.tool(annotations=READ_ONLY)
    def read_file(task_id: str, path: str = "") -> str:
        """Read a file of a task's folder, or list a folder when path is empty or names a
        folder. Useful files: INSTRUCTIONS.md (read first), statement.md, the spec file
        (list_tasks names it), visible_cases.jsonl, LANGUAGE_NOTES.md and example/ (a
        solved different task). path is relative to the task's folder."""
        return _call(tools.read_file_result, task_id, path)

    @server.tool(annotations=COUNTED)
    def check(task_id: str, spec: str | None = None) -> Annotated[CallToolResult, CheckOutput]:
        """Score a spec on the task's visible cases and get detailed feedback: for each case
        whether your precondition/postcondition accepted or rejected it and whether it had to,
        the case's input and output, the engine's reason, or the line of a syntax or type
        error. spec is the whole spec file's text (the skeleton with your pre/post filled in);
        omit it to check the file in the folder. Free to call as often as you like."""
        r = _call(tools.check_result, task_id, spec)
        return _result(r.text, CheckOutput(task_id=task_id, status=r.report.status,
                                           passed_all=r.report.passed_all, feedback=r.text))

    if any(can_verify(lang) for lang in tools.languages()):
        @server.tool(annotations=READ_ONLY)
        def verify(task_id: str, spec: str | None = None) -> str:
            """Tasks whose language has a prover only (INSTRUCTIONS.md says so): try to prove
            that the method's body satisfies your contract. 'verified' does not mean the
            contract is strong enough (check and the hidden cases judge that); 'not verified'
            lists open goals and may only need a loop invariant. spec: the whole spec file;
            omit it to use the folder's."""
            return _call(tools.verify_result, task_id, spec)

    @server.tool(annotations=ONE_SHOT)
    def submit(task_id: str, spec: str | None = None) -> Annotated[CallToolResult, SubmitOutput]:
        """Submit your final spec for grading on all cases, most of them hidden: returns how
        many cases of each bucket passed and whether all did. You can submit a task once, so
        check first. spec: the whole spec file's text; omit it to submit the folder's file."""
        rec = _call(tools.submit_record, task_id, spec)
        buckets = {b.value: BucketGrade(passed=s.passed, total=s.total, unknown=s.unknown)
                   for b in BUCKETS if (s := rec.buckets.get(b)) is not None and s.total}
        text = grade_text(rec)
        return _result(text, SubmitOutput(task_id=rec.task_id, status=rec.status,
                                          passed_all=rec.passed_all, submission=rec.submission,
                                          buckets=buckets, grade=text))

    if shell:
        @server.tool(annotations=SHELL)
        def bash(task_id: str, command: str, timeout: float = 60.0) -> str:
            """Run a shell command (bash -c) in the task's folder: list, read, edit and create
            files, run the tools installed here. It runs in a sandbox that sees only this task's
            folder (gym.json and .gym/ excluded), without network; the files it leaves are kept
            (symbolic links are not). timeout: seconds, at most 600."""
            return _call(lambda: tools.shell_result(task_id, command, timeout))

    return server


def serve(root: Path, transport: str = "stdio", host: str = "127.0.0.1", port: int = 8765,
          allow_again: bool = False, task: str | None = None, shell: bool = False) -> None:
    server = build_server(root, allow_again, task, shell)
    one_line_logging()
    if transport == "streamable-http":
        server.run("streamable-http", host=host, port=port)
    else:
        server.run("stdio")
