"""Symbolic search: the solver proposes inputs and outputs, the concrete engines dispose.

``compare`` is symbolic diff and explore (``compare_symbolic``, and ``equivalence`` for tools
that judge rewrites); ``pinning`` the one-output check of ``score --symbolic``. Every model a
solver returns is re-checked by the concrete engines before it is reported (docs/symbolic.md).
"""

from adequacy.search.symbolic.compare import (
    Finding,
    SymbolicReport,
    compare_symbolic,
    concrete_options,
    equivalence,
)
from adequacy.search.symbolic.pinning import PinReport, PinResult, check_pinned

__all__ = ["Finding", "PinReport", "PinResult", "SymbolicReport", "check_pinned",
           "compare_symbolic", "concrete_options", "equivalence"]
