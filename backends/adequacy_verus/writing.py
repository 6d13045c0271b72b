"""What spec writers need of Verus: prompts, answer extraction and template rendering.

The optimizers and the gym reach these through ``VerusBackend``'s capabilities
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
    IntType,
    Len,
    Member,
    NonNull,
    Pointwise,
    SeqType,
    Sorted,
    Task,
    Term,
    Var,
    WriterTexts,
    matching_brace,
    pick_block,
)

SPEC_FN = re.compile(r"(?:pub\s+)?(?:open\s+|closed\s+)?spec\s+fn\s+(\w+)\s*\(")
"""Gold specs of imported VERINA tasks, ``<task id>.rs``."""

TEXTS = WriterTexts(
    instructions=(
        'Complete a Verus specification. Given what a function should do, its skeleton '
        'and some sample cases, fill in the body of `pre_spec` (which inputs the function'
        ' accepts) and `post_spec` (which outputs are correct for such an input). Keep '
        "the skeleton's structs; you may add helper `spec fn`s. Say everything the "
        'statement says: accept every valid input and correct output, reject every '
        'invalid input and wrong output. Answer with the whole completed file in one '
        '```rust block.'),
    code_field="skeleton", code_desc="the Verus file to complete",
    spec_desc="the completed Verus file in a ```rust block", fence="rust", spec_ext="rs")


def spec_functions(code: str) -> dict[str, str]:
    """Complete ``spec fn`` items by name, in order, with their doc comments left behind."""
    out: dict[str, str] = {}
    for m in SPEC_FN.finditer(code):
        brace = code.find("{", m.end())
        if brace < 0:
            continue
        end = matching_brace(code, brace)
        if end < 0:
            continue  # cut off mid-function: unusable
        out[m.group(1)] = code[m.start():end + 1]
    return out


def verus_spec(task: Task, answer: str) -> str:
    """A whole Verus spec file from an answer: a complete file as given, the answer's spec
    functions put into the task's skeleton (helpers before ``pre_spec``), or an exec fn's
    ``requires``/``ensures`` as the skeleton's two spec fns (``contract_answer``)."""
    code = pick_block(answer, ("post_spec", "pre_spec"))
    if "verus!" in code and "post_spec" in code and code.rstrip().endswith("}"):
        return code.strip() + "\n"
    fns = spec_functions(code)
    if "pre_spec" not in fns and "post_spec" not in fns:
        from .contract_answer import NotAContract, contract_spec

        try:  # the function itself, its contract on the header: what models often write
            return contract_spec(task, code)
        except NotAContract:
            pass
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
        end = matching_brace(text, text.find("{", m.end()))
        text = text[:start] + fns[name].strip() + text[end + 1:]
    helpers = [body.strip() for name, body in fns.items() if name not in ("pre_spec", "post_spec")]
    if helpers:
        m = re.search(r"(?:///[^\n]*\n)*\s*spec\s+fn\s+pre_spec", text)
        at = m.start() if m else len(text)
        at = text.rfind("\n", 0, at) + 1 if m else at
        text = text[:at] + "\n\n".join(helpers) + "\n\n" + text[at:]
    return text


def _int_kind(t: Term) -> str:
    """The Verus integer type of a term, to know when a comparison needs ``as int``."""
    if isinstance(t, Const):
        return "lit"
    if isinstance(t, Len):
        return "usize"
    if isinstance(t.type, IntType):
        return t.type.name
    return "other"


