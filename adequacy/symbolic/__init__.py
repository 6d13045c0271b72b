"""Symbolic answers with Z3: the machinery behind a backend's ``smt_encoder()``.

``terms`` gives a task's values as Z3 terms (the helpers an encoder builds on) and
``unfolding`` the one sound way an encoder expands a recursive helper; ``z3symbolic`` is core's
``Symbolic`` over any ``SmtEncoder``; ``solver`` and ``child`` run Z3 in its own limited process
behind a content-keyed cache; ``engine`` is the per-case ``smt`` engine a backend lists in its
chain; ``capability.symbolic_of`` picks a backend's own answers or core's. The questions and
answers themselves (the contract) live in ``adequacy.extensions.symbolic``; diff, explore and
the one-output check, which confirm every model with the concrete engines, in
``adequacy.search.symbolic``. Importing this package imports no solver.
"""

from adequacy.extensions.symbolic import UNFOLD_DEPTH
from adequacy.symbolic.capability import symbolic_of, z3_symbolic
from adequacy.symbolic.engine import SmtEngine

__all__ = ["UNFOLD_DEPTH", "SmtEngine", "symbolic_of", "z3_symbolic"]
