"""Where the KeY worker's jar and class archive live, named after the worker's sources.

A module of its own because both the builder (``build``) and the command line that starts the
worker (``launch``) need these names, and the builder starts the worker once to dump the
archive: kept in ``build``, the two would import each other.
"""

from __future__ import annotations

from pathlib import Path

from adequacy.plugin import cache_dir, source_version

WORKER_DIR = Path(__file__).parent / "worker"


def jar_path() -> Path:
    files = [WORKER_DIR / "pom.xml", *sorted((WORKER_DIR / "src").rglob("*.java"))]
    version = source_version(files, WORKER_DIR)
    return cache_dir(shared_with_sandbox=True) / "key" / f"key-worker-{version}.jar"


def archive_path() -> Path:
    """The AppCDS archive of the jar's classes for a Java 17 worker (``build.dump_archive``),
    named after the jar; ``launch.archive_path`` gives the archive for the JVM actually used
    (an AOT cache on 25+)."""
    return jar_path().with_suffix(".jsa")
