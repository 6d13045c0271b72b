"""How a KeY worker JVM is started, shared by the client and by setup's archive dump.

Why shared: a class archive (AppCDS ``-XX:ArchiveClassesAtExit`` on Java 17, the AOT cache
``-XX:AOTMode=record/create`` of JEP 483 on Java 25+) is only used by a JVM whose class path and
JDK match the run that dumped it, so both must build the same command line.

Which JVM: the jar targets Java 17 and is built with the default JDK, but it is run on a
JDK 25+ when one is installed, with an AOT cache: measured on this machine, a worker start
costs 8.9-9.9 CPU seconds there against 11.5-13.2 on Java 17 with its AppCDS archive and
13.7-14.8 without (``benchmarks/key_stubs.py --start-compare``, docs/key.md).
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path

from adequacy.plugin import SandboxLimits, views
from adequacy_openjml.jdk import Java, find_java, java_home, jdk_view, real_java

from . import paths

HEAP = "-Xmx1g"
AOT_MIN_JAVA = 25
"""JEP 483's AOT cache exists from 24; 25 adds JEP 515 (method profiles in the cache)."""
JVM_ROOTS = (Path("/usr/lib/jvm"),)
"""Where Debian/Ubuntu packages and Temurin's .deb install JDKs, searched for a JDK 25+."""
ENV_JAVA = "ADEQUACY_KEY_JAVA"
"""A ``java`` binary to run the worker on, whatever else is installed (e.g. 17 to compare)."""


def release_version(java: str) -> str | None:
    """``JAVA_VERSION`` from the JDK's ``release`` file ("25.0.3"): read, not run, because
    looking for a newer JDK must not cost a JVM start per candidate."""
    try:
        text = (java_home(java) / "release").read_text(errors="replace")
    except OSError:
        return None
    m = re.search(r'^JAVA_VERSION="([^"]+)"', text, re.M)
    return m.group(1) if m else None


def _major(version: str | None) -> int:
    m = re.match(r"(\d+)", version or "")
    return int(m.group(1)) if m else 0


@lru_cache(maxsize=4)
def _newest_jdk(roots: tuple[Path, ...]) -> str | None:
    best: tuple[tuple[int, ...], str] | None = None
    for root in roots:
        for cand in sorted(root.glob("*/bin/java")) if root.is_dir() else []:
            v = release_version(str(cand))
            key = tuple(int(x) for x in re.findall(r"\d+", v or ""))
            if _major(v) >= AOT_MIN_JAVA and (best is None or key > best[0]):
                best = (key, str(cand))
    return best[1] if best else None


def worker_java() -> Java | None:
    """The JVM the worker runs on: ``$ADEQUACY_KEY_JAVA``, else the default java when it is
    25+, else the newest installed JDK 25+, else the default java (17: AppCDS only)."""
    override = os.environ.get(ENV_JAVA)
    if override and Path(override).is_file():
        return Java(java=override, javac=None, major=_major(release_version(override)) or None)
    base = find_java()
    if base is not None and (base.major or 0) >= AOT_MIN_JAVA:
        return base
    newer = _newest_jdk(JVM_ROOTS)
    if newer is not None:
        return Java(java=newer, javac=None, major=_major(release_version(newer)))
    return base


def uses_aot(java: str) -> bool:
    return _major(release_version(java)) >= AOT_MIN_JAVA


def archive_path(java: str) -> Path:
    """The class archive for this JVM, named after the jar and, for an AOT cache, the exact JDK
    (an AOT cache of another JDK update is refused by the JVM: a new name dumps a new one)."""
    if uses_aot(java):
        return paths.jar_path().with_suffix(f".jdk{release_version(java)}.aot")
    return paths.archive_path()


def command(java: str, archive: Path | None = None, record: list[str] | None = None) -> list[str]:
    """The worker's JVM command. With ``archive``: start from the classes archived at setup;
    a stale or foreign archive is ignored, never an error (``-Xshare:auto`` on 17; on 25 the
    AOT cache's default ``-XX:AOTMode=auto``). ``record``: the flags of a dumping run
    (``dump_steps``) instead. JVM warnings (an archive refused, say) go to stderr: stdout is
    the protocol."""
    cds: list[str] = list(record or [])
    if record is None and archive is not None and archive.exists():
        cds = [f"-XX:AOTCache={archive}"] if uses_aot(java) else [
            f"-XX:SharedArchiveFile={archive}", "-Xshare:auto"]
    return [real_java(java), HEAP, "-Xss8m", "-XX:+UseSerialGC",
            "-XX:-UsePerfData", "-Xlog:disable", "-Xlog:all=warning:stderr", *cds,
            "-Djava.awt.headless=true", "-jar", str(paths.jar_path())]


def dump_steps(java: str, made: Path) -> list[list[str]]:
    """The JVM runs that write the archive ``made``, in order (the first gets the warm-up's
    input). Java 17: one run with ``-XX:ArchiveClassesAtExit``. Java 25: JEP 483's two steps,
    a training run recording the configuration, then a run that only assembles the cache;
    not JEP 514's one-step ``-XX:AOTCacheOutput``, whose assembly spawns a second JVM, which
    the sandbox forbids (posix_spawn: operation not permitted)."""
    if not uses_aot(java):
        return [command(java, record=[f"-XX:ArchiveClassesAtExit={made}"])]
    conf = made.with_name(made.name + "conf")
    return [command(java, record=["-XX:AOTMode=record", f"-XX:AOTConfiguration={conf}"]),
            command(java, record=["-XX:AOTMode=create", f"-XX:AOTConfiguration={conf}",
                                  f"-XX:AOTCache={made}"])]


def limits() -> SandboxLimits:
    return SandboxLimits(memory_mb=None, cpu_seconds=24 * 3600, processes=512,
                         file_size_mb=64, tmp_mb=256)


def view(java: str, *ro: Path) -> views.View:
    """The JDK, the jar and its archive read-only, plus the folders in ``ro``."""
    jar = paths.jar_path()
    extra = [p for p in (archive_path(java),) if p.exists()]
    return jdk_view(java, classpath=[jar]).plus(ro=[*extra, *ro])
