"""Front end of the JML backend: read Java+JML source, parse JML expressions, check the code.

Public API: ``read_spec`` (a spec file -> ``SpecFile``), ``parse_expression``, ``check_code``.
"""

from .ast import Expr
from .members import JavaMethod, JmlClause, SpecCase, SpecFile
from .parser import parse_expression
from .policy import check_code
from .reader import read_source

__all__ = ["JmlClause", "Expr", "JavaMethod", "SpecCase", "SpecFile", "check_code",
           "parse_expression", "read_source"]
