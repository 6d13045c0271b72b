"""Benchmark audit: every case of a task checked against every other witness the task has.

A benchmark's cases are themselves claims (this input is valid, this output is right, this
one wrong), and a wrong claim turns the score of a faithful spec into a failure. The audit
puts each case before the task's gold spec(s), its reference, its checker, its validator and
its ``[constraints]``, and lists every contradiction with the case as witness. It proves
nothing about cases no witness speaks to: a task with no reference and no gold spec is audited
only for the contradictions between its own buckets.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from adequacy.errors import AdequacyError
from adequacy.extensions.backend import OVERFLOW_REASON
from adequacy.model.task import Case, Task
from adequacy.model.verdicts import Bucket
from adequacy.records.html._qa import StrengthRow
from adequacy.scoring.cache import VerdictCache
from adequacy.scoring.options import ScoreOptions
from adequacy.search.oracles import OracleJudge
from adequacy_mutators import params_key

__all__ = ["AuditReport", "Finding", "audit_task", "gold_specs"]


class Finding(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: str
    """What contradicts what (``gold spec fails a case``, ``checker rejects a recorded right
    output``...): the keys of the summary."""
    case: str
    """``bucket/id`` of the witness case (or the spec file, for a gold spec that does not load)."""
    detail: str = ""


class AuditReport(BaseModel):
    model_config = ConfigDict(extra="forbid")

    task: str
    path: str
    cases: int
    witnesses: list[str] = []
    """What the cases were checked against (``gold: specs/gold.rs``, ``reference``...)."""
    gold_undecided: dict[str, int] = {}
    """Gold spec -> cases it left unknown (not a finding: an engine's limit, not a wrong case)."""
    findings: list[Finding] = []
    error: str | None = None
    strength: StrengthRow | None = None
    """The task's spec-mutant and program-mutant strength (``task audit --strength FILE``,
    from ``task strength --out FILE``); None when not given."""


def gold_specs(task: Task, gold_dirs: list[Path]) -> list[Path]:
    """The task's ``specs/gold*.<ext>`` and ``<dir>/<task id>.<ext>`` of each gold folder."""
    from adequacy.extensions.registry import registry
    ext = registry().backend_for(task.language).writer_texts().spec_ext
    found = sorted((task.root / "specs").glob(f"gold*.{ext}"))
    found += [d / f"{task.id}.{ext}" for d in gold_dirs if (d / f"{task.id}.{ext}").is_file()]
    return found


def _gold(task: Task, path: Path, options: ScoreOptions, cache: VerdictCache | None,
          rep: AuditReport) -> None:
    from adequacy.model.textfiles import read_spec
    from adequacy.scoring.runner import score_spec
    text = read_spec(path)
    r = score_spec(task, text, str(path), options, cache=cache)
    if r.status == "invalid" and r.invalid is not None:
        rep.findings.append(Finding(kind="gold spec is invalid", case=str(path),
                                    detail=f"line {r.invalid.line}: {r.invalid.message}"))
        return
    if r.status != "scored":
        raise AdequacyError(f"{path}: {(r.error or 'scoring failed').splitlines()[0]}")
    by_key = {(v.bucket, v.case_id): v for v in r.verdicts}
    undecided = 0
    for c in task.all_cases():
        v = by_key.get((c.bucket, c.id))
        if v is None or not v.decided:
            undecided += 1
        elif not v.passed:
            rep.findings.append(Finding(
                kind="gold spec fails a case", case=c.key,
                detail=f"{path.name}: {c.bucket.predicate} is {v.value.value} ({v.reason}); "
                       f"{_show(c)}"))
    if undecided:
        rep.gold_undecided[path.name] = undecided


def _show(c: Case) -> str:
    import json
    s = f"input {json.dumps(c.input, ensure_ascii=False)}"
    if c.output is not None:
        s += f", output {json.dumps(c.output, ensure_ascii=False)}"
    return s if len(s) <= 300 else s[:297] + "..."


def _oracles(task: Task, rep: AuditReport, reference: bool) -> None:
    o = OracleJudge(task, reference=reference)
    rep.witnesses += [w for w in o.describe.split(", ") if w != "no oracle"]
    valid_buckets = (Bucket.pre_complete, Bucket.post_complete)
    cases = task.all_cases()
    valid_in = [c for c in cases if c.bucket in valid_buckets]
    invalid_in = [c for c in cases if c.bucket == Bucket.pre_sound]
    ik = {params_key(c.input, task.inputs): c for c in valid_in}
    for c in invalid_in:
        hit = ik.get(params_key(c.input, task.inputs))
        if hit is not None:
            rep.findings.append(Finding(kind="input both valid and invalid", case=c.key,
                                        detail=f"same input as {hit.key}; {_show(c)}"))
    if o.validator is not None:
        for c, j in zip(valid_in + invalid_in,
                        o.validator.judge_inputs([c.input for c in valid_in + invalid_in]),
                        strict=True):
            if j.wrong is None:
                continue
            if c.bucket in valid_buckets and j.wrong:
                rep.findings.append(Finding(kind="validator rejects a valid-bucket input",
                                            case=c.key, detail=_show(c)))
            elif c.bucket == Bucket.pre_sound and not j.wrong:
                rep.findings.append(Finding(kind="validator accepts a pre_sound input",
                                            case=c.key, detail=_show(c)))
    if o.constraints is not None:
        for c, j in zip(valid_in, o.constraints.judge_inputs([c.input for c in valid_in]),
                        strict=True):
            if j.wrong:
                rep.findings.append(Finding(kind="valid-bucket input breaks [constraints]",
                                            case=c.key, detail=f"{j.reason}; {_show(c)}"))
    posts = [c for c in cases if c.bucket.predicate == "post" and c.output is not None]
    right = [c for c in posts if c.bucket == Bucket.post_complete]
    if o.checker is not None and posts:
        for c, j in zip(posts, o.checker.judge_outputs([(c.input, c.output or {})
                                                        for c in posts]), strict=True):
            if j.wrong is None:
                continue
            if c.bucket == Bucket.post_complete and j.wrong:
                rep.findings.append(Finding(kind="checker rejects a recorded right output",
                                            case=c.key, detail=_show(c)))
            elif c.bucket == Bucket.post_sound and not j.wrong:
                rep.findings.append(Finding(kind="checker accepts a recorded wrong output",
                                            case=c.key, detail=_show(c)))
    if not o.has_reference or not (valid_in or posts):
        return
    uniq: dict[str, Case] = {}
    for c in valid_in + posts:
        uniq.setdefault(params_key(c.input, task.inputs), c)
    refs = dict(zip(uniq, o.reference([c.input for c in uniq.values()]), strict=True))
    # an input the task's validator states valid may overflow: its code may wrap on purpose
    over = [k for k, r in refs.items() if isinstance(r, str) and OVERFLOW_REASON in r]
    stated = {k for k, j in zip(over, o.validator.judge_inputs([uniq[k].input for k in over]),
                                strict=True) if j.wrong is False} \
        if o.validator is not None and over else set()
    for k, c in uniq.items():
        r = refs[k]
        if k in stated:
            continue
        if isinstance(r, str) and c.bucket in valid_buckets and r != "no reference" \
                and "unavailable" not in r:
            # an overflow (JML: safe math for code) means the recorded output, if any, is a
            # wrapped value and the input is outside the code's domain
            kind = "reference overflows on a valid-bucket input" if OVERFLOW_REASON in r \
                else "reference fails on a valid-bucket input"
            rep.findings.append(Finding(kind=kind, case=c.key, detail=f"{r}; {_show(c)}"))
    if o.checker is not None:
        ok = [(uniq[k], r) for k, r in refs.items() if isinstance(r, dict)
              and uniq[k].bucket in valid_buckets]
        for (c, r), j in zip(ok, o.checker.judge_outputs([(c.input, r) for c, r in ok]),
                             strict=True):
            if j.wrong:
                rep.findings.append(Finding(
                    kind="checker rejects the reference output", case=c.key,
                    detail=f"reference output {r}; {_show(c)}"))
    if not o.cons.unique_output:
        return
    for c in posts:
        got = refs.get(params_key(c.input, task.inputs))
        if not isinstance(got, dict):
            continue
        r = got
        same = params_key(r, task.outputs) == params_key(c.output or {}, task.outputs)
        if c in right and not same:
            rep.findings.append(Finding(kind="reference differs from a recorded right output",
                                        case=c.key, detail=f"reference gives {r}; {_show(c)}"))
        elif c.bucket == Bucket.post_sound and same:
            rep.findings.append(Finding(kind="reference gives a recorded wrong output",
                                        case=c.key, detail=_show(c)))


def audit_task(task: Task, gold_dirs: list[Path], options: ScoreOptions, *,
               cache: VerdictCache | None = None, reference: bool = True) -> AuditReport:
    """Every finding of one task; a failure of ours is ``error`` (the audit goes on)."""
    rep = AuditReport(task=task.id, path=str(task.root), cases=len(task.all_cases()))
    try:
        golds = gold_specs(task, gold_dirs)
        rep.witnesses += [f"gold: {g}" for g in golds]
        for g in golds:
            _gold(task, g, options, cache, rep)
        _oracles(task, rep, reference)
    except AdequacyError as e:
        rep.error = str(e).splitlines()[0]
    return rep


def summary(reports: list[AuditReport]) -> dict[str, Any]:
    """Findings per kind and the tasks they fall in (what the docs' table prints)."""
    kinds: Counter[str] = Counter()
    tasks: dict[str, set[str]] = {}
    for r in reports:
        for f in r.findings:
            kinds[f.kind] += 1
            tasks.setdefault(f.kind, set()).add(r.task)
    return {"tasks": len(reports), "with_findings": sum(1 for r in reports if r.findings),
            "errors": sum(1 for r in reports if r.error),
            "kinds": {k: {"findings": n, "tasks": len(tasks[k])}
                      for k, n in kinds.most_common()}}
