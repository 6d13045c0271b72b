"""The sandboxed side of ``adequacy.sandbox.pycode``: runs a task's Python functions.

Started as ``python -I -S -B -c <this file's text>`` inside the project's sandbox; reads one
JSON request per line on stdin and writes one JSON reply per line on stdout. It runs nothing
of the task itself: each batch of calls goes to a forked child, which runs every call on a
fresh module (``exec`` of the source it was sent: module globals, default arguments and caches
start anew on each call) and writes one result line per call on a pipe of its own. The child's
standard streams point at ``/dev/null`` and every other descriptor is closed, so nothing it
prints can pass for a reply; it runs in its own process group under a CPU limit and a
wall-clock deadline per call, and the group is killed when the batch ends. A call that passes
its deadline, or kills its child, is answered for and the rest of the batch goes to a new
child; no child outlives its batch, so nothing one source does reaches another source or
this process.

Requests: ``{"op": "ping"}``; ``{"op": "load", "key", "source", "file", "function"}`` (the
module is run once in a child to check that it imports and defines the function);
``{"op": "calls", "key", "calls": [[arg, ...], ...], "seconds"}``, answered with one outcome
per call: ``{"kind": "returned", "value"}``, ``{"kind": "threw", "reason", "type"}`` (an
exception of the code), ``{"kind": "timeout"}`` or ``{"kind": "failed", "reason"}`` (a crash,
out of memory, a deep recursion, ``exit()``, a value JSON cannot hold).
"""

import contextlib
import json
import os
import resource
import select
import signal
import sys
import time

MAX_RESULT = 4 * 1024 * 1024
"""Bytes of one call's result (its JSON); a larger one is ``failed``."""
MAX_REPLY = 32 * 1024 * 1024
"""Bytes of one batch's results; the calls past it are ``failed`` (the reply is one line)."""
SOURCES: dict = {}


def _short(e):
    text = f"{type(e).__name__}: {e}"
    return text if len(text) <= 160 else text[:157] + "..."


def _exec_module(code, function):
    """A fresh module from ``code``: (the function, None) or (None, the import outcome)."""
    module = {"__name__": "task_code", "__builtins__": __builtins__}
    try:
        exec(code, module)
    except BaseException as e:  # noqa: BLE001 - the module's failure is its outcome
        tb = e.__traceback__
        line = None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == code.co_filename:
                line = tb.tb_lineno
            tb = tb.tb_next
        return None, {"kind": "import", "reason": _short(e), "line": line}
    fn = module.get(function)
    if not callable(fn):
        return None, {"kind": "import", "reason": f"defines no function {function}()",
                      "line": None}
    return fn, None


def _call(code, function, args):
    fn, failed = _exec_module(code, function)
    if failed is not None:
        return failed
    try:
        value = fn(*args)
    except (RecursionError, MemoryError) as e:
        return {"kind": "failed", "reason": type(e).__name__}
    except (SystemExit, KeyboardInterrupt, GeneratorExit) as e:
        return {"kind": "failed", "reason": f"{type(e).__name__} raised by the code"}
    except BaseException as e:  # noqa: BLE001 - the code refusing an input is data
        return {"kind": "threw", "reason": _short(e), "type": type(e).__name__}
    return {"kind": "returned", "value": value}


def _encode(out):
    try:
        data = json.dumps(out, allow_nan=True)
    except (TypeError, ValueError, RecursionError) as e:
        data = json.dumps({"kind": "failed", "reason": "returned a value JSON cannot hold ("
                           + _short(e) + ")"})
    if len(data) > MAX_RESULT:
        data = json.dumps({"kind": "failed", "reason": "the result was too large"})
    return data.encode() + b"\n"


def _child(write_fd, code, function, calls, seconds, check_only):
    """In the forked child: each call on a fresh module, one result line per call on the
    pipe, then exit. The standard streams go nowhere, every other descriptor is closed."""
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    top = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    top = top if 0 < top <= 1 << 16 else 1 << 16
    os.closerange(3, write_fd)
    os.closerange(write_fd + 1, top)
    try:
        if check_only:
            _fn, failed = _exec_module(code, function)
            outs = [failed or {"kind": "returned", "value": None}]
        else:
            outs = None
        for args in ([None] if outs is not None else calls):
            if outs is None:
                # each call gets its own CPU allowance on top of what the child used so far
                used = sum(resource.getrusage(resource.RUSAGE_SELF)[:2])
                cpu = int(used + seconds) + 2
                resource.setrlimit(resource.RLIMIT_CPU, (cpu, resource.RLIM_INFINITY))
                data = _encode(_call(code, function, args))
            else:
                data = _encode(outs[0])
            view = memoryview(data)
            while view:
                n = os.write(write_fd, view[:65536])
                view = view[n:]
    except BaseException:  # noqa: BLE001 - whatever happens, the child never returns
        pass
    finally:
        os._exit(0)


