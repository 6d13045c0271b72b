"""The rac engine's JVMs: build the worker once into a cache, start it sandboxed, talk JSON lines.

Two kinds of process (``Worker.java``): one shared ``compile`` JVM per Python process keeps javac
warm and turns spec source into class bytes without running any of it, and ``eval`` JVMs each
serve exactly one spec origin (``jvms.Jvms``). A worker that dies or hangs is killed (its whole
process group) by ``adequacy.sandbox.worker.JsonLineWorker``.
"""

from __future__ import annotations

import atexit
import json
import os
import subprocess
import tempfile
import threading
import zipfile
from pathlib import Path
from typing import Any

from adequacy.plugin import (
    BackendError,
    EngineUnavailable,
    JsonLineWorker,
    Launch,
    SandboxLimits,
    WorkerDied,
    cache_dir,
    make_workdir,
    progress,
    remove_tree,
    renew_after_fork,
    run_limited,
    source_version,
    views,
)
from adequacy_openjml.jdk import Java, find_java, jdk_view, real_java

JAVA_DIR = Path(__file__).parent / "java"
MAIN = "adequacy.rac.Worker"
JAR = "rac-worker.jar"
WARM_UP_FILE = "warm-up.json"
"""Class bytes of ``WARM_UP`` (made at build time): what a spare JVM evaluates before any spec."""
POOL_EXPORT = "jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED"
"""What ``Compile.java`` needs to reuse one javac context across specs (``JavacTaskPool``, an
internal class of the JDK's compiler module, the one jshell uses)."""
ASM_EXPORT = "java.base/jdk.internal.org.objectweb.asm=ALL-UNNAMED"
"""What ``Checked.java`` needs to rewrite a reference's arithmetic (the JDK's own ASM)."""
EXPORTS = (POOL_EXPORT, ASM_EXPORT)
JAVAC_FLAGS = ("-XDstringConcat=inline",)
"""The worker's string concatenations as ``StringBuilder`` calls, not ``invokedynamic``: the
first indy concatenation of a JVM spins method handles (not all archived by AppCDS), which
every fresh eval JVM paid again (its start + warm-up CPU is 0.82x with this flag,
benchmarks/jvm_start.py --jdks; docs/scale.md)."""
ARCHIVE = "rac-{mode}.jsa"
"""AppCDS archive of each mode (JDK 13+ ``-XX:ArchiveClassesAtExit``): the classes a worker
loads, parsed and verified once at build time, so a fresh eval JVM starts in less time."""

__all__ = ["COMPILER", "Compiler", "Worker", "WorkerDied", "build_dir", "jdk", "jvm_sandbox"]


MAX_JAVA = 23
"""The newest JDK an eval JVM can run on: spec code runs under a SecurityManager
(``Worker.closeSandbox``), which JDK 24 removed (JEP 486: the JVM refuses to start with
``-Djava.security.manager=allow``). Without it ``System.exit`` or file access from a spec
would no longer be refused, so the engine is unavailable there rather than less contained."""


def jdk_problem(java: Java | None) -> str | None:
    """Why ``java`` cannot run the rac engine, or None when it can."""
    if java is None or java.javac is None:
        return ("the rac engine needs a JDK (java and javac on PATH or JAVA_HOME); install "
                "OpenJDK 17")
    if java.major is not None and java.major > MAX_JAVA:
        return (f"the rac engine needs a JDK 17-{MAX_JAVA}: its eval JVMs run spec code under "
                f"a SecurityManager, which JDK {java.major} ({java.java}) no longer has; point "
                "JAVA_HOME at a JDK 17")
    return None


def jdk() -> Java:
    """The JDK the worker is compiled and run with (``EngineUnavailable`` without one)."""
    java = find_java()
    why = jdk_problem(java)
    if why is not None:
        raise EngineUnavailable(why)
    assert java is not None
    return java


_BUILD_LOCK = threading.Lock()
_ARCHIVE_LOCK = threading.RLock()
_DUMPING: list[bool] = []