class Verus:
    @staticmethod
    def term(t: Term) -> str:
        if isinstance(t, Const):
            return ("true" if t.value else "false") if isinstance(t.value, bool) else str(t.value)
        if isinstance(t, Len):
            return f"{Verus.term(t.of)}.len()"
        return f"{'input' if t.side == 'in' else 'output'}.{t.name}"

    @staticmethod
    def cmp(left: Term | str, op: str, right: Term | str, kinds: tuple[str, str]) -> str:
        lt = left if isinstance(left, str) else Verus.term(left)
        rt = right if isinstance(right, str) else Verus.term(right)
        if "lit" not in kinds and kinds[0] != kinds[1]:
            lt, rt = f"({lt}) as int", f"({rt}) as int"
        return f"{lt} {op} {rt}"

    @staticmethod
    def elem_kind(s: Var) -> str:
        assert isinstance(s.type, SeqType)
        return s.type.elem.name if isinstance(s.type.elem, IntType) else "other"

    @staticmethod
    def atom(a: Atom) -> str:
        if isinstance(a, Cmp):
            return Verus.cmp(a.left, a.op, a.right, (_int_kind(a.left), _int_kind(a.right)))
        if isinstance(a, Sorted):
            s = Verus.term(a.seq)
            return (f"(forall|i: usize| 1 <= i < {s}.len() ==> "
                    f"{s}[(i - 1) as int] <= {s}[i as int])")
        if isinstance(a, AllElems):
            s = Verus.term(a.seq)
            body = Verus.cmp(f"{s}[i as int]", a.op, a.right,
                             (Verus.elem_kind(a.seq), _int_kind(a.right)))
            return f"(forall|i: usize| 0 <= i < {s}.len() ==> {body})"
        if isinstance(a, Member):
            s = Verus.term(a.seq)
            body = Verus.cmp(f"{s}[i as int]", "==", a.item,
                             (Verus.elem_kind(a.seq), _int_kind(a.item)))
            return f"(exists|i: usize| 0 <= i < {s}.len() && ({body}))"
        if isinstance(a, IndexIn):
            s = Verus.term(a.seq)
            lo = Verus.cmp("0", "<=", a.index, ("lit", _int_kind(a.index)))
            hi = Verus.cmp(a.index, "<", f"{s}.len()", (_int_kind(a.index), "usize"))
            return f"({lo} && {hi})"
        if isinstance(a, Pointwise):
            left, right = Verus.term(a.left), Verus.term(a.right)
            body = Verus.cmp(f"{left}[i as int]", a.op, f"{right}[i as int]",
                             (Verus.elem_kind(a.left), Verus.elem_kind(a.right)))
            return (f"({left}.len() == {right}.len() && (forall|i: usize| "
                    f"0 <= i < {left}.len() ==> {body}))")
        if isinstance(a, AllIn):
            inner, outer = Verus.term(a.inner), Verus.term(a.outer)
            body = Verus.cmp(f"{outer}[j as int]", "==", f"{inner}[i as int]",
                             (Verus.elem_kind(a.outer), Verus.elem_kind(a.inner)))
            return (f"(forall|i: usize| 0 <= i < {inner}.len() ==> (exists|j: usize| "
                    f"0 <= j < {outer}.len() && ({body})))")
        if isinstance(a, Iff):
            return f"({Verus.term(a.out)} == {Verus.atom(a.atom)})"
        raise ValueError(f"no Verus form for {a}")


def renderable(task: Task, clauses: Sequence[Clause]) -> list[Clause]:
    """Verus has no null: non-null clauses are dropped."""
    return [c for c in clauses if not isinstance(c.atom, NonNull)]


def verus_file(task: Task, clauses: Sequence[Clause]) -> str:
    pre = [Verus.atom(c.atom) for c in clauses if c.where == "pre"]
    post = [Verus.atom(c.atom) for c in clauses if c.where == "post"]

    def body(parts: list[str]) -> str:
        return "\n    && ".join(parts) if parts else "true"

    fns = {"pre_spec": f"spec fn pre_spec(input: Input) -> bool {{\n    {body(pre)}\n}}",
           "post_spec": "spec fn post_spec(input: Input, output: Output) -> bool {\n    "
                        f"{body(post)}\n}}"}
    return fill_skeleton(task.skeleton, fns)
