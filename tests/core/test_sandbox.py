"""The sandbox reports what it cannot give, and still runs children without bubblewrap."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adequacy.cli import app
from adequacy.sandbox import bwrap, exec_lock, views
from adequacy.sandbox import run as sandbox

BWRAP_NAMED = ["private temporary folder", "no read access outside what the child needs",
               "no executing other programs", "no process outlives the run"]


@pytest.fixture
def fresh_probe() -> Iterator[None]:
    bwrap.probe.cache_clear()
    sandbox._fallback_network_private.cache_clear()
    yield
    bwrap.probe.cache_clear()
    sandbox._fallback_network_private.cache_clear()


def test_without_bubblewrap_each_missing_protection_is_named(
        monkeypatch: pytest.MonkeyPatch, fresh_probe: None) -> None:
    monkeypatch.setenv("ADEQUACY_BWRAP", "")
    missing = {p.name: p.how for p in sandbox.missing()}
    assert set(BWRAP_NAMED) <= set(missing)
    # a user without privileges gets no network namespace without bubblewrap either
    assert set(missing) - set(BWRAP_NAMED) <= ({"no network"} if os.geteuid() else set())
    assert all("apt-get install -y bubblewrap" in missing[n] for n in BWRAP_NAMED)
    assert "setsid child escapes" in missing["no process outlives the run"]
    # children still run (the old layer: rlimits, own group, uid drop)
    work = sandbox.make_workdir()
    try:
        r = sandbox.run_limited(["echo", "hi"], cwd=work, timeout=30)
    finally:
        sandbox.remove_tree(work)
    assert (r.returncode, r.stdout) == (0, b"hi\n")


def test_a_bubblewrap_that_refuses_is_reported(monkeypatch: pytest.MonkeyPatch,
                                               fresh_probe: None) -> None:
    monkeypatch.setenv("ADEQUACY_BWRAP", shutil.which("false") or "/bin/false")
    missing = {p.name: p.how for p in sandbox.missing()}
    assert set(BWRAP_NAMED) <= set(missing)
    assert all("bwrap refused to start a sandbox" in missing[n] for n in BWRAP_NAMED)


def test_cli_backends_says_which_protection_is_missing(monkeypatch: pytest.MonkeyPatch,
                                                      fresh_probe: None) -> None:
    monkeypatch.setenv("ADEQUACY_BWRAP", "")
    r = CliRunner().invoke(app, ["backends"], env={"COLUMNS": "300"})
    assert r.exit_code == 0, r.output
    missing = [ln for ln in r.output.splitlines() if ln.startswith("sandbox: MISSING")]
    assert len(missing) >= 4 and "no process outlives the run" in r.output
    r = CliRunner().invoke(app, ["backends", "--json"])
    import json
    rows = json.loads(r.output)["sandbox"]
    assert set(BWRAP_NAMED) <= {row["name"] for row in rows if not row["ok"]}


@pytest.mark.skipif(not bwrap.probe(False).ok, reason="bubblewrap cannot run here")
def test_with_bubblewrap_nothing_is_missing_and_the_view_is_narrow(fresh_probe: None) -> None:
    assert sandbox.missing() == []
    ls = shutil.which("ls") or "/bin/ls"
    view = views.native(ls)
    assert any("libc.so" in p for p in view.ro)
    assert not any(p.startswith("/etc") or p in ("/usr", "/usr/bin", "/") for p in view.ro)
    work = sandbox.make_workdir()
    try:
        r = sandbox.run_limited([ls, "/", "/usr/bin"], cwd=work, timeout=30)
    finally:
        sandbox.remove_tree(work)
    listing = r.stdout.decode()
    assert "etc" not in listing.split() and "home" not in listing.split()
    # only ls itself and the interpreter of the Landlock launcher (which may not be executed)
    launcher = exec_lock.python() if exec_lock.available() is None else None
    allowed = {ls.rsplit("/", 1)[1]} | ({launcher[0].rsplit("/", 1)[1]} if launcher else set())
    assert set(listing.split("/usr/bin:")[1].split()) <= allowed, listing


def test_a_workdir_reused_by_a_restarted_child_still_works() -> None:
    """exec_spec restarts its harness in the same folder after a crash; under root every
    child has its own uid, so the folder must be handed to the new one (it was not, once)."""
    work = sandbox.make_workdir()
    try:
        runs = [sandbox.run_limited(["pwd"], cwd=work, timeout=30) for _ in range(3)]
    finally:
        sandbox.remove_tree(work)
    assert [(r.returncode, r.stdout.decode().strip()) for r in runs] == [(0, str(work))] * 3


@pytest.mark.skipif(not bwrap.probe(False).ok, reason="bubblewrap cannot run here")
def test_an_external_verifier_sees_its_install_folder_and_the_work_folder() -> None:
    """verus and openjml are scripts or bundles with files beside them (solvers, jars): the
    ``tool`` view shows their install folder, /usr and the work folder, not the home folder."""
    install = sandbox.make_workdir("adequacy-fake-tool-")
    install.chmod(0o755)
    work = sandbox.make_workdir()
    try:
        (install / "bin").mkdir()
        (install / "lib").mkdir()
        (install / "lib" / "solver.txt").write_text("solver ok\n")
        script = install / "bin" / "fake-verifier"
        script.write_text('#!/bin/sh\ncat "$(dirname "$0")/../lib/solver.txt" "$1"\n'
                          'cat /root/.bashrc 2>/dev/null && echo LEAK\n')
        for p in (install / "bin", install / "lib"):
            p.chmod(0o755)
        script.chmod(0o755)
        (install / "lib" / "solver.txt").chmod(0o644)
        (work / "spec.rs").write_text("spec text\n")
        (work / "spec.rs").chmod(0o644)
        r = sandbox.run_limited([str(script), "spec.rs"], cwd=work, timeout=30,
                                view=views.tool(str(script)))
    finally:
        sandbox.remove_tree(install)
        sandbox.remove_tree(work)
    assert r.stdout == b"solver ok\nspec text\n", r


@pytest.mark.skipif(exec_lock.available() is not None or not bwrap.probe(False).ok,
                    reason="needs bubblewrap and Landlock")
def test_the_exec_filter_passes_long_arguments_and_environment_intact(tmp_path: Path) -> None:
    """The launcher places the child's argv and environment at random addresses for its
    seccomp filter: a class path of many kilobytes and every variable must arrive whole."""
    echo = shutil.which("printenv")
    assert echo is not None
    work = sandbox.make_workdir()
    try:
        long = "x" * 20000
        r = sandbox.run_limited([echo, "LONG", "OTHER"], cwd=work, timeout=30,
                                env={"PATH": "/usr/bin:/bin", "LONG": long, "OTHER": "é"})
    finally:
        sandbox.remove_tree(work)
    assert r.returncode == 0, r
    assert r.stdout.decode().splitlines() == [long, "é"]
