"""``toolchain.tool_version``: a verdict cache hit must not start a probe, and a changed tool
must be asked again (its version is part of every verdict key)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from adequacy.sandbox.toolchain import tool_version


def _tool(folder: Path, answer: str, code: int = 0) -> Path:
    exe = folder / "faketool"
    exe.write_text(f"#!/bin/sh\necho x >> {folder / 'calls'}\necho '{answer}'\nexit {code}\n")
    exe.chmod(0o755)
    return exe


def _calls(folder: Path) -> int:
    f = folder / "calls"
    return len(f.read_text().splitlines()) if f.exists() else 0


@pytest.fixture
def bin_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "bin"
    d.mkdir()
    monkeypatch.setenv("PATH", f"{d}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("ADEQUACY_CACHE", str(tmp_path / "cache"))
    return d


def test_asked_once_per_binary(bin_dir: Path) -> None:
    _tool(bin_dir, "faketool 1.0")
    assert tool_version("faketool") == "faketool 1.0"
    assert tool_version("faketool") == "faketool 1.0"
    assert _calls(bin_dir) == 1


def test_a_replaced_binary_is_asked_again(bin_dir: Path) -> None:
    _tool(bin_dir, "faketool 1.0")
    assert tool_version("faketool") == "faketool 1.0"
    exe = _tool(bin_dir, "faketool 2.0 (upgraded)")
    st = exe.stat()
    os.utime(exe, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert tool_version("faketool") == "faketool 2.0 (upgraded)"
    assert _calls(bin_dir) == 2


def test_what_the_answer_depends_on_is_part_of_the_key(bin_dir: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    _tool(bin_dir, "faketool 1.0")
    settings = tmp_path / "settings.toml"
    settings.write_text("default = 'a'\n")
    assert tool_version("faketool", depends_on=[settings], env=["FAKE_TOOLCHAIN"]) != ""
    settings.write_text("default = 'bb'\n")  # another size: another key
    tool_version("faketool", depends_on=[settings], env=["FAKE_TOOLCHAIN"])
    monkeypatch.setenv("FAKE_TOOLCHAIN", "nightly")
    tool_version("faketool", depends_on=[settings], env=["FAKE_TOOLCHAIN"])
    assert _calls(bin_dir) == 3


def test_missing_or_failing_tool_is_not_remembered(bin_dir: Path) -> None:
    assert tool_version("no-such-tool-here") == ""
    _tool(bin_dir, "oops", code=1)
    assert tool_version("faketool") == ""
    assert tool_version("faketool") == ""
    assert _calls(bin_dir) == 2  # a failure is asked again: installing the tool is seen at once


def test_an_unreadable_memo_costs_one_probe(bin_dir: Path, tmp_path: Path) -> None:
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "tool-versions.json").write_text("[not json")
    _tool(bin_dir, "faketool 1.0")
    assert tool_version("faketool") == "faketool 1.0"
    assert tool_version("faketool") == "faketool 1.0"
    assert _calls(bin_dir) == 1
