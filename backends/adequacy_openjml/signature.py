"""The type schema of a JML task, read off the Java signature of the method under specification.

A JML task's values are typed in the language-agnostic schema of docs/tasks.md, but the only
authority on their types is the Java code itself. Deriving the schema from the signature (instead
of asking importers or authors to restate it) keeps the two from drifting apart.

Conventions: Java arrays may be ``null`` (``array<T>``); ``String`` and boxed scalars map to their
plain schema types (the datasets never pass ``null`` for them; the exact Java spelling is kept in
the task's ``[jml]`` table for renderers that need the boxed type).
"""

from __future__ import annotations

import re

from adequacy.plugin import TaskError

__all__ = ["JavaSignatureError", "java_type_to_schema", "parse_signature", "normalise_java_type"]


class JavaSignatureError(TaskError, ValueError):
    """The signature is missing, malformed, or uses a type the schema cannot express."""


_SCALARS = {
    "int": "i32", "Integer": "i32",
    "long": "i64", "Long": "i64",
    "short": "i16", "Short": "i16",
    "byte": "i8", "Byte": "i8",
    "char": "char", "Character": "char",
    "boolean": "bool", "Boolean": "bool",
    "double": "f64", "Double": "f64",
    "float": "f32", "Float": "f32",
    "String": "string", "CharSequence": "string",
}
_LISTS = {"List", "ArrayList", "LinkedList", "Collection", "Iterable", "Deque", "ArrayDeque",
          "Queue", "Vector", "Stack"}
_SETS = {"Set", "HashSet", "TreeSet", "LinkedHashSet", "SortedSet", "NavigableSet"}
_MAPS = {"Map", "HashMap", "TreeMap", "LinkedHashMap", "SortedMap", "NavigableMap"}
_PACKAGE = re.compile(r"\b(?:java\.util\.|java\.lang\.)")


def normalise_java_type(java_type: str) -> str:
    """Canonical spelling: no package prefixes, ``T...`` as ``T[]``, ``, `` between type args."""
    t = _PACKAGE.sub("", java_type)
    t = re.sub(r"\s+", " ", t).strip()
    t = re.sub(r"\s*([<>\[\],])\s*", r"\1", t)
    t = t.replace(",", ", ")
    if t.endswith("..."):
        t = t[:-3].rstrip() + "[]"
    return t


def _split_args(text: str) -> list[str]:
    """Split generic arguments at top-level commas."""
    out: list[str] = []
    depth = 0
    cur = ""
    for ch in text:
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def java_type_to_schema(java_type: str) -> str:
    """The schema type text for a Java type, e.g. ``int[][]`` -> ``array<array<i32>>``."""
    t = normalise_java_type(java_type)
    if not t:
        raise JavaSignatureError("empty Java type")
    if t.endswith("[]"):
        return f"array<{java_type_to_schema(t[:-2])}>"
    if t in _SCALARS:
        return _SCALARS[t]
    m = re.fullmatch(r"(\w+)<(.*)>", t)
    if m:
        base, args = m.group(1), _split_args(m.group(2))
        if "?" in m.group(2):
            raise JavaSignatureError(f"wildcard type arguments are not supported: {java_type!r}")
        if base in _LISTS and len(args) == 1:
            return f"list<{java_type_to_schema(args[0])}>"
        if base in _SETS and len(args) == 1:
            return f"set<{java_type_to_schema(args[0])}>"
        if base in _MAPS and len(args) == 2:
            return f"map<{java_type_to_schema(args[0])}, {java_type_to_schema(args[1])}>"
    if t in _LISTS | _SETS | _MAPS:
        raise JavaSignatureError(f"raw collection type {t!r} has no element type")
    if t == "void":
        raise JavaSignatureError("void has no value type")
    raise JavaSignatureError(f"Java type {java_type.strip()!r} has no schema type")


def _strip_comments(code: str) -> str:
    """Remove comments (keeping string literals), so javadoc cannot fake a signature."""
    out: list[str] = []
    i, n = 0, len(code)
    while i < n:
        c = code[i]
        if c in "\"'":
            j = i + 1
            while j < n and code[j] != c:
                j += 2 if code[j] == "\\" else 1
            out.append(code[i:j + 1])
            i = j + 1
        elif code.startswith("//", i):
            j = code.find("\n", i)
            i = n if j < 0 else j
        elif code.startswith("/*", i):
            j = code.find("*/", i + 2)
            out.append(" ")
            i = n if j < 0 else j + 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


_TYPE = r"[\w.$]+(?:\s*<[^(){};]*?>)?(?:\s*\[\s*\])*"
_MODIFIERS = {"public", "private", "protected", "static", "final", "synchronized", "strictfp",
              "abstract", "native"}


def parse_signature(java_code: str, method: str = "solve") -> tuple[list[tuple[str, str]], str]:
    """``([(param name, Java type)], Java return type)`` of the first method named ``method``.

    Java types come back normalised (``int arr[]`` becomes ``("arr", "int[]")``, packages
    dropped); the return type of a void method is ``"void"``.
    """
    code = _strip_comments(java_code)
    pat = re.compile(rf"(?P<ret>{_TYPE})\s+{re.escape(method)}\s*\((?P<params>[^()]*)\)")
    for m in pat.finditer(code):
        ret = m.group("ret")
        if ret in _MODIFIERS or ret in {"new", "return"}:
            continue
        params: list[tuple[str, str]] = []
        raw = m.group("params").strip()
        for part in _split_args(raw) if raw else []:
            part = re.sub(r"@\w+(?:\([^)]*\))?", " ", part)
            part = re.sub(r"\bfinal\b", " ", part).strip()
            pm = re.fullmatch(r"(?P<type>.+?)\s*(?<![\w$])(?P<name>[A-Za-z_$][\w$]*)"
                              r"(?P<dims>(?:\s*\[\s*\])*)", part, re.S)
            if not pm or not pm.group("type").strip():
                raise JavaSignatureError(f"cannot read parameter {part!r} of {method}")
            dims = re.sub(r"\s+", "", pm.group("dims"))
            params.append((pm.group("name"), normalise_java_type(pm.group("type")) + dims))
        return params, normalise_java_type(ret)
    raise JavaSignatureError(f"no method named {method!r} found in the Java code")
