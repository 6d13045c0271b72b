"""Which JVM runs the KeY worker, with which class archive, and that a stale archive only
costs speed: the worker still starts and stdout stays the protocol."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from adequacy_openjml.engines.key import build, launch
from adequacy_openjml.jdk import Java, find_java


def fake_jdk(root: Path, name: str, version: str) -> str:
    home = root / name
    (home / "bin").mkdir(parents=True)
    (home / "bin" / "java").write_text("#!/bin/sh\n")
    (home / "release").write_text(f'IMPLEMENTOR="test"\nJAVA_VERSION="{version}"\n')
    return str(home / "bin" / "java")


def test_newest_jdk_25_or_later_is_preferred(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    java17 = fake_jdk(tmp_path, "jdk-17", "17.0.15")
    monkeypatch.delenv(launch.ENV_JAVA, raising=False)
    monkeypatch.setattr(launch, "find_java", lambda: Java(java17, None, 17))
    monkeypatch.setattr(launch, "JVM_ROOTS", (tmp_path,))
    got = launch.worker_java()
    assert got is not None and got.java == java17  # nothing newer: the default java
    fake_jdk(tmp_path, "jdk-25", "25.0.3")
    newest = fake_jdk(tmp_path, "jdk-25b", "25.0.10")  # 10 > 3 as a number, not as text
    fake_jdk(tmp_path, "jdk-21", "21.0.2")
    monkeypatch.setattr(launch, "JVM_ROOTS", (tmp_path, tmp_path / "missing"))
    got = launch.worker_java()
    assert got is not None and (got.java, got.major) == (newest, 25)
    monkeypatch.setenv(launch.ENV_JAVA, java17)
    got = launch.worker_java()
    assert got is not None and got.java == java17


def test_archive_flags_follow_the_jdk(tmp_path: Path) -> None:
    java17 = fake_jdk(tmp_path, "jdk-17", "17.0.15")
    java25 = fake_jdk(tmp_path, "jdk-25", "25.0.3")
    archive = tmp_path / "a.archive"
    archive.write_bytes(b"x")
    cmd17, cmd25 = launch.command(java17, archive), launch.command(java25, archive)
    assert f"-XX:SharedArchiveFile={archive}" in cmd17 and "-Xshare:auto" in cmd17
    assert f"-XX:AOTCache={archive}" in cmd25
    assert not any("SharedArchiveFile" in a for a in cmd25)
    assert not any("Archive" in a or "AOT" in a
                   for a in launch.command(java25, tmp_path / "absent"))
    assert launch.archive_path(java25).name.endswith(".jdk25.0.3.aot")
    assert launch.archive_path(java17).suffix == ".jsa"
    made = tmp_path / "w.aot"
    record, create = launch.dump_steps(java25, made)
    assert "-XX:AOTMode=record" in record and "-XX:AOTMode=create" in create
    conf = next(a for a in record if a.startswith("-XX:AOTConfiguration="))
    assert conf in create and f"-XX:AOTCache={made}" in create
    [dump17] = launch.dump_steps(java17, made)
    assert f"-XX:ArchiveClassesAtExit={made}" in dump17


def _jdks() -> list[str]:
    found = {j.java for j in (find_java(), launch.worker_java()) if j is not None}
    return sorted(found)


@pytest.mark.slow
@pytest.mark.requires("key")
@pytest.mark.parametrize("java", _jdks())
def test_a_foreign_archive_is_ignored_and_stdout_stays_json(java: str,
                                                           tmp_path: Path) -> None:
    """A corrupt archive makes the JVM print warnings; the worker must start regardless and
    print nothing but answers on stdout (the JVM's own warnings go to stdout by default)."""
    if build.why_unavailable():
        pytest.skip(build.why_unavailable() or "")
    bad = tmp_path / "bad.archive"
    bad.write_bytes(b"\x00not an archive" * 1000)
    r = subprocess.run(launch.command(java, archive=bad), input=b'{"id": "1", "op": "ping"}\n',
                       capture_output=True, timeout=300, cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    lines = r.stdout.decode().splitlines()
    assert len(lines) == 1, lines
    answer = json.loads(lines[0])
    assert answer["ok"] is True and answer["id"] == "1" and answer["cpu_ms"] > 0
    assert answer["java_version"].startswith(launch.release_version(java) or "?")
