"""What spec writers need of Python: prompts, answer extraction and template rendering.

The optimizers and the gym reach these through ``PythonBackend``'s capabilities
(``writer_texts``, ``spec_from_answer``, ``render_clauses``), so they name no language.
"""

from __future__ import annotations

import ast
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
    NullableType,
    OptionType,
    Pointwise,
    SeqType,
    Sorted,
    Task,
    Term,
    Type,
    Var,
    WriterTexts,
    pick_block,
)

TEXTS = WriterTexts(
    instructions=(
        "Complete a Python specification. Given what a function should do, the file to "
        "complete (the function's signature and docstring, and the predicates `pre` and "
        "`post`) and some sample cases, write the body of `pre` (which inputs the function "
        "accepts: return a bool) and of `post` (which results are correct for such an input: "
        "return a bool, or assert each condition). You may add helper functions and import "
        "math, itertools, functools, collections, re, string and operator; no I/O, no "
        "classes, no global state. Say everything the docstring says: accept every valid "
        "input and correct result, reject every invalid input and wrong result. Answer with "
        "the whole completed file in one ```python block."),
    code_field="skeleton", code_desc="the Python file to complete",
    spec_desc="the completed Python file in a ```python block", fence="python", spec_ext="py")


def _says_something(tree: ast.Module) -> bool:
    for s in tree.body:
        if isinstance(s, ast.Assert):
            return True
        if isinstance(s, ast.FunctionDef) and (s.name in ("pre", "post") or s.decorator_list):
            return True
    return False


def python_spec(task: Task, answer: str) -> str:
    """A whole spec file from an answer: the answer's file when it states a precondition or a
    postcondition, else its ``pre``/``post`` functions put into the task's skeleton."""
    code = pick_block(answer, ("def post", "def pre", "assert ", "@icontract", "@deal"))
    if not code.strip():
        raise ExtractionError("the answer is empty")
    try:
        tree = ast.parse(code)
    except SyntaxError as e:
        # A whole file that does not parse is still the answer: the front end names the line.
        if "def pre" in code or "def post" in code:
            return code.strip() + "\n"
        raise ExtractionError(f"the answer's code does not parse ({e.msg}, line {e.lineno}) "
                              "and defines no `pre` or `post`") from None
    if not _says_something(tree):
        raise ExtractionError("no `def pre`, `def post`, assert block or contract decorator in "
                              "the answer: answer with the completed file in one ```python "
                              "block")
    return code.strip() + "\n"


def may_be_null(t: Type) -> bool:
    return isinstance(t, (OptionType, NullableType)) or (isinstance(t, SeqType)
                                                         and t.kind == "array")


class Py:
    @staticmethod
    def term(t: Term) -> str:
        if isinstance(t, Const):
            return repr(t.value)
        if isinstance(t, Len):
            return f"len({Py.term(t.of)})"
        return t.name

    @staticmethod
    def atom(a: Atom) -> str:
        if isinstance(a, Cmp):
            return f"{Py.term(a.left)} {a.op} {Py.term(a.right)}"
        if isinstance(a, Sorted):
            s = Py.term(a.seq)
            return f"all({s}[i - 1] <= {s}[i] for i in range(1, len({s})))"
        if isinstance(a, AllElems):
            return f"all(e {a.op} {Py.term(a.right)} for e in {Py.term(a.seq)})"
        if isinstance(a, Member):
            return f"{Py.term(a.item)} in {Py.term(a.seq)}"
        if isinstance(a, IndexIn):
            return f"0 <= {Py.term(a.index)} < len({Py.term(a.seq)})"
        if isinstance(a, Pointwise):
            left, right = Py.term(a.left), Py.term(a.right)
            return (f"len({left}) == len({right}) and all(a {a.op} b for a, b in "
                    f"zip({left}, {right}))")
        if isinstance(a, AllIn):
            return f"all(e in {Py.term(a.outer)} for e in {Py.term(a.inner)})"
        if isinstance(a, NonNull):
            return f"{Py.term(a.var)} is not None"
        if isinstance(a, Iff):
            return f"{Py.term(a.out)} == ({Py.atom(a.atom)})"
        raise ValueError(f"no Python form for {a}")


def _vars(x: object) -> list[Var]:
    from adequacy.plugin import atom_vars

    return atom_vars(x)


def renderable(task: Task, clauses: Sequence[Clause]) -> list[Clause]:
    """Clauses over the task's own names (a non-null clause only where None is a value)."""
    names = {p.name for p in [*task.inputs, *task.outputs]}
    out = []
    for c in clauses:
        if not all(v.name in names for v in _vars(c.atom)):
            continue
        if isinstance(c.atom, NonNull) and not may_be_null(c.atom.var.type):
            continue
        out.append(c)
    return out


def python_file(task: Task, clauses: Sequence[Clause]) -> str:
    pre = [Py.atom(c.atom) for c in clauses if c.where == "pre"]
    post = [Py.atom(c.atom) for c in clauses if c.where == "post"]
    return fill_skeleton(task.skeleton, {"pre": pre, "post": post})


def fill_skeleton(skeleton: str, bodies: dict[str, list[str]]) -> str:
    """The skeleton with the bodies of ``pre`` and ``post`` replaced by the conjunction of
    the given conditions (``True`` when none)."""
    tree = ast.parse(skeleton)
    lines = skeleton.splitlines(keepends=True)
    spans = []
    for s in tree.body:
        if isinstance(s, ast.FunctionDef) and s.name in bodies:
            first = s.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and \
                    isinstance(first.value.value, str) and len(s.body) > 1:
                first = s.body[1]
            spans.append((first.lineno - 1, (s.end_lineno or first.lineno), s.name))
    for start, end, name in sorted(spans, reverse=True):
        parts = bodies[name]
        if not parts:
            text = "    return True\n"
        else:
            text = "    return (\n        " + "\n        and ".join(
                f"({p})" for p in parts) + "\n    )\n"
        lines[start:end] = [text]
    return "".join(lines)