def _kill(pid):
    for target in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
        with contextlib.suppress(OSError):
            target()


def run_many(code, function, calls, seconds, check_only=False):
    """One outcome per call: a forked child runs the calls in order, each on a fresh module;
    a call that passes its deadline or kills the child is answered for and the rest go to a
    new child."""
    outs: list = []
    todo = [None] if check_only else list(calls)
    while len(outs) < len(todo):
        rest = todo[len(outs):]
        r, w = os.pipe()
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            _child(w, code, function, rest, seconds, check_only)
        os.close(w)
        buf = bytearray()
        got = 0
        deadline = time.monotonic() + seconds
        ended = ""
        while got < len(rest):
            nl = buf.find(b"\n")
            if nl >= 0:
                line, buf = bytes(buf[:nl]), buf[nl + 1:]
                try:
                    o = json.loads(line)
                except ValueError:
                    o = None
                outs.append(o if isinstance(o, dict) else
                            {"kind": "failed", "reason": "unreadable result"})
                got += 1
                deadline = time.monotonic() + seconds
                continue
            left = deadline - time.monotonic()
            if left <= 0:
                ended = "timeout"
                break
            ready, _, _ = select.select([r], [], [], min(left, 0.5))
            if not ready:
                continue
            chunk = os.read(r, 65536)
            if not chunk:
                ended = "eof"
                break
            buf += chunk
            if len(buf) > MAX_RESULT + 2:
                ended = "large"
                break
        os.close(r)
        _kill(pid)
        _, status = os.waitpid(pid, 0)
        if got == len(rest):
            break
        if ended == "timeout" or (os.WIFSIGNALED(status)
                                  and os.WTERMSIG(status) == signal.SIGXCPU):
            outs.append({"kind": "timeout"})
        elif ended == "large":
            outs.append({"kind": "failed", "reason": "the result was too large"})
        elif os.WIFSIGNALED(status):
            outs.append({"kind": "failed", "reason": f"killed by signal {os.WTERMSIG(status)} "
                                                     "(out of memory or a crash)"})
        else:
            outs.append({"kind": "failed", "reason": "the code ended the process"})
    return outs


WARM = ("__future__", "typing", "math", "collections", "itertools", "functools", "re", "string", "heapq",
        "bisect", "copy", "fractions", "decimal", "dataclasses", "operator", "statistics")
"""Standard modules task code often imports, imported once here so that a forked call finds
them loaded (importing ``typing`` afresh costs more than the call itself)."""


def serve():
    for name in WARM:
        with contextlib.suppress(ImportError):
            __import__(name)
    for raw in sys.stdin:
        try:
            req = json.loads(raw)
        except ValueError:
            continue
        rid = req.get("id")
        op = req.get("op")
        reply: dict = {}
        try:
            if op == "ping":
                reply = {"ok": True}
            elif op == "load":
                try:
                    code = compile(req["source"], req["file"], "exec", dont_inherit=True)
                except SyntaxError as e:
                    reply = {"ok": False, "error": f"syntax error: {e.msg}", "line": e.lineno}
                except (ValueError, RecursionError, MemoryError) as e:
                    reply = {"ok": False, "error": _short(e), "line": None}
                else:
                    probe = run_many(code, req["function"], [], float(req.get("seconds", 10)),
                                     check_only=True)[0]
                    if probe.get("kind") == "returned":
                        if len(SOURCES) > 64:
                            SOURCES.clear()
                        SOURCES[req["key"]] = (code, req["function"])
                        reply = {"ok": True}
                    elif probe.get("kind") == "import":
                        reply = {"ok": False, "error": probe.get("reason", ""),
                                 "line": probe.get("line")}
                    elif probe.get("kind") == "timeout":
                        reply = {"ok": False, "error": "importing it did not finish in time",
                                 "line": None}
                    else:
                        reply = {"ok": False, "error": probe.get("reason", "importing failed"),
                                 "line": None}
            elif op == "calls":
                held = SOURCES.get(req["key"])
                if held is None:
                    reply = {"ok": False, "unloaded": True}
                else:
                    code, function = held
                    seconds = float(req["seconds"])
                    outs = []
                    size = 0
                    for o in run_many(code, function, req["calls"], seconds):
                        if o.get("kind") == "import":  # imported at load, fails now: no word
                            o = {"kind": "failed", "reason": o.get("reason", "")}
                        size += len(json.dumps(o, allow_nan=True))
                        if size > MAX_REPLY:
                            o = {"kind": "failed", "reason": "the batch's results were too "
                                                             "large"}
                        outs.append(o)
                    reply = {"ok": True, "outcomes": outs}
            else:
                reply = {"ok": False, "error": f"unknown op {op!r}"}
        except Exception as e:  # noqa: BLE001 - our own trouble, said in the reply
            reply = {"ok": False, "error": _short(e)}
        reply["id"] = rid
        sys.stdout.write(json.dumps(reply, allow_nan=True) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    serve()
