"""The ``interp`` engine: Verus spec code evaluated in-process with Verus's own semantics.

``evaluate_cases`` is the engine's whole surface: one verdict per case, never an exception.
Evaluation runs in a helper thread with a large stack so that deep (but bounded) spec
recursion does not hit Python's C-stack limit; limits are cooperative (steps, wall clock,
recursion depth) and turn into ``unknown`` for that case only.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from adequacy.plugin import (
    OUT_OF_MEMORY,
    TIMEOUT,
    Case,
    FailureStreak,
    Limits,
    SpecInvalid,
    Task,
    Truth,
    Verdict,
    progress,
    source_version,
)

from ..syntax.ast import SpecModule
from .compiler import Abort, Budget, CompileError, Program
from .values import StructVal, Undef, from_json
from .watchdog import Watchdog

ENGINE = "interp"


def _source_version(prefix: str = "interp-2") -> str:
    """Engine version = a human prefix + a hash of the evaluator's sources (this package and
    the syntax package it evaluates), so any change to them invalidates cached verdicts
    without anyone remembering to bump a number."""
    here = Path(__file__).resolve().parent
    try:
        files = [f for d in (here, here.parent / "syntax") for f in d.glob("*.py")]
        return f"{prefix}+{source_version(files, here.parent)}"
    except OSError:
        return prefix


VERSION = _source_version()
MAX_DEPTH = 20000
_STACK_BYTES = 512 * 1024 * 1024

__all__ = ["ENGINE", "VERSION", "compile_module", "evaluate_cases", "run_deep", "Program"]


def compile_module(spec: SpecModule, path: str | None = None) -> Program:
    """Compile every spec fn eagerly; unresolved names raise ``SpecInvalid`` with the line."""
    prog = Program(spec)
    try:
        for fc in list(prog.fns.values()):
            prog.fn_code(fc)
        for tbl in prog.methods.values():
            for fc in tbl.values():
                prog.fn_code(fc)
    except CompileError as e:
        raise SpecInvalid(e.message, file=path or spec.path, line=e.line) from e
    return prog


_DEEP_LOCK = threading.Lock()
_DEEP_USERS = [0, 0]
"""[threads running deep now, the recursion limit before the first of them raised it]."""


def _run_big_stack(fn: Any) -> Any:
    """Run ``fn()`` in a fresh thread with a large stack and a high recursion limit.

    The recursion limit is one per interpreter: it is raised while any deep thread runs and
    restored when the last one ends (two concurrent evaluations, say in the MCP server, must
    not lower it under each other)."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = fn()
        except BaseException as e:  # noqa: BLE001 - re-raised in the caller's thread
            box["error"] = e

    with _DEEP_LOCK:
        if _DEEP_USERS[0] == 0:
            _DEEP_USERS[1] = sys.getrecursionlimit()
            sys.setrecursionlimit(max(_DEEP_USERS[1], 1_000_000))
        _DEEP_USERS[0] += 1
    try:
        old_size = threading.stack_size()
        try:
            threading.stack_size(_STACK_BYTES)
            t = threading.Thread(target=target, name="verus-interp", daemon=True)
            t.start()
        finally:
            threading.stack_size(old_size)
        t.join()
    finally:
        with _DEEP_LOCK:
            _DEEP_USERS[0] -= 1
            if _DEEP_USERS[0] == 0:
                sys.setrecursionlimit(_DEEP_USERS[1])
    if "error" in box:
        raise box["error"]
    return box.get("value")


run_deep = _run_big_stack


def evaluate_cases(spec: SpecModule | Program, task: Task, cases: Sequence[Case],
                   limits: Limits) -> list[Verdict]:
    """One verdict per case: ``pre_spec(Input{..})`` or ``post_spec(Input{..}, Output{..})``.

    ``spec`` is a parsed module (compiled here) or the program the front end already compiled
    (``VerusSpec.program``), which saves compiling the spec a second time."""
    try:
        return list(_run_big_stack(lambda: _evaluate(spec, task, cases, limits)))
    except Exception as e:  # noqa: BLE001 - the contract: never an exception out of here
        return [Verdict(case_id=c.id, bucket=c.bucket, value=Truth.unknown, engine=ENGINE,
                        reason=f"interp internal error: {type(e).__name__}: {e}")
                for c in cases]


