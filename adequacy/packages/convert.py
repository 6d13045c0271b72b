"""The lossless conversion of raw test text into typed values: ``P(R(t)) == t``, byte for byte.

A task's ``io.py`` defines ``parse_input(text) -> {arg: value}``,
``print_input(value) -> text``, ``parse_output(text, input) -> {field: value}`` and
``print_output(value, input) -> text`` (values in the task's JSON form, docs/tasks.md). It may
come from a language model (``adequacy package convert --lm``), so it runs in the sandbox:
one contained Python process converts every text of a package. A text is kept only if its
parse fits the declared types and printing the parse gives back the very bytes; each failure
names the case and the first differing byte, the feedback ``package convert`` gives a model.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adequacy.errors import AdequacyError, ConvertError, JudgeError
from adequacy.model.task import Param
from adequacy.model.values import validate
from adequacy.packages.programs import DRIVERS
from adequacy.sandbox import exec_lock
from adequacy.sandbox.mounts import View
from adequacy.sandbox.run import SandboxLimits, make_workdir, remove_tree, run_limited

#: Seconds per text for the whole conversion run, plus a fixed start-up allowance.
SECONDS_PER_TEXT = 0.5
START_SECONDS = 30.0


@dataclass(frozen=True)
class Request:
    case: str
    """The case's name (``test 03``, ``hack h7 output``) for messages."""
    kind: str
    """``input`` or ``output``."""
    text: bytes
    input: dict[str, Any] | None = None
    """The parsed input, for an output."""


@dataclass(frozen=True)
class ConvertedValue:
    value: dict[str, Any] | None
    error: str = ""
    """Why the text did not convert: ``syntax`` problems and round-trip failures."""
    kind: str = ""
    """``syntax`` (R failed or its value does not fit the types) or ``round trip``."""


def first_difference(a: bytes, b: bytes) -> int:
    """Offset of the first byte where ``a`` and ``b`` differ (the shorter's length if one is
    a prefix of the other)."""
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n


def _show(b: bytes, at: int) -> str:
    return repr(b[at:at + 1]) if at < len(b) else "end of text"


def round_trip_error(case: str, kind: str, original: bytes, printed: bytes) -> str:
    at = first_difference(original, printed)
    return (f"{case}: {kind} does not round-trip: P(R(t)) differs from t at byte {at} "
            f"(t has {_show(original, at)}, P(R(t)) has {_show(printed, at)}; "
            f"{len(original)} vs {len(printed)} bytes)")


def convert_all(io_py: Path, requests: list[Request], params: dict[str, list[Param]],
                ) -> list[ConvertedValue]:
    """Convert every request through ``io_py`` in the sandbox. ``params``: ``input`` and
    ``output`` to their declared parameters. Outputs name their parsed input in ``input``."""
    if not requests:
        return []
    found = exec_lock.python()
    if found is None:
        raise JudgeError("no Python interpreter to run the task's io.py")
    exe, needs = found
    lines: list[str] = []
    early: dict[int, ConvertedValue] = {}
    for i, r in enumerate(requests):
        try:
            text = r.text.decode("utf-8")
        except UnicodeDecodeError as e:
            early[i] = ConvertedValue(None, f"{r.case}: {r.kind} is not UTF-8 text (byte "
                                       f"0x{r.text[e.start]:02x} at offset {e.start})", "syntax")
            text = ""
        lines.append(json.dumps({"op": r.kind, "text": text, "input": r.input}))
    work = make_workdir("adequacy-io-")
    try:
        shutil.copy(io_py, work / "io.py")
        shutil.copy(DRIVERS / "io_driver.py", work / "io_driver.py")
        for n in ("io.py", "io_driver.py"):
            (work / n).chmod(0o644)
        res = run_limited([exe, "-I", "-S", "-B", str(work / "io_driver.py"), str(work / "io.py")],
                          cwd=work, input=("\n".join(lines) + "\n").encode(),
                          timeout=START_SECONDS + SECONDS_PER_TEXT * len(requests), view=View(ro=needs),
                          limits=SandboxLimits(memory_mb=1024, cpu_seconds=None, processes=4),
                          max_output=16 * 1024 * 1024 + 8 * sum(len(r.text) for r in requests))
        answers = res.stdout.decode("utf-8", "replace").splitlines()
        if len(answers) < len(requests):
            err = res.stderr.decode("utf-8", "replace").strip().splitlines()
            why = ("timed out" if res.timed_out else
                   (err[-1] if err else f"exit {res.returncode}"))
            if not answers:
                raise ConvertError(f"{io_py}: io.py could not run ({why[:300]})")
    finally:
        remove_tree(work)
    out: list[ConvertedValue] = []
    for i, r in enumerate(requests):
        if i in early:
            out.append(early[i])
            continue
        if i >= len(answers):
            out.append(ConvertedValue(None, f"{r.case}: io.py stopped before this {r.kind}", "syntax"))
            continue
        out.append(_check(r, answers[i], params[r.kind]))
    return out


def _check(r: Request, answer: str, params: list[Param]) -> ConvertedValue:
    try:
        ans = json.loads(answer)
    except (ValueError, RecursionError):
        return ConvertedValue(None, f"{r.case}: io.py answered something that is not JSON (or "
                               "nested too deeply)", "syntax")
    if not isinstance(ans, dict):
        return ConvertedValue(None, f"{r.case}: io.py answered something that is not an object",
                         "syntax")
    if "error" in ans:
        return ConvertedValue(None, f"{r.case}: {r.kind} does not parse: {ans['error']}", "syntax")
    value, printed = ans.get("value"), ans.get("printed", "")
    if not isinstance(value, dict):
        return ConvertedValue(None, f"{r.case}: parse_{r.kind} returned {type(value).__name__}, "
                               "not an object of the declared fields", "syntax")
    names = [p.name for p in params]
    if sorted(value) != sorted(names):
        return ConvertedValue(None, f"{r.case}: parse_{r.kind} gave fields {sorted(value)}, the "
                               f"task declares {sorted(names)}", "syntax")
    for p in params:
        try:
            validate(value[p.name], p.type, f"{r.kind}.{p.name}")
        except AdequacyError as e:
            return ConvertedValue(None, f"{r.case}: {e}", "syntax")
    printed_b = printed.encode("utf-8")
    if printed_b != r.text:
        return ConvertedValue(None, round_trip_error(r.case, r.kind, r.text, printed_b), "round trip")
    return ConvertedValue(value)
