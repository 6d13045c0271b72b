"""The optimizers' extensions (spec writers and objectives), registered through the plugin
hooks like a third party's. Each writer's module is imported when one is made."""

from __future__ import annotations

from adequacy.errors import AdequacyError
from adequacy.extensions.hookspecs import hookimpl
from adequacy.extensions.objectives import Objective
from adequacy.extensions.writers import Writer, WriterKind, WriterOptions


def _templates(o: WriterOptions) -> Writer:
    from .templates import TemplateWriter
    return TemplateWriter()


def _houdini(o: WriterOptions) -> Writer:
    from .houdini import HoudiniWriter
    return HoudiniWriter()


def _dspy(o: WriterOptions) -> Writer:
    from .dspy_writer import DSPyWriter
    from .programs import FAMILIES
    if o.family not in FAMILIES:
        raise AdequacyError(f"--family {o.family!r}: expected one of {', '.join(FAMILIES)}")
    return DSPyWriter(o.lm, o.family, o.demo_tasks, o.program)


@hookimpl
def adequacy_writers() -> list[WriterKind]:
    return [
        WriterKind(name="templates", needs_model=False, make=_templates,
                   description="template clauses inferred from the visible cases, kept when "
                               "they hold on all of them"),
        WriterKind(name="houdini", needs_model=False, make=_houdini,
                   description="candidate clauses pruned until the prover verifies the rest "
                               "(Houdini)"),
        WriterKind(name="dspy", needs_model=True, make=_dspy,
                   params=("model", "temperature", "family", "program"),
                   description="a DSPy program asking a language model (prompt families zs, "
                               "2s, 4s, zs-cot, fs-cot, fs-ltm; an optimized program)"),
    ]


@hookimpl
def adequacy_objectives() -> list[Objective]:
    from .objectives import BUILTIN_OBJECTIVES
    return list(BUILTIN_OBJECTIVES)
