"""The MCP server says which version it is, and logs a failed tool call on one line.

Before: ``serverInfo.version`` was empty (a client could not tell two releases apart), and
each failed call was a rich box wrapped over several lines of the server's stderr."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp", reason="the MCP server needs the gym extra: pip install -e '.[gym]'")
import anyio  # noqa: E402
from mcp import Client, ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

from adequacy import __version__  # noqa: E402
from adequacy.gym.mcp_server import build_server  # noqa: E402


def test_the_server_reports_the_package_version(gym: Path) -> None:
    async def go() -> str:
        async with Client(build_server(gym)) as client:
            return client.server_info.version

    version = anyio.run(go)
    assert version == __version__ and version


@pytest.mark.slow
def test_a_failed_tool_call_is_one_line_of_the_servers_log(gym: Path) -> None:
    log = gym.parent / "server.log"
    reason = "no task 'no_such_task'"

    async def go() -> tuple[str, bool]:
        params = StdioServerParameters(command=sys.executable,
                                       args=["-m", "adequacy", "mcp", "--gym", str(gym)],
                                       env={"COLUMNS": "60"})
        with log.open("w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write), \
                    ClientSession(read, write) as session:
                init = await session.initialize()
                res = await session.call_tool("read_file", {"task_id": "no_such_task",
                                                            "path": "statement.md"})
                return init.server_info.version, bool(res.is_error)

    version, failed = anyio.run(go)
    assert version == __version__ and failed
    lines = [ln for ln in log.read_text().splitlines() if ln.strip()]
    hits = [ln for ln in lines if "read_file" in ln]
    assert len(hits) == 1 and reason in hits[0] and "failed" in hits[0], lines
    assert not any(ch in "".join(lines) for ch in "╭╰│"), lines  # no boxes
