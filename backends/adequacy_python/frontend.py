"""The front end: the only place a Python spec is called invalid (with its file and line).

It parses the spec with Python's own ``ast``, checks it against the rules of
``runtime/policy.py`` (no I/O, no dunders, no ``global``/``nonlocal``, no ``exec``/``eval``,
no state that outlives a case, imports only from the allow-list) and reads its form with
``runtime/rewrite.py`` (plain functions, the assert block, icontract or deal decorators). The
worker repeats both on the text it is sent, so the engine runs exactly what was checked.
"""

from __future__ import annotations

import ast
import sys
import threading
from dataclasses import dataclass, field

from adequacy.plugin import BackendError, LoadedSpec, SetType, SpecInvalid, Task, Type, parts

from .runtime import policy, rewrite


@dataclass(frozen=True)
class PySpec:
    """What the engines need of a checked spec."""

    text: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    forms: tuple[str, ...]
    pre: tuple[str, ...]
    """What the precondition is made of (``def pre``, ``icontract.require (line 4)``...)."""
    post: tuple[str, ...]
    order_sensitive: tuple[str, ...] = field(default=())
    """Why the spec's value may depend on the hash seed or on addresses (empty: it cannot):
    such a spec is evaluated by two interpreters and decided only where they agree."""


def _has_set(t: Type) -> bool:
    return isinstance(t, SetType) or any(_has_set(c) for c in parts(t))


def parse(text: str, path: str | None) -> ast.Module:
    try:
        return ast.parse(text, path or "<spec>")
    except SyntaxError as e:
        raise SpecInvalid(f"syntax error: {e.msg}", file=path, line=e.lineno) from None
    except (RecursionError, MemoryError):
        raise SpecInvalid("the spec nests too deeply for Python's parser", file=path,
                          line=1) from None
    except ValueError as e:  # null bytes
        raise SpecInvalid(f"not Python source: {e}", file=path, line=1) from None


def check(task: Task, text: str, path: str | None = None) -> PySpec:
    """The checked spec, or ``SpecInvalid`` with its line. Run in a thread with a deep stack
    and a high recursion limit: compiling a syntax tree recurses once per level, and a long
    ``a + b + ...`` chain that Python itself compiles must not be refused for our stack."""
    box: list[PySpec | BaseException] = []

    def run() -> None:
        try:
            box.append(_check(task, text, path))
        except BaseException as e:  # noqa: BLE001 - re-raised in the caller's thread
            box.append(e)

    with _DEEP:  # the limit and the stack size are the process's: one setter at a time
        old = sys.getrecursionlimit()
        size = threading.stack_size()
        try:
            sys.setrecursionlimit(max(old, DEEP_RECURSION))
            threading.stack_size(DEEP_STACK)
            t = threading.Thread(target=run, name="python-front-end")
            t.start()
        finally:
            threading.stack_size(size)
        t.join()
        sys.setrecursionlimit(old)
    out = box[0]
    if isinstance(out, BaseException):
        raise out
    return out


#: Python's parser refuses nesting past a few thousand levels; compiling what it accepts
#: needs this much room.
DEEP_RECURSION = 20_000
DEEP_STACK = 256 * 1024 * 1024
_DEEP = threading.Lock()


def _check(task: Task, text: str, path: str | None) -> PySpec:
    tree = parse(text, path)
    try:
        inputs = [p.name for p in task.inputs]
        outputs = [p.name for p in task.outputs]
        rep = policy.check(tree, rewrite.case_names(inputs, outputs))
        if rep.violations:
            v = rep.first()
            more = len(rep.violations) - 1
            tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
            raise SpecInvalid(v.message + tail, file=path, line=v.line or None)
        try:
            norm = rewrite.normalize(tree, inputs, outputs)
        except rewrite.FormError as e:
            raise SpecInvalid(e.message, file=path, line=e.line or None) from None
        try:
            compile(norm.module, path or "<spec>", "exec")
        except SyntaxError as e:
            raise SpecInvalid(f"{e.msg}", file=path, line=e.lineno) from None
    except RecursionError:
        raise SpecInvalid("the spec nests too deeply to be checked", file=path,
                          line=1) from None
    order = list(dict.fromkeys(rep.order_sensitive))
    if any(_has_set(p.type) for p in [*task.inputs, *task.outputs]):
        order.insert(0, "a set in the task's values")
    return PySpec(text=text, inputs=tuple(inputs), outputs=tuple(outputs),
                  forms=tuple(norm.forms), pre=tuple(p.what for p in norm.pre),
                  post=tuple(p.what for p in norm.post), order_sensitive=tuple(order))


def check_task(task: Task) -> None:
    """Every declared type must have one Python reading (no structs, hashable set elements
    and dict keys, no option of an option), and no output may share an input's name."""
    from adequacy.plugin import TaskError

    from .pytypes import problem

    for part, params in (("input", task.inputs), ("output", task.outputs)):
        for p in params:
            why = problem(p.type)
            if why:
                raise TaskError(f"{part} {p.name}: {why}", file=str(task.root / "task.toml"),
                                field=f"signature.{part}.{p.name}")
    names = {p.name for p in task.inputs}
    clash = [p.name for p in task.outputs if p.name in names]
    if clash:
        raise TaskError(f"output {clash[0]!r} has an input's name: a postcondition could not "
                        "tell them apart", file=str(task.root / "task.toml"),
                        field=f"signature.output.{clash[0]}")


def load_spec(task: Task, text: str, path: str | None, backend: str = "python") -> LoadedSpec:
    """The backend's ``load_spec``: the task's types checked, then the spec."""
    if task.language != "python":
        raise BackendError(f"the python backend scores python tasks, not {task.language!r}")
    check_task(task)
    return LoadedSpec(backend=backend, task_id=task.id, text=text, normalized=normalize(text),
                      path=path, data=check(task, text, path))


def normalize(text: str) -> str:
    """The cache key's form of the spec: its syntax tree printed back (comments and layout
    gone; what the worker parses is this tree)."""
    try:
        return ast.unparse(ast.parse(text))
    except (SyntaxError, RecursionError, ValueError):
        return text