def build_dir(archives: bool = True) -> Path:
    """Compile the worker into a jar (once per source version), with its AppCDS archives unless
    ``archives`` is false, and return the folder holding them.

    The eval archive's dump compiles the warm-up unit through ``COMPILER``, so the compile
    JVM's own launch (under ``COMPILER.lock``) must not wait for archives: it asks for none.
    The jar and the archives have separate locks, so a dump waiting for the compiler never
    holds the lock that the compiler's launch needs (no lock-order cycle)."""
    java = jdk()
    assert java.javac is not None
    sources = sorted(JAVA_DIR.rglob("*.java"))
    out = cache_dir(shared_with_sandbox=True) / \
        f"rac-worker-{source_version(sources, JAVA_DIR, java.javac, 'jar+cds', *JAVAC_FLAGS, *EXPORTS)}"
    with _BUILD_LOCK:
        if not (out / JAR).exists():
            with progress.phase("rac: compiling the JVM worker (once per version)"):
                _compile(java, sources, out)
    if not archives:
        return out
    with _ARCHIVE_LOCK:
        if not _DUMPING:  # the eval archive's dump starts the compiler, which lands here
            _DUMPING.append(True)
            try:
                for mode in ("compile", "eval"):
                    name = ARCHIVE.format(mode=mode)
                    if not (out / name).exists() and not (out / (name + ".failed")).exists():
                        with progress.phase(f"rac: archiving the {mode} JVM's classes "
                                            "(AppCDS, once per version)"):
                            _dump_archive(out, mode)
            finally:
                _DUMPING.clear()
    return out


def _compile(java: Java, sources: list[Path], out: Path) -> None:
    assert java.javac is not None
    out.parent.mkdir(parents=True, exist_ok=True)
    os.chmod(out.parent, 0o755)
    tmp = Path(tempfile.mkdtemp(prefix="rac-build-", dir=out.parent))
    classes = tmp / "classes"
    r = subprocess.run([java.javac, "-nowarn", "-Xlint:none", *JAVAC_FLAGS,
                        *(a for e in EXPORTS for a in ("--add-exports", e)),
                        "-d", str(classes),
                        *[str(p) for p in sources]], capture_output=True, text=True,
                       timeout=300)
    if r.returncode != 0:
        remove_tree(tmp)
        raise BackendError(f"could not compile the rac worker: {r.stderr.strip()[:2000]}")
    # AppCDS archives classes from jars only, not from folders
    with zipfile.ZipFile(tmp / JAR, "w", zipfile.ZIP_STORED) as z:
        for f in sorted(classes.rglob("*.class")):
            z.write(f, str(f.relative_to(classes)))
    remove_tree(classes)
    os.chmod(tmp, 0o755)
    os.chmod(tmp / JAR, 0o644)
    try:
        os.rename(tmp, out)
    except OSError:
        remove_tree(tmp)  # another process won the race; its build is the same


WARM_UP = """public class Solution {
    public static int solve(int x, int y) { return x + y; }
    static Object __adq_e0_1(Object[] __p, Object[] __q, Object __res, Object __this) {
        return adequacy.rac.R.forall(adequacy.rac.R.big(__p[0]), adequacy.rac.R.big(__p[1]),
            "int", (Object i) -> adequacy.rac.R.le(i, __res)); }
    static Object __adq_r0_0(Object[] __p, Object[] __q, Object __res, Object __this) {
        return adequacy.rac.R.le(adequacy.rac.R.big(__p[0]), adequacy.rac.R.big(__p[1])); }
    static Object __adq_e0_0(Object[] __p, Object[] __q, Object __res, Object __this) {
        return adequacy.rac.R.eq(adequacy.rac.R.big(__res), adequacy.rac.R.add(
            adequacy.rac.R.big(__p[0]), adequacy.rac.R.big(__p[1]))); }
}
"""
_WARM_PLAN: dict[str, Any] = {
    "key": "warm-up", "class": "Solution", "params": [["int", "x"], ["int", "y"]],
    "result": "int", "method": "solve", "static": True, "result_param": -1,
    "cases": [{"normal": True, "req": [["__adq_r0_0", 3]],
               "ens": [["__adq_e0_0", 5], ["__adq_e0_1", 6]]}]}


