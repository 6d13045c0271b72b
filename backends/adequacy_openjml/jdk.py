"""The JDK this backend runs: which one (``JAVA_HOME`` or PATH), its version, and what a sandboxed
JVM may see of it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from adequacy.plugin import View, views

JAVA_ENV = ("JAVA_HOME",)
"""What a Java tool started in the sandbox may see of our environment (``clean_env(keep=...)``)."""


@dataclass(frozen=True)
class Java:
    """A JDK found on this machine; ``javac`` is None for a runtime without a compiler."""

    java: str
    javac: str | None
    major: int | None


def find_java() -> Java | None:
    """``$JAVA_HOME/bin`` when it holds ``java``, else ``java`` on PATH; None without one.

    The major version costs a ``java -version`` (about 50 ms), so it is remembered per binary.
    """
    home = os.environ.get("JAVA_HOME")
    java = javac = None
    if home and (Path(home) / "bin" / "java").exists():
        java = str(Path(home) / "bin" / "java")
        c = Path(home) / "bin" / "javac"
        javac = str(c) if c.exists() else None
    else:
        java, javac = shutil.which("java"), shutil.which("javac")
    if java is None:
        return None
    return Java(java=java, javac=javac, major=java_major(java))


@lru_cache(maxsize=8)
def java_major(java: str) -> int | None:
    """Major version from ``java -version`` (printed on stderr, e.g. ``"17.0.15"``)."""
    try:
        r = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r'version "(\d+)(?:\.(\d+))?', r.stderr + r.stdout)
    if not m:
        return None
    major = int(m.group(1))
    return int(m.group(2) or 0) if major == 1 else major


def java_home(java: str) -> Path:
    """The JDK folder of a ``java`` binary (``.../bin/java`` through any symlinks)."""
    return Path(os.path.realpath(java)).parent.parent


def jdk_view(java: str, classpath: Iterable[str | Path] = ()) -> View:
    """A JVM: its JDK (with its config and native libraries) and its class path."""
    home = java_home(java)
    natives = [home / "bin" / "java", *sorted((home / "lib").glob("*.so")),
               *sorted((home / "lib").glob("*/*.so"))]
    return views.installation(home, ("conf", "lib"), natives).plus(
        ro=[str(Path(p).resolve()) for p in classpath])


def real_java(java: str) -> str:
    """Start the launcher by its real path: it finds its libraries relative to it, and a
    symlink such as /usr/bin/java is not in the sandbox."""
    return os.path.realpath(java)
