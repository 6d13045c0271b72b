"""Score specs: resolve engines, chain them, cache verdicts, cross-check (docs/design.md, "Engine chains").

``score_spec`` scores one (task, spec) pair in this process; ``adequacy.batch`` fans pairs out
over a process pool. Backends are reached only through the plugin manager.
"""

from __future__ import annotations

import time
import traceback
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adequacy.console import progress
from adequacy.errors import BackendError, EngineUnavailable, SpecInvalid
from adequacy.extensions import registry
from adequacy.extensions.backend import Backend, Engine, EngineInfo, Limits, LoadedSpec
from adequacy.model.task import Case, Task
from adequacy.model.verdicts import Bucket, InvalidSpec, Truth, Verdict
from adequacy.scoring import activity
from adequacy.scoring.cache import VerdictCache
from adequacy.scoring.keys import engine_fingerprint, job_key, spec_hash, verdict_key
from adequacy.scoring.options import ScoreOptions, score_options
from adequacy.scoring.spec_report import (
    SURVIVORS_SHOWN,
    EngineDisagreement,
    EngineRun,
    ProgramKills,
    SpecReport,
)


@dataclass(frozen=True)
class EngineRef:
    backend: Backend
    engine: Engine
    info: EngineInfo


def resolve_engines(
    language: str, backend: str | None = None, engines: Sequence[str] | None = None,
    all_available: bool = False,
) -> tuple[list[EngineRef], list[EngineRun]]:
    """The engine chain for a task language, and the engines left out with the reason.

    Without ``engines``: the default engines of the language's main backend (or of
    ``backend``) that are available; with ``all_available`` (cross-check): every available
    engine of every backend of the language. Asking by name for an engine that cannot run is
    an error, not a silent skip.
    """
    reg = registry.registry()
    # the registry's one rule (and its messages) for which backends serve the language
    owner = reg.backend_for(language, backend)
    cands = [owner] if backend is not None else reg.of_language(language)
    chain: list[EngineRef] = []
    skipped: list[EngineRun] = []
    if engines:
        for name in engines:
            match = [EngineRef(b, e, i) for b in cands for e, i in reg.engine_infos(b)
                     if i.name == name]
            if not match:
                known = sorted({i.name for b in cands for _, i in reg.engine_infos(b)})
                raise BackendError(f"no engine {name!r} for {language} tasks (known: "
                                   f"{', '.join(known)})")
            ref = match[0]
            if not ref.info.available:
                raise BackendError(f"engine {name!r} is unavailable: {ref.info.reason}")
            chain.append(ref)
        return chain, skipped
    pool = cands if all_available else [owner]
    for b in pool:
        for e, i in reg.engine_infos(b):
            if not i.available:
                skipped.append(EngineRun(name=i.name, backend=b.name, version=i.version,
                                         skipped=f"unavailable: {i.reason}"))
            elif all_available or i.default:
                chain.append(EngineRef(b, e, i))
    if not chain:
        raise BackendError(f"no available engine for {language} tasks: "
                           + "; ".join(f"{s.name}: {s.skipped}" for s in skipped))
    return chain, skipped


def _invalid(e: SpecInvalid, spec_path: str | None) -> InvalidSpec:
    return InvalidSpec(message=e.message, file=e.file or spec_path, line=e.line,
                       engine=getattr(e, "engine", None))


def _run_engine(
    ref: EngineRef, spec: LoadedSpec, task: Task, cases: list[Case], limits: Limits,
    cache: VerdictCache | None,
) -> tuple[list[Verdict], EngineRun]:
    """One engine on some cases, through the cache; verdicts in case order."""
    run = EngineRun(name=ref.info.name, version=ref.info.version, backend=ref.backend.name,
                    cases=len(cases))
    start = time.monotonic()
    keys = [verdict_key(ref.info.name, ref.info.version, spec.normalized, task, c)
            for c in cases]
    hits = cache.get_many(keys) if cache else {}
    todo = [c for c, k in zip(cases, keys, strict=True) if k not in hits]
    fresh: dict[str, Verdict] = {}
    able: list[Case] = []
    for c in todo:
        if c.bucket.predicate in ref.info.capabilities:
            able.append(c)
        else:
            fresh[c.key] = Verdict(case_id=c.id, bucket=c.bucket, value=Truth.unknown,
                                   engine=ref.info.name, reason=f"{ref.info.name} does not "
                                   f"evaluate {c.bucket.predicate}conditions")
    if able:
        activity.note(ref.info.name)
        with progress.engine_task(ref.info.name, len(able)):
            got = ref.engine.check(spec, task, able, limits)
        if len(got) != len(able):
            raise BackendError(f"engine {ref.info.name} returned {len(got)} verdicts for "
                               f"{len(able)} cases")
        for c, v in zip(able, got, strict=True):
            fresh[c.key] = v
    if cache and todo:
        cache.put_many([(k, fresh[c.key].value, fresh[c.key].reason, ref.info.name)
                        for c, k in zip(cases, keys, strict=True) if k not in hits])
    out: list[Verdict] = []
    for c, k in zip(cases, keys, strict=True):
        if k in hits:
            val, reason, _ = hits[k]
            out.append(Verdict(case_id=c.id, bucket=c.bucket, value=val, engine=ref.info.name,
                               reason=reason, cached=True))
            run.cached += 1
        else:
            out.append(fresh[c.key])
    run.decided = sum(1 for v in out if v.decided)
    run.seconds = time.monotonic() - start
    return out, run


