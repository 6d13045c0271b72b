"""Which symbolic answers a backend gives: its own, or core's Z3 driver over its encoding."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from adequacy.extensions.backend import Backend
    from adequacy.extensions.symbolic import SmtEncoder, Symbolic

__all__ = ["symbolic_of", "z3_symbolic"]


def z3_symbolic(encoder: SmtEncoder) -> Symbolic:
    """Core's ``Symbolic`` over ``encoder`` (z3 is imported only now)."""
    from adequacy.symbolic.z3symbolic import Z3Symbolic
    return Z3Symbolic(encoder)


def symbolic_of(backend: Backend) -> Symbolic | None:
    """``backend.symbolic()``, else core's ``Z3Symbolic`` over ``backend.smt_encoder()``,
    else None (the backend answers no symbolic question)."""
    own = backend.symbolic()
    if own is not None:
        return own
    enc = backend.smt_encoder()
    if enc is None:
        return None
    return z3_symbolic(enc)
