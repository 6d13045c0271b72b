"""``adequacy optimize``: GEPA (``dspy.GEPA``) on a spec-writing program against adequacy.

Flow: split the tasks (seeded, stratified); take few-shot demonstrations only from training
tasks with a gold spec (and bundled examples), and leave those tasks out of GEPA's own
training set so no task is shown its own answer; run GEPA with a ``SpecMetric`` built on the
training tasks only, using them both as GEPA's reflection set and its Pareto set (validation
and test tasks are never scored inside the loop); then score the seed and the optimized program
on the validation split (to choose) and on the test split (to report).

Output folder: ``program.json`` (the optimized program, DSPy JSON), ``instructions.json`` (seed
and evolved instruction per predictor), ``table.md`` / ``scores.json`` (seed vs optimized on
val and test), ``candidates.jsonl`` (every GEPA candidate, its score, parents, Pareto
membership), ``calls.jsonl`` (every LM call: role, model, tokens, cost), ``results.jsonl`` (the report of
every spec scored on val and test, as ``adequacy report`` reads it: ``extra`` says the split and
whether the seed or the optimized program wrote it), ``splits.json``,
``gepa/`` (GEPA's own log: rerunning with the same folder resumes a killed run).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import dspy
from pydantic import BaseModel, field_validator

from adequacy.errors import AdequacyError
from adequacy.extensions.registry import registry
from adequacy.model.task import Task
from adequacy.model.thresholds import HARNESS_T
from adequacy.records.log import append_record, producer
from adequacy.scoring.keys import split_record_key
from adequacy.scoring.spec_report import Provenance, SpecReport

from .demos import default_pool, demos_from
from .evaluate import SplitScore, evaluate
from .lm import call_records, raise_if_failed, usage_of
from .metrics import SpecMetric, objective
from .objectives import Option
from .programs import SHOTS, SpecWriterProgram, task_inputs
from .splits import Splits, split_tasks


class OptimizeOptions(BaseModel):
    family: str = "zs"
    metric: str = "adequacy"
    """A registered objective (``adequacy``, ``vr``, ``verified_adequacy``, a plugin's)."""

    @field_validator("metric")
    @classmethod
    def _registered(cls, v: str) -> str:
        objective(v)  # names the registered objectives when v is none of them
        return v
    option: Option = "mean"
    harness_t: float = HARNESS_T
    auto: Literal["light", "medium", "heavy"] | None = "light"
    max_metric_calls: int | None = None
    """Overrides ``auto`` when set."""
    seed: int = 0
    proportions: tuple[float, float, float] = (100, 50, 512)
    max_cases: int = 3
    with_vr: bool = False
    """Also report VR (a prover run per spec: slow) in the seed-vs-optimized table."""
    num_threads: int = 1
    minibatch: int = 3
    allow_no_validation: bool = False
    """Run with an empty validation split (the table then says nothing was validated);
    otherwise an empty split is refused before any LM call."""


class OptimizeResult(BaseModel):
    out_dir: str
    splits: Splits
    seed_val: SplitScore | None
    optimized_val: SplitScore | None
    seed_test: SplitScore | None
    optimized_test: SplitScore | None
    chosen: Literal["seed", "optimized"]
    validated: bool = True
    """False when the validation split was empty: ``chosen`` is then GEPA's program unchecked."""
    tie: bool = False
    """Seed and optimized program scored the same on validation: the seed is kept (nothing
    shows the optimized one is better)."""
    candidates: int
    metric_calls: int | None
    seconds: float
    lm_seconds: float
    prompt_tokens: int
    completion_tokens: int
    cost: float


def instructions(program: dspy.Module) -> dict[str, str]:
    return {name: p.signature.instructions for name, p in program.named_predictors()}


def _examples(tasks: Sequence[Task]) -> list[dspy.Example]:
    return [dspy.Example(task_id=t.id, **task_inputs(t)).with_inputs(*task_inputs(t).keys())
            for t in tasks]


def _row(name: str, seed: SplitScore | None, opt: SplitScore | None) -> str:
    def f(s: SplitScore | None) -> str:
        if s is None:
            return "n/a"
        v = s.metrics.get(name) if name in registry().metrics else getattr(s, name)
        return "n/a" if v is None else f"{v:.3f}"
    return f"| {name} | {f(seed)} | {f(opt)} |"


def table(seed: SplitScore | None, opt: SplitScore | None, title: str) -> str:
    rows = ["adequacy", *registry().metrics, "harness_at_t", "vr", "invalid", "writer_failed"]
    n = seed.tasks if seed else 0
    t = seed.harness_t if seed else HARNESS_T
    head = [f"### {title} ({n} tasks; harness_at_t is the share with all four >= {t})", "",
            "| metric | seed | optimized |", "|---|---|---|"]
    return "\n".join(head + [_row(r, seed, opt) for r in rows]) + "\n"


def optimize(tasks: Sequence[Task], out_dir: Path, task_lm: Any, reflection_lm: Any,
             opts: OptimizeOptions) -> OptimizeResult:
    start = time.monotonic()
    langs = {t.language for t in tasks}
    if len(langs) != 1:
        raise AdequacyError(f"optimize one language at a time (got {', '.join(sorted(langs))})")
    language = langs.pop()
    by_id = {t.id: t for t in tasks}
    splits = split_tasks(tasks, opts.proportions, opts.seed)
    if not splits.val and not opts.allow_no_validation:
        raise AdequacyError(
            f"the validation split is empty ({len(tasks)} tasks, split "
            f"{'/'.join(f'{p:g}' for p in opts.proportions)}): the seed and the optimized "
            "program could not be compared; give more tasks or a larger validation share "
            "(--split), or pass --allow-no-validation")
    train = [by_id[i] for i in splits.train]
    k = SHOTS.get(opts.family, 0)
    demo_tasks: list[str] = []
    demos: list[dspy.Example] = []
    if k:
        held = set(splits.val) | set(splits.test)
        pool = [t for t in default_pool(language, train) if t.id not in held]
        demos = demos_from(pool, k=k)
        demo_tasks = [str(d.task_id) for d in demos]
    gepa_train = [t for t in train if t.id not in demo_tasks]
    if not gepa_train:
        raise AdequacyError(f"no training task left for GEPA (train split: {len(train)} tasks, "
                            f"{len(demo_tasks)} used as demonstrations); give more tasks or a "
                            "larger train proportion")
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "splits.json").write_text(json.dumps(
        {**splits.model_dump(), "demonstrations": demo_tasks}, indent=2))
    seed_prog = SpecWriterProgram(language, opts.family, demos)
    metric = SpecMetric(gepa_train, kind=opts.metric, option=opts.option,
                        harness_t=opts.harness_t, max_cases=opts.max_cases)
    budget: dict[str, Any] = ({"max_metric_calls": opts.max_metric_calls}
                              if opts.max_metric_calls else {"auto": opts.auto})
    gepa = dspy.GEPA(metric=metric, reflection_lm=reflection_lm, seed=opts.seed,
                     log_dir=str(out_dir / "gepa"), track_stats=True,
                     num_threads=opts.num_threads,
                     reflection_minibatch_size=opts.minibatch, **budget)
    examples = _examples(gepa_train)
    lm_time = _Timer(task_lm, reflection_lm)
    with dspy.context(lm=task_lm):
        optimized = gepa.compile(seed_prog, trainset=examples, valset=examples)
    raise_if_failed(task_lm, reflection_lm)  # in case a library swallowed LmUnavailable
    optimized.save(str(out_dir / "program.json"))
    (out_dir / "instructions.json").write_text(json.dumps(
        {"seed": instructions(seed_prog), "optimized": instructions(optimized)}, indent=2))
    n_cand, calls = _write_candidates(optimized, out_dir / "candidates.jsonl")

    eval_calls: list[dict[str, Any]] = []
    val = [by_id[i] for i in splits.val]
    test = [by_id[i] for i in splits.test]

    program_sha = hashlib.sha256((out_dir / "program.json").read_bytes()).hexdigest()

    def score(p: dspy.Module, ts: list[Task], split: str) -> SplitScore | None:
        if not ts:
            return None
        which = "seed" if p is seed_prog else "optimized"
        made_by = producer("optimize", Provenance(
            writer="dspy", model=getattr(task_lm, "model", None), family=opts.family,
            program=program_sha if which == "optimized" else None))

        def log(rep: SpecReport) -> None:
            # the seed and the optimized program may write the same text: two records
            keyed = rep.model_copy(update={"key": split_record_key(rep.key, which, split)})
            append_record(out_dir / "results.jsonl", keyed, made_by,
                          extra={"split": split, "program": which})

        return evaluate(p, ts, task_lm, opts.harness_t, opts.with_vr, calls=eval_calls,
                        on_report=log, num_threads=opts.num_threads)

    seed_val, opt_val = score(seed_prog, val, "val"), score(optimized, val, "val")
    chosen: Literal["seed", "optimized"] = "optimized"
    tie = bool(seed_val and opt_val and seed_val.adequacy == opt_val.adequacy)
    if seed_val and opt_val and seed_val.adequacy >= opt_val.adequacy:
        chosen = "seed"  # on a tie too: nothing shows the optimized program is better
    seed_test, opt_test = score(seed_prog, test, "test"), score(optimized, test, "test")
    raise_if_failed(task_lm, reflection_lm)
    validated = bool(val)
    if not validated:
        verdict = f"chosen without validation: {chosen} (the validation split is empty)"
    elif tie and seed_val is not None:
        verdict = (f"chosen on validation: seed (a tie: seed and optimized both "
                   f"{seed_val.adequacy:.3f}; the seed is kept: `synthesize` without "
                   "`--program` writes with it)")
    elif chosen == "seed":
        verdict = ("chosen on validation: seed (better than the optimized program: "
                   "`synthesize` without `--program` writes with it)")
    else:
        verdict = "chosen on validation: optimized (program.json)"
    (out_dir / "scores.json").write_text(json.dumps({
        k2: v.model_dump() if v else None for k2, v in
        {"seed_val": seed_val, "optimized_val": opt_val, "seed_test": seed_test,
         "optimized_test": opt_test}.items()}, indent=2))
    (out_dir / "table.md").write_text(
        table(seed_test, opt_test, "test split") + "\n" + table(seed_val, opt_val,
                                                                  "validation split")
        + f"\n{verdict}\n")
    records = lm_time.records() + [{"role": "evaluation", **r} for r in eval_calls]
    with (out_dir / "calls.jsonl").open("w") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
    u = usage_of([{"usage": {"prompt_tokens": r["prompt_tokens"],
                             "completion_tokens": r["completion_tokens"]}, "cost": r["cost"]}
                  for r in records])
    return OptimizeResult(out_dir=str(out_dir), splits=splits, seed_val=seed_val,
                          optimized_val=opt_val, seed_test=seed_test, optimized_test=opt_test,
                          chosen=chosen, validated=validated, tie=tie, candidates=n_cand,
                          metric_calls=calls,
                          seconds=time.monotonic() - start, lm_seconds=lm_time.seconds,
                          prompt_tokens=u.prompt_tokens, completion_tokens=u.completion_tokens,
                          cost=u.cost)