def score_spec(
    task: Task, spec_text: str, spec_path: str | None = None,
    options: ScoreOptions | None = None, *, cache: VerdictCache | None = None,
    cases: Sequence[Case] | None = None, empty_by_design: Sequence[Bucket] = (),
    deadline: float | None = None, **changes: Any,
) -> SpecReport:
    """Score one spec on its task's cases (or on ``cases``, e.g. only the visible ones).

    ``empty_by_design``: buckets the caller leaves out on purpose (a check on the visible
    completeness cases has no sound cases), which then do not keep the spec from passing.

    Engines run as a chain: each later engine sees only the cases still unknown, and the first
    decisive verdict wins. With ``cross_check`` every engine sees every case, each pair of
    decided, differing verdicts is reported as a disagreement, and the final verdict comes from
    the most faithful engine that decided (``EngineInfo.fidelity``). Only the front end
    (``load_spec``) can make a spec invalid: an engine that fails to compile it leaves its cases
    unknown. Our own failures become ``status="error"`` and never raise.

    ``deadline`` (``time.monotonic()``): a caller's wall clock for the whole chain (a search's
    budget). Each engine gets at most the time left (its ``spec_seconds`` and
    ``case_seconds`` cut to it, compiles included), and an engine reached after the deadline
    does not run: the cases it would have seen stay unknown ("out of time"). Unknown verdicts
    are never cached, so a later run with more time decides them.

    ``options`` says how to score (engines, cross-check, strictness, limits); keyword
    ``changes`` (``engines=[...]``, ``strict=False``...) are fields of ``ScoreOptions`` applied
    on top, validated: an unknown name is a ``ValidationError``, never silently ignored.
    """
    opts = score_options(options, **changes)
    backend, engines, cross_check = opts.backend, opts.engines, opts.cross_check
    strict, limits = opts.strict, opts.limits
    start = time.monotonic()
    report = SpecReport(
        key=job_key(task, spec_text, opts),
        task_id=task.id,
        task_path=str(task.root), spec_path=spec_path,
        spec_sha=spec_hash(spec_text), language=task.language, status="scored",
        strict=strict, options=opts.recorded("all" if cases is None else "given"),
        empty_by_design=sorted({*empty_by_design,
                                *([Bucket.pre_sound] if task.every_input_valid else [])}),
    )
    todo_cases = list(cases) if cases is not None else task.all_cases()
    if not todo_cases:
        report.status, report.error = "error", (
            f"task {task.id} has no cases to score (add tests/*.jsonl files)")
        return report.finish()
    try:
        chain, skipped = resolve_engines(task.language, backend, engines,
                                         all_available=cross_check and not engines)
    except BackendError as e:
        report.status, report.error = "error", str(e)
        return report.finish()
    report.engines = list(skipped)
    loaded: dict[str, LoadedSpec] = {}
    # Rule 4: with every engine seeing every case, the most faithful engine that decided wins.
    rank = {ref.info.name: ref.info.fidelity for ref in chain}
    failed: set[str] = set()
    refused: dict[str, SpecInvalid] = {}
    final: dict[str, Verdict] = {}
    per_engine: dict[str, dict[str, Verdict]] = {}
    try:
        for ref in chain:
            pending = (todo_cases if cross_check else
                       [c for c in todo_cases if c.key not in final
                        or not final[c.key].decided])
            if ref.backend.name not in loaded:
                try:
                    loaded[ref.backend.name] = ref.backend.load_spec(task, spec_text, spec_path)
                except SpecInvalid as e:
                    if not loaded:
                        raise  # the language's front end rejected the spec
                    failed.add(ref.backend.name)
                    refused[ref.backend.name] = e
            if ref.backend.name in failed:
                # an add-on backend refused a spec the front end accepted: unknown, not invalid
                verdicts, run = _engine_failed(ref, pending, refused[ref.backend.name])
                report.engines.append(run)
                per_engine.setdefault(ref.info.name, {}).update(
                    {c.key: v for c, v in zip(pending, verdicts, strict=True)})
                for c, v in zip(pending, verdicts, strict=True):
                    final.setdefault(c.key, v)
                continue
            spec = loaded[ref.backend.name]
            if not pending:
                report.engines.append(EngineRun(name=ref.info.name, version=ref.info.version,
                                                backend=ref.backend.name,
                                                skipped="not needed: earlier engines decided"))
                continue
            lim = limits
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    verdicts = [Verdict(case_id=c.id, bucket=c.bucket, value=Truth.unknown,
                                        engine=ref.info.name, reason="out of time (the "
                                        "caller's deadline)") for c in pending]
                    run = EngineRun(name=ref.info.name, version=ref.info.version,
                                    backend=ref.backend.name, cases=len(pending),
                                    skipped="out of time: the caller's deadline passed")
                    report.engines.append(run)
                    per_engine.setdefault(ref.info.name, {}).update(
                        {c.key: v for c, v in zip(pending, verdicts, strict=True)})
                    for c, v in zip(pending, verdicts, strict=True):
                        final.setdefault(c.key, v)
                    continue
                lim = limits.model_copy(update={
                    "spec_seconds": min(limits.spec_seconds, left),
                    "case_seconds": min(limits.case_seconds, left)})
            try:
                verdicts, run = _run_engine(ref, spec, task, pending, lim, cache)
            except EngineUnavailable as e:
                report.engines.append(EngineRun(name=ref.info.name, backend=ref.backend.name,
                                                skipped=f"unavailable: {e}"))
                continue
            except SpecInvalid as e:
                # Rule 1: only the front end (load_spec above) may call a spec invalid; an
                # engine that cannot compile a spec the front end accepted decides nothing.
                verdicts, run = _engine_failed(ref, pending, e)
            report.engines.append(run)
            mine = per_engine.setdefault(ref.info.name, {})
            for c, v in zip(pending, verdicts, strict=True):
                k = c.key
                mine[k] = v
                prev = final.get(k)
                if prev is None or not prev.decided and v.decided or (
                        v.decided and rank[ref.info.name] > rank.get(prev.engine, 0)):
                    final[k] = v
                elif not prev.decided and not v.decided:
                    final[k] = v.model_copy(update={
                        "reason": f"{prev.engine}: {prev.reason}; {v.engine}: {v.reason}"})
    except SpecInvalid as e:
        report.status, report.invalid = "invalid", _invalid(e, spec_path)
        report.seconds = time.monotonic() - start
        return report.finish()
    except Exception as e:  # noqa: BLE001 - a backend bug must not crash a batch
        report.status = "error"
        report.error = f"{type(e).__name__}: {e}\n{traceback.format_exc(limit=6)}"
        report.seconds = time.monotonic() - start
        return report.finish()
    report.verdicts = [final[c.key] for c in todo_cases if c.key in final]
    scored = {v.bucket.value + "/" + v.case_id for v in report.verdicts}
    report.origins = dict(sorted(Counter(c.origin for c in todo_cases
                                         if c.key in scored).items()))
    report.program_mutants = program_kills(todo_cases, report.verdicts)
    if cross_check:
        report.disagreements = _disagreements(todo_cases, per_engine)
    report.seconds = time.monotonic() - start
    return report.finish()


