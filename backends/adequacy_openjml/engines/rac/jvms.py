"""One eval JVM per spec run, with a spare started ahead of time so nobody waits for start-up.

Why not one warm JVM for every spec: class loaders separate a spec's classes, not the JVM's
own state. A spec that names ``java.util.logging`` loggers after its cases, interns strings,
leaves a finalizer that recreates itself, or fills the heap into a static field reaches every
later spec of that JVM (hidden cases leaked through MCP ``check`` after a ``submit``;
a finalizer made gold specs FAIL). So a JVM serves one engine run of one spec (one ``check``
call: its cases, its restarts) and is killed when the run ends; nothing of it survives. That
includes the same spec text run again on other cases (``submit`` then ``check``). The cost of
a start (0.3-0.6 s) is paid in the background: ``SPARES`` fresh JVMs per heap size wait,
pinged, with no spec code ever loaded, and taking one starts the next.
"""

from __future__ import annotations

import atexit
import queue
import threading
import time

from adequacy.plugin import BackendError, renew_after_fork

from .worker import Worker, build_dir, warm_up_request

SPARES = 2
"""Fresh JVMs kept ready per heap size (each ~40 MB resident while idle): two, so that specs
scored back to back (an optimizer's metric calls) find one ready while the next starts."""
MAKERS = 2
"""Threads starting JVMs at once: one per core of a small machine. With one, back-to-back
specs took spares faster than a single start (0.2-0.3 s under load) made them."""
WAIT_SECONDS = 120.0


class Jvms:
    """Hands out fresh eval JVMs (``acquire``/``replace``) and kills them (``release``).

    JVMs are started by long-lived threads (``_make``, ``MAKERS`` of them, each taking the
    next order): bubblewrap's ``--die-with-parent`` kills the sandbox when the *thread* that
    started it ends, so a spare started by a passing thread would be dead by the time it is
    wanted."""

    def __init__(self, spares: int = SPARES, makers: int = MAKERS) -> None:
        self.spares = spares
        self.makers_wanted = makers
        self.cond = threading.Condition()
        self.ready: dict[int, list[Worker]] = {}
        self.starting: dict[int, int] = {}
        self.failed: dict[int, BaseException] = {}
        self.orders: queue.Queue[int] = queue.Queue()
        self.makers: list[threading.Thread] = []
        self.started = 0
        """JVMs started so far (for tests and benchmarks)."""

    def acquire(self, origin: str, heap_mb: int) -> Worker:
        """A JVM that has never run spec code, now bound to ``origin``."""
        w = self._fresh(heap_mb)
        w.origin = origin
        return w

    def replace(self, old: Worker) -> Worker:
        """A fresh JVM for the rest of ``old``'s run (``old`` died, hung, ran out of memory
        or asked to be replaced); ``old`` is killed."""
        old.stop()
        w = self._fresh(old.heap_mb)
        w.origin = old.origin
        return w

    def give_back(self, w: Worker) -> None:
        """``w`` was acquired but its spec never loaded (it failed to compile): no spec
        code ran in it, so it is still a spare. Anything else is killed."""
        if w.loaded or not w.alive() or w.served != w.spare_served:
            w.stop()
            return
        w.origin = None
        with self.cond:
            self.ready.setdefault(w.heap_mb, []).append(w)
            self.cond.notify_all()

    def release(self, w: Worker) -> None:
        """The run is over: kill the JVM, and whatever the spec left in it."""
        w.stop()

    def _fresh(self, heap_mb: int) -> Worker:
        deadline = time.monotonic() + WAIT_SECONDS
        with self.cond:
            self.failed.pop(heap_mb, None)
            while True:
                ready = self.ready.get(heap_mb)
                while ready:
                    w = ready.pop()
                    if w.alive():
                        self._order(heap_mb)
                        return w
                    w.stop()
                if heap_mb in self.failed:
                    raise self.failed.pop(heap_mb)
                if not self.starting.get(heap_mb):
                    self._order(heap_mb, at_least=1)
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BackendError(f"no rac worker started within {WAIT_SECONDS:.0f}s")
                self.cond.wait(timeout=min(left, 1.0))

    def _order(self, heap_mb: int, at_least: int = 0) -> None:
        """Have the maker start JVMs until ``spares`` are ready or starting (under cond)."""
        have = len(self.ready.get(heap_mb, [])) + self.starting.get(heap_mb, 0)
        for _ in range(max(at_least, self.spares) - have):
            self.starting[heap_mb] = self.starting.get(heap_mb, 0) + 1
            self.orders.put(heap_mb)
        self.makers = [t for t in self.makers if t.is_alive()]
        while len(self.makers) < self.makers_wanted:
            t = threading.Thread(target=self._make, daemon=True, name="rac-jvms")
            t.start()
            self.makers.append(t)

    def _make(self) -> None:
        while True:
            heap_mb = self.orders.get()
            w = Worker(heap_mb)
            error: BaseException | None = None
            try:
                w.start()
                warm = warm_up_request(build_dir())
                if warm is not None:
                    w.request(warm, timeout=60.0)
                w.spare_served = w.served
            except BaseException as e:  # noqa: BLE001 - handed to the waiting caller
                error = e
                w.stop()
            with self.cond:
                self.starting[heap_mb] -= 1
                if error is not None:
                    self.failed[heap_mb] = error
                else:
                    self.started += 1
                    self.ready.setdefault(heap_mb, []).append(w)
                self.cond.notify_all()

    def shutdown(self) -> None:
        with self.cond:
            spares = [w for ws in self.ready.values() for w in ws]
            self.ready = {}
        for w in spares:
            w.stop()


JVMS = Jvms()
renew_after_fork(JVMS)
atexit.register(JVMS.shutdown)
