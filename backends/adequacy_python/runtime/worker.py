"""The sandboxed Python worker: one spec (or one reference function), one case per request.

Started as ``python -I -S -B worker.py`` inside the sandbox (no site-packages, no environment
variables read, nothing of the project visible but this folder), once per engine run of one
spec: nothing a spec leaves in the interpreter reaches another spec. It speaks JSON lines
(``adequacy.plugin.JsonLineWorker``): ``ping``; ``load`` a spec (checked again by ``policy``
before anything is compiled) and ``eval`` one predicate on one case; ``loadref`` a task's
reference module and ``ref`` one input.

Each case runs on a fresh module namespace (module-level values and default arguments are made
anew, as if the spec were imported for that call), with the built-ins a spec may use, under a
timer that raises into pure-Python loops and a parent that kills the process when a built-in
does not come back (``10**10**10``). The replies go out on a private copy of the original
stdout; file descriptors 0 and 1 point at ``/dev/null``, so neither the spec nor a reference
can read the next request or write a forged reply.
"""

from __future__ import annotations

import ast
import builtins
import collections
import contextlib
import functools
import gc
import itertools
import json
import math
import operator
import os
import re
import resource
import signal
import string
import sys
import traceback
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import policy  # noqa: E402
import pyvalues  # noqa: E402
import rewrite  # noqa: E402

SPEC_FILE = "<spec>"
REF_FILE = "<reference>"
DEFAULT_DIGITS = 4300  # Python's own limit on int <-> str conversions
WIRE_DIGITS = 10_000  # the task format's limit (JSON integers of cases)
PRELOADED = {m: sys.modules[m] for m in ("math", "itertools", "functools", "collections",
                                          "re", "string", "operator")}
ALLOWED = (math, itertools, functools, collections, re, string, operator)


class Timeout(BaseException):
    """Raised into the evaluation by the timer; a spec cannot catch it (no bare except)."""


class ResourceAbort(BaseException):
    """A spec's handler caught MemoryError or RecursionError: re-raised past its handlers."""

    def __init__(self, kind: str, what: str) -> None:
        super().__init__(what)
        self.kind = kind


class State:
    active = False
    limit: BaseException | None = None
    """A limit the case hit even if the exception was swallowed on its way (a finalizer
    that loops past the timer: its Timeout is "unraisable" and never reaches us)."""


def on_alarm(_sig: int, _frame: object) -> None:
    if State.active:
        State.limit = State.limit or Timeout()
        raise Timeout()


def on_unraisable(u: object) -> None:
    exc = getattr(u, "exc_value", None)
    if State.active and isinstance(exc, (Timeout, ResourceAbort, MemoryError, RecursionError)):
        State.limit = State.limit or exc


def guard(exc: BaseException) -> None:
    if isinstance(exc, MemoryError):
        raise ResourceAbort("out of memory", "MemoryError") from None
    if isinstance(exc, RecursionError):
        raise ResourceAbort("stack overflow", "RecursionError") from None


def one_arg_type(obj: object) -> type:
    return type(obj)


def guarded_import(name: str, globals: object = None, locals: object = None,
                   fromlist: tuple[str, ...] | None = (), level: int = 0) -> object:
    if level or name not in PRELOADED:
        raise ImportError(f"import of {name!r} is not allowed in a spec")
    usable = policy.module_names(name)
    for n in fromlist or ():
        if usable.get(n) != "":
            raise ImportError(f"{name}.{n} is not allowed in a spec")
    return PRELOADED[name]


SAFE = {n: getattr(builtins, n) for n in policy.SAFE_BUILTINS
        if n != "type" and hasattr(builtins, n)}
SAFE["type"] = one_arg_type
SAFE["__import__"] = guarded_import
SAFE[rewrite.GUARD] = guard


def spec_line(tb: object, filename: str) -> int:
    line = 0
    for fs in traceback.extract_tb(tb):  # type: ignore[arg-type]
        if fs.filename == filename and fs.lineno:
            line = fs.lineno
    return line


