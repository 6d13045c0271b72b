"""Run OpenJML on one spec's stubs (one file, one run) and turn proofs into verdicts."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import time
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from adequacy.plugin import (
    Case,
    EngineInfo,
    EngineUnavailable,
    Limits,
    LoadedSpec,
    SandboxLimits,
    SpecInvalid,
    Task,
    Truth,
    Verdict,
    clean_env,
    engine_version,
    make_workdir,
    remove_tree,
    run_limited,
    views,
)

from ...jdk import JAVA_ENV
from ...jml.load import JmlSpec, spec_data
from ...stubs import StubFile, render_stubs
from .parse import EXIT_ERRORS, parse_output

ENGINE = "openjml"


def openjml_command() -> str | None:
    """``$ADEQUACY_OPENJML`` or ``openjml`` on PATH."""
    env = os.environ.get("ADEQUACY_OPENJML")
    if env and os.path.exists(env):
        return env
    return shutil.which("openjml")


_HERE = Path(__file__).resolve().parent


@lru_cache(maxsize=8)
def _tool_version(cmd: str, stamp: float) -> str:
    """``openjml --version``'s first line (a JVM start, so once per binary and mtime)."""
    try:
        r = subprocess.run([cmd, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as e:
        return f"openjml (--version failed: {type(e).__name__})"
    text = (r.stdout or r.stderr).strip()
    return text.splitlines()[0] if text else "openjml (no --version output)"


def version(cmd: str | None) -> str:
    """The installed OpenJML's own version and the hash of the sources that drive it."""
    tool = "openjml (not installed)"
    if cmd is not None:
        with contextlib.suppress(OSError):
            tool = _tool_version(cmd, os.stat(cmd).st_mtime)
    return engine_version(tool, _HERE, _HERE.parents[1] / "stubs", _HERE.parents[1] / "jml")


class OpenJmlEngine:
    """OpenJML's static checker on Hoare-triple stubs (opt-in; the language's own tool, so the
    most faithful engine when installed)."""

    name = ENGINE

    def info(self) -> EngineInfo:
        oj = openjml_command()
        return EngineInfo(
            name=ENGINE, available=oj is not None, version=version(oj),
            reason=f"OpenJML ESC on Hoare-triple stubs ({oj})" if oj else
            "needs OpenJML: put `openjml` on PATH or set ADEQUACY_OPENJML",
            decides="cases whose phi or not-phi stub OpenJML proves; unknown when it proves "
                    "neither (or both)")

    def check(self, spec: LoadedSpec, task: Task, cases: Sequence[Case], limits: Limits
              ) -> list[Verdict]:
        cmd = openjml_command()
        if cmd is None:
            raise EngineUnavailable(self.info().reason)
        return check(cmd, spec_data(spec, task), task, cases, limits)


def command(openjml: str, path: str, stubs: StubFile, limits: Limits) -> list[str]:
    names = ",".join(s.name for s in stubs.stubs)
    return [openjml, "--esc", "--progress", f"--timeout={max(1, int(limits.case_seconds))}",
            "--check-feasibility=precondition,exit", f"--method={names}", path]


def verdicts_from(stubs: StubFile, output: str, exit_code: int | None, cases: Sequence[Case],
                  seconds: float, file: str | None) -> list[Verdict]:
    report = parse_output(output, exit_code)
    if exit_code == EXIT_ERRORS and report.errors and not report.methods:
        line, msg = report.errors[0]
        raise SpecInvalid(f"openjml: {msg}", file=file, line=line, engine=ENGINE)
    per_case: dict[str, dict[str, str]] = {}
    for s in stubs.stubs:
        res = report.methods.get(s.name)
        per_case.setdefault(s.case_id, {})[s.direction] = res.status if res else "missing"
    out = []
    each = seconds / max(1, len(cases))
    for c in cases:
        if c.id in stubs.skipped:
            out.append(Verdict(case_id=c.id, bucket=c.bucket, value=Truth.unknown, engine=ENGINE,
                               reason=stubs.skipped[c.id], seconds=each))
            continue
        st = per_case.get(c.id, {})
        phi, neg = st.get("phi", "missing"), st.get("not-phi", "missing")
        if phi == "proved" and neg != "proved":
            value, reason = Truth.true, "symbolic: phi proved"
        elif neg == "proved" and phi != "proved":
            value, reason = Truth.false, "symbolic: not-phi proved"
        elif phi == "proved" and neg == "proved":
            value, reason = Truth.unknown, "both phi and not-phi proved (vacuous stub)"
        else:
            value, reason = Truth.unknown, f"neither direction proved (phi: {phi}, not-phi: {neg})"
        out.append(Verdict(case_id=c.id, bucket=c.bucket, value=value, engine=ENGINE,
                           reason=reason, seconds=each))
    return out


def check(openjml: str, spec: JmlSpec, task: Task, cases: Sequence[Case],
          limits: Limits) -> list[Verdict]:
    stubs = render_stubs(spec, task, list(cases))
    work = make_workdir("adequacy-openjml-")
    try:
        path = work / f"{stubs.class_name}.java"
        path.write_text(stubs.text, encoding="utf-8")
        path.chmod(0o644)
        t0 = time.monotonic()
        r = run_limited(command(openjml, path.name, stubs, limits), cwd=work,
                        timeout=limits.spec_seconds, env=clean_env(keep=JAVA_ENV),
                        limits=SandboxLimits(memory_mb=None, cpu_seconds=int(limits.spec_seconds)
                                             + 60, processes=512),
                        view=views.tool(openjml, os.environ.get("JAVA_HOME", "")))
        text = (r.stdout + r.stderr).decode("utf-8", "replace")
        if r.timed_out:
            return [Verdict(case_id=c.id, bucket=c.bucket, value=Truth.unknown, engine=ENGINE,
                            reason=f"openjml run exceeded {limits.spec_seconds:.0f}s")
                    for c in cases]
        return verdicts_from(stubs, text, r.returncode, cases, time.monotonic() - t0, spec.file)
    finally:
        remove_tree(work)
