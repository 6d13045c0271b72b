"""Read OpenJML's ``--esc --progress`` output: which stub methods were proved.

Formats (OpenJML's documented output; the test suite prints ``warning:`` where the tool
prints ``verify:``):

    Starting proof of Solution.__post_phi_0(int[],int) with prover z3_4_3
    Completed proof of Solution.__post_phi_0(int[],int) with prover z3_4_3 - no warnings
    Completed proof of Solution.__post_not_0() with prover z3_4_3 - with warnings
    Solution.java:40: verify: The prover cannot establish an assertion (Assert) in method __post_not_0
    Solution.java:12: verify: The prover cannot establish an assertion (Postcondition: Solution.java:5:) in method __post_phi_1
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_COMPLETED = re.compile(
    r"Completed proof of (?:[\w$.]+\.)?(?P<m>[\w$]+)\([^)]*\)(?: with prover \S+)?\s*-\s*"
    r"(?P<r>no warnings|with warnings|TIMEOUT|INFEASIBLE|ERROR|UNKNOWN|timeout|infeasible)",
    re.IGNORECASE)
_STARTING = re.compile(r"Starting proof of (?:[\w$.]+\.)?(?P<m>[\w$]+)\(")
_FAILURE = re.compile(
    r"^(?P<file>[^:\n]+):(?P<line>\d+): (?:verify|warning): (?P<msg>.*?)(?: in method "
    r"(?P<m>[\w$]+))?\s*$", re.MULTILINE)
_ERROR = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+): error: (?P<msg>.*)$", re.MULTILINE)

EXIT_OK, EXIT_ERRORS, EXIT_CMDLINE, EXIT_SYSTEM, EXIT_ABNORMAL, EXIT_VERIFY = 0, 1, 2, 3, 4, 6


@dataclass
class MethodResult:
    status: str
    """``proved``, ``failed``, ``timeout``, ``infeasible``, ``error``, ``unknown``."""
    warnings: list[str] = field(default_factory=list)


@dataclass
class RunReport:
    methods: dict[str, MethodResult]
    errors: list[tuple[int, str]]
    """Compile errors: (line, message)."""
    exit_code: int | None


def parse_output(text: str, exit_code: int | None) -> RunReport:
    methods: dict[str, MethodResult] = {}
    for m in _STARTING.finditer(text):
        methods.setdefault(m.group("m"), MethodResult("unknown"))
    for m in _COMPLETED.finditer(text):
        r = m.group("r").lower()
        status = {"no warnings": "proved", "with warnings": "failed", "timeout": "timeout",
                  "infeasible": "infeasible", "error": "error", "unknown": "unknown"}[r]
        methods[m.group("m")] = MethodResult(status, methods.get(m.group("m"),
                                                                 MethodResult("")).warnings)
    for m in _FAILURE.finditer(text):
        name = m.group("m")
        msg = m.group("msg")
        if name is None or "Associated declaration" in msg:
            continue
        res = methods.setdefault(name, MethodResult("failed"))
        res.warnings.append(msg.strip())
        if "no feasible path" in msg or "infeasible" in msg.lower():
            res.status = "infeasible"
        elif "time or memory limit" in msg:
            res.status = "timeout"
        elif res.status in ("proved", "unknown", ""):
            res.status = "failed"
    errors = [(int(m.group("line")), m.group("msg")) for m in _ERROR.finditer(text)]
    return RunReport(methods, errors, exit_code)
