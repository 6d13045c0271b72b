"""Turn a language model's answer into a whole spec file for the task.

Models wrap code in prose and fences, stop mid-answer, or send only the two spec functions (or
only the JML lines). Everything here is text surgery on the answer and the task's own skeleton;
whether the result is a valid spec is for the backend's front end to say when it is scored. What
cannot be turned into a file raises ``ExtractionError``, which a writer turns into a scored
failure whose feedback is the message.
"""

from __future__ import annotations

import re

from adequacy.errors import AdequacyError
from adequacy.tasks import Task

FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)(?:```|\Z)", re.S)
SPEC_FN = re.compile(r"(?:pub\s+)?(?:open\s+|closed\s+)?spec\s+fn\s+(\w+)\s*\(")
JML_LINE = re.compile(r"^\s*//@")


class ExtractionError(AdequacyError):
    """The answer holds no usable spec; the message says what was missing."""


def code_blocks(answer: str) -> list[str]:
    """Fenced blocks in order; a fence left open (a truncated answer) runs to the end."""
    return [m.group(2) for m in FENCE.finditer(answer)]


def _pick(answer: str, needles: tuple[str, ...]) -> str:
    """The last fenced block that mentions one of ``needles``, else the bare answer."""
    blocks = code_blocks(answer)
    for b in reversed(blocks):
        if any(n in b for n in needles):
            return b
    if blocks and not any(n in answer for n in needles):
        return blocks[-1]
    return answer


def _matching_brace(text: str, open_at: int) -> int:
    """Index of the brace closing the one at ``open_at``, skipping strings and comments."""
    depth, i, n = 0, open_at, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            continue
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def spec_functions(code: str) -> dict[str, str]:
    """Complete ``spec fn`` items by name, in order, with their doc comments left behind."""
    out: dict[str, str] = {}
    for m in SPEC_FN.finditer(code):
        brace = code.find("{", m.end())
        if brace < 0:
            continue
        end = _matching_brace(code, brace)
        if end < 0:
            continue  # cut off mid-function: unusable
        out[m.group(1)] = code[m.start():end + 1]
    return out


def verus_spec(task: Task, answer: str) -> str:
    """A whole Verus spec file from an answer: a complete file as given, or the answer's spec
    functions put into the task's skeleton (helpers before ``pre_spec``)."""
    code = _pick(answer, ("post_spec", "pre_spec"))
    if "verus!" in code and "post_spec" in code and code.rstrip().endswith("}"):
        return code.strip() + "\n"
    fns = spec_functions(code)
    if "pre_spec" not in fns and "post_spec" not in fns:
        if SPEC_FN.search(code):
            raise ExtractionError("the answer's spec functions are cut off (no closing brace): "
                                  "answer with complete `spec fn pre_spec` and `spec fn "
                                  "post_spec` items")
        raise ExtractionError("no `spec fn pre_spec` or `spec fn post_spec` in the answer: "
                              "answer with the completed spec file in one ```rust block")
    return fill_skeleton(task.skeleton, fns)


def fill_skeleton(skeleton: str, fns: dict[str, str]) -> str:
    """Replace the skeleton's ``pre_spec``/``post_spec`` with the given ones and insert the
    other spec functions (helpers) just before ``pre_spec``."""
    text = skeleton
    for name in ("pre_spec", "post_spec"):
        if name not in fns:
            continue
        m = re.search(rf"spec\s+fn\s+{name}\s*\(", text)
        if m is None:
            raise ExtractionError(f"the task's skeleton has no {name}")
        start = text.rfind("\n", 0, m.start()) + 1
        end = _matching_brace(text, text.find("{", m.end()))
        text = text[:start] + fns[name].strip() + text[end + 1:]
    helpers = [body.strip() for name, body in fns.items() if name not in ("pre_spec", "post_spec")]
    if helpers:
        m = re.search(r"(?:///[^\n]*\n)*\s*spec\s+fn\s+pre_spec", text)
        at = m.start() if m else len(text)
        at = text.rfind("\n", 0, at) + 1 if m else at
        text = text[:at] + "\n\n".join(helpers) + "\n\n" + text[at:]
    return text


def _method_line(source: str, method: str) -> int:
    """Index of the line declaring ``method`` (not a comment, not a call)."""
    pat = re.compile(rf"^\s*(?:(?:public|private|protected|static|final|synchronized)\s+)*"
                     rf"[\w<>\[\], .?]+\s+{re.escape(method)}\s*\(")
    for i, line in enumerate(source.splitlines()):
        if pat.match(line) and not line.lstrip().startswith(("//", "*", "/*")):
            return i
    raise ExtractionError(f"cannot find the declaration of method {method!r}")


def jml_annotate(source: str, method: str, jml: list[str]) -> str:
    """``source`` with ``//@`` lines just above ``method``, indented like it."""
    lines = source.splitlines(keepends=True)
    i = _method_line(source, method)
    indent = re.match(r"\s*", lines[i]).group(0)  # type: ignore[union-attr]
    block = [f"{indent}//@ {t.strip()}\n" for t in jml if t.strip()]
    return "".join(lines[:i] + block + lines[i:])


def jml_clauses(code: str) -> list[str]:
    """JML clause lines of a fragment: ``//@`` lines and the body of ``/*@ ... @*/`` blocks."""
    out: list[str] = []
    for m in re.finditer(r"/\*@(.*?)(?:@\*/|\*/)", code, re.S):
        for ln in m.group(1).splitlines():
            ln = ln.strip().lstrip("@").strip()
            if ln:
                out.append(ln)
    for ln in code.splitlines():
        if JML_LINE.match(ln):
            out.append(ln.strip()[3:].strip())
    return out


def jml_spec(task: Task, answer: str) -> str:
    """A whole annotated Java file: the answer's class when it gives one, else the answer's
    JML lines put above the task's method in its own ``Solution.java``."""
    method = str(task.settings.get("method", "solve")).split("(", 1)[0].strip()
    code = _pick(answer, ("class ", "//@", "/*@"))
    if re.search(r"\bclass\s+\w+", code) and method in code:
        if code.count("{") != code.count("}"):
            raise ExtractionError("the answer's Java class is cut off (unbalanced braces)")
        return code.strip() + "\n"
    clauses = jml_clauses(code)
    if not clauses:
        raise ExtractionError("no JML in the answer: answer with the annotated method or class "
                              "in one ```java block, clauses as //@ requires/ensures lines")
    return jml_annotate(task.skeleton, method, clauses)


def spec_from_answer(task: Task, answer: str) -> str:
    """The spec file for ``task`` from a model's answer, or ``ExtractionError``."""
    if not answer or not answer.strip():
        raise ExtractionError("the answer is empty")
    if task.language == "verus":
        return verus_spec(task, answer)
    if task.language == "jml":
        return jml_spec(task, answer)
    raise ExtractionError(f"no extractor for {task.language} tasks")


SPEC_EXT = {"verus": "rs", "jml": "java"}