def _evaluate(spec: SpecModule | Program, task: Task, cases: Sequence[Case],
              limits: Limits) -> list[Verdict]:
    prog_error = ""
    if isinstance(spec, Program):
        prog = spec
    else:
        try:
            prog = compile_module(spec)
        except SpecInvalid as e:
            prog_error = f"spec does not compile: {e}"
    out: list[Verdict] = []
    deadline = time.monotonic() + limits.spec_seconds
    streak = FailureStreak(limits.timeout_streak)
    for c in cases:
        t0 = time.perf_counter()
        if prog_error:
            out.append(Verdict(case_id=c.id, bucket=c.bucket, value=Truth.unknown,
                               engine=ENGINE, reason=prog_error))
            continue
        skip = streak.skip_reason(c.bucket.predicate)
        left = deadline - time.monotonic()
        if skip is None and left <= 0:
            skip = f"spec time limit ({limits.spec_seconds:g}s) reached"
        if skip is not None:
            out.append(Verdict(case_id=c.id, bucket=c.bucket, value=Truth.unknown,
                               engine=ENGINE, reason=skip))
            continue
        exhausted = False
        try:
            value, reason, exhausted = _one(prog, task, c, limits, left)
        except Exception as e:  # noqa: BLE001 - one case's surprise must not sink its batch
            value, reason = Truth.unknown, f"interp internal error: {type(e).__name__}: {e}"
        # the give-up rule names what ran out: the memory cap apart from time and steps
        streak.note(c.bucket.predicate,
                    None if not exhausted else
                    OUT_OF_MEMORY if (reason or "").startswith("out of memory") else TIMEOUT)
        progress.advance()
        out.append(Verdict(case_id=c.id, bucket=c.bucket, value=value, engine=ENGINE,
                           reason=reason, seconds=round(time.perf_counter() - t0, 6)))
    return out


def _one(prog: Program, task: Task, c: Case, limits: Limits,
         left: float) -> tuple[Truth, str, bool]:
    """The case's value and reason, and whether it ran out of its budget (time, steps or
    depth), which counts towards giving the predicate up."""
    pred = c.bucket.predicate
    fname = "pre_spec" if pred == "pre" else "post_spec"
    if fname not in prog.fns:
        return Truth.unknown, f"spec has no {fname}", False
    try:
        inp = StructVal("Input", {p.name: from_json(c.input.get(p.name), p.type)
                                  for p in task.inputs})
        args: list[Any] = [inp]
        if pred == "post":
            outv = c.output or {}
            args.append(StructVal("Output", {p.name: from_json(outv.get(p.name), p.type)
                                             for p in task.outputs}))
    except (ValueError, TypeError, KeyError) as e:
        return Truth.unknown, f"cannot convert the case's values: {e}", False
    prog.budget = Budget(limits.steps, min(limits.case_seconds, max(0.1, left)), MAX_DEPTH,
                         limits.memory_mb)
    try:
        dog = Watchdog(prog.budget.seconds * 1.5 + 0.05)
        try:
            r = prog.call_fn(fname, *args)
        finally:
            dog.disarm()
    except Undef as u:
        return Truth.unknown, "undefined: " + u.reason if not u.reason.startswith(
            ("unsupported", "unbounded")) else u.reason, False
    except Abort as a:
        return Truth.unknown, str(a), True
    except RecursionError:
        return Truth.unknown, "recursion too deep for the evaluator", True
    except MemoryError:
        return Truth.unknown, "out of memory", False
    if r is True:
        return Truth.true, "evaluated", False
    if r is False:
        return Truth.false, "evaluated", False
    return Truth.unknown, f"{fname} returned a non-bool value", False
