"""``adequacy task from FILE.py --function NAME DEST``: a task from a Python function.

The function (with a docstring) is the task: its annotations give the signature (a bare
``list`` or a missing annotation takes the type its doctest examples agree on), its docstring
the statement, the file the reference (``reference/solution.py``, run only in the sandbox).
Cases:

- its doctests: each ``>>> NAME(literal args)`` example whose expected text is a literal, and
  whose value the reference reproduces, is a valid pair (``official``, the first three
  visible); an example whose expected output is a traceback is an invalid input;
- inputs drawn from the schema (``draw``) and run on the reference: a returned output makes a
  valid pair (``generated``), an exception of the function an invalid input; a timeout or a
  crash says nothing and is dropped.

When the function carries icontract or deal decorators (or the file defines ``pre``/``post``),
the file is also the task's ``specs/original.py`` and its precondition, not the reference's
exceptions, says which drawn inputs are valid (as a verified contract is the authority on its
function's domain); an input it cannot decide is dropped. The sound buckets of wrong outputs
stay for ``adequacy mutate``.
"""

from __future__ import annotations

import ast
import doctest
import re
from pathlib import Path
from typing import Any

from adequacy.plugin import Bucket, Case, Limits, Task, TaskError, Truth, load_task, parse_type

from .draw import draw_inputs
from .pytypes import Unsupported, from_annotation, infer_type, problem, type_tree
from .reference import reference_outcomes
from .runtime.pyvalues import ValueMismatch, encode
from .skeleton import generate
from .taskwrite import NewTask, write_task

DRAWS = 60


def _fail(program: Path, msg: str, line: int | None = None) -> TaskError:
    return TaskError(msg, file=str(program), line=line)


def _examples(fn: ast.FunctionDef, doc: str) -> list[tuple[list[Any], str, int]]:
    """(literal arguments, expected text, line) of each doctest example calling ``fn``."""
    out = []
    try:
        examples = doctest.DocTestParser().get_examples(doc)
    except ValueError:
        return []
    for ex in examples:
        try:
            node = ast.parse(ex.source.strip(), mode="eval").body
        except SyntaxError:
            continue
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == fn.name and not node.keywords):
            continue
        try:
            args = [ast.literal_eval(a) for a in node.args]
        except (ValueError, SyntaxError, TypeError):
            continue
        out.append((args, ex.want, fn.lineno + ex.lineno))
    return out


def _literal(text: str) -> tuple[bool, Any]:
    try:
        return True, ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False, None


def _signature(program: Path, fn: ast.FunctionDef, examples: list[tuple[list[Any], str, int]]
               ) -> tuple[list[tuple[str, str]], list[tuple[str, str]], list[str]]:
    a = fn.args
    if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs:
        raise _fail(program, f"{fn.name}: *args, **kwargs and keyword-only or positional-only "
                             "parameters have no place in a task's signature", fn.lineno)
    notes: list[str] = []
    inputs = []
    for i, arg in enumerate(a.args):
        try:
            text = from_annotation(arg.annotation)
        except Unsupported as e:
            seen = [ex[0][i] for ex in examples if len(ex[0]) == len(a.args)]
            guess = infer_type(seen)
            if guess is None:
                raise _fail(program, f"{fn.name}: parameter {arg.arg}: {e}, and the doctests "
                                     "do not show its type", arg.lineno) from None
            notes.append(f"{arg.arg}: {e}; {guess} from the doctests")
            text = guess
        inputs.append((arg.arg, text))
    try:
        out = from_annotation(fn.returns)
    except Unsupported as e:
        seen = [v for ex in examples for ok, v in [_literal(ex[1])] if ok]
        guess = infer_type(seen)
        if guess is None:
            raise _fail(program, f"{fn.name}: return type: {e}, and the doctests do not show "
                                 "it", fn.lineno) from None
        notes.append(f"result: {e}; {guess} from the doctests")
        out = guess
    for name, text in [*inputs, ("result", out)]:
        why = problem(parse_type(text))
        if why:
            raise _fail(program, f"{fn.name}: {name}: {why}", fn.lineno)
    if any(n == "result" for n, _ in inputs):
        raise _fail(program, f"{fn.name}: a parameter named `result` would clash with the "
                             "result in a postcondition", fn.lineno)
    return inputs, [("result", out)], notes


def _has_contract(tree: ast.Module, fn: ast.FunctionDef) -> bool:
    return bool(fn.decorator_list) or any(
        isinstance(s, ast.FunctionDef) and s.name in ("pre", "post") for s in tree.body)


def convert(program: Path, function: str, dest: Path, task_id: str | None = None) -> str:
    text = program.read_text(encoding="utf-8")
    try:
        tree = ast.parse(text, str(program))
    except SyntaxError as e:
        raise _fail(program, f"syntax error: {e.msg}", e.lineno) from None
    fns = [s for s in tree.body if isinstance(s, ast.FunctionDef) and s.name == function]
    if not fns:
        kinds = [s for s in ast.walk(tree) if isinstance(s, (ast.FunctionDef,
                                                               ast.AsyncFunctionDef))
                 and s.name == function]
        where = (" (it is a method or a nested or async function: only top-level functions "
                 "are tasks)" if kinds else "")
        raise _fail(program, f"no top-level function {function!r}{where}")
    fn = fns[-1]
    doc = ast.get_docstring(fn)
    if not doc:
        raise _fail(program, f"{function} has no docstring: the docstring is the task's "
                             "statement", fn.lineno)
    examples = _examples(fn, doc)
    inputs, outputs, notes = _signature(program, fn, examples)
    tid = task_id or re.sub(r"[^A-Za-z0-9_.-]", "_", f"{program.stem}_{function}")
    skeleton = generate(function, [(n, parse_type(t)) for n, t in inputs],
                        [(n, parse_type(t)) for n, t in outputs], doc)
    contract = _has_contract(tree, fn)
    new = NewTask(id=tid, title=doc.strip().splitlines()[0][:120],
                  provenance=f"adequacy task from {program.name} --function {function}",
                  function=function, inputs=inputs, outputs=outputs, statement=doc,
                  skeleton=skeleton, reference=text,
                  specs={"original.py": text} if contract else {})
    write_task(dest, new)
    task = load_task(dest)
    cases, summary = _cases(task, examples, contract, dest)
    new.cases = cases
    write_task(dest, new)
    load_task(dest)
    return "; ".join([f"{dest}: {summary}", *notes])


