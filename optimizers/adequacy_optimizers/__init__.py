"""Spec writers, adequacy metrics with feedback, GEPA optimisation and the LLM judge.

Submodules import DSPy only where they need it (``metrics``, ``programs``, ``optimize``,
``judge``...), so the classical writers work without the ``optimize`` extra.
"""

from adequacy.extensions.writers import Usage, Writer, WrittenSpec, visible_cases

from .extract import ExtractionError, spec_from_answer
from .registry import make_writer
from .synthesize import SynthesisSummary, synthesize

__all__ = ["ExtractionError", "spec_from_answer", "make_writer", "SynthesisSummary",
           "synthesize", "Usage", "Writer", "WrittenSpec", "visible_cases"]
