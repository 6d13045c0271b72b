"""The gym on a third-party language: ``gym make``, ``check``, ``submit`` (CLI, through the
toy distribution installed like any plugin) and the MCP tools, with no edit outside the toy
package. Expected grades worked out by hand from the toy task: the faithful spec
``pre: x >= 0`` / ``post: result == x + 1`` passes all 11 cases; ``pre: x >= 0`` alone
accepts every output, so it fails both post_sound cases, (0,0) and (3,5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from toy_support import GOLD, run_cli, toy_task_with_visible


@pytest.fixture
def sources(tmp_path: Path) -> Path:
    toy_task_with_visible(tmp_path / "src" / "toy_succ")
    return tmp_path / "src"


@pytest.mark.slow
def test_gym_make_check_submit_cli_on_toy(installed_toy: Path, sources: Path,
                                          tmp_path: Path) -> None:
    out = tmp_path / "gym"
    r = run_cli(["gym", "make", str(sources), str(out), "--visible", "2"], installed_toy)
    assert r.returncode == 0, r.stderr
    folder = out / "toy_succ"
    assert (folder / "skeleton.toy").is_file() and "Toy spec" in (
        folder / "INSTRUCTIONS.md").read_text()
    (folder / "skeleton.toy").write_text("pre: x >= 0\n")
    r = run_cli(["check"], installed_toy, cwd=folder)
    assert r.returncode == 0, r.stderr
    assert "2 of 2 visible cases passed" in r.stdout
    r = run_cli(["submit", str(folder)], installed_toy)
    assert r.returncode == 1 and "post_sound 0/2" in r.stdout, r.stdout + r.stderr
    assert "Traceback" not in r.stderr


def test_mcp_tools_on_toy(toy: None, sources: Path, tmp_path: Path) -> None:
    pytest.importorskip("mcp", reason="the MCP server needs the gym extra")
    import anyio

    from adequacy.gym import make_gym
    from adequacy.gym.mcp_server import build_server

    make_gym([sources], tmp_path / "gym", visible=2, seed=0)
    server = build_server(tmp_path / "gym")

    async def session() -> dict[str, str]:
        names = {t.name for t in await server.list_tools()}
        assert {"list_tasks", "read_file", "check", "verify", "submit"} <= names
        out = {}
        for tool, args in (("list_tasks", {}),
                           ("read_file", {"task_id": "toy_succ", "path": "LANGUAGE_NOTES.md"}),
                           ("check", {"task_id": "toy_succ", "spec": GOLD}),
                           ("verify", {"task_id": "toy_succ", "spec": GOLD}),
                           ("submit", {"task_id": "toy_succ", "spec": GOLD})):
            res = await server.call_tool(tool, args)
            out[tool] = "\n".join(getattr(c, "text", "") for c in res.content)
        return out

    out = anyio.run(session)
    assert '"language": "toy"' in out["list_tasks"] and "skeleton.toy" in out["list_tasks"]
    assert "Toy language" in out["read_file"]
    assert "2 of 2 visible cases passed" in out["check"]
    assert "verified" in out["verify"]  # toyprove: verified when the spec has a pre: line
    assert "post_sound 2/2" in out["submit"] and "PASS: yes" in out["submit"]
