"""Find Java 17+ and Maven, build the KeY worker jar once into a world-readable cache.

Why a cache outside the repo: under root the worker runs as an unprivileged user (see
``adequacy.sandbox``) that cannot read ``/root``, and a clean clone must build it with
``adequacy setup``; the jar name carries a hash of the worker sources so an edit rebuilds it.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from adequacy.backends.openjml.rac.worker import cache_root
from adequacy.errors import BackendError

WORKER_DIR = Path(__file__).parent / "worker"
MIN_JAVA = 17


def java_binary() -> str | None:
    home = os.environ.get("JAVA_HOME")
    if home and (Path(home) / "bin" / "java").exists():
        return str(Path(home) / "bin" / "java")
    return shutil.which("java")


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


def _source_hash() -> str:
    h = hashlib.sha256()
    files = [WORKER_DIR / "pom.xml", *sorted((WORKER_DIR / "src").rglob("*.java"))]
    for p in files:
        h.update(str(p.relative_to(WORKER_DIR)).encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def jar_path() -> Path:
    return cache_root() / "key" / f"key-worker-{_source_hash()}.jar"


def why_unavailable() -> str | None:
    """None when the engine can run, else what to do about it."""
    java = java_binary()
    if java is None:
        return f"needs Java {MIN_JAVA}+ (java on PATH or JAVA_HOME)"
    major = java_major(java)
    if major is None or major < MIN_JAVA:
        return f"needs Java {MIN_JAVA}+, found {major or 'an unknown version'} at {java}"
    if not jar_path().exists():
        return "worker not built: run `adequacy setup`"
    return None


def build(quiet: bool = True) -> Path:
    """Build the shaded worker jar with Maven (dependencies from Maven Central) and install it
    into the cache; a no-op when the jar for these sources is already there."""
    out = jar_path()
    if out.exists():
        return out
    java = java_binary()
    if java is None or (java_major(java) or 0) < MIN_JAVA:
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
        r = subprocess.run(([nice, "-n", "10"] if nice else []) + cmd, capture_output=True,
                           text=True, timeout=1800)
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
        for old in out.parent.glob("key-worker-*.jar"):
            if old != out:
                old.unlink(missing_ok=True)  # jars of older worker sources
    except subprocess.TimeoutExpired as e:
        raise BackendError("Maven build of the KeY worker timed out") from e
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out
