"""``adequacy task new`` for JML: the ``Solution.java`` a task's ``task.toml`` implies.

A JML task's Java file holds the method the spec annotates, with its body: the body is the
reference implementation (mutators run it, KeY proves against it) and only a human knows it.
What the schema does fix is the declaration, and a declaration typed by hand drifts from the
schema (``long`` for an ``i32``), which the front end then refuses. So the file written here
declares the method exactly as the schema says, with a body that throws until it is written.
Scoring needs only the declaration (the engines evaluate the spec on the cases' values).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from adequacy.plugin import TaskError

from .signature import JavaSignatureError, java_type_to_schema

_JAVA = {"i8": "byte", "i16": "short", "i32": "int", "i64": "long", "bool": "boolean",
         "char": "char", "string": "String", "f32": "float", "f64": "double"}
_BOXED = {"byte": "Byte", "short": "Short", "int": "Integer", "long": "Long",
          "boolean": "Boolean", "char": "Character", "float": "Float", "double": "Double"}
_IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_RESERVED = frozenset([
    "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class",
    "const", "continue", "default", "do", "double", "else", "enum", "extends", "final",
    "finally", "float", "for", "goto", "if", "implements", "import", "instanceof", "int",
    "interface", "long", "native", "new", "package", "private", "protected", "public",
    "return", "short", "static", "strictfp", "super", "switch", "synchronized", "this",
    "throw", "throws", "transient", "try", "void", "volatile", "while", "true", "false",
    "null", "var", "record", "yield"])


def java_type(schema: str, *, boxed: bool = False) -> str | None:
    """The Java type whose values are exactly the schema type's, or None (``int``, ``nat``
    and ``u64`` have no such Java type: their cases would not fit)."""
    t = re.sub(r"\s+", "", schema)
    if t in _JAVA:
        j = _JAVA[t]
        return _BOXED.get(j, j) if boxed else j
    m = re.fullmatch(r"(array|seq|list|set)<(.*)>", t)
    if m:
        inner = java_type(m.group(2), boxed=m.group(1) in ("list", "set"))
        if inner is None:
            return None
        return {"array": f"{inner}[]", "seq": f"{inner}[]", "list": f"List<{inner}>",
                "set": f"Set<{inner}>"}[m.group(1)]
    return None


def _types(where: str, schema: dict[str, Any], given: Any, file: str) -> list[str]:
    if given is not None:
        if not isinstance(given, list) or len(given) != len(schema):
            raise TaskError(f"{where}: must list one Java type per input ({len(schema)})",
                            file=file)
        for j, (name, s) in zip(given, schema.items(), strict=True):
            try:
                ok = isinstance(j, str) and java_type_to_schema(j).replace(" ", "") == str(
                    s).replace(" ", "")
            except JavaSignatureError:
                ok = False
            if not ok:
                raise TaskError(f"{where}: {j!r} is not the Java type of {name}: {s}", file=file)
        return list(given)
    out = []
    for name, s in schema.items():
        j = java_type(str(s))
        if j is None:
            raise TaskError(f"signature.input.{name}: no Java type holds exactly the values of "
                            f"{s!r}; name it in [jml] java_params", file=file)
        out.append(j)
    return out


def solution_java(task_dir: Path) -> str:
    """The text of ``Solution.java`` for the task in ``task_dir``."""
    file = str(task_dir / "task.toml")
    try:
        data = tomllib.loads((task_dir / "task.toml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise TaskError(f"cannot read: {e}", file=file) from None
    sig = data.get("signature") or {}
    jml = data.get("jml") or {}
    inputs, output = sig.get("input") or {}, sig.get("output") or {}
    if not isinstance(inputs, dict) or not isinstance(output, dict) or not isinstance(jml, dict):
        raise TaskError("[signature.input], [signature.output] and [jml] must be tables",
                        file=file)
    cls = str(jml.get("class", "Solution"))
    method = str(jml.get("method", "solve")).split("(", 1)[0].strip()  # a signature names one overload
    for what, name in (("jml.class", cls), ("jml.method", method), *(
            (f"signature.input.{n}", n) for n in inputs)):
        if not _IDENT.fullmatch(name) or name in _RESERVED:
            raise TaskError(f"{what}: {name!r} is not a Java identifier", file=file)
    params = _types("jml.java_params", inputs, jml.get("java_params"), file)
    ret = jml.get("java_return")
    if ret is not None:  # written into the file as it is: only a type of the schema's result
        want = str(output.get("result", "void")).replace(" ", "")
        try:
            ok = isinstance(ret, str) and (ret.strip() == "void" == want or (
                ret.strip() != "void" and java_type_to_schema(ret).replace(" ", "") == want))
        except JavaSignatureError:
            ok = False
        if not ok:
            raise TaskError(f"jml.java_return: {ret!r} is not the Java type of the result "
                            f"({want})", file=file)
        ret = ret.strip()
    else:
        if set(output) - {"result"}:
            raise TaskError("signature.output: fields other than `result` (a post-state) need "
                            "[jml] java_return and post_state; write Solution.java by hand",
                            file=file)
        ret = "void" if "result" not in output else java_type(str(output["result"]))
        if ret is None:
            raise TaskError(f"signature.output.result: no Java type holds exactly the values "
                            f"of {output['result']!r}; name it in [jml] java_return", file=file)
    static = "static " if jml.get("static", True) else ""
    args = ", ".join(f"{j} {n}" for j, n in zip(params, inputs, strict=True))
    imports = "import java.util.*;\n\n" if re.search(r"\b(List|Set)<", args + str(ret)) else ""
    return (f"{imports}public class {cls} {{\n\n"
            f"    public {static}{ret} {method}({args}) {{\n"
            "        // the reference implementation: mutators run it, `adequacy verify` "
            "proves the spec against it\n"
            "        throw new UnsupportedOperationException(\"write the method body\");\n"
            "    }\n}\n")
