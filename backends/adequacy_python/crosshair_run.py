"""CrossHair (``crosshair-tool``) in the sandbox, on modules written from a spec and a task.

CrossHair searches for inputs by symbolic execution of Python itself: it runs the spec's code
and the reference's code with symbolic values. Both are untrusted, so it runs as a limited
child like every engine (no network, nothing writable but its folder, a CPU and memory cap),
with the interpreter that has CrossHair installed (this one). What it reports is a claim:
every input it names is parsed back from its text and confirmed by the concrete engine
before anyone reports it.

``spec_module`` writes a loaded spec as a module with ``_adq_pre(**values)`` and
``_adq_post(**values)``: the conjunction of its parts, read as the worker reads them (an
assertion failure is false, an assert-form part that returns None is true).
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import math
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adequacy.plugin import (
    IntType,
    RunResult,
    SandboxLimits,
    Task,
    View,
    clean_env,
    make_workdir,
    remove_tree,
    run_limited,
    views,
)

from .pytypes import annotation
from .runtime import rewrite


def available() -> str | None:
    """None when CrossHair can run, else what to install."""
    if importlib.util.find_spec("crosshair") is None:
        return "CrossHair is not installed: pip install 'spec-adequacy[python]' (crosshair-tool)"
    return None


def version() -> str:
    try:
        from importlib.metadata import version as v

        return f"crosshair-tool {v('crosshair-tool')}"
    except Exception:  # noqa: BLE001 - only a label
        return "crosshair-tool ?"


@functools.lru_cache(maxsize=1)
def _view() -> tuple[str, ...]:
    """This interpreter (its prefix with CrossHair and z3) and the libraries it links."""
    exe = os.path.realpath(sys.executable)
    roots = {os.path.realpath(sys.prefix), os.path.realpath(sys.base_prefix), sys.prefix}
    sos: list[str] = []
    for root in {os.path.realpath(sys.prefix), os.path.realpath(sys.base_prefix)}:
        for dirpath, _dirs, files in os.walk(root):
            sos += [os.path.join(dirpath, f) for f in files if f.endswith(".so")
                    or ".so." in f]
    libs = views.linked_libraries(exe, *sos[:400])
    paths = {exe, *roots, *libs, *(os.path.realpath(p) for p in libs)}
    return tuple(sorted(p for p in paths if not any(
        p != r and p.startswith(r.rstrip("/") + "/") for r in roots)))


def _world_readable(path: str) -> bool:
    """Whether a user who owns nothing here can reach ``path`` (every folder on the way
    searchable by others, the file readable)."""
    p = Path(path)
    for part in [*reversed(p.parents), p]:
        try:
            mode = part.stat().st_mode
        except OSError:
            return False
        if part.is_dir() and not mode & 0o001:
            return False
    return True


@functools.lru_cache(maxsize=1)
def as_unprivileged_user() -> bool:
    """CrossHair's interpreter lives where an unprivileged child can read it (not under a
    closed home folder such as ``/root``)."""
    return all(_world_readable(p) for p in (os.path.realpath(sys.executable),
                                            os.path.realpath(sys.prefix),
                                            os.path.realpath(sys.base_prefix)))


@dataclass
class CrosshairOutcome:
    result: RunResult
    text: str


def run(args: list[str], files: dict[str, str], seconds: float, memory_mb: int) -> CrosshairOutcome:
    """``python -m crosshair ARGS`` in a fresh folder holding ``files``."""
    work = make_workdir("adequacy-crosshair-")
    try:
        for name, text in files.items():
            (work / name).write_text(text, encoding="utf-8")
            os.chmod(work / name, 0o644)
        cmd = [sys.executable, "-s", "-B", "-m", "crosshair", *args]  # the venv, not its base
        env = clean_env({"PYTHONPATH": str(work), "PYTHONHASHSEED": "0"})
        r = run_limited(cmd, cwd=work, timeout=seconds + 30,
                        limits=SandboxLimits(memory_mb=max(memory_mb, 1024),
                                             cpu_seconds=math.ceil(seconds) + 60,
                                             processes=16, file_size_mb=16,
                                             drop_privileges=as_unprivileged_user()),
                        env=env, view=View(ro=_view()))
        return CrosshairOutcome(r, r.stdout.decode("utf-8", "replace"))
    finally:
        remove_tree(work)


def spec_module(spec_text: str, task: Task) -> str:
    """The spec as a module whose ``_adq_pre``/``_adq_post`` take the case's values by name."""
    tree = ast.parse(spec_text)
    norm = rewrite.normalize(tree, [p.name for p in task.inputs],
                             [p.name for p in task.outputs])

    def parts(ps: list[rewrite.Part]) -> str:
        return "[" + ", ".join(f"({p.fn}, {p.pos!r}, {p.kw!r}, {p.asserts!r})" for p in ps) + "]"

    return (ast.unparse(norm.module) + "\n\n\n"
            "def _adq_guard(e):\n    return None\n\n\n"
            "def _adq_eval(parts, values):\n"
            "    for fn, pos, kw, asserts in parts:\n"
            "        try:\n"
            "            v = fn(*[values[k] for k in pos], **{a: values[k] for a, k in "
            "kw.items()})\n"
            "        except AssertionError:\n"
            "            return False\n"
            "        if not (v is None and asserts) and not v:\n"
            "            return False\n"
            "    return True\n\n\n"
            f"def _adq_pre(**values):\n    return _adq_eval({parts(norm.pre)}, values)\n\n\n"
            f"def _adq_post(**values):\n    return _adq_eval({parts(norm.post)}, values)\n")