def program_kills(cases: Sequence[Case], verdicts: Sequence[Verdict]) -> ProgramKills | None:
    """Which program mutants named by the scored post_sound cases the spec rejects on some
    input (a passed post_sound case: the spec rejects that mutant's wrong output)."""
    passed = {v.case_id: v.passed for v in verdicts if v.bucket == Bucket.post_sound}
    names: dict[str, bool] = {}
    for c in cases:
        if c.bucket != Bucket.post_sound or c.id not in passed:
            continue
        for lab in c.made_by:
            if not lab.startswith("spec "):
                names[lab] = names.get(lab, False) or passed[c.id]
    if not names:
        return None
    survivors = sorted(n for n, k in names.items() if not k)
    return ProgramKills(mutants=len(names), killed=len(names) - len(survivors),
                        survivors=survivors[:SURVIVORS_SHOWN])


def _engine_failed(ref: EngineRef, cases: list[Case], e: SpecInvalid
                   ) -> tuple[list[Verdict], EngineRun]:
    """Every case ``unknown``, the reason pointing at the spec's own line."""
    where = f" (spec line {e.line})" if e.line else ""
    first = e.message.strip().splitlines()[0] if e.message.strip() else "compile failure"
    reason = f"outside {ref.info.name}'s fragment: {first[:300]}{where}"
    run = EngineRun(name=ref.info.name, version=ref.info.version, backend=ref.backend.name,
                    cases=len(cases))
    return [Verdict(case_id=c.id, bucket=c.bucket, value=Truth.unknown, engine=ref.info.name,
                    reason=reason) for c in cases], run


def _disagreements(cases: Sequence[Case], per_engine: dict[str, dict[str, Verdict]]
                   ) -> list[EngineDisagreement]:
    out: list[EngineDisagreement] = []
    for c in cases:
        k = c.key
        decided = {e: vs[k] for e, vs in per_engine.items() if k in vs and vs[k].decided}
        if len({v.value for v in decided.values()}) > 1:
            out.append(EngineDisagreement(case_id=c.id, bucket=c.bucket,
                                    values={e: v.value for e, v in decided.items()},
                                    reasons={e: v.reason for e, v in decided.items()}))
    return out


def read_spec(path: str | Path) -> str:
    return Path(path).read_text(encoding="utf-8")


__all__ = ["EngineRef", "ScoreOptions", "Truth", "engine_fingerprint", "job_key", "read_spec",
           "resolve_engines", "score_spec"]