def warm_up_request(out: Path) -> dict[str, Any] | None:
    """The ``warm`` request a spare runs before any spec (None when the build has none)."""
    f = out / WARM_UP_FILE
    if not f.exists():
        return None
    classes = json.loads(f.read_text())
    evals: list[dict[str, Any]] = []
    for i in range(4):
        evals.append({"pred": "pre", "input": [i, 2 * i]})
        evals.append({"pred": "post", "input": [i, 2 * i], "output": {"result": 3 * i}})
        evals.append({"pred": "post", "input": [i, 2 * i], "output": {"result": i}})
    evals.append({"op": "run", "input": [1, 2]})
    return {"op": "warm", **_WARM_PLAN, "classes": classes, "evals": evals}


def _warm_up_requests(mode: str, out: Path) -> list[dict[str, Any]]:
    """What a worker of ``mode`` does on a typical spec: the classes this loads are archived."""
    if mode == "compile":
        return [{"op": "ping"}, {"op": "compile", "class": "Solution", "source": WARM_UP}]
    warm = warm_up_request(out)
    reqs: list[dict[str, Any]] = [{"op": "ping"}, *([warm] if warm else [])]
    if warm:
        reqs.append({"op": "load", **_WARM_PLAN, "classes": warm["classes"]})
        cases = [{"timeout_ms": 5000, **e} for e in warm["evals"] if "op" not in e]
        reqs += [{"op": "eval", "key": "warm-up", **e} for e in cases]
        reqs.append({"op": "evals", "key": "warm-up", "cases": cases, "budget_ms": 60000})
    return reqs


def _dump_archive(out: Path, mode: str) -> None:
    """Run a worker of ``mode`` on the warm-up spec with ``-XX:ArchiveClassesAtExit``. A JVM
    that cannot dump (another JDK, no base archive) leaves a ``.failed`` marker: the workers
    then start without an archive, only slower."""
    java = jdk().java
    name = ARCHIVE.format(mode=mode)
    if mode == "eval":
        reply = COMPILER.compile("warm-up", {"class": "Solution", "source": WARM_UP})
        if reply.get("ok"):
            tmp = out / f".{WARM_UP_FILE}.{os.getpid()}"
            tmp.write_text(json.dumps(reply["classes"]))
            tmp.chmod(0o644)
            os.replace(tmp, out / WARM_UP_FILE)
    work = make_workdir("adequacy-rac-cds-")
    try:
        os.chmod(work, 0o777)
        cmd = [*_java_flags(java, out, 256, archive=None, mode=mode),
               f"-XX:ArchiveClassesAtExit={work / name}", MAIN, mode]
        limits, view = jvm_sandbox(java, out)
        stdin = "".join(json.dumps({"id": str(i), **r}) + "\n"
                        for i, r in enumerate(_warm_up_requests(mode, out)))
        r = run_limited(cmd, cwd=work, timeout=120, input=stdin.encode(), limits=limits,
                        view=view)
        made = work / name
        if r.returncode == 0 and made.exists() and made.stat().st_size > 0:
            tmp = out / f".{name}.{os.getpid()}"
            tmp.write_bytes(made.read_bytes())
            tmp.chmod(0o644)
            os.replace(tmp, out / name)
        else:
            (out / (name + ".failed")).write_text(r.stderr.decode("utf-8", "replace")[-2000:])
    finally:
        remove_tree(work)


