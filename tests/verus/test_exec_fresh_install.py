"""The exec_spec build on a machine that never built it: an empty cargo home, an empty cache.

CI once stayed green only because the developer's machine had ``~/.cargo/registry`` and
``cargo-target`` already; a new user met ``bwrap: Can't find source path`` and a message that
blamed the network. These tests start from nothing, as a new machine does, and check that every
failure names its real cause.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from adequacy import sandbox
from adequacy.errors import BackendError
from adequacy.examples import bundled_folder
from adequacy.extensions.backend import Limits
from adequacy.taskdirs.load import load_task
from adequacy_verus.exec_spec import cargo, engine
from adequacy_verus.exec_spec.diagnostics import parse_cargo_messages, toolchain_fault

REPO = Path(__file__).resolve().parents[2]
TASK = bundled_folder("verus") / "binary_search_first"


def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """An empty CARGO_HOME holding only the tool chain's ``bin/`` and an empty cache."""
    home, cache = tmp_path / "cargo", tmp_path / "cache"
    home.mkdir()
    cache.mkdir()
    found = shutil.which("cargo")
    assert found is not None
    (home / "bin").symlink_to(Path(found).parent)
    monkeypatch.setenv("CARGO_HOME", str(home))
    monkeypatch.setenv("ADEQUACY_CACHE", str(cache))
    return home, cache


@pytest.mark.requires("cargo", "bwrap")
def test_the_online_sandbox_starts_from_empty_folders_and_sees_the_resolver(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home, cache = fresh(tmp_path, monkeypatch)
    crate = cache / "exec_spec" / "crates" / "probe"
    view, env = engine.cargo_sandbox(crate, offline=False)
    script = "cat /etc/resolv.conf >/dev/null && cargo --version"
    r = sandbox.run_limited(["sh", "-c", script], cwd=crate, timeout=60, env=env, view=view,
                            limits=sandbox.SandboxLimits(memory_mb=None, processes=None,
                                                         drop_privileges=False, network=True))
    assert r.returncode == 0, r.stderr.decode()
    assert r.stdout.decode().startswith("cargo ")
    assert (home / "registry").is_dir() and engine.target_dir().is_dir()


def _build(monkeypatch: pytest.MonkeyPatch) -> BackendError:
    task = load_task(TASK)
    text = (TASK / "specs" / "gold.rs").read_text()
    with pytest.raises(BackendError) as e:
        engine.build(text, task, None, Limits(spec_seconds=120))
    return e.value


@pytest.mark.requires("cargo", "bwrap")
def test_an_unreachable_registry_is_named_as_the_network(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fresh(tmp_path, monkeypatch)
    # a proxy on a closed loopback port: cargo's download fails, nothing leaves the machine
    monkeypatch.setenv("HTTPS_PROXY", "http://127.0.0.1:9")
    monkeypatch.setenv("CARGO_NET_RETRY", "0")
    msg = str(_build(monkeypatch))
    assert "failed: the network: cargo could not download from crates.io" in msg, msg
    assert "bwrap" not in msg, msg


@pytest.mark.requires("cargo", "bwrap")
def test_a_folder_that_cannot_be_made_is_named_not_the_network(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home, _ = fresh(tmp_path, monkeypatch)
    (home / "registry").write_text("a file where cargo's registry folder should be")
    msg = str(_build(monkeypatch))
    assert msg.startswith(f"cannot create {home / 'registry'}"), msg
    assert "crates.io" not in msg and "network" not in msg, msg


def test_causes_of_a_failed_build_without_a_compiler_error() -> None:
    cases = {
        "bwrap: Can't find source path /root/.cargo/registry: No such file or directory":
            "the sandbox around cargo could not start",
        "error: failed to query replaced source registry `crates-io`\n\nCaused by:\n"
        "  [6] Could not resolve host: index.crates.io":
            "the network: crates.io's host name does not resolve (DNS)",
        "error: failed to write /x/target/release/.fingerprint: No space left on device":
            "the disk is full",
        "error: linker `cc` not found": "the tool chain: the C linker (cc) is missing or failed",
        "error: no matching package named `vstd` found\nnote: offline mode":
            "the registry cache: an offline build did not find a crate in it",
    }
    for stderr, cause in cases.items():
        assert cargo.failure_cause(stderr) == cause, stderr


def test_an_error_in_vstd_or_the_linker_is_the_tool_chain_not_the_spec() -> None:
    def line(package: str, message: str) -> str:
        return json.dumps({"reason": "compiler-message", "package_id": package,
                           "message": {"level": "error", "message": message, "spans": [],
                                       "code": None, "rendered": message}})

    ours = "path+file:///c/crates/abc#spec_0123456789abcdef@0.1.0"
    vstd = "registry+https://github.com/rust-lang/crates.io-index#vstd@0.0.0-2026-11-01-0251"
    bad = parse_cargo_messages(line(vstd, "cannot find macro `x` in this scope"))
    assert toolchain_fault(bad, "spec_0123456789abcdef") == (
        "the tool chain: a dependency (vstd@0.0.0-2026-11-01-0251) failed to compile with "
        "this rustc: cannot find macro `x` in this scope")
    link = parse_cargo_messages(line(ours, "linker `cc` not found"))
    assert toolchain_fault(link, "spec_0123456789abcdef") == "the tool chain: linker `cc` not found"
    spec = parse_cargo_messages(line(ours, "cannot find value `y` in this scope"))
    assert toolchain_fault(spec, "spec_0123456789abcdef") is None


@pytest.mark.slow
@pytest.mark.requires("cargo", "bwrap")
def test_setup_then_a_first_score_on_an_empty_cargo_home_and_cache(tmp_path: Path) -> None:
    """What a new user runs: ``adequacy setup``, then an exec_spec score with decided
    verdicts (vstd fetched from crates.io into the empty cargo home)."""
    home, cache = tmp_path / "cargo", tmp_path / "cache"
    home.mkdir()
    cache.mkdir()
    found = shutil.which("cargo")
    assert found is not None
    (home / "bin").symlink_to(Path(found).parent)
    env = {**os.environ, "CARGO_HOME": str(home), "ADEQUACY_CACHE": str(cache)}
    cli = [sys.executable, "-m", "adequacy"]
    r = subprocess.run([*cli, "setup", "--backend", "verus"], env=env, capture_output=True,
                       text=True, timeout=1800)
    assert r.returncode == 0, r.stderr + r.stdout
    assert "verus: exec_spec ready" in r.stdout, r.stdout
    r = subprocess.run([*cli, "score", str(TASK), str(TASK / "specs" / "gold.rs"), "--engine",
                        "exec_spec", "--no-cache"], env=env, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr + r.stdout
    assert "exec_spec decided 38/38" in r.stdout, r.stdout
