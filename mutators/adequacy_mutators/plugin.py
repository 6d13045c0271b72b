"""The mutators' extensions, registered through the plugin hooks like a third party's."""

from __future__ import annotations

from adequacy.extensions.hookspecs import hookimpl
from adequacy.extensions.operators import MutationOperator


@hookimpl
def adequacy_mutation_operators() -> list[MutationOperator]:
    # imported here: every process loads this plugin, few of them mutate outputs
    from ._operators import BUILTIN_OPERATORS

    return list(BUILTIN_OPERATORS)
