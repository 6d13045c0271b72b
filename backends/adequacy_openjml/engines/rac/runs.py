"""What the rac engine and the reference runner share: a unit's compiled classes, and a run
of one unit in its own eval JVM (``Run``, from ``start_run``)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from adequacy.plugin import BackendError, Limits, SpecInvalid, Task, renew_after_fork

from ...jml import load as jml_load
from . import jvms
from .build import Unit, compile_errors
from .jvms import JVMS
from .worker import COMPILER, Worker


def unit_key(unit: Unit) -> str:
    h = hashlib.sha256(unit.source.encode())
    h.update(json.dumps([unit.plan, unit.params, unit.result, unit.method, unit.static,
                            unit.result_param, unit.post_fields, unit.checked]).encode())
    return h.hexdigest()[:24]


def post_fields(task: Task) -> list[str]:
    """``[jml] post_fields``: receiver fields whose value after the call the outputs hold
    (checked against the code by ``jml.load.check_settings``)."""
    names = task.settings.get("post_fields", [])
    return [str(n) for n in names] if isinstance(names, list) else [str(names)]


def ordered_args(task: Task, unit: Unit, inputs: dict[str, Any]) -> list[Any]:
    """Arguments in the Java method's order (``jml.load.ordered_args``)."""
    return jml_load.ordered_args(task, unit.params, unit.method, inputs)


def _heap(limits: Limits) -> int:
    return max(128, min(1024, limits.memory_mb // 2))


def _classes(unit: Unit, key: str, file: str | None, limits: Limits) -> dict[str, str]:
    """The unit's class bytes (base64 by class name), compiled once per process; a javac
    refusal is ``CompileGap``."""
    # javac's first start is slow, so a quarter of a long spec budget at least a minute; a
    # short budget (a search's deadline) holds whole
    reply = COMPILER.compile(key, {"class": unit.class_name, "source": unit.source,
                                   "checked": unit.checked},
                             timeout=min(max(60.0, limits.spec_seconds / 4),
                                         max(1.0, limits.spec_seconds)))
    if reply.get("ok"):
        classes = reply.get("classes")
        assert isinstance(classes, dict)
        return classes
    raise CompileGap(compile_errors(unit, reply.get("errors") or [], file))


def _load(worker: Worker, unit: Unit, key: str, classes: dict[str, str]) -> None:
    """Define the spec's classes in the run's JVM (once per JVM)."""
    if key in worker.loaded and worker.alive():
        return
    reply = worker.request({"op": "load", "key": key, "class": unit.class_name,
                            "classes": classes, "params": [list(p) for p in unit.params],
                            "result": unit.result, "method": unit.method,
                            "static": unit.static, "result_param": unit.result_param,
                            "post_fields": [list(f) for f in unit.post_fields],
                            "cases": unit.plan}, timeout=60.0)
    if not reply.get("ok"):
        raise BackendError(f"rac worker: {reply.get('error', reply)}")
    worker.loaded.add(key)


class CompileGap(Exception):
    """javac refused the translated unit: a gap of this engine (its translation, or Java it
    cannot host), not a verdict on the spec, which only the front end may call invalid."""

    def __init__(self, error: SpecInvalid) -> None:
        where = f"{error.file}:{error.line}: " if error.line else ""
        super().__init__(f"rac cannot compile this spec: {where}{error.message}")


_ACQUIRER = ThreadPoolExecutor(max_workers=4, thread_name_prefix="rac-acquire")
# A forked child must not inherit a pool whose threads stayed in the parent: a job submitted
# to it would never run (the hang of a study whose writers ran rac before the pool forked).
renew_after_fork(_ACQUIRER, max_workers=4, thread_name_prefix="rac-acquire")


def start_run(unit: Unit, key: str, file: str | None, limits: Limits) -> Run:
    """The spec's classes and a fresh JVM, sought at once: a fresh spec's compile (in the
    compile JVM) overlaps the wait for a spare (measured: the two used to add up). A JVM
    taken for a spec that then fails to compile never loaded its classes, so it goes back
    to the spares (``Jvms.give_back``) rather than being killed."""
    pending = _ACQUIRER.submit(JVMS.acquire, key, _heap(limits))
    try:
        classes = _classes(unit, key, file, limits)
    except BaseException:
        pending.add_done_callback(_give_back)
        raise
    try:  # bounded: JVMS.acquire gives up after its own wait, this one after the spec's
        worker = pending.result(timeout=jvms.WAIT_SECONDS + limits.spec_seconds)
    except FutureTimeout as e:
        pending.add_done_callback(_give_back)
        raise BackendError("rac: no eval JVM was handed out within "
                           f"{jvms.WAIT_SECONDS + limits.spec_seconds:.0f}s") from e
    return Run(unit, key, classes, worker)


def _give_back(f: Future[Worker]) -> None:
    if f.exception() is None:
        JVMS.give_back(f.result())


class Run:
    """One engine run of one spec: its JVM, replaced by a fresh one when it dies (or runs
    out of memory, or keeps a runaway thread), and killed at the end (``jvms``)."""

    def __init__(self, unit: Unit, key: str, classes: dict[str, str], worker: Worker) -> None:
        self.unit, self.key, self.classes = unit, key, classes
        self.worker = worker
        self.restarts = 0
        try:
            _load(self.worker, unit, key, classes)
        except BaseException:
            self.close()
            raise

    def request(self, req: dict[str, Any], timeout: float) -> dict[str, Any]:
        if not self.worker.alive():
            self.worker = JVMS.replace(self.worker)
            self.restarts += 1
        _load(self.worker, self.unit, self.key, self.classes)
        return self.worker.request(req, timeout=timeout)

    def stream(self, req: dict[str, Any], timeout: float) -> Iterator[dict[str, Any]]:
        """``req``'s reply lines (``JsonLineWorker.stream``), in a live JVM holding the spec."""
        if not self.worker.alive():
            self.worker = JVMS.replace(self.worker)
            self.restarts += 1
        _load(self.worker, self.unit, self.key, self.classes)
        return self.worker.stream(req, timeout=timeout)

    def close(self) -> None:
        JVMS.release(self.worker)
