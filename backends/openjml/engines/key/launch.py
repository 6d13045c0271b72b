"""How a KeY worker JVM is started, shared by the client and by setup's archive dump.

Why shared: an AppCDS archive (``-XX:ArchiveClassesAtExit``) is only used by a JVM whose
class path and JDK match the run that dumped it, so both must build the same command line.
"""

from __future__ import annotations

from pathlib import Path

from adequacy import sandbox_view
from adequacy.sandbox import SandboxLimits

from . import paths

HEAP = "-Xmx1g"


def command(java: str, archive: Path | None = None, dump_to: Path | None = None) -> list[str]:
    """The worker's JVM command. With ``archive``: start from the classes archived at setup
    (``-Xshare:auto``: a stale or foreign archive is ignored, never an error)."""
    cds: list[str] = []
    if dump_to is not None:
        cds = [f"-XX:ArchiveClassesAtExit={dump_to}"]
    elif archive is not None and archive.exists():
        cds = [f"-XX:SharedArchiveFile={archive}", "-Xshare:auto"]
    return [sandbox_view.real_java(java), HEAP, "-Xss8m", "-XX:+UseSerialGC",
            "-XX:-UsePerfData", *cds, "-Djava.awt.headless=true",
            "-jar", str(paths.jar_path())]


def limits() -> SandboxLimits:
    return SandboxLimits(memory_mb=None, cpu_seconds=24 * 3600, processes=512,
                         file_size_mb=64, tmp_mb=256)


def view(java: str, *ro: Path) -> sandbox_view.View:
    """The JDK, the jar and its archive read-only, plus the folders in ``ro``."""
    jar = paths.jar_path()
    extra = [p for p in (paths.archive_path(),) if p.exists()]
    return sandbox_view.jdk(java, classpath=[jar]).plus(ro=[*extra, *ro])
