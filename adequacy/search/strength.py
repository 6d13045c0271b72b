"""How strong is a task's evidence? Spec mutants of its gold spec, and program mutants.

**Spec mutants** (IronSpec's measure). Every one-change mutant of the gold spec
(``Backend.spec_mutants``) is scored on the task's cases through the normal scoring path:

- ``invalid``: the front end refuses it (never counted as killed, nor in any ratio);
- ``killed``: it fails some case that the gold spec passes (a case the gold fails kills
  nothing: that case is wrong, or the gold is);
- ``unknown``: it fails no such case, but some case is undecided (or scoring failed);
- ``survived``: it passes every case the gold passes.

Each survivor is judged: the solver first, where the task's language has a symbolic encoder
(``equivalence``: ``equivalent`` for every input, or ``bounded``: for every input with
collections up to a length), else the sampling search of ``adequacy diff`` run against the
gold spec (``adequacy.search.explore.compare``, the gold as oracle). A difference found, by
either, makes it a **blind spot** with its counterexamples (shrunk, labelled by the gold spec,
and kept only where the task's own oracles do not contradict that label); no difference found
makes it **equivalent**, and the report says how that was judged. A sampled equivalent is
evidence, not proof: when a case found for another blind spot kills it, it is counted a blind
spot after all.

**Spec-mutant strength** = killed / (killed + blind spots): the kill ratio over the
non-equivalent mutants whose fate is known. ``after`` is the same ratio once the blind spots'
cases are added (``--add`` writes them: origin ``blind_spot``, ``made_by`` naming the mutant).

**Program-mutant strength** comes from ``adequacy_mutators.program_mutants_task``: the share of
the reference's wrong mutants whose wrong output the task records in post_sound.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from adequacy.errors import AdequacyError, SpecInvalid
from adequacy.extensions.mutants import SpecMutant
from adequacy.model.task import Case, Task
from adequacy.model.values import content_hash
from adequacy.model.verdicts import Bucket
from adequacy.records.html._qa import BenchmarkQA, StrengthRow, qa_of
from adequacy.scoring.cache import VerdictCache
from adequacy.scoring.options import ScoreOptions
from adequacy.search.explore import JudgeDisagreement, compare
from adequacy.search.oracles import OracleJudge, SpecJudge
from adequacy_mutators import ProgramsReport, params_key

__all__ = ["MutantResult", "StrengthReport", "add_cases", "benchmark_qa", "gold_for",
           "read_strength", "row_of", "task_strength", "totals"]

Status = Literal["killed", "survived", "invalid", "unknown"]
Judged = Literal["symbolic", "bounded", "sampling"]


class MutantResult(BaseModel):
    model_config = ConfigDict(extra="forbid")

    operator: str
    line: int
    index: int = 1
    description: str
    status: Status
    killed_by: str = ""
    """``bucket/id`` of a case it fails (killed)."""
    reason: str = ""
    """Why invalid (the front end's message) or unknown."""
    equivalent: Judged | None = None
    """For a survivor judged equivalent: how (``symbolic``: proved for every input;
    ``bounded``: proved for collections up to a length; ``sampling``: no difference found)."""
    equivalence: str = ""
    """What the judgement rests on, in words (what was proved, or how much was sampled)."""
    blind_spot: bool = False
    found_by: Judged | None = None
    """How the blind spot's difference was found."""
    counterexamples: list[JudgeDisagreement] = []
    closed: bool = False
    """A case found for a blind spot (this one's or another's) kills it."""
    seconds: float = 0.0

    @property
    def label(self) -> str:
        """``spec operator@line`` (``#2``...): what the cases that kill it record."""
        return f"spec {self.operator}@{self.line}" + (f"#{self.index}" if self.index > 1
                                                        else "")


class StrengthReport(BaseModel):
    """One task: its spec mutants and their fates, the program mutants, the two strengths."""

    model_config = ConfigDict(extra="forbid")

    task: str
    path: str
    language: str = ""
    gold: str = ""
    """The gold spec mutated ("" when the task has none)."""
    gold_failures: int = 0
    """Cases the gold spec itself fails (an audit finding; they kill no mutant)."""
    operators: list[str] = []
    mutants: list[MutantResult] = []
    made: int = 0
    invalid: int = 0
    killed: int = 0
    unknown: int = 0
    survived: int = 0
    equivalent: dict[str, int] = Field(default_factory=dict)
    """How many survivors were judged equivalent, by how (``symbolic``, ``bounded``,
    ``sampling``)."""
    blind_spots: int = 0
    closed: int = 0
    """Blind spots a new case kills."""
    cases_found: int = 0
    cases_added: int = 0
    not_added: dict[str, int] = Field(default_factory=dict)
    """Why found cases were not kept (the task's oracles contradict the gold's label, ...)."""
    symbolic: str = ""
    """Whether the solver judged survivors, or why not."""
    programs: ProgramsReport | None = None
    notes: list[str] = []
    error: str | None = None
    seconds: float = 0.0
    gold_seconds: float = 0.0
    """One ordinary score of the gold spec on the task's cases (for the time per mutant)."""
    mutant_seconds: float = 0.0
    """Scoring all mutants on the task's cases (judging survivors not included)."""
    judge_seconds: float = 0.0
    """Judging the survivors (solver and sampling) and scoring the new cases."""

    @property
    def strength(self) -> float | None:
        """Killed over the non-equivalent mutants of known fate, before the new cases."""
        n = self.killed + self.blind_spots
        return self.killed / n if n else None

    @property
    def strength_after(self) -> float | None:
        n = self.killed + self.blind_spots
        return (self.killed + self.closed) / n if n else None

    @property
    def program_strength(self) -> float | None:
        return self.programs.strength_before if self.programs else None

    @property
    def program_strength_after(self) -> float | None:
        return self.programs.strength_after if self.programs else None

    def figures(self) -> dict[str, Any]:
        """The derived ratios (``--json`` adds them beside the counts)."""
        return {"spec_strength": self.strength, "spec_strength_after": self.strength_after,
                "program_strength": self.program_strength,
                "program_strength_after": self.program_strength_after}


def gold_for(task: Task, gold: str | Path) -> Path | None:
    """The gold spec of ``task``: ``gold`` is a folder of ``<task id>.<ext>`` files, or the
    word ``gold`` (the task's ``specs/gold.<ext>``, else its backend's bundled golds)."""
    from adequacy.extensions.registry import registry
    backend = registry().backend_for(task.language)
    ext = backend.writer_texts().spec_ext
    if str(gold) == "gold":
        own = task.root / "specs" / f"gold.{ext}"
        if own.is_file():
            return own
        if backend.gold_dir is not None and (backend.gold_dir / f"{task.id}.{ext}").is_file():
            return backend.gold_dir / f"{task.id}.{ext}"
        return None
    p = Path(gold) / f"{task.id}.{ext}"
    return p if p.is_file() else None


def _symbolic_equivalence(task: Task) -> tuple[Any, str]:
    """(the solver's equivalence check, what the report says about it): None with the reason
    where the task's language answers no symbolic questions."""
    try:
        from adequacy.search.symbolic.compare import equivalence, symbolic_for
    except ImportError:
        return None, "no solver in this installation: survivors judged by sampling only"
    try:
        symbolic_for(task)
    except AdequacyError as e:
        return None, f"{str(e).splitlines()[0]}: survivors judged by sampling only"
    return equivalence, ("the solver judged each survivor first (a proof for every input, or "
                         "up to a length); sampling where it could not decide")


def _fate(rep: Any, gold_failed: set[str]) -> tuple[Status, str, str]:
    """(status, killing case, reason) of a scored mutant."""
    if rep.status == "invalid":
        inv = rep.invalid
        where = f"line {inv.line}: " if inv is not None and inv.line else ""
        return "invalid", "", where + (inv.message if inv is not None else "invalid")
    if rep.status != "scored":
        return "unknown", "", (rep.error or rep.status).splitlines()[0][:200]
    undecided = 0
    for v in rep.verdicts:
        key = f"{v.bucket.value}/{v.case_id}"
        if key in gold_failed:
            continue
        if not v.decided:
            undecided += 1
        elif not v.passed:
            return "killed", key, ""
    if undecided:
        return "unknown", "", f"{undecided} case(s) undecided, none failed"
    return "survived", "", ""


def _label_ok(task: Task, oracle: OracleJudge | None, d: JudgeDisagreement) -> str:
    """Why the task's own oracles contradict the gold spec's label of ``d`` ("" when they do
    not: they agree, or say nothing)."""
    if oracle is None:
        return ""
    word = oracle.inputs([d.input])[0]
    if d.predicate == "pre":
        if word.value is not None and word.value != d.right:
            return "the task's oracles call the input " + ("valid" if word.value else
                                                           "invalid")
        return ""
    if word.value is False:
        return "the task's oracles call the input invalid"
    assert d.output is not None
    out = oracle.outputs([(d.input, d.output)])[0]
    if out.value is not None and out.value != d.right:
        return "the task's oracles call the output " + ("right" if out.value else "wrong")
    return ""


def _case_of(task: Task, d: JudgeDisagreement, seed: int, label: str) -> Case:
    b = d.bucket
    h = content_hash(b.value, params_key(d.input, task.inputs),
                     params_key(d.output, task.outputs) if d.output is not None else "")
    return Case(id=f"b{seed}-{h[:10]}", bucket=b, input=d.input,
                output=d.output if b.predicate == "post" else None, origin="blind_spot",
                visible=False, made_by=(label,))


def task_strength(task: Task, gold_path: Path | None, options: ScoreOptions, *,
                  cache: VerdictCache | None = None, budget: float = 3.0, seed: int = 0,
                  operators: Collection[str] | None = None, max_mutants: int | None = None,
                  symbolic: bool = True, per_bucket: int = 1,
                  programs: ProgramsReport | None = None) -> tuple[StrengthReport, list[Case]]:
    """The task's spec-mutant figures and the blind-spot cases found (not written: the
    caller adds them with ``add_cases``). ``budget``: seconds of judging per survivor."""
    from adequacy.extensions.mutants import spread
    from adequacy.extensions.registry import registry
    from adequacy.model.textfiles import read_spec
    from adequacy.scoring.runner import score_spec

    t0 = time.monotonic()
    rep = StrengthReport(task=task.id, path=str(task.root), language=task.language,
                         programs=programs)
    new_cases: dict[str, Case] = {}
    if gold_path is None:
        rep.notes.append("no gold spec: no spec mutants (pass --gold DIR, or give the task "
                         "specs/gold.<ext>)")
        rep.seconds = round(time.monotonic() - t0, 3)
        return rep, []
    rep.gold = str(gold_path)
    try:
        backend = registry().backend_for(task.language)
        gold_text = read_spec(gold_path)
        rep.operators = backend.spec_mutation_operators()
        g0 = time.monotonic()
        gold_rep = score_spec(task, gold_text, str(gold_path), options, cache=cache)
        rep.gold_seconds = round(time.monotonic() - g0, 3)
        if gold_rep.status != "scored":
            what = (gold_rep.invalid.message if gold_rep.invalid is not None
                    else gold_rep.error or gold_rep.status)
            raise AdequacyError(f"{gold_path}: the gold spec does not score: "
                                f"{str(what).splitlines()[0]}")
        gold_failed = {f"{v.bucket.value}/{v.case_id}" for v in gold_rep.verdicts
                       if v.decided and not v.passed}
        rep.gold_failures = len(gold_failed)
        if gold_failed:
            rep.notes.append(f"the gold spec fails {len(gold_failed)} case(s) (see `adequacy "
                             "task audit`); those cases kill no mutant")
        mutants: list[SpecMutant] = backend.spec_mutants(task, gold_text, operators)
        if not mutants and not rep.operators:
            rep.notes.append(f"the {backend.name} backend makes no spec mutants")
        if max_mutants is not None and len(mutants) > max_mutants:
            rep.notes.append(f"{len(mutants)} mutants made, {max_mutants} scored (spread "
                             "evenly over them)")
            mutants = spread(mutants, max_mutants)
        rep.made = len(mutants)
        m0 = time.monotonic()
        results: list[tuple[SpecMutant, MutantResult]] = []
        for m in mutants:
            s0 = time.monotonic()
            r = score_spec(task, m.text, f"<mutant {m.label}>", options, cache=cache)
            status, killed_by, reason = _fate(r, gold_failed)
            results.append((m, MutantResult(operator=m.operator, line=m.line, index=m.index,
                                            description=m.description, status=status,
                                            killed_by=killed_by, reason=reason,
                                            seconds=round(time.monotonic() - s0, 3))))
        rep.mutant_seconds = round(time.monotonic() - m0, 3)
        j0 = time.monotonic()
        if symbolic:
            equivalence, rep.symbolic = _symbolic_equivalence(task)
        else:
            equivalence, rep.symbolic = None, "not asked (--no-symbolic): sampling only"
        try:
            oracle: OracleJudge | None = OracleJudge(task)
        except AdequacyError as e:
            oracle = None
            rep.notes.append(f"the task's oracles cannot run ({e}): found cases are labelled "
                             "by the gold spec alone")
        not_added: Counter[str] = Counter()
        gold_judge = SpecJudge(task, gold_text, str(gold_path), options, name="gold")
        for m, res in results:
            if res.status != "survived":
                continue
            diffs: list[JudgeDisagreement] = []
            solver_said = ""
            if equivalence is not None:
                judged, detail, diffs = _solver(equivalence, task, m.text, gold_text, options,
                                                budget)
                if judged in ("symbolic", "bounded"):
                    res.equivalent, res.equivalence = judged, detail  # type: ignore[assignment]
                    continue
                if diffs:
                    res.blind_spot, res.found_by = True, "symbolic"
                else:
                    solver_said = f"the solver did not decide ({detail}); "
            if not res.blind_spot:
                left = SpecJudge(task, m.text, None, options, name=f"mutant {m.operator}")
                s = compare(task, left, gold_judge, seed=seed, budget=budget,
                            per_bucket=per_bucket)
                diffs = [d for d in s.disagreements if not d.existing]
                if diffs:
                    res.blind_spot, res.found_by = True, "sampling"
                elif s.known:
                    # it differs on a case of the task that it passes: impossible for a
                    # survivor unless the gold fails that case; not a blind spot of the cases
                    res.equivalent = "sampling"
                    res.equivalence = (f"differs only on {s.known} case(s) the task holds, "
                                       "which the gold spec fails")
                else:
                    res.equivalent = "sampling"
                    res.equivalence = (f"{solver_said}no difference in {s.inputs_compared} "
                                       f"inputs and {s.pairs_compared} pairs sampled (seed "
                                       f"{seed}, {s.seconds:.1f} s; {s.undecided} undecided): "
                                       "not a proof")
            for d in diffs:
                why = _label_ok(task, oracle, d)
                if why:
                    not_added[why] += 1
                    continue
                c = _case_of(task, d, seed, res.label)
                key = f"{c.bucket.value}/{c.id}"
                if key in new_cases:
                    old = new_cases[key]
                    new_cases[key] = old.model_copy(update={
                        "made_by": tuple(dict.fromkeys([*old.made_by, res.label]))})
                else:
                    new_cases[key] = c
                res.counterexamples.append(d)
        fresh = _fresh(task, list(new_cases.values()), not_added)
        rep.cases_found = len(fresh)
        # which mutants the new cases kill: blind spots (closed), and sampled "equivalents"
        # that were not equivalent after all
        if fresh:
            for _m, res in results:
                if res.status != "survived" or res.equivalent in ("symbolic", "bounded"):
                    continue
                r = score_spec(task, _m.text, None, options, cases=fresh)
                if any(v.decided and not v.passed for v in r.verdicts):
                    if not res.blind_spot:
                        res.blind_spot, res.found_by = True, "sampling"
                        res.equivalence += ("; a case found for another blind spot kills "
                                            "it: a blind spot after all")
                        res.equivalent = None
                    res.closed = True
        rep.not_added = dict(sorted(not_added.items()))
        rep.judge_seconds = round(time.monotonic() - j0, 3)
        rep.mutants = [r for _, r in results]
        counts = Counter(r.status for r in rep.mutants)
        rep.invalid, rep.killed = counts["invalid"], counts["killed"]
        rep.unknown, rep.survived = counts["unknown"], counts["survived"]
        rep.equivalent = dict(sorted(Counter(r.equivalent for r in rep.mutants
                                             if r.equivalent is not None).items()))
        rep.blind_spots = sum(1 for r in rep.mutants if r.blind_spot)
        rep.closed = sum(1 for r in rep.mutants if r.closed)
    except (AdequacyError, SpecInvalid, ValueError) as e:
        rep.error = str(e).splitlines()[0]
        fresh = []
    rep.seconds = round(time.monotonic() - t0, 3)
    return rep, fresh


def _solver(equivalence: Any, task: Task, text: str, gold: str, options: ScoreOptions,
            budget: float) -> tuple[str, str, list[JudgeDisagreement]]:
    """(``symbolic`` | ``bounded`` | ``different`` | ``unknown``, what was proved or why
    nothing was, the counterexamples the concrete engines confirmed)."""
    try:
        sr = equivalence(task, text, gold, options=options, budget=budget)
        verdict = sr.verdict()
    except AdequacyError as e:
        return "unknown", f"it could not run: {str(e).splitlines()[0]}", []
    if verdict == "different":
        return "different", "", list(sr.counterexamples)
    claims = "; ".join(dict.fromkeys(r.claim for r in sr.results if r.claim))
    if verdict == "equivalent":
        return "symbolic", f"the solver proved it: {claims}", []
    if verdict == "bounded":
        return "bounded", f"the solver proved it only so far: {claims}", []
    open_ = "; ".join(dict.fromkeys(r.answer.reason for r in sr.results
                                    if r.answer.status == "unknown" and r.answer.reason))
    return "unknown", open_[:200] or "no proof and no confirmed difference", []


def _fresh(task: Task, found: list[Case], not_added: Counter[str]) -> list[Case]:
    """The found cases the task does not hold yet (and whose input it does not record the
    other way: that is for the audit, not for adding)."""
    have = {(c.bucket, params_key(c.input, task.inputs),
             params_key(c.output, task.outputs) if c.output is not None else "")
            for c in task.all_cases()}
    valid_in = {params_key(c.input, task.inputs): c.bucket != Bucket.pre_sound
                for c in task.all_cases() if c.bucket != Bucket.post_sound}
    ids = {c.key for c in task.all_cases()}
    out: list[Case] = []
    for c in found:
        k = (c.bucket, params_key(c.input, task.inputs),
             params_key(c.output, task.outputs) if c.output is not None else "")
        rec = valid_in.get(k[1])
        if k in have or c.key in ids:
            not_added["already a case of the task"] += 1
        elif rec is not None and rec != (c.bucket != Bucket.pre_sound):
            not_added["the task records the input the other way"] += 1
        else:
            out.append(c)
    return out


def add_cases(task: Task, cases: Sequence[Case]) -> int:
    """Append ``cases`` to their buckets' files; how many were written."""
    from adequacy.taskdirs.load import write_cases
    n = 0
    for b in {c.bucket for c in cases}:
        mine = [c for c in cases if c.bucket == b]
        write_cases(task.root, b, list(task.cases.get(b, [])) + mine)
        n += len(mine)
    return n


def row_of(r: StrengthReport) -> StrengthRow:
    """The task's figures as the report and the audit show them."""
    p = r.programs
    note = r.error or ("no gold spec" if not r.gold else "")
    if p is not None and not p.program:
        note = "; ".join(x for x in (note, "no program to mutate") if x)
    return StrengthRow(task=r.task, spec=r.strength, spec_after=r.strength_after,
                       program=r.program_strength, program_after=r.program_strength_after,
                       spec_mutants=r.made, killed=r.killed, blind_spots=r.blind_spots,
                       closed=r.closed, equivalent=dict(r.equivalent), unknown=r.unknown,
                       invalid=r.invalid, program_mutants=p.made if p else 0,
                       wrong_programs=p.wrong if p else 0, note=note)


def benchmark_qa(reports: Sequence[StrengthReport], worst: int = 5) -> BenchmarkQA:
    """Per task the two strengths, and per measure the median, 10th percentile, mean and
    worst tasks."""
    return qa_of([row_of(r) for r in reports], worst)


def totals(reports: Sequence[StrengthReport]) -> dict[str, int]:
    """Mutant counts summed over the tasks (``equivalent_<how>`` for the equivalents)."""
    out = Counter[str]()
    for r in reports:
        out.update({"made": r.made, "invalid": r.invalid, "killed": r.killed,
                    "unknown": r.unknown, "survived": r.survived,
                    "blind_spots": r.blind_spots, "closed": r.closed,
                    "cases_added": r.cases_added})
        for k, n in r.equivalent.items():
            out[f"equivalent_{k}"] += n
        if r.programs is not None:
            out.update({"program_mutants": r.programs.made, "wrong_programs": r.programs.wrong,
                        "program_cases_added": r.programs.cases_added})
    return dict(out)


def read_strength(paths: Sequence[Path]) -> list[StrengthReport]:
    """The reports ``task strength --out`` wrote (the last one per task path wins); a line
    that is not a report is an ``InputError`` naming the file and line."""
    from pydantic import ValidationError

    from adequacy.errors import InputError
    latest: dict[str, StrengthReport] = {}
    for p in paths:
        try:
            text = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise InputError(f"cannot read: {e}", file=str(p)) from None
        for n, raw in enumerate(text.splitlines(), 1):
            if not raw.strip():
                continue
            try:
                r = StrengthReport.model_validate_json(raw)
            except (ValidationError, ValueError) as e:
                raise InputError(f"not a task strength report: {str(e).splitlines()[0]}",
                                 file=str(p), line=n) from None
            latest[r.path or r.task] = r
    return list(latest.values())
