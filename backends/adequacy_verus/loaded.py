"""What the Verus front end hands its engines (``LoadedSpec.data``).

The front end resolves every name by compiling the spec with interp's compiler (a call to an
undefined function makes the spec invalid, as rustc would); keeping that compiled program
saves the interp engine a second compilation of the same text, and exec_spec reads the parsed
module to find the constructs on which it would diverge from Verus.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .interp.compiler import Program
    from .syntax.ast import SpecModule


@dataclass(frozen=True)
class VerusSpec:
    module: SpecModule
    """The parsed spec (items, wrapper macros and their lines)."""
    program: Program
    """interp's compiled form of ``module``; evaluation resets its budget per case, so one
    program serves every ``check`` of the spec (in one process, one case at a time)."""


__all__ = ["VerusSpec"]
