"""Find Java 17+ and Maven, build the KeY worker jar once into a world-readable cache.

Why a cache outside the repo: under root the worker runs as an unprivileged user (see
``adequacy.sandbox``) that cannot read ``/root`` (``toolchain.cache_dir(shared_with_sandbox=
True)``), and a clean clone must build it with ``adequacy setup``; the jar name carries the
worker sources' ``toolchain.source_version`` so an edit rebuilds it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from adequacy.plugin import BackendError, progress
from adequacy_openjml.jdk import Java, find_java

from .paths import WORKER_DIR, jar_path

KEY_VERSION = "2.12.3"
MIN_JAVA = 17


STALE_DAYS = 30
"""Jars of other worker sources are removed once unused this long: several checkouts (branches,
worktrees) may share one cache, each with its own worker version."""


def why_unavailable() -> str | None:
    """None when the engine can run, else what to do about it."""
    java = find_java()
    if java is None:
        return f"needs Java {MIN_JAVA}+ (java on PATH or JAVA_HOME)"
    if java.major is None or java.major < MIN_JAVA:
        return f"needs Java {MIN_JAVA}+, found {java.major or 'an unknown version'} at " \
               f"{java.java}"
    if not jar_path().exists():
        return "worker not built: run `adequacy setup`"
    return None


def build(quiet: bool = True) -> Path:
    """Build the shaded worker jar with Maven (dependencies from Maven Central) and install it
    into the cache; a no-op when the jar for these sources is already there."""
    out = jar_path()
    if out.exists():
        dump_archive()
        return out
    java = find_java()
    if java is None or (java.major or 0) < MIN_JAVA:
        raise BackendError(f"the key engine needs Java {MIN_JAVA}+: install OpenJDK 17")
    mvn = shutil.which("mvn")
    if mvn is None:
        raise BackendError("building the KeY worker needs Maven (`mvn` on PATH): "
                           "install maven, then run `adequacy setup`")
    # build in a temporary copy so a read-only or shared checkout is never written to
    work = Path(tempfile.mkdtemp(prefix="key-worker-build-"))
    try:
        shutil.copy(WORKER_DIR / "pom.xml", work / "pom.xml")
        shutil.copytree(WORKER_DIR / "src", work / "src")
        cmd = [mvn, *(["-q"] if quiet else []), "-B", "-f", str(work / "pom.xml"), "package",
               "-DskipTests"]
        nice = shutil.which("nice")
        with progress.phase("key: Maven builds the KeY worker (first use: downloads KeY "
                            "from Maven Central, minutes)"):
            r = subprocess.run(([nice, "-n", "10"] if nice else []) + cmd,
                               capture_output=True, text=True, timeout=1800)
        built = work / "target" / "key-worker.jar"
        if r.returncode != 0 or not built.exists():
            msg = (r.stdout + r.stderr).strip()[-2000:]
            raise BackendError(f"Maven could not build the KeY worker: {msg}")
        out.parent.mkdir(parents=True, exist_ok=True)
        for d in (out.parent.parent, out.parent):
            os.chmod(d, 0o755)
        tmp = out.with_suffix(".jar.tmp")
        shutil.copy(built, tmp)
        os.chmod(tmp, 0o644)
        os.replace(tmp, out)
        stale = time.time() - STALE_DAYS * 86400
        for old in out.parent.glob("key-worker-*.jar"):
            if old != out and old.stat().st_atime < stale:
                old.unlink(missing_ok=True)
                for extra in (old.with_suffix(".jsa"), old.with_suffix(".jsa.failed"),
                              *old.parent.glob(f"{old.stem}.jdk*.aot*")):
                    extra.unlink(missing_ok=True)
    except subprocess.TimeoutExpired as e:
        raise BackendError("Maven build of the KeY worker timed out") from e
    finally:
        shutil.rmtree(work, ignore_errors=True)
    dump_archive()
    return out


def dump_archive(java_path: str | None = None) -> None:
    """Start the worker once, sandboxed as the client starts it, recording a class archive
    for the JVM it runs on (``launch.worker_java``): on Java 25+ an AOT cache
    (``launch.dump_steps``: classes loaded and linked, and method profiles, at the end of the
    warm-up proof), on 17 an AppCDS archive (``-XX:ArchiveClassesAtExit``). Workers then map
    those classes instead of parsing and verifying them at every start (measured CPU seconds
    per start in docs/key.md). A JVM that cannot dump leaves a ``.failed`` marker; workers then
    start without the archive, only slower. ``java_path``: dump for that JVM instead
    (benchmarks/key_stubs.py compares JDKs)."""
    from adequacy.plugin import make_workdir, run_limited

    from . import launch

    java = launch.worker_java() if java_path is None else Java(java_path, None, None)
    if java is None:
        return
    target = launch.archive_path(java.java)
    failed = target.with_name(target.name + ".failed")
    if target.exists() or failed.exists():
        return
    work = make_workdir("adequacy-key-cds-")
    try:
        os.chmod(work, 0o777)
        made = work / target.name
        r = None
        # the warm-up proof runs at start; a ping, then end of input, and the JVM exits
        with progress.phase("key: archiving the KeY worker's classes (once per JVM)"):
            for k, cmd in enumerate(launch.dump_steps(java.java, made)):
                r = run_limited(cmd, cwd=work, timeout=600,
                                input=b'{"op": "ping"}\n' if k == 0 else b"",
                                limits=launch.limits(), view=launch.view(java.java))
                if r.returncode != 0:
                    break
        if r is not None and r.returncode == 0 and made.exists() and made.stat().st_size > 0:
            tmp = target.with_name(f"{target.name}.{os.getpid()}")
            shutil.copy(made, tmp)
            os.chmod(tmp, 0o644)
            os.replace(tmp, target)
        else:
            failed.write_text(f"exit {r.returncode if r else '?'}\n"
                              + (r.stderr.decode("utf-8", "replace")[-2000:] if r else ""))
    finally:
        shutil.rmtree(work, ignore_errors=True)
