"""The JML front end's reading of a source file, under the name older imports use.

The work is split by job: ``reader`` (comments, tokens, classes and members, ``read_source``),
``annotations`` (the JML inside one member's comments), ``declarations`` (Java types,
parameters and declarators), ``members`` (the dataclasses read into), ``keywords`` (the word
tables), ``policy`` (``check_code``: what a spec may change) and ``returns``
(``returned_parameter``). New code imports from those modules; this one only names them.
"""

from .members import JavaClass, JavaField, JavaMethod, JmlClause, SpecCase, SpecFile
from .policy import check_code
from .reader import read_source, split_comments
from .returns import returned_parameter

__all__ = ["JmlClause", "JavaClass", "JavaField", "JavaMethod", "SpecCase", "SpecFile",
           "check_code", "read_source", "returned_parameter", "split_comments"]
