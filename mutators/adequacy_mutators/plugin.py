"""The mutators' extensions, registered through the plugin hooks like a third party's."""

from __future__ import annotations

from adequacy.extensions.hookspecs import hookimpl
from adequacy.extensions.operators import MutationOperator

from ._operators import BUILTIN_OPERATORS


@hookimpl
def adequacy_mutation_operators() -> list[MutationOperator]:
    return list(BUILTIN_OPERATORS)
