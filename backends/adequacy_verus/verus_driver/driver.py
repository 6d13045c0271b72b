"""The ``verus`` engine: the real Verus verifier deciding each case symbolically.

For every case the driver appends two proof functions to the spec file, one asserting the
predicate on the case's concrete values and one asserting its negation::

    proof fn __adequacy_c3_holds() { assert(pre_spec(Input { .. })); }
    proof fn __adequacy_c3_fails() { assert(!pre_spec(Input { .. })); }

The verifier proves at most one of them (both would mean the spec's axioms are inconsistent).
Proved ``_holds`` -> true, proved ``_fails`` -> false, neither (assertion failed or resource limit)
-> ``unknown``, so the runner moves on to the next engine, as Verus-SpecGym does ("symbolic, then
execution"). A function counts as proved when no error diagnostic points into its line span.
Attribution works from rustc-style JSON diagnostics (``--error-format=json``) and, as a fallback,
from the text format (``error: ...`` followed by ``--> file:line:col``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from adequacy.plugin import (
    Case,
    EngineUnavailable,
    Limits,
    SandboxLimits,
    SpecInvalid,
    Task,
    Truth,
    Verdict,
    make_workdir,
    remove_tree,
    run_limited,
    views,
)

from .. import rustc
from ..render import spec_expr, struct_expr

ENGINE = "verus"
PREFIX = "__adequacy_c"
DEFAULT_RLIMIT = 10
CHUNK = 200


def verus_command() -> str | None:
    """``$ADEQUACY_VERUS`` (path of the verus binary) or ``verus`` on PATH."""
    env = os.environ.get("ADEQUACY_VERUS")
    if env:
        return env if (Path(env).is_file() and os.access(env, os.X_OK)) else None
    return shutil.which("verus")


def availability() -> tuple[bool, str, str]:
    cmd = verus_command()
    if cmd is None:
        why = ("$ADEQUACY_VERUS does not name an executable" if os.environ.get("ADEQUACY_VERUS")
               else "needs `verus` on PATH or $ADEQUACY_VERUS (https://github.com/verus-lang/"
                    "verus/releases); without it the interp and exec_spec engines decide")
        return False, "", why
    try:
        out = subprocess.run([cmd, "--version"], capture_output=True, text=True, timeout=60)
        text = (out.stdout + out.stderr).strip()
    except (OSError, subprocess.SubprocessError) as e:
        return False, "", f"`{cmd} --version` failed: {e}"
    m = re.search(r"Version:\s*(\S+)", text)
    version = m.group(1) if m else (text.splitlines()[0] if text else "unknown")
    return True, f"verus {version}", f"the Verus verifier at {cmd}"


# ------------------------------------------------------------------------------ file building

@dataclass
class CaseFns:
    """Line spans (inclusive, 1-based) of one case's two proof functions."""

    index: int
    holds: tuple[int, int]
    fails: tuple[int, int]


def _case_call(task: Task, case: Case) -> str:
    inp = struct_expr("Input", [(p.name, case.input[p.name], p.type) for p in task.inputs])
    if case.bucket.predicate == "pre":
        return f"pre_spec({inp})"
    assert case.output is not None
    out = struct_expr("Output", [(p.name, case.output[p.name], p.type) for p in task.outputs])
    return f"post_spec({inp}, {out})"


def build_file(spec_text: str, task: Task, cases: Sequence[Case],
               first_index: int = 0) -> tuple[str, list[CaseFns]]:
    """The spec text followed by a ``verus!`` block with two proof fns per case."""
    lines = spec_text.rstrip("\n").split("\n")
    lines += ["", "// ---- spec-adequacy verus driver: one proof fn per case and polarity ----",
              "verus! {", ""]
    spans: list[CaseFns] = []
    for k, case in enumerate(cases):
        i = first_index + k
        call = _case_call(task, case)
        start_h = len(lines) + 1
        lines += [f"proof fn {PREFIX}{i}_holds() {{", f"    assert({call});", "}"]
        start_f = len(lines) + 1
        lines += [f"proof fn {PREFIX}{i}_fails() {{", f"    assert(!{call});", "}", ""]
        spans.append(CaseFns(i, (start_h, start_h + 2), (start_f, start_f + 2)))
    lines += ["} // verus!", "", "fn main() {}", ""]
    return "\n".join(lines), spans


# ------------------------------------------------------------------------------ output parsing

_RESULTS = re.compile(r"verification results::\s*(\d+) verified,\s*(\d+) errors?")


def parse_results_line(text: str) -> tuple[int, int] | None:
    m = _RESULTS.search(text)
    if m:
        return int(m.group(1)), int(m.group(2))
    for raw in text.splitlines():  # --output-json puts the counts in a JSON object
        raw = raw.strip()
        if raw.startswith("{") and "verification-results" in raw:
            try:
                vr = json.loads(raw)["verification-results"]
                return int(vr["verified"]), int(vr["errors"])
            except (json.JSONDecodeError, KeyError, TypeError, ValueError):
                continue
    return None


@dataclass
class Attribution:
    """What one verifier run says about each case (by index) or about the whole file."""

    values: dict[int, tuple[Truth, str]]
    spec_error: tuple[str, int | None] | None = None
    """An error inside the spec's own lines: the spec does not type-check under Verus."""
    run_error: str | None = None
    """Something failed outside any case function and outside the spec (our rendering, setup)."""


