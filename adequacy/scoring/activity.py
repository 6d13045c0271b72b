"""What a batch worker is doing now, told to the process that waits for it.

A pair can hang in any engine (a JVM that never answers, a prover that never returns), and
the process that waits for the pair must be able to say which engine it gave up on. The worker
notes each phase of a pair here; the batch pool installs a sink that writes the note where
the waiting process reads it (``adequacy.batch.pair_pool``). Without a sink (the CLI's ``score``, a
library caller) a note costs one function call.
"""

from __future__ import annotations

from collections.abc import Callable

_sink: Callable[[str], None] | None = None


def set_sink(sink: Callable[[str], None] | None) -> None:
    """Where notes go in this process (None: nowhere)."""
    global _sink
    _sink = sink


def note(phase: str) -> None:
    """The current pair entered ``phase`` (an engine's name, ``front end``, ``verify``)."""
    if _sink is not None:
        _sink(phase)
