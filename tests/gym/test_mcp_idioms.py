"""The MCP server's SDK idioms, through the SDK's own in-process client: failures are ``isError``
results (``ToolError``), results carry structured content matching the advertised output schema,
tools carry annotations, and ``verify`` is offered only where a served language has a prover."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the MCP server needs the gym extra: pip install -e '.[gym]'")
import anyio  # noqa: E402
from mcp import Client  # noqa: E402

from adequacy.gym.mcp_server import build_server  # noqa: E402
from adequacy.gym.proving import can_verify  # noqa: E402

from .conftest import JML  # noqa: E402

GOLD_ABS = (JML / "abs_value" / "specs" / "gold.java").read_text()


def _run(gym: Path, calls: list[tuple[str, dict[str, Any]]], task: str | None = None
         ) -> tuple[dict[str, Any], list[Any]]:
    async def go() -> tuple[dict[str, Any], list[Any]]:
        async with Client(build_server(gym, task=task)) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            return tools, [await client.call_tool(n, a) for n, a in calls]
    return anyio.run(go)


def test_failures_are_error_results_not_text(gym: Path) -> None:
    _, res = _run(gym, [("read_file", {"task_id": "no_such_task", "path": "statement.md"}),
                        ("read_file", {"task_id": "jml_abs_value", "path": "../../etc"}),
                        ("check", {"task_id": "no_such_task"}),
                        ("submit", {"task_id": "no_such_task"}),
                        ("read_file", {"task_id": "jml_abs_value", "path": "statement.md"})])
    for r in res[:4]:
        assert r.is_error is True
        assert not r.content[0].text.startswith("error:")  # the flag says it, not the prose
    assert "no task 'no_such_task'" in res[0].content[0].text
    assert "outside the task's folder" in res[1].content[0].text
    assert res[4].is_error is False and res[4].content[0].text.strip()


def test_a_file_reading_like_an_error_is_not_a_failed_call(gym: Path) -> None:
    """Failure is the tool raising, not its text: a file of the task folder that begins with
    ``error: `` (an agent's notes, say) reads as the file, and the text tool still says it."""
    from adequacy.gym.tools import GymTools

    folder = gym / "jml_abs_value"
    (folder / "notes.md").write_text("error: not really, just my notes\n")
    _, res = _run(gym, [("read_file", {"task_id": "jml_abs_value", "path": "notes.md"})])
    assert res[0].is_error is False
    assert res[0].content[0].text == "error: not really, just my notes\n"
    tools = GymTools(gym)
    assert tools.read_file("jml_abs_value", "notes.md") == "error: not really, just my notes\n"
    assert tools.read_file("jml_abs_value", "nope.md").startswith("error: no file 'nope.md'")


def test_annotations_say_which_tools_only_read_and_which_is_one_shot(gym: Path) -> None:
    tools, _ = _run(gym, [])
    for name in ("list_tasks", "read_file"):
        a = tools[name].annotations
        assert a.read_only_hint is True and a.idempotent_hint is True
    assert tools["check"].annotations.read_only_hint is False  # each check is counted
    sub = tools["submit"].annotations
    assert sub.read_only_hint is False and sub.destructive_hint is True
    assert sub.idempotent_hint is False


def test_list_tasks_is_structured_and_matches_its_schema(gym: Path) -> None:
    tools, res = _run(gym, [("list_tasks", {})])
    assert tools["list_tasks"].output_schema is not None
    assert "tasks" in tools["list_tasks"].output_schema["properties"]
    rows = res[0].structured_content["tasks"]
    assert {r["task_id"] for r in rows} == {"binary_search_first", "euclid_mod",
                                             "jml_abs_value", "jml_linear_search"}
    assert {r["language"] for r in rows} == {"verus", "jml"}
    assert all(r["checks"] == 0 and r["submitted"] is False for r in rows)


def test_verify_is_offered_only_where_a_prover_exists(gym: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty_gym"
    empty.mkdir()
    tools, _ = _run(empty, [])
    assert "verify" not in tools and {"list_tasks", "check", "submit"} <= set(tools)
    for task, lang in (("jml_abs_value", "jml"), ("euclid_mod", "verus")):
        tools, _ = _run(gym, [], task=task)
        assert ("verify" in tools) == can_verify(lang), (task, lang)


@pytest.mark.slow
def test_check_and_submit_are_structured(gym: Path) -> None:
    """The gold abs_value spec passes every case (it is the task's reference), so check says
    passed_all on the visible cases and submit grades every bucket in full."""
    tools, res = _run(gym, [("check", {"task_id": "jml_abs_value", "spec": GOLD_ABS}),
                            ("submit", {"task_id": "jml_abs_value", "spec": GOLD_ABS}),
                            ("submit", {"task_id": "jml_abs_value", "spec": GOLD_ABS})])
    chk, sub, again = res
    assert chk.is_error is False, chk.content[0].text
    assert chk.structured_content["status"] == "scored"
    assert chk.structured_content["passed_all"] is True
    assert chk.structured_content["feedback"] == chk.content[0].text
    assert sub.is_error is False, sub.content[0].text
    s = sub.structured_content
    assert s["passed_all"] is True and s["submission"] == 1 and s["buckets"]
    assert all(b["passed"] == b["total"] for b in s["buckets"].values())
    assert "PASS: yes" in s["grade"]
    assert again.is_error is True  # one submission per task