def attribute(output: str, spans: Sequence[CaseFns], spec_lines: int,
              file_name: str = "spec.rs") -> Attribution:
    """Decide each case from the verifier's output (JSON diagnostics or text)."""
    diags = rustc.parse_json(output) or rustc.parse_text(output)
    errors = [d for d in diags if d.level == "error"
              and not d.message.startswith(("aborting due to", "could not compile"))]
    ranges: list[tuple[int, int, int, str]] = []
    for s in spans:
        ranges.append((s.holds[0], s.holds[1], s.index, "holds"))
        ranges.append((s.fails[0], s.fails[1], s.index, "fails"))
    failed: dict[tuple[int, str], str] = {}
    spec_error: tuple[str, int | None] | None = None
    run_error: str | None = None
    for d in errors:
        if d.file and not d.file.endswith(file_name):
            # vstd or a dependency: report it as a whole-run problem
            run_error = run_error or f"{d.message} ({d.file}:{d.line})"
            continue
        hit = None
        for ln in d.lines or ([d.line] if d.line else []):
            for lo, hi, idx, pol in ranges:
                if lo <= ln <= hi:
                    hit = (idx, pol)
                    break
            if hit:
                break
        if hit:
            reason = ("rlimit exceeded" if "rlimit" in d.message.lower()
                      else d.message.strip().splitlines()[0][:200])
            failed.setdefault(hit, reason)
        elif d.line is not None and d.line <= spec_lines:
            spec_error = spec_error or (d.message, d.line)
        else:
            run_error = run_error or d.message
    results = parse_results_line(output)
    values: dict[int, tuple[Truth, str]] = {}
    if spec_error is not None or (run_error is not None and not failed):
        return Attribution({}, spec_error, run_error)
    if results is None and not failed and not errors:
        return Attribution({}, None, "verifier printed neither results nor diagnostics")
    for s in spans:
        h_ok = (s.index, "holds") not in failed
        f_ok = (s.index, "fails") not in failed
        if h_ok and f_ok:
            values[s.index] = (Truth.unknown, "both polarities verified (inconsistent spec "
                                              "axioms?)")
        elif h_ok:
            values[s.index] = (Truth.true, "symbolic")
        elif f_ok:
            values[s.index] = (Truth.false, "symbolic")
        else:
            why = failed[(s.index, "holds")]
            other = failed[(s.index, "fails")]
            values[s.index] = (Truth.unknown,
                               f"verus proved neither: {why}" if why == other
                               else f"verus proved neither: {why}; {other}")
    return Attribution(values, None, run_error)


# ------------------------------------------------------------------------------ running

def run_verus(cmd: str, text: str, rlimit: int, limits: Limits) -> tuple[str, bool]:
    """Verify ``text`` as ``spec.rs`` in a fresh folder; (stdout + stderr, timed out).

    JSON diagnostics (``--error-format=json``) carry exact line spans; the summary line
    ``verification results:: N verified, M errors`` is printed beside them."""
    work = make_workdir("adequacy-verus-")
    try:
        (work / "spec.rs").write_text(text, encoding="utf-8")
        (work / "spec.rs").chmod(0o644)
        res = run_limited(
            [cmd, "spec.rs", "--rlimit", str(rlimit), "--multiple-errors", "100000",
             "--error-format=json"],
            cwd=work, timeout=limits.spec_seconds,
            limits=SandboxLimits(memory_mb=None, cpu_seconds=int(limits.spec_seconds) + 5,
                                 file_size_mb=256, open_files=4096, processes=None,
                                 drop_privileges=False),
            env={**os.environ, "RUST_BACKTRACE": "0"},
            view=views.tool(cmd, os.environ.get("RUSTUP_HOME", Path.home() / ".rustup")),
        )
    finally:
        remove_tree(work)
    output = (res.stdout.decode("utf-8", "replace") + "\n"
              + res.stderr.decode("utf-8", "replace"))
    return output, res.timed_out


def check(spec_text: str, task: Task, cases: Sequence[Case], limits: Limits,
          path: str | None = None) -> list[Verdict]:
    cmd = verus_command()
    if cmd is None:
        raise EngineUnavailable("verus engine: " + availability()[2])
    # Defence in depth: the verifier expands macros (include_str!, proc macros) while reading
    # the spec, so it gets only what the front end accepts, whoever calls this.
    from ..frontend import check_source

    check_source(spec_text, task.skeleton, path, str(task.skeleton_path))
    rlimit = int(task.settings.get("rlimit", DEFAULT_RLIMIT))
    spec_lines = spec_text.rstrip("\n").count("\n") + 1
    verdicts: list[Verdict] = []
    for start in range(0, len(cases), CHUNK):
        chunk = list(cases[start:start + CHUNK])
        text, spans = build_file(spec_text, task, chunk, first_index=0)
        output, timed_out = run_verus(cmd, text, rlimit, limits)
        if timed_out:
            verdicts += [Verdict(case_id=c.id, bucket=c.bucket, value=Truth.unknown,
                                 engine=ENGINE, reason=f"verus timed out after "
                                 f"{limits.spec_seconds:g}s") for c in chunk]
            continue
        att = attribute(output, spans, spec_lines)
        if att.spec_error is not None:
            msg, line = att.spec_error
            raise SpecInvalid(f"verus: {msg}", file=path, line=line, engine=ENGINE)
        for k, c in enumerate(chunk):
            value, reason = att.values.get(k, (Truth.unknown, f"verus run failed: "
                                                              f"{att.run_error or 'no result'}"))
            verdicts.append(Verdict(case_id=c.id, bucket=c.bucket, value=value, engine=ENGINE,
                                    reason=reason))
    return verdicts


__all__ = ["availability", "attribute", "build_file", "check", "parse_results_line", "run_verus",
           "spec_expr",
           "verus_command"]
