"""Spec writers, adequacy metrics with feedback, GEPA optimisation and the LLM judge.

Submodules import DSPy only where they need it (``metrics``, ``programs``, ``optimize``,
``judge``...), so the classical writers work without the ``optimize`` extra.
"""

from .extract import ExtractionError, spec_from_answer
from .registry import WRITERS, make_writer
from .synthesize import SynthesisSummary, synthesize
from .writer import Usage, Writer, WrittenSpec, visible_cases

__all__ = ["ExtractionError", "spec_from_answer", "WRITERS", "make_writer", "SynthesisSummary",
           "synthesize", "Usage", "Writer", "WrittenSpec", "visible_cases"]