def short(text: str, n: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[:n - 3] + "..."


def run_limited(fn: Any, seconds: float) -> tuple[str, Any]:
    """(status, value or exception) of ``fn()`` under the case's timer and digit limit."""
    sys.set_int_max_str_digits(DEFAULT_DIGITS)
    State.limit = None
    State.active = True
    signal.setitimer(signal.ITIMER_REAL, seconds, 0.05)
    try:
        try:
            value = fn()
        finally:
            State.active = False
            signal.setitimer(signal.ITIMER_REAL, 0)
        if State.limit is not None:
            return "raised", State.limit
        return "ok", value
    except BaseException as e:  # noqa: BLE001 - everything the case did is its outcome
        return "raised", State.limit or e
    finally:
        State.active = False
        sys.set_int_max_str_digits(WIRE_DIGITS)


def failure(e: BaseException) -> tuple[str, str] | None:
    """(failure kind, reason) of a limit, or None for the spec's own exception."""
    if isinstance(e, Timeout):
        return "timeout", "timeout"
    if isinstance(e, ResourceAbort):
        return e.kind, f"{e.kind} (the spec caught {e.args[0]}, which does not stop a limit)"
    if isinstance(e, MemoryError):
        return "out of memory", "out of memory"
    if isinstance(e, RecursionError):
        return "stack overflow", "recursion deeper than the limit (stack overflow)"
    if isinstance(e, (SystemExit, KeyboardInterrupt, GeneratorExit)):
        return "forbidden", f"{type(e).__name__} raised"
    return None


class Spec:
    def __init__(self, req: dict[str, Any]) -> None:
        source = req["source"]
        self.inputs = {n: t for n, t in req["inputs"]}
        self.outputs = {n: t for n, t in req["outputs"]}
        tree = ast.parse(source, SPEC_FILE)
        rep = policy.check(tree, rewrite.case_names(list(self.inputs), list(self.outputs)))
        if rep.violations:
            v = rep.first()
            raise ValueError(f"line {v.line}: {v.message}")
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 20_000))  # a syntax tree compiles recursively
        try:
            norm = rewrite.normalize(tree, list(self.inputs), list(self.outputs))
            self.code = compile(norm.module, SPEC_FILE, "exec")
        finally:
            sys.setrecursionlimit(limit)
        self.parts = {"pre": norm.pre, "post": norm.post}
        self.seconds = float(req.get("case_seconds", 10.0))

    def evaluate(self, req: dict[str, Any]) -> dict[str, Any]:
        pred = req["pred"]
        values = {n: pyvalues.decode(v, self.inputs[n]) for n, v in req["input"].items()}
        if pred == "post":
            values.update({n: pyvalues.decode(v, self.outputs[n])
                           for n, v in (req.get("output") or {}).items()})
        parts = self.parts[pred]
        if not parts:
            return {"v": "true", "why": f"no {pred}condition: true"}
        ns: dict[str, Any] = {"__builtins__": SAFE, "__name__": "spec"}

        def run() -> tuple[bool, str]:
            exec(self.code, ns)
            for p in parts:
                fn = ns[p.fn]
                val = fn(*[values[k] for k in p.pos], **{a: values[k] for a, k in p.kw.items()})
                ok = True if (val is None and p.asserts) else bool(val)
                if not ok:
                    return False, f"{p.what} is false"
            return True, "executed"

        status, out = run_limited(run, self.seconds)
        ns.clear()
        if status == "ok":
            ok, why = out
            return {"v": "true" if ok else "false", "why": why}
        e = out
        line = spec_line(e.__traceback__, SPEC_FILE)
        at = f" (spec line {line})" if line else ""
        if isinstance(e, AssertionError):
            msg = f": {short(str(e), 80)}" if str(e) else ""
            return {"v": "false", "why": f"assertion failed{msg}{at}", "line": line}
        f = failure(e)
        if f is not None:
            return {"v": "unknown", "why": f[1] + at, "kind": f[0], "line": line}
        return {"v": "unknown", "why": short(f"raised {type(e).__name__}: {e}") + at,
                "line": line}