def _cases(task: Task, examples: list[tuple[list[Any], str, int]], contract: bool,
           dest: Path) -> tuple[dict[Bucket, list[Case]], str]:
    limits = Limits(case_seconds=5.0)
    names = [p.name for p in task.inputs]
    trees = [type_tree(p.type) for p in task.inputs]
    doc_inputs: list[tuple[dict[str, Any], str]] = []
    for args, want, _line in examples:
        if len(args) != len(names):
            continue
        try:
            doc_inputs.append(({n: encode(v, t, n) for n, v, t in zip(names, args, trees, strict=True)},
                               want))
        except ValueMismatch:
            continue
    drawn = draw_inputs([(p.name, p.type) for p in task.inputs], DRAWS, seed=0)
    all_inputs = [i for i, _ in doc_inputs] + drawn
    outcomes = reference_outcomes(task, all_inputs, limits)
    pre_truth = _pre_truths(task, all_inputs, limits, dest) if contract else None
    out: dict[Bucket, list[Case]] = {b: [] for b in Bucket}
    seen: set[str] = set()
    counts = {"doctest": 0, "doctest_dropped": 0, "valid": 0, "invalid": 0, "dropped": 0}
    otype = task.outputs[0].type
    for k, (inp, o) in enumerate(zip(all_inputs, outcomes, strict=True)):
        key = repr(sorted(inp.items()))
        if key in seen:
            continue
        seen.add(key)
        is_doc = k < len(doc_inputs)
        origin = "official" if is_doc else "generated"
        if pre_truth is not None:
            valid: bool | None = {Truth.true: True, Truth.false: False}.get(pre_truth[k])
        elif o.kind == "returned":
            valid = True
        elif o.kind == "threw":
            valid = False
        else:
            valid = None
        if is_doc:
            valid = _doc_validity(doc_inputs[k][1], o, otype, valid)
            if valid is None:
                counts["doctest_dropped"] += 1
                continue
        if valid is None:
            counts["dropped"] += 1
            continue
        n = len(out[Bucket.pre_complete if valid else Bucket.pre_sound])
        cid = f"{'d' if is_doc else 'g'}{k}"
        visible = is_doc and n < 3
        if valid:
            if o.kind != "returned" or o.output is None:
                counts["dropped"] += 1
                continue
            out[Bucket.pre_complete].append(Case(id=cid, bucket=Bucket.pre_complete, input=inp,
                                                 origin=origin, visible=visible))
            out[Bucket.post_complete].append(Case(id=cid, bucket=Bucket.post_complete,
                                                  input=inp, output=o.output, origin=origin,
                                                  visible=visible))
            counts["valid"] += 1
        else:
            out[Bucket.pre_sound].append(Case(id=cid, bucket=Bucket.pre_sound, input=inp,
                                              origin=origin))
            counts["invalid"] += 1
        counts["doctest"] += is_doc
    summary = (f"{counts['valid']} valid pair(s) and {counts['invalid']} invalid input(s) "
               f"({counts['doctest']} from its doctests, {counts['doctest_dropped']} doctest "
               f"example(s) not reproduced; {counts['dropped']} drawn input(s) dropped: the "
               "reference timed out, failed, or the precondition was undecided)")
    return out, summary


def _doc_validity(want: str, o: Any, otype: Any, valid: bool | None) -> bool | None:
    """A doctest example's verdict: valid when the reference reproduces its literal output,
    invalid when it shows a traceback and the reference raises; None (dropped) otherwise, or
    when the file's own precondition says the opposite."""
    if want.lstrip().startswith("Traceback"):
        return False if o.kind == "threw" and valid is not True else None
    ok, expected = _literal(want)
    if not ok or o.kind != "returned" or o.output is None or valid is False:
        return None
    try:
        agrees = encode(expected, type_tree(otype)) == o.output["result"]
    except ValueMismatch:
        return None
    return True if agrees else None


def _pre_truths(task: Task, inputs: list[dict[str, Any]], limits: Limits, dest: Path
                ) -> list[Truth] | None:
    """The file's own precondition on each input (exec), or None when it does not load."""
    from adequacy.plugin import SpecInvalid

    from .engine import ExecEngine
    from .frontend import load_spec

    path = dest / "specs" / "original.py"
    try:
        spec = load_spec(task, path.read_text(encoding="utf-8"), str(path))
    except SpecInvalid:
        return None
    cases = [Case(id=str(i), bucket=Bucket.pre_complete, input=inp)
             for i, inp in enumerate(inputs)]
    try:
        return [v.value for v in ExecEngine().check(spec, task, cases, limits)]
    except SpecInvalid:
        return None
