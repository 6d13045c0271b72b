"""How cargo runs for the exec_spec engine: its environment, what its sandbox sees, and what a
failure that is not the spec's fault means.

Why a module of its own: the first build on a fresh machine is the one nobody's own machine
repeats. bubblewrap refuses to bind a folder that does not exist yet (a new user has no
``~/.cargo/registry``, a new ``ADEQUACY_CACHE`` no ``cargo-target``), the online build needs the
resolver and CA files that the empty root hides, and a message that blames the network for a
missing folder sends the user the wrong way. So every folder is made before bwrap starts (and a
refusal to make it names the folder), and every failure is sorted by its real cause: our
sandbox, the network, the registry cache, the disk, or the tool chain (rustc, the C linker,
vstd itself). Only a compiler error in the spec's own crate is the spec's business.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

from adequacy.plugin import BackendError, views

#: What the online build's resolver and TLS stack read (glibc's getaddrinfo, cargo's curl and
#: OpenSSL); nothing else of /etc (no passwd, no shadow) enters the sandbox.
NET_FILES = ("/etc/resolv.conf", "/etc/hosts", "/etc/nsswitch.conf", "/etc/host.conf",
             "/etc/gai.conf", "/etc/ssl", "/etc/ca-certificates", "/etc/pki")
#: Variables cargo needs to reach a registry the way the user's own cargo does.
_PASSED = ("RUSTUP_TOOLCHAIN", "CARGO_NET_OFFLINE", "SSL_CERT_FILE", "SSL_CERT_DIR",
           "HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy",
           "ALL_PROXY", "all_proxy")
_PASSED_PREFIXES = ("CARGO_HTTP_", "CARGO_NET_", "CARGO_REGISTRIES_", "CARGO_REGISTRY_")


def env(target: Path) -> dict[str, str]:
    """cargo's environment: the user's cargo and rustup homes, our shared target folder."""
    home = Path.home()
    out = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "CARGO_HOME": os.environ.get("CARGO_HOME") or str(home / ".cargo"),
        "RUSTUP_HOME": os.environ.get("RUSTUP_HOME") or str(home / ".rustup"),
        "CARGO_TARGET_DIR": str(target),
        "CARGO_TERM_COLOR": "never",
        "LANG": "C.UTF-8",
    }
    for k, v in os.environ.items():
        if k in _PASSED or k.startswith(_PASSED_PREFIXES):
            out[k] = v
    # Harnesses are linked statically: a program with no dynamic loader runs in a sandbox
    # where nothing else may be executed, not even the loader (which would run any file it
    # can map: ``ld.so /tmp/x``). Only for the target: vstd's proc macros stay host dylibs.
    triple = host_triple()
    out[f"CARGO_TARGET_{triple.upper().replace('-', '_')}_RUSTFLAGS"] = STATIC
    return out


STATIC = "-C target-feature=+crt-static"


@functools.lru_cache(maxsize=1)
def host_triple() -> str:
    """rustc's host target (``x86_64-unknown-linux-gnu``): built with ``--target`` so that the
    static-linking flag reaches the harness and not the proc macros."""
    try:
        r = subprocess.run(["rustc", "-vV"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as e:
        raise BackendError(f"the tool chain: rustc -vV failed: {e}") from e
    for line in r.stdout.splitlines():
        if line.startswith("host: "):
            return line.split(None, 1)[1].strip()
    raise BackendError(f"the tool chain: rustc -vV names no host target: {r.stderr.strip()}")


def has_vstd(cargo_home: Path, version: str) -> bool:
    """Whether the registry cache holds the vstd sources an offline build compiles."""
    src = cargo_home / "registry" / "src"
    return src.is_dir() and any(src.glob(f"*/vstd-{version}/Cargo.toml"))


def make_folders(*folders: Path) -> None:
    """Create every folder the sandbox binds; bwrap cannot bind one that is missing."""
    for f in folders:
        try:
            f.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise BackendError(f"cannot create {f}, which the exec_spec build needs: "
                               f"{e.strerror or e}") from e


def _cert_paths(environ: dict[str, str]) -> list[str]:
    keys = ("SSL_CERT_FILE", "SSL_CERT_DIR", "CARGO_HTTP_CAINFO")
    return [environ[k] for k in keys if environ.get(k) and os.path.exists(environ[k])]


def _tool_dirs(path: str) -> list[str]:
    """The folders of the cargo and rustc that PATH finds (and of what their links point at):
    a CARGO_HOME whose ``bin`` is elsewhere, or a tool chain outside /usr, must be visible."""
    out: list[str] = []
    for tool in ("cargo", "rustc"):
        found = shutil.which(tool, path=path)
        if found:
            out += [os.path.dirname(found), os.path.dirname(os.path.realpath(found))]
    return list(dict.fromkeys(out))


def sandbox(crate: Path, target: Path, offline: bool
            ) -> tuple[views.View, dict[str, str]]:
    """What cargo may see: the tool chain read-only, only the crate and the shared target
    folder writable, and a private CARGO_HOME at the real path (cargo writes its lock and
    usage files there; the same path keeps the target folder's fingerprints valid) with the
    registry bound in it: read-only offline; writable, with the resolver and CA files, for the
    one online build (first use: no lock file or no vstd sources yet). Every bound folder is
    created first."""
    e = env(target)
    home = Path(e["CARGO_HOME"])
    registry = home / "registry"
    make_folders(target, crate, registry)
    ro = [e["RUSTUP_HOME"], str(home / "bin"), str(home / "config.toml"), str(home / "config"),
          *_tool_dirs(e["PATH"])]
    if offline:
        return views.View(ro=(*ro, str(registry)), rw=(str(crate), str(target)),
                                 system=True, tmpfs=(str(home),)), e
    ro += [p for p in NET_FILES if os.path.lexists(p)] + _cert_paths(e)
    return views.View(ro=tuple(ro), rw=(str(crate), str(target), str(registry)),
                             system=True, tmpfs=(str(home),)), e


@contextlib.contextmanager
def online_lock(folder: Path) -> Iterator[None]:
    """One online build at a time on this machine: each sandbox has a private CARGO_HOME, so
    cargo's own package-cache lock does not see the others writing the shared registry."""
    make_folders(folder)
    with open(folder / "online-build.lock", "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


_CAUSES: tuple[tuple[str, str], ...] = (
    (r"^bwrap: ", "the sandbox around cargo could not start"),
    (r"Could not resolve host|failed to resolve|Temporary failure in name resolution|"
     r"Name or service not known",
     "the network: crates.io's host name does not resolve (DNS)"),
    (r"SSL|certificate|schannel|TLS",
     "the network: the TLS connection to crates.io failed (CA certificates?)"),
    (r"Couldn't connect|Connection refused|Connection reset|timed out|Operation timed out|"
     r"network failure|spurious network error|failed to download|failed to query replaced|"
     r"Could not connect|\[\d+\] .*(HTTP|http)|failed to get `",
     "the network: cargo could not download from crates.io"),
    (r"attempting to make an HTTP request, but --offline|no matching package named|"
     r"failed to load source for dependency|you are in offline mode",
     "the registry cache: an offline build did not find a crate in it"),
    (r"No space left on device|Disk quota exceeded", "the disk is full"),
    (r"Read-only file system|Permission denied|os error 13|os error 30",
     "a folder cargo writes is not writable"),
    (r"linker `[^`]*` not found|linking with `[^`]*` failed|could not exec the linker",
     "the tool chain: the C linker (cc) is missing or failed"),
    (r"toolchain '[^']*' is not installed|rustup could not choose|no default toolchain|"
     r"error: rustc \S+ is not supported|requires rustc",
     "the tool chain: rustc or rustup"),
)


def failure_cause(stderr: str) -> str:
    """The real cause of a cargo failure that gave no compiler error in the spec's crate."""
    for pattern, cause in _CAUSES:
        if re.search(pattern, stderr, re.MULTILINE):
            return cause
    return "unknown (no compiler error in the spec's crate; cargo's last lines follow)"


def failure(stderr: str, *, registry: Path, lock: Path | None) -> BackendError:
    """The error a failed build raises: its cause first, then cargo's last lines."""
    cause = failure_cause(stderr)
    tail = [ln for ln in stderr.strip().splitlines() if ln.strip()][-15:]
    hint = ""
    if cause.startswith("the registry cache"):
        hint = f" in {registry}; the next build fetches it again"
        if lock is not None:
            lock.unlink(missing_ok=True)
    elif cause.startswith("a folder"):
        hint = " (see the path in cargo's message)"
    return BackendError(f"cargo build of the exec_spec harness failed: {cause}{hint}:\n"
                        + "\n".join(tail))
