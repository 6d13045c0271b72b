"""``adequacy explore``, ``diff`` and ``task audit``: cases beyond the task's own, and the
task's own cases checked.

``explore`` searches for inputs and outputs on which a spec and an oracle disagree (the task's
reference and checker, or a gold spec), ``diff`` for where two specs disagree, ``task audit``
for cases that the task's gold specs, reference, checker or validator contradict. The work is
in ``adequacy.search.explore`` and ``adequacy.search.audit``; this module parses, prints and exits.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from adequacy.cli.checks import at_least, positive
from adequacy.cli.common import err, fail, out
from adequacy.cli.tasks import task_app

if TYPE_CHECKING:
    from adequacy.model.task import Task
    from adequacy.scoring.options import ScoreOptions
    from adequacy.search.explore import JudgeDisagreement, SearchReport

_WORDS = {
    ("pre", False, True): "the spec rejects a valid input",
    ("pre", True, False): "the spec accepts an invalid input",
    ("post", False, True): "the spec rejects a right output",
    ("post", True, False): "the spec accepts a wrong output",
}

Engines = Annotated[list[str] | None, typer.Option(
    "--engine", "-e", metavar="ENGINE", help="Engine(s) to chain (default: the backend's).")]
CaseTimeout = Annotated[float, typer.Option(callback=positive,
                                            help="Seconds per case.")]
Symbolic = Annotated[bool, typer.Option("--symbolic", help="Ask the solver (Z3) instead of "
                     "sampling: every model is re-checked by the concrete engines, and where "
                     "none exists it says what was proved (docs/symbolic.md).")]
QueryTimeout = Annotated[float, typer.Option(callback=positive, help="--symbolic: solver "
                         "seconds per query.")]
MaxLen = Annotated[int, typer.Option(callback=at_least(0), help="--symbolic: the collection "
                   "length of the bounded question asked when the unbounded one is undecided.")]
Unfold = Annotated[int, typer.Option(callback=at_least(0), help="--symbolic: nested calls of a "
                   "recursive helper unfolded; past them nothing is assumed, so an answer "
                   "that depends on deeper calls is unknown.")]


def _options(engine: list[str] | None, case_timeout: float) -> ScoreOptions:
    from adequacy.extensions.backend import Limits
    from adequacy.scoring.options import ScoreOptions
    return ScoreOptions(engines=list(engine or []), limits=Limits(case_seconds=case_timeout))


def _spec_judge(task: Task, path: Path, options: ScoreOptions, name: str | None = None) -> Any:
    from adequacy.model.textfiles import read_spec
    from adequacy.search.oracles import SpecJudge
    return SpecJudge(task, read_spec(path), str(path), options, name=name or str(path))


def _check_loads(judge: Any, what: str) -> None:
    """Refuse an invalid spec before the search (exit 3, its file and line)."""
    from adequacy.extensions.registry import registry
    registry().backend_for(judge.task.language).load_spec(judge.task, judge.text, judge.path)


def _say(text: str) -> None:
    """One line as it is: no wrapping (JSON values stay on one line), no markup."""
    out.print(text, highlight=False, markup=False, soft_wrap=True)


def _dump(v: Any) -> str:
    s = json.dumps(v, ensure_ascii=False)
    return s if len(s) <= 400 else s[:397] + "..."


def _print_found(d: JudgeDisagreement, left: str, right: str, words: str) -> None:
    _say(f"{d.bucket.value}: {words}")
    _say(f"  input   {_dump(d.input)}")
    if d.output is not None:
        _say(f"  output  {_dump(d.output)}")
    _say(f"  {left}: {d.left_reason}")
    _say(f"  {right}: {d.right_reason}")
    if d.found and (d.found.get("input") != d.input or d.found.get("output") != d.output):
        first = _dump(d.found.get("input"))
        if d.found.get("output") is not None:
            first += f" -> {_dump(d.found.get('output'))}"
        _say(f"  shrunk in {d.shrink_steps} step(s) from {first}")
    if d.existing:
        _say(f"  (already a case of the task: {d.existing})")


def _honest(rep: SearchReport, what: str) -> str:
    return (f"no {what} found in {rep.inputs_compared} inputs and {rep.pairs_compared} "
            f"input/output pairs ({rep.undecided} undecided; seed {rep.seed}, "
            f"{rep.seconds:.1f} s). This is not equivalence: the samples are small values "
            "from the type schema and one-step mutations of the task's cases, and a "
            "disagreement elsewhere is still possible.")


def explore(
    task: Annotated[Path, typer.Argument(help="Task folder.")],
    spec: Annotated[Path, typer.Argument(help="Spec file to search counterexamples for.")],
    oracle: Annotated[str, typer.Option(help="A registered judge: reference (the task's "
                      "validator, constraints, reference, checker and recorded outputs) or a "
                      "plugin's (adequacy plugins lists them); gold (the task's gold spec); or "
                      "a spec file used as the oracle for pre and post.")] = "reference",
    budget: Annotated[float, typer.Option(callback=positive,
                      help="Wall-clock seconds for search and shrinking.")] = 10.0,
    seed: Annotated[int, typer.Option(help="Random seed (same seed, same search).")] = 0,
    add: Annotated[bool, typer.Option("--add", help="Append the new counterexamples to the "
                   "task's buckets (origin explored, id x<seed>-<hash>).")] = False,
    per_bucket: Annotated[int, typer.Option(callback=at_least(1), help="Counterexamples kept per bucket.")
                          ] = 1,
    engine: Engines = None,
    case_timeout: CaseTimeout = 2.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    symbolic: Symbolic = False,
    query_timeout: QueryTimeout = 5.0,
    max_len: MaxLen = 8,
    unfold: Unfold = 10,
) -> None:
    """Search inputs and outputs where SPEC disagrees with an oracle, shrink each to a minimal one.

    Exit 0 when none is found, 1 when one is, 2 on an input error, 3 when SPEC is invalid.
    """
    from adequacy.console import progress
    from adequacy.errors import AdequacyError, SpecInvalid
    from adequacy.extensions.registry import registry
    from adequacy.search.explore import as_cases, compare
    from adequacy.taskdirs.load import load_task, write_cases
    try:
        t = load_task(task)
        opts = _options(engine, case_timeout)
        left = _spec_judge(t, spec, opts)
        try:
            _check_loads(left, "spec")
        except SpecInvalid as e:
            raise fail(f"{e.file or spec}:{e.line or ''}: invalid spec: {e.message}", 3
                       ) from None
        right: Any
        judged = oracle in registry().judges
        if judged:
            right = registry().judges[oracle].make(t)
            if right.describe == "no oracle":
                raise fail(f"{task}: the task has no validator, constraints, reference, "
                           "checker or recorded outputs to judge by; use --oracle SPEC")
        else:
            path = _gold_path(t, spec) if oracle == "gold" else Path(oracle)
            right = _spec_judge(t, path, opts, name=f"oracle {path.name}")
            try:
                _check_loads(right, "oracle")
            except SpecInvalid as e:
                raise fail(f"{e.file or path}:{e.line or ''}: the oracle spec is invalid: "
                           f"{e.message}") from None
        if symbolic:
            if oracle == "reference":
                raise fail("--symbolic needs a spec as the oracle: --oracle gold or "
                           "--oracle PATH")
            srep = _symbolic(t, left, right, budget, seed, query_timeout, max_len, unfold,
                             per_bucket)
        else:
            with progress.terminal(), progress.phase(
                    f"explore {t.id}: searching, then shrinking (budget {budget:g} s)"):
                rep = compare(t, left, right, seed=seed, budget=budget,
                              per_bucket=per_bucket)
    except SpecInvalid as e:
        raise fail(f"{e.file or spec}:{e.line or ''}: invalid spec: {e.message}", 3) from None
    except AdequacyError as e:
        raise fail(str(e)) from None
    if symbolic:
        found = srep.counterexamples
        new = as_cases(t, found, seed) if add else []
        _write_new(t, new)
        if as_json:
            print(srep.model_dump_json(indent=2))
        else:
            _say(f"explore --symbolic {t.id}: {spec} against {right.path}, budget {budget:g} s")
            _print_symbolic(srep, "spec", right.name, "oracle")
            if add:
                _say(f"added {len(new)} case(s) to {task} (origin explored)")
        raise typer.Exit(1 if found else 0)
    new = as_cases(t, rep.disagreements, seed) if add else []
    if new:
        for b in {c.bucket for c in new}:
            write_cases(t.root, b, list(t.cases.get(b, [])) + [c for c in new if c.bucket == b])
    if as_json:
        print(rep.model_dump_json(indent=2))
    else:
        oname = "oracle" if judged else right.name
        against = ((f"the task's oracles ({right.describe})" if oracle == "reference"
                    else f"judge {oracle}" + (f" ({right.describe})" if right.describe else ""))
                   if judged else str(right.path))
        _say(f"explore {t.id}: {spec} against {against}, seed {seed}, budget {budget:g} s")
        for d in rep.disagreements:
            _print_found(d, "spec", oname, _WORDS[(d.predicate, d.left, d.right)])
        if rep.disagreements:
            _say(f"{len(rep.disagreements)} counterexample(s) in {rep.inputs_compared} "
                      f"inputs and {rep.pairs_compared} pairs, {rep.seconds:.1f} s (first "
                      f"after {rep.first_found_seconds or 0:.1f} s)")
        else:
            _say(_honest(rep, "counterexample"))
        if add:
            _say(f"added {len(new)} case(s) to {task} (origin explored)")
    raise typer.Exit(1 if rep.disagreements else 0)


def _write_new(t: Task, new: list[Any]) -> None:
    from adequacy.taskdirs.load import write_cases
    for b in {c.bucket for c in new}:
        write_cases(t.root, b, list(t.cases.get(b, [])) + [c for c in new if c.bucket == b])


def _symbolic(t: Task, left: Any, right: Any, budget: float, seed: int, query_timeout: float,
              max_len: int, unfold: int, per_bucket: int) -> Any:
    """The symbolic search with concrete-only judges (the solver never confirms itself)."""
    from adequacy.extensions.symbolic import SolverLimits
    from adequacy.search.symbolic import compare_symbolic, concrete_options
    for j in (left, right):
        j.options = concrete_options(t, j.options)
    from adequacy.console import progress
    with progress.terminal():
        return compare_symbolic(t, left, right, budget=budget, seed=seed,
                                per_bucket=per_bucket, limits=SolverLimits(
                                    query_seconds=query_timeout, max_len=max_len,
                                    unfold=unfold))


_SIDES = {("pre", "a"): "input {l} accepts and {r} rejects",
          ("pre", "b"): "input {r} accepts and {l} rejects",
          ("post", "a"): "output {l} accepts and {r} rejects",
          ("post", "b"): "output {r} accepts and {l} rejects"}


def _print_symbolic(rep: Any, lname: str, rname: str, role: str) -> None:
    word = {True: "accepts", False: "rejects", None: "undecided"}
    for pred in ("pre", "post"):
        rs = [r for r in rep.results if r.predicate == pred]
        proof = rep.proved(pred)
        if rs and proof is not None:
            from adequacy.search.symbolic.compare import claim_of
            _say(f"{pred}: proved: {claim_of(pred, proof)} ({sum(r.answer.queries for r in rs)}"
                 f" solver queries, {sum(r.answer.seconds for r in rs):.2f} s)")
            continue
        for r in rs:
            a = r.answer
            what = _SIDES.get((pred, r.side), "difference").format(l=lname, r=rname)
            if a.status == "none":
                _say(f"{pred}: proved: no {what}, {a.claim()}")
            elif a.status == "unknown":
                _say(f"{pred}: unknown whether there is an {what}: {a.reason}")
                if a.input is not None:
                    _say(f"  input   {_dump(a.input)}")
    for f in rep.findings:
        if f.status == "counterexample" and f.disagreement is not None:
            d = f.disagreement
            _print_found(d, lname, rname, _WORDS[(d.predicate, d.left, d.right)])
            if f.oracle_bucket is not None:
                same = "" if f.oracle_bucket == d.bucket else \
                    f" (the {role} spec's word puts it in {d.bucket.value})"
                _say(f"  task's oracles: {f.oracle_bucket.value}: {f.oracle_note}{same}")
            elif f.oracle_note:
                _say(f"  task's oracles: {f.oracle_note}")
        else:
            what = "ENCODING FAULT" if f.status == "encoding_fault" else "unconfirmed"
            _say(f"{f.predicate}: {what}: solver model not confirmed by the concrete engines")
            _say(f"  input   {_dump(f.input)}")
            if f.output is not None:
                _say(f"  output  {_dump(f.output)}")
            _say(f"  {lname}: {word[f.left]}, {rname}: {word[f.right]}; {f.detail}")
    n = len(rep.counterexamples)
    _say(f"{n} confirmed counterexample(s), {rep.seconds:.1f} s; verdict: {rep.verdict()}")


def _gold_path(t: Task, spec: Path) -> Path:
    from adequacy.extensions.registry import registry
    ext = registry().backend_for(t.language).writer_texts().spec_ext
    p = t.root / "specs" / f"gold.{ext}"
    if not p.is_file():
        raise fail(f"{p}: no gold spec; pass --oracle PATH")
    if p.resolve() == spec.resolve():
        raise fail(f"{spec}: is the gold spec itself; nothing to compare")
    return p


def diff(
    task: Annotated[Path, typer.Argument(help="Task folder.")],
    a: Annotated[Path, typer.Argument(help="First spec.")],
    b: Annotated[Path, typer.Argument(help="Second spec.")],
    budget: Annotated[float, typer.Option(callback=positive,
                      help="Wall-clock seconds for search and shrinking.")] = 10.0,
    seed: Annotated[int, typer.Option(help="Random seed.")] = 0,
    per_bucket: Annotated[int, typer.Option(callback=at_least(1), help="Disagreements kept per kind.")] = 1,
    engine: Engines = None,
    case_timeout: CaseTimeout = 2.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    symbolic: Symbolic = False,
    query_timeout: QueryTimeout = 5.0,
    max_len: MaxLen = 8,
    unfold: Unfold = 10,
) -> None:
    """Where two specs disagree: pre on any input, post on inputs both accept.

    With --symbolic, A is the reference side: post is compared on inputs A's precondition
    accepts, and a proof of no difference says how far it holds.

    Exit 0 when no disagreement is found (not a proof of equivalence), 1 when one is.
    """
    from adequacy.console import progress
    from adequacy.errors import AdequacyError, SpecInvalid
    from adequacy.search.explore import compare
    from adequacy.taskdirs.load import load_task
    try:
        t = load_task(task)
        opts = _options(engine, case_timeout)
        ja, jb = _spec_judge(t, a, opts, name="A"), _spec_judge(t, b, opts, name="B")
        for j in (ja, jb):
            _check_loads(j, "spec")
        if symbolic:
            srep = _symbolic(t, jb, ja, budget, seed, query_timeout, max_len, unfold,
                             per_bucket)
        else:
            with progress.terminal(), progress.phase(
                    f"diff {t.id}: searching, then shrinking (budget {budget:g} s)"):
                rep = compare(t, ja, jb, seed=seed, budget=budget, gate="both",
                              per_bucket=per_bucket)
    except SpecInvalid as e:
        raise fail(f"{e.file}:{e.line or ''}: invalid spec: {e.message}", 3) from None
    except AdequacyError as e:
        raise fail(str(e)) from None
    if symbolic:
        if as_json:
            print(srep.model_dump_json(indent=2))
        else:
            _say(f"diff --symbolic {t.id}: A = {a} (reference side), B = {b}, budget "
                 f"{budget:g} s")
            _print_symbolic(srep, "B", "A", "A")
        raise typer.Exit(1 if srep.counterexamples else 0)
    if as_json:
        print(rep.model_dump_json(indent=2))
    else:
        _say(f"diff {t.id}: A = {a}, B = {b}, seed {seed}, budget {budget:g} s")
        for d in rep.disagreements:
            word = {True: "accepts", False: "rejects"}
            head = f"{d.predicate}: A {word[d.left]}, B {word[d.right]}"
            _say(head)
            _say(f"  input   {_dump(d.input)}")
            if d.output is not None:
                _say(f"  output  {_dump(d.output)}")
            if d.found and d.shrink_steps:
                _say(f"  shrunk in {d.shrink_steps} step(s)")
        if rep.disagreements:
            _say(f"{len(rep.disagreements)} disagreement(s) in {rep.inputs_compared} "
                      f"inputs and {rep.pairs_compared} pairs (post compared only on inputs "
                      "both specs accept)")
        else:
            _say(_honest(rep, "disagreement") + " Post was compared only on inputs "
                      "both specs accept.")
    raise typer.Exit(1 if rep.disagreements else 0)


def task_audit(
    tasks: Annotated[list[Path], typer.Argument(help="Task folders or folders of tasks.")],
    gold: Annotated[list[Path] | None, typer.Option("--gold", metavar="DIR", help=
                    "Folder of gold specs named <task id>.<ext> (besides specs/gold*).")] = None,
    reference: Annotated[bool, typer.Option("--reference/--no-reference",
                         help="Run the task's reference on its inputs.")] = True,
    engine: Engines = None,
    case_timeout: CaseTimeout = 10.0,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON report per line.")] = False,
    limit: Annotated[int, typer.Option(callback=at_least(0), help="Findings printed per task (0: all).")
                     ] = 5,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Do not use the verdict cache "
                        "for the gold specs' verdicts.")] = False,
    strength: Annotated[list[Path] | None, typer.Option("--strength", metavar="FILE", help=
                        "Reports of `adequacy task strength --out FILE`: show each task's "
                        "spec-mutant and program-mutant strength and the benchmark table.")
                        ] = None,
) -> None:
    """Check every case against the task's gold specs, reference, checker and validator
    (and, with --strength, show how strong each task's cases are).

    Exit 0 when nothing contradicts a case, 1 when something does, 2 on an input error.
    """
    from adequacy.cli.common import open_cache
    from adequacy.console import progress
    from adequacy.errors import AdequacyError
    from adequacy.search.audit import audit_task, gold_specs, summary
    from adequacy.taskdirs.discovery import discover_tasks
    from adequacy.taskdirs.load import load_task
    for d in gold or []:
        if not d.is_dir():
            raise fail(f"{d}: --gold must be a folder")
    try:
        folders = discover_tasks(tasks)
    except AdequacyError as e:
        raise fail(str(e)) from None
    from adequacy.cli.common import default_cache
    rows = _strength_rows(strength or [])
    cache, _ = open_cache(default_cache(no_cache, None))
    opts = _options(engine, case_timeout)
    reports = []
    with_gold = 0
    from_dirs: dict[Path, int] = {d: 0 for d in gold or []}
    with progress.terminal(), progress.steps("task audit", len(folders), "tasks") as bar:
        for f in folders:
            try:
                t = load_task(f)
            except AdequacyError as e:
                raise fail(str(e)) from None
            golds = gold_specs(t, list(gold or []))
            with_gold += bool(golds)
            for d in from_dirs:
                from_dirs[d] += any(g.parent == d for g in golds)
            bar.note(f"now: {t.id}")
            r = audit_task(t, list(gold or []), opts, cache=cache, reference=reference)
            r.strength = rows.get(str(Path(t.root).resolve())) or rows.get(t.id)
            bar.advance()
            reports.append(r)
            _show_audit(r, t.id, as_json, limit)
    s = summary(reports)
    if not as_json:
        _say(f"audited {s['tasks']} task(s): {s['with_findings']} with findings, "
                  f"{s['errors']} error(s)")
        # a gold folder that matched no task audits nothing more, and must not look like one
        # that did: name files as the audit looks for them
        _say(f"gold specs found for {with_gold} of {len(folders)} task(s)"
             + "".join(f"; {n} from {d}" for d, n in from_dirs.items()))
        for d, n in from_dirs.items():
            if not n:
                err.print(f"warning: --gold {d}: no file named <task id>.<ext> for any of the "
                          f"{len(folders)} task(s) (e.g. {_gold_name(folders[0])})",
                          highlight=False, markup=False, soft_wrap=True)
        for k, v in s["kinds"].items():
            _say(f"  {k}: {v['findings']} in {v['tasks']} task(s)")
        measured = [r.strength for r in reports if r.strength is not None]
        if strength:
            from adequacy.cli.qa import print_qa
            from adequacy.records.html import qa_of
            _say(f"strength reports found for {len(measured)} of {len(reports)} task(s)")
            print_qa(qa_of(measured))
    raise typer.Exit(2 if s["errors"] else 1 if s["with_findings"] else 0)


def _strength_rows(files: list[Path]) -> dict[str, Any]:
    """Each task's strength row from ``task strength --out`` files, by task path and id."""
    from adequacy.errors import AdequacyError
    if not files:
        return {}
    from adequacy.search.strength import read_strength, row_of
    try:
        reports = read_strength(files)
    except AdequacyError as e:
        raise fail(str(e)) from None
    out: dict[str, Any] = {}
    for r in reports:
        row = row_of(r)
        out[str(Path(r.path).resolve())] = row
        out.setdefault(r.task, row)
    return out


def _strength_words(row: Any) -> str:
    def f(v: float | None) -> str:
        return "n/a" if v is None else f"{v:.2f}"
    eq = sum(row.equivalent.values())
    text = (f"strength: spec {f(row.spec)} -> {f(row.spec_after)} ({row.spec_mutants} mutants, "
            f"{row.killed} killed, {row.blind_spots} blind spots, {eq} equivalent); program "
            f"{f(row.program)} -> {f(row.program_after)} ({row.wrong_programs} wrong of "
            f"{row.program_mutants} program mutants)")
    return text + (f"; {row.note}" if row.note else "")
def _show_audit(r: Any, tid: str, as_json: bool, limit: int) -> None:
    if as_json:
        print(r.model_dump_json(), flush=True)
        return
    if r.error:
        _say(f"{tid}: error: {r.error}")
    if r.strength is not None:
        _say(f"{tid}: {_strength_words(r.strength)}")
    for n, x in enumerate(r.findings):
        if limit and n >= limit:
            _say(f"{tid}: ... {len(r.findings) - limit} more")
            break
        _say(f"{tid}: {x.kind}: {x.case}: {x.detail}")


def _gold_name(folder: Path) -> str:
    """The file name a gold folder holds for the task in ``folder`` (``euclid_mod.rs``)."""
    from adequacy.errors import AdequacyError
    from adequacy.extensions.registry import registry
    from adequacy.taskdirs.load import load_task

    try:
        t = load_task(folder)
        return f"{t.id}.{registry().backend_for(t.language).writer_texts().spec_ext}"
    except AdequacyError:
        return "<task id>.<ext>"


def register(app: typer.Typer) -> None:
    app.command()(explore)
    app.command()(diff)
    task_app.command("audit")(task_audit)
