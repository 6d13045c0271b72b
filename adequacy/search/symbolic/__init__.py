"""Symbolic search: the solver proposes inputs and outputs, the concrete engines dispose.

``compare`` is symbolic diff and explore (``compare_symbolic``, and ``equivalence`` for tools
that judge rewrites); ``figures`` the figures of ``score --symbolic`` (does the postcondition
determine the output, does the precondition accept an input the gold spec refuses). Every model
a solver returns is re-checked by the concrete engines before it is reported
(docs/symbolic.md).
"""

from adequacy.search.symbolic.compare import (
    SymbolicFinding,
    SymbolicReport,
    compare_symbolic,
    concrete_options,
    equivalence,
)
from adequacy.search.symbolic.figures import (
    output_determination,
    pre_against_gold,
    symbolic_figures,
    unique_post,
    with_figures,
)

__all__ = ["SymbolicFinding", "SymbolicReport", "compare_symbolic", "concrete_options", "equivalence",
           "output_determination", "pre_against_gold", "symbolic_figures", "unique_post",
           "with_figures"]
