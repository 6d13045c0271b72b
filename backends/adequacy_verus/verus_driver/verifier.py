"""The ``verus`` verifier: the spec's contract proved against the task's reference
implementation by the real ``verus`` binary (``adequacy verify`` on a Verus task).

A Verus task may hold ``reference/reference.rs``: Verus items (inside their own
``verus! { ... }`` block) implementing the task, whose ``requires``/``ensures`` call the spec's
``pre_spec``/``post_spec``, e.g.::

    verus! {
    fn count_in_range(arr: &Vec<i32>, lo: i32, hi: i32) -> (result: usize)
        requires pre_spec(Input { arr: arr@, lo, hi }),
        ensures post_spec(Input { arr: arr@, lo, hi }, Output { result }),
    { ... }
    } // verus!

The verifier appends that file to the spec and runs ``verus`` once. Each function of the
reference is one contract: closed when no error points into it, open (one open goal per error,
e.g. "postcondition not satisfied") or timeout (rlimit) otherwise. Errors on the spec's own
lines (the spec does not type-check under Verus), a run that prints neither a summary nor
diagnostics, a time-out and a task without a reference are ``unknown`` with the reason: the
spec's faults never raise. Verification says whether the body meets the contract, not whether
the contract is strong enough; the CLI prints the adequacy metrics beside it for that reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from adequacy.plugin import (
    ContractResult,
    EngineInfo,
    Limits,
    LoadedSpec,
    OpenGoal,
    ProofOutcome,
    SpecInvalid,
    Task,
    VerifyResult,
)

from .. import rustc
from .driver import (
    DEFAULT_RLIMIT,
    availability,
    parse_results_line,
    run_verus,
    verus_command,
)

NAME = "verus"
#: Where a task keeps its Verus implementation, relative to the task folder.
REFERENCE = Path("reference") / "reference.rs"
SEPARATOR = "// ---- spec-adequacy verus verifier: the task's reference/reference.rs ----"
_FN = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:(?:exec|proof|open|closed|spec)\s+)*fn\s+"
                 r"([A-Za-z_]\w*)")
_LOOP = re.compile(r"\b(?:while|loop|for)\b")


@dataclass(frozen=True)
class Built:
    """The file handed to verus and where the reference's functions sit in it (1-based,
    inclusive line spans)."""

    text: str
    spec_lines: int
    functions: dict[str, tuple[int, int]]
    reference: tuple[int, int]


def build(spec_text: str, reference: str) -> Built:
    """The spec, then the reference verbatim, then ``fn main() {}`` when it has none."""
    lines = spec_text.rstrip("\n").split("\n")
    spec_lines = len(lines)
    lines += ["", SEPARATOR]
    first = len(lines) + 1
    ref = reference.rstrip("\n").split("\n")
    lines += ref
    last = len(lines)
    if not re.search(r"^\s*fn\s+main\s*\(", reference, re.M):
        lines += ["", "fn main() {}"]
    lines.append("")
    starts = [(first + k, m.group(1)) for k, ln in enumerate(ref) if (m := _FN.match(ln))]
    functions: dict[str, tuple[int, int]] = {}
    for j, (start, name) in enumerate(starts):
        end = starts[j + 1][0] - 1 if j + 1 < len(starts) else last
        functions[name] = (start, end)
    return Built("\n".join(lines), spec_lines, functions, (first, last))


def _unknown(task_id: str, summary: str, method: str = "") -> VerifyResult:
    return VerifyResult(task_id=task_id, engine=NAME, method=method, result="unknown",
                        summary=summary[:1000])


def _status(reasons: list[str]) -> str:
    if not reasons:
        return "closed"
    return "timeout" if all("rlimit" in r.lower() for r in reasons) else "open"


def interpret(output: str, built: Built, task_id: str, timed_out: bool = False,
              seconds: float = 0.0) -> VerifyResult:
    """The verifier's output (JSON or text diagnostics plus the summary line) as a result."""
    method = ", ".join(built.functions)
    if timed_out:
        return _unknown(task_id, f"verus timed out after {seconds:g}s", method)
    diags = rustc.parse_json(output) or rustc.parse_text(output)
    errors = [d for d in diags if d.level == "error"
              and not d.message.startswith(("aborting due to", "could not compile"))]
    src = built.text.split("\n")
    lo, hi = built.reference
    per_fn: dict[str, list[tuple[str, int]]] = {n: [] for n in built.functions}
    for d in errors:
        where = [ln for ln in d.lines or ([d.line] if d.line else []) if lo <= ln <= hi]
        if d.file and not d.file.endswith("spec.rs"):
            return _unknown(task_id, f"verus failed outside the spec and the reference: "
                            f"{d.message} ({d.file}:{d.line})", method)
        if not where:
            if d.line is not None and d.line <= built.spec_lines:
                return _unknown(task_id, f"verus rejects the spec: {d.message} (spec line "
                                f"{d.line})", method)
            return _unknown(task_id, f"verus failed: {d.message}", method)
        ln = where[0]
        name = next((n for n, (a, b) in built.functions.items() if a <= ln <= b), None)
        if name is None:
            return _unknown(task_id, f"verus rejects the reference: {d.message} (reference "
                            f"line {ln - lo + 1})", method)
        per_fn[name].append((d.message.strip().splitlines()[0][:300], ln))
    counts = parse_results_line(output)
    if counts is None and not errors:
        return _unknown(task_id, "verus printed neither results nor diagnostics", method)
    contracts = [ContractResult(
        contract=n, status=_status([m for m, _ in per_fn[n]]), open_goals=len(per_fn[n]),
        reason="; ".join(sorted({m for m, _ in per_fn[n]})),
        goals=[OpenGoal(branch=[m], sequent=f"reference line {ln - lo + 1}: "
                        f"{src[ln - 1].strip()}") for m, ln in per_fn[n]])
        for n in built.functions]
    body = "\n".join(src[lo - 1:hi])
    loops = bool(_LOOP.search(body))
    said = f"{counts[0]} verified, {counts[1]} errors" if counts else f"{len(errors)} errors"
    if not built.functions:
        return _unknown(task_id, f"{REFERENCE} declares no function (verus: {said})", method)
    if not errors and counts is not None and counts[1]:
        return _unknown(task_id, f"verus: {said}, but no error diagnostic could be read",
                        method)
    result: ProofOutcome = ("verified" if not errors and counts is not None and counts[1] == 0
                      else "not verified")
    opened = [c.contract for c in contracts if c.status != "closed"]
    summary = f"verus: {said}" + (f"; open: {', '.join(opened)}" if opened else "")
    return VerifyResult(task_id=task_id, engine=NAME, method=method, result=result,
                        summary=summary, contracts=contracts, has_loops=loops,
                        loop_invariants=loops and "invariant" in body)


