"""A package's validator and checker, compiled and run in our sandbox, with testlib's verdicts.

Judges are the package's code, so they are untrusted: C++ sources are compiled by the system
``g++`` inside the sandbox (the whole of ``/usr`` read-only, like cargo, writing only its
working folder), and every judge runs contained (``adequacy.sandbox.run_limited``: an empty
root with only its binary or the system Python, no network, CPU, memory and file-size limits).
One sandboxed process judges all cases of a package: a driver of ours forks once per case and
runs the judge's ``main`` in the child (``drivers/``), so no state crosses cases and the cost
of a sandbox start is paid once, not once per case.

testlib's conventions (exit codes): a validator exits 0 for a valid input and non-zero
otherwise; a checker exits 0 (OK), 1 (wrong answer), 2 (presentation error), 3 (fail: the
judge itself found a problem, e.g. a wrong jury answer), 4 (dirt: garbage after the answer),
7 (points), 8 (unexpected end of file). Wrong answer, presentation error, dirt and unexpected
end of file reject the output; fail and points are no verdict.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from adequacy.errors import JudgeError
from adequacy.packages.layout import Source
from adequacy.sandbox import exec_lock
from adequacy.sandbox.mounts import View
from adequacy.sandbox.run import SandboxLimits, make_workdir, remove_tree, run_limited
from adequacy.sandbox.views import toolchain

DRIVERS = Path(__file__).parent / "drivers"
Kind = Literal["validator", "checker", "solution"]
#: testlib's exit codes (testlib.h, ``TResult``): which reject an output and which are no verdict.
REJECTS = {1: "wrong answer", 2: "presentation error", 4: "dirt after the answer",
           8: "unexpected end of file"}
NO_VERDICT = {3: "fail (the checker reports its own error)", 7: "points (partial scoring)"}
COMPILE_SECONDS = 120.0


@dataclass(frozen=True)
class JudgeRun:
    """One judge run: ``status`` ``exit`` (with ``code``), ``crash`` (an uncaught exception),
    ``signal``, ``timeout`` or ``error`` (the run did not report); ``message`` is the start of
    the judge's own comment (testlib writes it to stderr)."""

    status: str
    code: int | None = None
    message: str = ""
    stdout: bytes = b""
    """What the program wrote (a solution's answer; empty for judges unless asked)."""

    @property
    def accepted(self) -> bool | None:
        """The checker's verdict: True (OK), False (rejected), None (no verdict)."""
        if self.status == "exit" and self.code == 0:
            return True
        if self.status == "exit" and self.code in REJECTS:
            return False
        return None

    @property
    def valid(self) -> bool | None:
        """The validator's verdict: exit 0 is valid, any other exit or a crash invalid; a
        timeout or a killed run is no verdict."""
        if self.status == "exit":
            return self.code == 0
        if self.status == "crash":
            return False
        return None

    def describe(self) -> str:
        if self.status == "exit":
            what = ("ok" if self.code == 0 else REJECTS.get(self.code or 0)
                    or NO_VERDICT.get(self.code or 0) or f"exit code {self.code}")
        else:
            what = {"crash": "an uncaught exception", "timeout": "out of time",
                    "signal": f"killed by signal {self.code}",
                    "error": "no report"}.get(self.status, self.status)
        return what + (f": {self.message}" if self.message else "")


def language_of(src: Source) -> str:
    """``c++`` or ``python`` from Polygon's source type (``cpp.g++17``, ``python.3``) or the
    file's suffix; JudgeError for anything else (named)."""
    t = src.type.lower()
    suffix = src.path.suffix.lower()
    if t.startswith(("cpp.", "c++")) or (not t and suffix in (".cpp", ".cc", ".cxx")):
        return "c++"
    if t.startswith(("python.3", "python.pypy3")) or (not t and suffix == ".py"):
        return "python"
    raise JudgeError(f"{src.path.name}: judges of source type {src.type or suffix!r} are not "
                     "supported (C++ compiled with g++, Python 3)")


def _digest(*parts: bytes) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(len(p).to_bytes(8, "little"))
        h.update(p)
    return h.hexdigest()[:24]


_built: dict[str, Path] = {}


def _headers(src: Path) -> list[Path]:
    """Headers beside the source (the package's ``testlib.h``), which it may include."""
    return sorted(p for p in src.parent.iterdir()
                  if p.suffix in (".h", ".hpp") and p.is_file() and not p.is_symlink())


