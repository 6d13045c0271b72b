"""The gym's tools over the Model Context Protocol (official ``mcp`` SDK, 2.x).

The descriptions are written for the model that reads them: they are its only manual. Each tool
is a thin call into ``GymTools``, which confines paths to the task's folder and never touches a
hidden case except through ``submit``'s aggregate grade.
"""

from __future__ import annotations

from pathlib import Path

from mcp.server.mcpserver import MCPServer

from adequacy.gym.tools import GymTools

SERVER_INSTRUCTIONS = """\
Spec-writing tasks. Each task asks you to write a formal specification (a precondition and a
postcondition, in the spec language its INSTRUCTIONS.md names) that says exactly what its
statement says. Start with list_tasks, read
the task's INSTRUCTIONS.md, statement.md, the spec file and visible_cases.jsonl with read_file,
write your spec, call check until it passes the visible cases, think about invalid inputs and
wrong outputs the hidden cases will try, then submit once."""


def build_server(root: Path, allow_again: bool = False, task: str | None = None) -> MCPServer:
    tools = GymTools(root, allow_again=allow_again, only=task)
    server: MCPServer = MCPServer(name="spec-adequacy-gym", instructions=SERVER_INSTRUCTIONS)

    @server.tool()
    def list_tasks() -> str:
        """List the tasks in this gym as JSON: task_id, language (the spec language), title, the
        spec file to complete, how many visible cases, how many checks so far, and whether it
        was submitted. Call this first."""
        return tools.list_tasks()

    @server.tool()
    def read_file(task_id: str, path: str = "") -> str:
        """Read a file of a task's folder, or list a folder when path is empty or names a
        folder. Useful files: INSTRUCTIONS.md (read first), statement.md, the spec file
        (list_tasks names it), visible_cases.jsonl, LANGUAGE_NOTES.md and example/ (a
        solved different task). path is relative to the task's folder."""
        return tools.read_file(task_id, path)

    @server.tool()
    def check(task_id: str, spec: str | None = None) -> str:
        """Score a spec on the task's visible cases and get detailed feedback: for each case
        whether your precondition/postcondition accepted or rejected it and whether it had to,
        the case's input and output, the engine's reason, or the line of a syntax or type
        error. spec is the whole spec file's text (the skeleton with your pre/post filled in);
        omit it to check the file in the folder. Free to call as often as you like."""
        return tools.check(task_id, spec)

    @server.tool()
    def verify(task_id: str, spec: str | None = None) -> str:
        """Tasks whose language has a prover only (INSTRUCTIONS.md says so): try to prove that
        the method's body satisfies your contract. 'verified' does not mean the contract is
        strong enough (check and the hidden cases judge that); 'not verified' lists open goals
        and may only need a loop invariant. spec: the whole spec file; omit it to use the
        folder's."""
        return tools.verify(task_id, spec)

    @server.tool()
    def submit(task_id: str, spec: str | None = None) -> str:
        """Submit your final spec for grading on all cases, most of them hidden: returns how
        many cases of each bucket passed and whether all did. You can submit a task once, so
        check first. spec: the whole spec file's text; omit it to submit the folder's file."""
        return tools.submit(task_id, spec)

    return server


def serve(root: Path, transport: str = "stdio", host: str = "127.0.0.1", port: int = 8765,
          allow_again: bool = False, task: str | None = None) -> None:
    server = build_server(root, allow_again, task)
    if transport == "streamable-http":
        server.run("streamable-http", host=host, port=port)
    else:
        server.run("stdio")
