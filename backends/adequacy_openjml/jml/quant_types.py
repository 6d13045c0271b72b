"""The type of a quantified variable must exist: javac's "cannot find symbol: class X".

``(\\forall Foo x; ...)`` with no class ``Foo`` is an error for OpenJML (javac resolves the
declaration's type like any local's); the checker used to treat every unknown type name as a
library type it did not model, and the engines then answered unknown. A name is known when
it is a Java primitive, a JML type (``\\bigint``, ``\\real``, ``\\TYPE``), a ``java.lang``
class a spec can name without an import, a library class the front end reads, a class,
interface, enum or record the file declares, or a single-letter type parameter; qualified
names (``java.util.List``) are left to OpenJML.
"""

from __future__ import annotations

import re

from adequacy.plugin import SpecInvalid

from . import ast as A
from .members import SpecFile
from .semantics import DesugaredCase
from .signatures import LIBRARY_CLASSES

PRIMITIVES = frozenset({"int", "long", "short", "byte", "char", "boolean", "double", "float",
                        "\\bigint", "\\real", "\\TYPE", "void"})
JAVA_LANG = frozenset({
    "Object", "String", "Integer", "Long", "Short", "Byte", "Character", "Boolean", "Double",
    "Float", "Number", "CharSequence", "Comparable", "Iterable", "Math", "StrictMath",
    "StringBuilder", "StringBuffer", "Class", "Enum", "Record", "System", "Thread",
    "Throwable", "Exception", "RuntimeException", "Error", "Void"})
_NAME = re.compile(r"[A-Za-z_$\\][\w$]*")


def declared_types(src: SpecFile) -> set[str]:
    """Names after ``class``/``interface``/``enum``/``record`` anywhere in the file."""
    toks = src.java_tokens
    out: set[str] = set()
    for k in range(len(toks) - 1):
        if toks[k].kind == "ident" and toks[k].text in ("class", "interface", "enum", "record") \
                and toks[k + 1].kind == "ident" and not (k and toks[k - 1].is_op(".")):
            out.add(toks[k + 1].text)
    return out


def check_quantifier_types(src: SpecFile, cases: list[DesugaredCase], file: str | None) -> None:
    """Raise ``SpecInvalid`` at the first quantifier whose variable's type exists nowhere."""
    known = PRIMITIVES | JAVA_LANG | LIBRARY_CLASSES | declared_types(src)
    for c in cases:
        for e, _line in c.requires + c.ensures:
            for n in A.walk(e):
                if isinstance(n, A.Quant):
                    bad = _unknown(n.type, known)
                    if bad is not None:
                        raise SpecInvalid(f"cannot find symbol: class {bad} (the type of the "
                                          f"quantified variable {', '.join(n.vars)})",
                                          file=file, line=n.line)


def _unknown(t: str, known: frozenset[str] | set[str]) -> str | None:
    t = t.replace(" ", "")
    if "." in t.split("<")[0]:
        return None  # qualified: OpenJML resolves it
    for name in _NAME.findall(t.replace("[]", "").replace("...", "")):
        if name in ("extends", "super") or name in known:
            continue
        if len(name) == 1 and name.isupper():
            continue  # a type parameter
        return name
    return None


__all__ = ["check_quantifier_types", "declared_types"]