class Reference:
    """A task's reference module: full Python (it is the task's code, not a spec), still only
    inside this sandbox, with a fresh module per input."""

    def __init__(self, req: dict[str, Any]) -> None:
        self.code = compile(req["source"], REF_FILE, "exec")
        self.function = req["function"]
        self.inputs = [(n, t) for n, t in req["inputs"]]
        self.outputs = [(n, t) for n, t in req["outputs"]]
        self.seconds = float(req.get("case_seconds", 10.0))

    def run(self, req: dict[str, Any]) -> dict[str, Any]:
        args = [pyvalues.decode(req["input"][n], t) for n, t in self.inputs]
        ns: dict[str, Any] = {"__name__": "reference"}

        def call() -> object:
            exec(self.code, ns)
            return ns[self.function](*args)

        status, out = run_limited(call, self.seconds)
        ns.clear()
        if status == "raised":
            f = failure(out)
            if f is not None:
                return {"kind": "timeout" if f[0] == "timeout" else "failed", "reason": f[1]}
            return {"kind": "threw", "reason": type(out).__name__,
                    "detail": short(str(out), 120)}
        if req.get("raw"):
            return {"kind": "returned", "raw": pyvalues.plain(out)}
        try:
            if len(self.outputs) == 1:
                name, t = self.outputs[0]
                return {"kind": "returned", "output": {name: pyvalues.encode(out, t, name)}}
            if not isinstance(out, tuple) or len(out) != len(self.outputs):
                raise pyvalues.ValueMismatch(f"expected a tuple of {len(self.outputs)} outputs")
            return {"kind": "returned", "output": {
                n: pyvalues.encode(v, t, n) for (n, t), v in zip(self.outputs, out, strict=True)}}
        except pyvalues.ValueMismatch as e:
            return {"kind": "failed", "reason": f"the reference returned a value of another "
                                                f"type: {e}"}


def main() -> None:
    sys.set_int_max_str_digits(WIRE_DIGITS)
    # Replies go out on a private descriptor; 0 and 1 point at /dev/null.
    reply_fd = os.dup(1)
    request_fd = os.dup(0)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115
    out = os.fdopen(reply_fd, "w", encoding="utf-8")
    inp = os.fdopen(request_fd, "rb")
    signal.signal(signal.SIGALRM, on_alarm)
    sys.unraisablehook = on_unraisable
    soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
    want = 256 * 1024 * 1024
    if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or hard >= want):
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_STACK, (want, hard))
    sys.setrecursionlimit(int(os.environ.get("ADEQUACY_PY_RECURSION", "3000")))
    loaded: Spec | Reference | None = None
    gc.collect()
    gc.freeze()  # the worker's own objects: later collections look only at a case's garbage

    for raw in inp:
        try:
            req = json.loads(raw)
        except ValueError:
            continue
        rid = req.get("id")
        op = req.get("op")
        try:
            if op == "ping":
                reply = {"ok": True, "python": sys.version.split()[0]}
            elif op == "load":
                loaded = Spec(req)
                reply = {"ok": True}
            elif op == "loadref":
                loaded = Reference(req)
                reply = {"ok": True}
            elif op == "eval" and isinstance(loaded, Spec):
                reply = loaded.evaluate(req)
            elif op == "ref" and isinstance(loaded, Reference):
                reply = loaded.run(req)
            else:
                reply = {"ok": False, "error": f"unexpected request {op!r}"}
        except (SyntaxError, ValueError, rewrite.FormError) as e:
            line = getattr(e, "line", None) or getattr(e, "lineno", None)
            reply = {"ok": False, "error": short(str(getattr(e, "message", e)), 300),
                     "line": line}
        except BaseException as e:  # noqa: BLE001 - our own trouble: say it, ask to be replaced
            reply = {"ok": False, "fatal": True, "error": short(f"{type(e).__name__}: {e}")}
        gc.collect()
        reply["id"] = rid
        try:
            text = json.dumps(reply, allow_nan=False)
        except (ValueError, TypeError) as e:
            text = json.dumps({"id": rid, "ok": False, "fatal": True,
                               "error": f"reply not encodable: {e}"})
        out.write(text + "\n")
        out.flush()


if __name__ == "__main__":
    main()
