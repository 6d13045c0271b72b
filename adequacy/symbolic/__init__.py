"""Symbolic questions about specs, answered by a solver and checked by the concrete engines.

``model`` is the capability (``Symbolic``, ``SmtEncoder``) and its data; ``terms`` the Z3 terms
of a task's values; ``z3symbolic`` core's Z3 driver; ``solver`` the limited solver child and its
cache; ``engine`` the per-case ``smt`` engine; ``search`` diff, explore and the one-output check
with every model confirmed by concrete engines. Importing this package imports no solver: z3
is loaded by the modules that need it.
"""

from adequacy.symbolic.model import (
    Answer,
    Decision,
    Pred,
    Question,
    SmtEncoder,
    SolverLimits,
    SpecTerms,
    Symbolic,
)

__all__ = ["Answer", "Decision", "Pred", "Question", "SmtEncoder", "SolverLimits", "SpecTerms",
           "Symbolic"]