def signature(task: Task) -> tuple[str, str]:
    """(parameters with annotations, the return annotation) of the task's function."""
    params = ", ".join(f"{p.name}: {annotation(p.type)}" for p in task.inputs)
    if len(task.outputs) == 1:
        ret = annotation(task.outputs[0].type)
    else:
        ret = "tuple[" + ", ".join(annotation(p.type) for p in task.outputs) + "]"
    return params, ret


def range_conditions(task: Task) -> list[str]:
    """Preconditions that keep CrossHair inside the declared integer ranges."""
    out = []
    for p in task.inputs:
        if isinstance(p.type, IntType):
            lo, hi = p.type.bounds
            if lo is not None:
                out.append(f"{p.name} >= {lo}")
            if hi is not None:
                out.append(f"{p.name} <= {hi}")
    return out


def parse_call(text: str, names: list[str]) -> dict[str, Any] | None:
    """The arguments of ``f(1, 'a', x=[2])`` (CrossHair's report) by parameter name, or None
    when one is not a literal."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return None
    if not isinstance(node, ast.Call):
        return None
    out: dict[str, Any] = {}
    try:
        for name, a in zip(names, node.args, strict=False):
            out[name] = _literal(a)
        for kw in node.keywords:
            if kw.arg is None:
                return None
            out[kw.arg] = _literal(kw.value)
    except ValueError:
        return None
    return out if set(out) == set(names) else None


def _literal(node: ast.expr) -> Any:
    text = ast.unparse(node)
    specials = {"float('nan')": math.nan, "float('inf')": math.inf,
                "-float('inf')": -math.inf, "nan": math.nan, "inf": math.inf,
                "-inf": -math.inf}
    if text in specials:
        return specials[text]
    if isinstance(node, ast.Call) and ast.unparse(node.func) == "set" and not node.args:
        return set()
    return ast.literal_eval(node)



def calls_in(text: str, function: str) -> list[str]:
    """The ``function(...)`` call texts in CrossHair's report lines."""
    out = []
    for line in text.splitlines():
        at = line.find(f"{function}(")
        if at < 0:
            continue
        rest = line[at:]
        for i, ch in enumerate(rest):
            if ch != ")":
                continue
            try:
                ast.parse(rest[:i + 1], mode="eval")
            except SyntaxError:
                continue
            out.append(rest[:i + 1])
            break
    return out
