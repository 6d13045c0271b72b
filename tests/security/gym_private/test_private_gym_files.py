"""One rule for what is private in a gym folder, held by every surface; the submit-once state
is the grader's.

Reads: every spelling of ``gym.json`` and ``.gym/`` (case, ``./``, ``..``, doubled slashes,
trailing slash), symbolic links and chains of them into the private files, a hard link to the
manifest, the spec file itself turned into a link, through ``read_file`` (files and listings),
``check``, ``verify``, ``submit`` and ``bash``. Second submissions: ``.gym/`` rewritten or
deleted, the folder copied elsewhere, ``gym.json`` edited (a fresh folder id, another source),
a manifest made by another installation.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from gym_support import GOLD, installation, leaks, make_gym

from adequacy.errors import GymError
from adequacy.gym import GymTools, submit
from adequacy.gym.manifest import read_manifest, write_manifest
from adequacy.gym.private import PUBLIC_MANIFEST_FIELDS, is_private, public_manifest
from adequacy.gym.shell import available

SPELLINGS = ["gym.json", "./gym.json", "GYM.JSON", "Gym.Json", "example/../gym.json",
             "example/./../gym.json", ".gym", ".gym/", "./.gym", ".GYM/state.json",
             ".gym/state.json", ".gym//task", ".gym/task/tests/post_sound.jsonl",
             ".gym/logs/check-0001.txt", ".gym/submissions.jsonl", "nope/../.gym/task",
             "example/../../euclid_mod/gym.json"]


@pytest.fixture
def gym(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    installation(tmp_path, monkeypatch)
    g, _ = make_gym(tmp_path)
    return g


def _secrets(folder: Path) -> list[str]:
    """Texts of the gym's own files that must never come back to the agent."""
    m = read_manifest(folder)
    return [m.source, m.folder_id, m.seal]


def test_every_spelling_and_link_is_refused_by_read_file(gym: Path) -> None:
    folder = gym / "euclid_mod"
    tools = GymTools(gym)
    tools.check("euclid_mod")  # so that .gym/logs holds something
    (folder / "alias.json").symlink_to(folder / "gym.json")
    (folder / "state").symlink_to(".gym")
    (folder / "a").symlink_to("b")
    (folder / "b").symlink_to(".gym/task")
    (folder / "abs").symlink_to(folder.resolve() / ".gym" / "state.json")
    os.link(folder / "gym.json", folder / "hard.json")
    links = ["alias.json", "state", "state/task/task.toml", "a/tests/post_sound.jsonl", "b",
             "abs", "hard.json"]
    for path in SPELLINGS + links:
        out = tools.read_file("euclid_mod", path)
        assert out.startswith("error:"), (path, out)
        assert not any(s in out for s in _secrets(folder)), (path, out)
    for listing in (".", "", "example", "example/.."):
        out = tools.read_file("euclid_mod", listing)
        assert "gym.json" not in out.split() and ".gym/" not in out.split(), out
    assert "statement.md" in tools.read_file("euclid_mod", ".")


def test_the_spec_file_cannot_be_a_way_in(gym: Path) -> None:
    folder = gym / "euclid_mod"
    tools = GymTools(gym)
    hidden = leaks().hidden_cases(gym)
    src_tests = Path(read_manifest(folder).source) / "tests" / "post_sound.jsonl"
    for target in (folder / "gym.json", folder / ".gym" / "task" / "tests" /
                   "post_complete.jsonl", src_tests):
        (folder / "spec.rs").unlink()
        (folder / "spec.rs").symlink_to(target)
        for out in (tools.check("euclid_mod"), tools.verify("euclid_mod"),
                    tools.submit("euclid_mod")):
            assert out.startswith("error:"), out
            assert not any(s in out for s in _secrets(folder))
            assert leaks().leaks_in(out, hidden) == []


@pytest.mark.skipif(available() is not None, reason=str(available()))
def test_the_shell_sees_none_of_it(gym: Path) -> None:
    folder = gym / "euclid_mod"
    out = GymTools(gym).shell("euclid_mod", "ls -a; cat gym.json .gym/state.json; "
                              "ln -s gym.json x 2>&1; ls -la .gym 2>&1; cat GYM.JSON")
    assert not any(s in out for s in _secrets(folder))
    assert "gym.json" not in out.split("[stderr]")[0].split()


def test_no_second_graded_submission(gym: Path, tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    folder = gym / "euclid_mod"
    assert submit(folder, GOLD).passed_all

    def refused(f: Path, why: str) -> None:
        with pytest.raises(GymError, match=why):
            submit(f, GOLD)

    # the folder's own files, rewritten or gone
    shutil.rmtree(folder / ".gym" / "logs", ignore_errors=True)
    (folder / ".gym" / "state.json").write_text('{"checks": 0, "submissions": 0}')
    refused(folder, "already submitted")
    shutil.rmtree(folder / ".gym")
    refused(folder, "already submitted")
    # a copy of the folder is the same folder
    copy = tmp_path / "copy" / "euclid_mod"
    shutil.copytree(gym / "binary_search_first", tmp_path / "copy" / "binary_search_first")
    shutil.copytree(folder, copy)
    refused(copy, "already submitted")
    # a fresh id, or another source: the manifest no longer carries the grader's seal
    m = read_manifest(folder)
    write_manifest(copy, m.model_copy(update={"folder_id": "0" * 32}))
    refused(copy, "not written by this installation")
    write_manifest(copy, m.model_copy(update={"source": str(tmp_path / "mine")}))
    refused(copy, "not written by this installation")
    # the seal removed, or the whole manifest made by another installation
    d = json.loads((folder / "gym.json").read_text())
    (copy / "gym.json").write_text(json.dumps({**d, "seal": ""}))
    refused(copy, "not written by this installation")
    installation(tmp_path, monkeypatch, "elsewhere")
    theirs, _ = make_gym(tmp_path / "elsewhere")
    installation(tmp_path, monkeypatch)
    refused(theirs / "euclid_mod", "not written by this installation")


def test_the_rule_is_one_function_an_exporter_can_call(gym: Path) -> None:
    m = read_manifest(gym / "euclid_mod")
    pub = public_manifest(m)
    assert set(pub) == set(PUBLIC_MANIFEST_FIELDS)
    assert m.source not in json.dumps(pub) and m.seal not in json.dumps(pub)
    for p in SPELLINGS[:-1]:
        assert is_private(p), p
    for p in ("statement.md", "example/gym.json", "notes/.gym", "gym.json.bak", ".gymnasium"):
        assert not is_private(p), p
