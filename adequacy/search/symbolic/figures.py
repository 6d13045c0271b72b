"""The solver's figures of one spec (``score --symbolic``, ``run --symbolic``).

**Does the postcondition determine the output?** For a task whose output is unique
(``unique_output``, the default), on each valid input with its right output (every
``post_complete`` case, then every ``pre_complete`` input with the task's reference's output)
the solver looks for another output the spec's postcondition accepts. A model is a wrong output
the spec accepts (a ``post_sound`` failure found without any mutant), counted only once the
spec's concrete engines accept it and the task's oracles call it wrong. "None" means the
postcondition pins the output on that input, for every output or for every output whose
collections have at most L elements. Each input gets an equal share of the time left, so one
hard input cannot starve the others. The same question is asked once over **every** input
the precondition accepts (two different outputs the postcondition accepts on one input), which
no list of inputs can settle.

**Does the precondition accept an input the gold spec refuses?** One side of the symbolic
diff against the task's gold spec, every model confirmed concretely on both specs and shrunk.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Literal

from adequacy.console import progress
from adequacy.errors import AdequacyError
from adequacy.extensions.symbolic import Question, SolverLimits
from adequacy.model.symbolic_figures import (
    AdmittedInput,
    OutputDetermination,
    PinnedInput,
    PreAdmission,
    SymbolicFigures,
    UniquePost,
)
from adequacy.model.task import Task
from adequacy.model.verdicts import Bucket
from adequacy.scoring import activity
from adequacy.scoring.options import ScoreOptions
from adequacy.scoring.spec_report import SpecReport
from adequacy.search.oracles import OracleJudge, SpecJudge
from adequacy.search.symbolic.compare import compare_symbolic, concrete_options, symbolic_for
from adequacy_mutators import params_key

__all__ = ["add_found", "gold_spec", "output_determination", "pre_against_gold",
           "symbolic_figures", "unique_post", "with_figures"]

PRE_SHARE = 0.3
"""Of the budget, the part the precondition figure may use (the rest, and whatever it leaves,
goes to the output figures)."""
UNIQUE_SHARE = 0.4
"""Of what is left after it, the part the question over every input may use (the rest goes to
the task's inputs one by one)."""


def valid_pairs(task: Task, oracle: OracleJudge) -> list[tuple[dict[str, Any], dict[str, Any],
                                                              str]]:
    """(input, right output, source) of every valid input whose right output is known: the
    ``post_complete`` cases, then the ``pre_complete`` inputs the reference answers."""
    seen: set[str] = set()
    out: list[tuple[dict[str, Any], dict[str, Any], str]] = []
    for c in task.cases.get(Bucket.post_complete, []):
        k = params_key(c.input, task.inputs)
        if c.output is not None and k not in seen:
            seen.add(k)
            out.append((c.input, c.output, "case"))
    todo = []
    for c in task.cases.get(Bucket.pre_complete, []):
        k = params_key(c.input, task.inputs)
        if k not in seen:
            seen.add(k)
            todo.append(c.input)
    if todo and oracle.has_reference:
        for inp, ref in zip(todo, oracle.reference(todo), strict=True):
            if isinstance(ref, dict):
                out.append((inp, ref, "reference"))
    return out


def output_determination(task: Task, text: str, path: str | None, options: ScoreOptions, *,
                         deadline: float, limits: SolverLimits | None = None,
                         max_inputs: int = 40) -> OutputDetermination | str:
    """The output figure, or why it is not measured (a sentence)."""
    from adequacy.extensions.registry import registry
    oracle = OracleJudge(task)
    if not oracle.cons.unique_output:
        return "several outputs may be right (unique_output = false): a second one proves nothing"
    oracle.deadline = deadline
    sym = symbolic_for(task)
    loaded = registry().backend_for(task.language).load_spec(task, text, path)
    judge = SpecJudge(task, text, path, concrete_options(task, options), name=path or "spec")
    judge.deadline = deadline
    pairs = valid_pairs(task, oracle)[:max_inputs]
    if not pairs:
        return "the task has no valid input with a known right output"
    start = time.monotonic()
    base = limits or SolverLimits()
    rep = OutputDetermination()
    results: list[PinnedInput] = []
    with progress.engine_task("solver: another output on each valid input", len(pairs)):
        for n, (inp, right, source) in enumerate(pairs):
            results.append(_pin_one(task, sym, loaded, judge, oracle, base, deadline, inp,
                                    right, source, len(pairs) - n))
            progress.advance()
    rep.results = results
    rep.inputs = len(results)
    rep.pinned = sum(1 for r in results if r.status == "pinned")
    rep.second_output = sum(1 for r in results if r.status == "second_output")
    rep.unknown = rep.inputs - rep.pinned - rep.second_output
    rep.seconds = round(time.monotonic() - start, 3)
    return OutputDetermination.model_validate(rep.model_dump())


def unique_post(task: Task, text: str, path: str | None, options: ScoreOptions, *,
                deadline: float, limits: SolverLimits | None = None) -> UniquePost | str:
    """Does the postcondition determine the output on every input the precondition accepts?
    Asked of the solver for any input; a model (an input and two outputs) is confirmed by the
    spec's concrete engines and labelled by the task's oracles."""
    from adequacy.extensions.registry import registry
    oracle = OracleJudge(task)
    if not oracle.cons.unique_output:
        return "several outputs may be right (unique_output = false)"
    oracle.deadline = deadline
    sym = symbolic_for(task)
    loaded = registry().backend_for(task.language).load_spec(task, text, path)
    lim = (limits or SolverLimits()).model_copy(update={"deadline": deadline})
    activity.note("symbolic figures")
    with progress.phase("solver: two outputs on one input the pre accepts?"):
        ans = sym.find(task, Question(kind="two_outputs", a=loaded, predicate="post"), lim)
    if ans.status == "none":
        return UniquePost(status="determined", claim=ans.claim())
    if ans.status != "found" or ans.input is None or ans.output is None or ans.other is None:
        return UniquePost(status="unknown", reason=ans.reason or "undecided")
    judge = SpecJudge(task, text, path, concrete_options(task, options), name=path or "spec")
    judge.deadline = deadline
    inp, o1, o2 = ans.input, ans.output, ans.other
    try:
        pre = judge.inputs([inp])[0]
        posts = judge.outputs([(inp, o1), (inp, o2)])
        words = oracle.outputs([(inp, o1), (inp, o2)])
        valid = oracle.inputs([inp])[0]
    except AdequacyError as e:
        return UniquePost(status="unconfirmed", reason=str(e).splitlines()[0])
    if pre.value is not True or any(w.value is not True for w in posts):
        return UniquePost(status="unconfirmed", reason=(
            "the concrete engines do not accept the input and both outputs "
            f"(pre: {pre.reason}; posts: {posts[0].reason}, {posts[1].reason})"))
    wrong: list[int] = []
    if valid.value is False:
        note = f"the task's oracles call the input invalid ({valid.reason}): the pre is too weak"
    else:
        wrong = [i for i, w in enumerate(words) if w.value is False]
        names = [("first", "second")[i] for i in wrong]
        note = (f"the task's oracles call the {' and '.join(names)} output wrong"
                if wrong else "the task's oracles do not say which is wrong")
    return UniquePost(status="two_outputs", input=inp, outputs=[o1, o2], oracle=note,
                      wrong=wrong)


def _pin_one(task: Task, sym: Any, loaded: Any, judge: SpecJudge, oracle: OracleJudge,
             base: SolverLimits, deadline: float, inp: dict[str, Any], right: dict[str, Any],
             source: str, remaining: int) -> PinnedInput:
    """One valid input, with an equal share of the time left among the ``remaining``."""
    activity.note("symbolic figures")  # a batch pair's deadline counts from each step
    src: Literal["case", "reference"] = "reference" if source == "reference" else "case"
    left = deadline - time.monotonic()
    if left <= 0.05:
        return PinnedInput(input=inp, output=right, source=src, status="unknown",
                           reason="out of time (the budget)")
    lim = base.model_copy(update={"deadline": time.monotonic() + left / remaining})
    ans = sym.find(task, Question(kind="other_output", a=loaded, predicate="post",
                                  input=inp, output=right), lim)
    r = PinnedInput(input=inp, output=right, source=src, status="unknown", reason=ans.reason)
    if ans.status == "none":
        r.status = "pinned"
        r.claim = ("no other output" if ans.scope == "all" else
                   f"no other output with collections of length <= {ans.bound}")
    elif ans.status == "found" and ans.output is not None:
        r.other = ans.output
        try:
            w = judge.outputs([(inp, ans.output)])[0]
            o = oracle.outputs([(inp, ans.output)])[0]
        except AdequacyError as e:
            r.status, r.reason = "unconfirmed", str(e).splitlines()[0]
        else:
            if w.value is True and o.value is False:
                r.status, r.reason = "second_output", o.reason
            elif w.value is False:
                r.status = "encoding_fault"
                r.reason = "the concrete engines reject the solver's output"
            else:
                r.status = "unconfirmed"
                r.reason = (f"spec: {w.reason or 'undecided'}; task's oracles: "
                            f"{o.reason or 'undecided'}")
    return r


def gold_spec(task: Task) -> Path | None:
    """The task's gold spec (``specs/gold.<ext>``), if it has one."""
    from adequacy.extensions.registry import registry
    ext = registry().backend_for(task.language).writer_texts().spec_ext
    p = task.root / "specs" / f"gold.{ext}"
    return p if p.is_file() else None


def pre_against_gold(task: Task, text: str, path: str | None, options: ScoreOptions, *,
                     deadline: float, gold: Path | None = None,
                     limits: SolverLimits | None = None, per_bucket: int = 3
                     ) -> PreAdmission | str:
    """The precondition figure, or why it is not measured (a sentence)."""
    g = gold or gold_spec(task)
    if g is None:
        return "the task has no gold spec (specs/gold.*)"
    if path is not None and Path(path).resolve() == g.resolve():
        return "the spec is the gold spec"
    gtext = g.read_text(encoding="utf-8")
    if gtext == text:
        return "the spec is the gold spec's text"
    opts = concrete_options(task, options)
    left = SpecJudge(task, text, path, opts, name=path or "spec")
    right = SpecJudge(task, gtext, str(g), opts, name="gold")
    rep = compare_symbolic(task, left, right, budget=max(0.0, deadline - time.monotonic()),
                           limits=limits, predicates=("pre",), sides=("a",),
                           per_bucket=per_bucket)
    inputs: list[AdmittedInput] = []
    seen: set[str] = set()
    for f in rep.findings:
        d = f.disagreement
        if f.status != "counterexample" or d is None or not d.left or d.right:
            continue
        k = params_key(d.input, task.inputs)
        if k not in seen:
            seen.add(k)
            word = {Bucket.pre_sound: "invalid", Bucket.pre_complete: "valid"}.get(
                f.oracle_bucket, "undecided")  # type: ignore[arg-type]
            inputs.append(AdmittedInput(input=d.input, oracle=word,  # type: ignore[arg-type]
                                        note=f.oracle_note))
    unconfirmed = sum(1 for f in rep.findings if f.status != "counterexample")
    (res,) = rep.results
    if inputs:
        return PreAdmission(gold=str(g), status="found", inputs=inputs, unconfirmed=unconfirmed)
    if res.answer.status == "none":
        return PreAdmission(gold=str(g), status="none", claim=res.answer.claim())
    why = res.answer.reason or ("the solver's models were not confirmed concretely"
                                if unconfirmed else "undecided")
    return PreAdmission(gold=str(g), status="unknown", unconfirmed=unconfirmed, reason=why)


def symbolic_figures(task: Task, text: str, path: str | None, options: ScoreOptions, *,
                     budget: float = 60.0, limits: SolverLimits | None = None,
                     gold: Path | None = None, max_inputs: int = 40) -> SymbolicFigures:
    """Both figures of one spec within ``budget`` seconds (the precondition's first, with at
    most ``PRE_SHARE`` of it)."""
    start = time.monotonic()
    deadline = start + budget
    activity.note("symbolic figures")
    figs = SymbolicFigures(budget=budget)
    pre = pre_against_gold(task, text, path, options, gold=gold, limits=limits,
                           deadline=start + budget * PRE_SHARE)
    if isinstance(pre, str):
        figs.pre_skipped = pre
    else:
        figs.pre = pre
    uniq = unique_post(task, text, path, options, limits=limits,
                       deadline=time.monotonic() + (deadline - time.monotonic()) * UNIQUE_SHARE)
    if isinstance(uniq, UniquePost):
        figs.unique = uniq
    out = output_determination(task, text, path, options, deadline=deadline, limits=limits,
                               max_inputs=max_inputs)
    if isinstance(out, str):
        figs.output_skipped = out
    else:
        figs.output = out
    return figs


def with_figures(task: Task, text: str, path: str | None, report: SpecReport,
                 options: ScoreOptions, budget: float) -> SpecReport:
    """``report`` with its symbolic figures (a scored report only; a failure of ours while
    measuring them is said in the figures, never lost with the score)."""
    if report.status != "scored":
        return report
    try:
        figs = symbolic_figures(task, text, path, options, budget=budget)
    except AdequacyError as e:
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        figs = SymbolicFigures(budget=budget, output_skipped=first, pre_skipped=first)
    return report.model_copy(update={"symbolic": figs})


def add_found(task: Task, figs: SymbolicFigures, seed: int = 0) -> int:
    """Append the figures' confirmed findings to the task's buckets (origin ``explored``): each
    second output, and each output of two on one input that the task's oracles call wrong, as
    ``post_sound``; each input the gold spec refuses that the task's oracles call invalid as
    ``pre_sound``. Returns how many cases were new."""
    from adequacy.search.explore import JudgeDisagreement, as_cases
    from adequacy.taskdirs.load import write_cases
    found: list[JudgeDisagreement] = []
    if figs.output is not None:
        for r in figs.output.results:
            if r.status == "second_output" and r.other is not None:
                found.append(JudgeDisagreement(predicate="post", input=r.input, output=r.other,
                                          left=True, right=False))
    if figs.unique is not None and figs.unique.input is not None:
        for i in figs.unique.wrong:
            found.append(JudgeDisagreement(predicate="post", input=figs.unique.input,
                                      output=figs.unique.outputs[i], left=True, right=False))
    if figs.pre is not None:
        for a in figs.pre.inputs:
            if a.oracle == "invalid":
                found.append(JudgeDisagreement(predicate="pre", input=a.input, left=True,
                                          right=False))
    new = as_cases(task, found, seed)
    for b in {c.bucket for c in new}:
        write_cases(task.root, b, list(task.cases.get(b, [])) + [c for c in new
                                                                   if c.bucket == b])
    return len(new)