class VerusVerifier:
    """``adequacy verify`` for Verus tasks, through the ``verus`` binary."""

    name = NAME

    def info(self) -> EngineInfo:
        ok, version, reason = availability()
        return EngineInfo(name=self.name, available=ok, version=version, reason=reason,
                          fidelity=30,
                          decides=f"proves the spec's pre_spec/post_spec as the contract of "
                                  f"the task's {REFERENCE}")

    def verify(self, spec: LoadedSpec, task: Task, limits: Limits) -> VerifyResult:
        cmd = verus_command()
        if cmd is None:
            return _unknown(task.id, availability()[2])
        ref = task.root / REFERENCE
        if not ref.is_file():
            return _unknown(task.id, f"the task has no reference implementation to prove the "
                            f"spec against (add {REFERENCE}: Verus items whose requires/ensures "
                            "call pre_spec/post_spec)")
        # Defence in depth, as for the engine: verus expands macros, so the spec it reads is
        # only ever one the front end accepts.
        from ..frontend import check_source

        try:
            check_source(spec.text, task.skeleton, spec.path, str(task.skeleton_path))
        except SpecInvalid as e:
            return _unknown(task.id, f"spec refused: {e.render()}")
        built = build(spec.text, ref.read_text(encoding="utf-8"))
        rlimit = int(task.settings.get("rlimit", DEFAULT_RLIMIT))
        output, timed_out = run_verus(cmd, built.text, rlimit, limits)
        return interpret(output, built, task.id, timed_out, limits.spec_seconds)


__all__ = ["REFERENCE", "VerusVerifier", "build", "interpret"]