def _write_candidates(optimized: dspy.Module, path: Path) -> tuple[int, int | None]:
    res = getattr(optimized, "detailed_results", None)
    if res is None:
        path.write_text("")
        return 0, None
    front = {i for s in res.per_val_instance_best_candidates.values() for i in s}
    with path.open("w") as f:
        for i, cand in enumerate(res.candidates):
            f.write(json.dumps({"index": i, "score": res.val_aggregate_scores[i],
                                "parents": res.parents[i], "pareto": i in front,
                                "best": i == res.best_idx,
                                "discovered_after_metric_calls": res.discovery_eval_counts[i],
                                "instructions": instructions(cand)}) + "\n")
    return len(res.candidates), res.total_metric_calls


class _Timer:
    """Wall time spent inside the LMs (task and reflection), by wrapping their ``forward``
    through DSPy's callback hooks; and every call's record, tagged with its role."""

    def __init__(self, task_lm: Any, reflection_lm: Any) -> None:
        self.seconds = 0.0
        self.lms = {"task": task_lm, "reflection": reflection_lm}
        self._starts: dict[str, float] = {}
        from dspy.utils.callback import BaseCallback

        timer = self

        class _CB(BaseCallback):
            def on_lm_start(self, call_id: str, instance: Any, inputs: dict[str, Any]) -> None:
                timer._starts[call_id] = time.monotonic()

            def on_lm_end(self, call_id: str, outputs: Any, exception: Exception | None = None
                          ) -> None:
                t0 = timer._starts.pop(call_id, None)
                if t0 is not None:
                    timer.seconds += time.monotonic() - t0

        self.cb = _CB()
        for lm in self.lms.values():
            if lm is not None:
                lm.callbacks = [*getattr(lm, "callbacks", []), self.cb]

    def records(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for role, lm in self.lms.items():
            for r in call_records(lm):
                out.append({"role": role, **r})
        return out
