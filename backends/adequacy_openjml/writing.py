"""What spec writers need of JML: prompts, answer extraction and template rendering.

The optimizers and the gym reach these through ``OpenJmlBackend``'s capabilities
(``writer_texts``, ``spec_from_answer``, ``render_clauses``), so they name no language.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from adequacy.plugin import (
    AllElems,
    AllIn,
    Atom,
    Clause,
    Cmp,
    Const,
    ExtractionError,
    Iff,
    IndexIn,
    Len,
    Member,
    NonNull,
    Pointwise,
    SeqType,
    Sorted,
    SpecInvalid,
    StringType,
    Task,
    Term,
    WriterTexts,
    atom_vars,
    pick_block,
)

from .jml.members import SpecFile
from .jml.policy import check_code
from .jml.reader import read_source

JML_LINE = re.compile(r"^\s*//@")
"""Gold specs of imported SpecGenBench tasks, ``<task id>.java``."""

TEXTS = WriterTexts(
    instructions=(
        'Write a JML specification for the Java method. Given what the method should do, '
        'its class and some sample cases, add `requires` clauses (which inputs it '
        'accepts) and `ensures` clauses (what holds of `\\result` for them) as `//@` lines'
        ' just above the method. Say everything the statement says: accept every valid '
        'input and correct result, reject every invalid input and wrong result. Helper '
        'methods must be `/*@ pure @*/`. Answer with the whole annotated class in one '
        '```java block.'),
    code_field="java_class", code_desc="the Java class holding the method to specify",
    spec_desc="the annotated Java class in a ```java block", fence="java", spec_ext="java")


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


def graft(task: Task, code: str, method: str) -> str:
    """The answer's JML on the task's own code, when the answer's Java differs from it.

    Models retype the class and change what is not theirs to change (a local renamed, a
    comment dropped, a brace moved), which the front end rightly calls "code altered": the
    spec would describe other code. Reading both files with the front end's Java reader, the
    answer's JML in front of the method and its pure helper methods are put into the task's
    skeleton instead, so the spec is scored on the task's code. An answer the reader cannot
    read, or whose Java is already the task's, is returned as given (the front end then
    reports its faults with their lines)."""
    try:
        mine, theirs = read_source(code), read_source(task.skeleton)
    except SpecInvalid:
        return code
    try:
        check_code(mine, theirs)
        return code
    except SpecInvalid:
        pass
    cls = str(task.settings.get("class", "Solution"))
    target = mine.find_class(cls) or (mine.classes[0] if mine.classes else None)
    if target is None:
        return code
    starts = _member_starts(mine, target)
    lines: list[str] = []
    helpers: list[str] = []
    own = {m.name for c in theirs.classes for m in c.methods}
    for m in target.methods:
        if m.name == method:
            lines += JML_COMMENT.findall(mine.text[starts[m.start]:m.start])
        elif m.is_pure and m.name not in own:
            helpers.append(mine.text[starts[m.start]:m.end].strip("\n"))
    if not lines:
        return code
    text = _insert_above(task.skeleton, method, lines)
    if helpers:
        again = read_source(text)
        home = again.find_class(cls) or again.classes[0]
        at = home.body_close
        text = text[:at].rstrip(" ") + "\n" + "\n\n".join(helpers) + "\n" + text[at:]
    return text


JML_COMMENT = re.compile(r"/\*@.*?@\*/|//@[^\n]*", re.S)
"""A JML annotation comment, kept verbatim (a spec case spans several lines: ``also``)."""


def _insert_above(source: str, method: str, comments: list[str]) -> str:
    """``source`` with the annotation comments just above ``method``, re-indented like it."""
    lines = source.splitlines(keepends=True)
    i = _method_line(source, method)
    indent = re.match(r"\s*", lines[i]).group(0)  # type: ignore[union-attr]
    block = []
    for c in comments:
        for k, ln in enumerate(c.splitlines()):
            ln = ln.strip()
            block.append(f"{indent}{'  ' if k and ln.startswith(('@', '*')) else ''}{ln}\n")
    return "".join(lines[:i] + block + lines[i:])


def _member_starts(spec: SpecFile, cls: object) -> dict[int, int]:
    """For each method's start offset, where the text that belongs to it begins: just after
    the previous member or field (or the class's opening brace), so its annotations come
    with it and no other member's do."""
    from .jml.members import JavaClass

    assert isinstance(cls, JavaClass)
    members = sorted(cls.methods, key=lambda m: m.start)
    out: dict[int, int] = {}
    prev = cls.body_open + 1
    for m in members:
        # a field between the two members ends with ';': its own annotations stay behind
        gap = spec.java_text[prev:m.start]
        cut = max(gap.rfind(";"), gap.rfind("}"))
        out[m.start] = prev + cut + 1 if cut >= 0 else prev
        prev = m.end
    return out


def jml_spec(task: Task, answer: str) -> str:
    """A whole annotated Java file: the answer's class when it gives one, else the answer's
    JML lines put above the task's method in its own ``Solution.java``."""
    # `[jml] method` may be a signature, `Perimeter(short)`: the code names the bare method
    method = str(task.settings.get("method", "solve")).split("(", 1)[0].strip()
    code = pick_block(answer, ("class ", "//@", "/*@"))
    if re.search(r"\bclass\s+\w+", code) and method in code:
        if code.count("{") != code.count("}"):
            raise ExtractionError("the answer's Java class is cut off (unbalanced braces)")
        return graft(task, code.strip() + "\n", method)
    clauses = jml_clauses(code)
    if not clauses:
        raise ExtractionError("no JML in the answer: answer with the annotated method or class "
                              "in one ```java block, clauses as //@ requires/ensures lines")
    return jml_annotate(task.skeleton, method, clauses)


class Jml:
    @staticmethod
    def term(t: Term, single_output: bool = True) -> str:
        if isinstance(t, Const):
            return ("true" if t.value else "false") if isinstance(t.value, bool) else str(t.value)
        if isinstance(t, Len):
            of = Jml.term(t.of)
            return f"{of}.length()" if isinstance(t.of.type, StringType) else f"{of}.length"
        return t.name if t.side == "in" else "\\result"

    @staticmethod
    def atom(a: Atom) -> str:
        t = Jml.term
        if isinstance(a, Cmp):
            return f"{t(a.left)} {a.op} {t(a.right)}"
        if isinstance(a, Sorted):
            s = t(a.seq)
            return f"(\\forall int i; 0 < i && i < {s}.length; {s}[i - 1] <= {s}[i])"
        if isinstance(a, AllElems):
            s = t(a.seq)
            return f"(\\forall int i; 0 <= i && i < {s}.length; {s}[i] {a.op} {t(a.right)})"
        if isinstance(a, Member):
            s = t(a.seq)
            return f"(\\exists int i; 0 <= i && i < {s}.length; {s}[i] == {t(a.item)})"
        if isinstance(a, IndexIn):
            return f"0 <= {t(a.index)} && {t(a.index)} < {t(a.seq)}.length"
        if isinstance(a, Pointwise):
            x, y = t(a.left), t(a.right)
            return (f"{x}.length == {y}.length && (\\forall int i; 0 <= i && i < {x}.length; "
                    f"{x}[i] {a.op} {y}[i])")
        if isinstance(a, AllIn):
            x, y = t(a.inner), t(a.outer)
            return (f"(\\forall int i; 0 <= i && i < {x}.length; (\\exists int j; 0 <= j && "
                    f"j < {y}.length; {y}[j] == {x}[i]))")
        if isinstance(a, NonNull):
            return f"{t(a.var)} != null"
        if isinstance(a, Iff):
            return f"\\result == ({Jml.atom(a.atom)})"
        raise ValueError(f"no JML form for {a}")


def _renders(a: Atom) -> bool:
    """JML renders arrays and strings only (a ``seq``/``list`` input is a Java collection whose
    API the templates do not model)."""
    return all(not isinstance(v.type, SeqType) or v.type.kind == "array" for v in atom_vars(a))


def renderable(task: Task, clauses: Sequence[Clause]) -> list[Clause]:
    if len(task.outputs) != 1:
        clauses = [c for c in clauses if c.where == "pre"]
    return [c for c in clauses if _renders(c.atom)]


def jml_file(task: Task, clauses: Sequence[Clause]) -> str:
    lines = [f"requires {Jml.atom(c.atom)};" for c in clauses if c.where == "pre"]
    lines += [f"ensures {Jml.atom(c.atom)};" for c in clauses if c.where == "post"]
    if not lines:
        lines = ["requires true;", "ensures true;"]
    method = str(task.settings.get("method", "solve")).split("(", 1)[0].strip()
    return jml_annotate(task.skeleton, method, lines)