def _java_flags(java: str, out: Path, heap_mb: int, archive: Path | None, mode: str
                ) -> list[str]:
    cds = [f"-XX:SharedArchiveFile={archive}"] if archive is not None and archive.exists() \
        else []
    if mode == "compile":  # the dump and the launch must agree, or the archive is refused
        cds += [f"--add-exports={e}" for e in EXPORTS]
    return [real_java(java), f"-Xmx{heap_mb}m", "-Xss16m", "-XX:+UseSerialGC",
            "-XX:CICompilerCount=2", "-XX:-UsePerfData", *cds,
            "-Xshare:auto", "-Xlog:disable",
            "-Djava.security.manager=allow", "-Djava.awt.headless=true",
            # a JVM that lives for one spec: keep reflection's native accessors rather than
            # generating a class per clause method after 15 calls
            "-Dsun.reflect.inflationThreshold=1000000",
            "-cp", str(out / JAR)]


def jvm_sandbox(java: str, classes: Path) -> tuple[SandboxLimits, views.View]:
    """The worker's sandbox: its JDK and class folder read-only, nothing else of ours.
    (The heap is capped by -Xmx: a JVM reserves far more address space than it uses.)"""
    return (SandboxLimits(memory_mb=None, cpu_seconds=24 * 3600, processes=512,
                          file_size_mb=16),
            jdk_view(java, classpath=[classes]))


class Worker(JsonLineWorker):
    """One rac JVM of ``mode`` ``eval`` (serves one spec: ``origin``) or ``compile``."""

    def __init__(self, heap_mb: int = 512, mode: str = "eval") -> None:
        super().__init__(f"rac {mode} worker", self._launch, start_seconds=60.0,
                         workdir_prefix="adequacy-rac-")
        self.heap_mb = heap_mb
        self.mode = mode
        self.origin: str | None = None
        """The spec origin this JVM was handed to (``jvms``); None while it is a spare."""
        self.spare_served = 0
        """Requests it had served when it became a spare (``jvms.Jvms.give_back`` checks that
        it served none since)."""
        self.loaded: set[str] = set()

    def _launch(self) -> Launch:
        # the compile JVM starts under COMPILER.lock, which an archive dump needs
        out = build_dir(archives=self.mode != "compile")
        java = jdk().java
        # an eval JVM lives for one spec run: C1 alone is enough for its few hundred calls
        # and leaves the CPU that C2 would take to the next spare's start (paced metric
        # calls, same run: fresh 82-83 vs 91-98 ms; docs/scale.md)
        jit = ["-XX:TieredStopAtLevel=1"] if self.mode == "eval" else []
        cmd = [*_java_flags(java, out, self.heap_mb, out / ARCHIVE.format(mode=self.mode),
                            self.mode),
               *jit, MAIN, self.mode]
        limits, view = jvm_sandbox(java, out)
        return cmd, limits, view

    def on_start(self) -> None:
        self.loaded = set()

    def stop(self) -> None:
        super().stop()
        self.loaded = set()


class Compiler:
    """The shared compile-mode JVM (javac warm across specs; it never runs spec code, so
    sharing it carries nothing from one spec to another). Results are kept by unit key."""

    KEEP = 256

    def __init__(self) -> None:
        self.worker = Worker(heap_mb=1024, mode="compile")
        self.lock = threading.Lock()
        self.done: dict[str, dict[str, Any]] = {}

    def compile(self, key: str, unit: dict[str, Any], timeout: float = 60.0
                ) -> dict[str, Any]:
        """``{"ok": True, "classes": {name: base64}}`` or ``{"ok": False, "errors": [...]}``;
        ``BackendError`` when the compiler itself failed (it is restarted next time)."""
        with self.lock:
            if key in self.done:
                return self.done[key]
            try:
                reply = self.worker.request({"op": "compile", "class": unit["class"],
                                             "source": unit["source"],
                                             "checked": bool(unit.get("checked"))},
                                            timeout=timeout)
            except WorkerDied as e:
                raise BackendError(f"rac compiler: {e}") from e
            if "ok" not in reply:
                raise BackendError(f"rac compiler: {reply.get('error', reply)}")
            if len(self.done) >= self.KEEP:
                self.done.pop(next(iter(self.done)))
            self.done[key] = reply
            return reply

    def stop(self) -> None:
        with self.lock:
            self.worker.stop()


COMPILER = Compiler()
renew_after_fork(COMPILER)
atexit.register(COMPILER.stop)