def build_cxx(src: Source, cache: Path) -> Path:
    """The judge linked with our driver, compiled once per content (cached under ``cache``)."""
    gxx = shutil.which("g++")
    if gxx is None:
        raise JudgeError("g++ is not installed: C++ judges need the system compiler "
                         "(apt-get install -y g++)")
    headers = _headers(src.path)
    driver = (DRIVERS / "judge_driver.cpp").read_bytes()
    key = _digest(src.path.read_bytes(), driver, *(h.name.encode() + h.read_bytes()
                                                   for h in headers))
    if key in _built and _built[key].is_file():
        return _built[key]
    out = cache / key / "judge"
    if out.is_file():
        _built[key] = out
        return out
    work = make_workdir("adequacy-judge-build-")
    try:
        shutil.copy(src.path, work / "judge.cpp")
        for h in headers:
            shutil.copy(h, work / h.name)
        (work / "judge_driver.cpp").write_bytes(driver)
        for p in work.iterdir():
            p.chmod(0o644)
        cmd = ["/bin/sh", "-c",
               "g++ -std=gnu++17 -O2 -Dmain=adequacy_judge_main -c judge.cpp -o judge.o && "
               "g++ -std=gnu++17 -O2 -c judge_driver.cpp -o judge_driver.o && "
               "g++ -static -o judge judge_driver.o judge.o"]
        r = run_limited(cmd, cwd=work, timeout=COMPILE_SECONDS,
                        limits=SandboxLimits(memory_mb=2048, cpu_seconds=int(COMPILE_SECONDS),
                                             processes=64),
                        view=toolchain())
        if r.timed_out or r.returncode != 0 or not (work / "judge").is_file():
            msg = r.stderr.decode("utf-8", "replace").strip().splitlines()
            first = next((m for m in msg if "error" in m), msg[0] if msg else "no output")
            raise JudgeError(f"{src.path.name}: does not compile with g++"
                             f"{' (timed out)' if r.timed_out else ''}: "
                             f"{first.replace('judge.cpp', src.path.name)[:300]}")
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_suffix(".tmp")
        shutil.copy(work / "judge", tmp)
        tmp.chmod(0o755)
        tmp.replace(out)
    finally:
        remove_tree(work)
    _built[key] = out
    return out


def run_judge(src: Source, kind: Kind, cases: list[tuple[bytes, bytes, bytes]], *,
              cache: Path, case_seconds: float = 10.0, memory_mb: int = 512) -> list[JudgeRun]:
    """Judge every case (input, output, answer; a validator or a solution reads the input
    only) in one sandboxed run; one outcome per case, in order. A ``solution`` run keeps what
    the program wrote (the jury's answer to a hack's input)."""
    if not cases:
        return []
    lang = language_of(src)
    work = make_workdir("adequacy-judge-")
    try:
        files = ("in", "out", "ans") if kind == "checker" else ("in",)
        for i, (inp, outp, ans) in enumerate(cases):
            for ext, data in zip(("in", "out", "ans"), (inp, outp, ans), strict=True):
                if ext in files:
                    p = work / f"{i}.{ext}"
                    p.write_bytes(data)
                    p.chmod(0o644)
        cpu = max(1, int(case_seconds + 0.999))
        wall = max(2, int(2 * case_seconds + 0.999))
        args = [kind, str(len(cases)), str(cpu), str(wall)]
        if lang == "c++":
            binary = work / "judge"
            shutil.copy(build_cxx(src, cache), binary)
            binary.chmod(stat.S_IRWXU | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH
                         | stat.S_IXOTH)
            cmd, view = [str(binary), *args], None
        else:
            found = exec_lock.python()
            if found is None:
                raise JudgeError("no Python interpreter to run the package's Python judge")
            exe, needs = found
            shutil.copy(src.path, work / "judge.py")
            shutil.copy(DRIVERS / "judge_driver.py", work / "judge_driver.py")
            for n in ("judge.py", "judge_driver.py"):
                (work / n).chmod(0o644)
            cmd = [exe, "-I", "-S", "-B", str(work / "judge_driver.py"), str(work / "judge.py"),
                   *args]
            view = View(ro=needs)
        r = run_limited(cmd, cwd=work, timeout=wall * len(cases) + 30.0, view=view,
                        limits=SandboxLimits(memory_mb=max(256, memory_mb), cpu_seconds=None,
                                             file_size_mb=64, processes=8))
        results: dict[int, JudgeRun] = {}
        for line in r.stdout.decode("ascii", "replace").splitlines():
            parts = line.split()
            if len(parts) < 2 or not parts[0].isdigit():
                continue
            i = int(parts[0])
            code = int(parts[2]) if len(parts) > 2 and parts[2].lstrip("-").isdigit() else None
            results[i] = JudgeRun(parts[1], code, _message(work, i),
                                 _stdout(work, i) if kind == "solution" else b"")
        if not results and (r.returncode != 0 or r.timed_out):
            err = r.stderr.decode("utf-8", "replace").strip()
            raise JudgeError(f"{src.path.name}: the {kind} could not run in the sandbox "
                             f"(exit {r.returncode}{', timed out' if r.timed_out else ''}"
                             f"{': ' + err[:200] if err else ''})")
        return [results.get(i, JudgeRun("error")) for i in range(len(cases))]
    finally:
        remove_tree(work)


def _stdout(work: Path, i: int) -> bytes:
    p = work / f"{i}.stdout"
    return p.read_bytes() if p.is_file() and not p.is_symlink() else b""


def _message(work: Path, i: int) -> str:
    for name in ("stderr", "stdout"):
        p = work / f"{i}.{name}"
        try:
            if p.is_file() and not p.is_symlink():
                with p.open("rb") as f:
                    text = f.read(400).decode("utf-8", "replace").strip()
                if text:
                    return " ".join(text.split())[:200]
        except OSError:
            continue
    return ""


def judge_cache(root: Path) -> Path:
    """Where compiled judges are kept (``$ADEQUACY_CACHE/package-judges``)."""
    p = root / "package-judges"
    p.mkdir(parents=True, exist_ok=True)
    os.chmod(p, 0o755)
    return p
