"""Writers by name, as ``adequacy synthesize --writer`` spells them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from adequacy.errors import AdequacyError
from adequacy.model.task import Task

from .writer import Writer

WRITERS = ("templates", "houdini", "dspy")


def make_writer(name: str, family: str = "zs", lm: Any = None, pool: Sequence[Task] = (),
                program_path: Path | None = None) -> Writer:
    if name == "templates":
        from .templates import TemplateWriter
        return TemplateWriter()
    if name == "houdini":
        from .houdini import HoudiniWriter
        return HoudiniWriter()
    if name == "dspy":
        if lm is None:
            raise AdequacyError("--writer dspy needs --lm MODEL (a litellm model string)")
        from .dspy_writer import DSPyWriter
        from .programs import FAMILIES
        if family not in FAMILIES:
            raise AdequacyError(f"--family {family!r}: expected one of {', '.join(FAMILIES)}")
        return DSPyWriter(lm, family, pool, program_path)
    raise AdequacyError(f"--writer {name!r}: expected one of {', '.join(WRITERS)}")
