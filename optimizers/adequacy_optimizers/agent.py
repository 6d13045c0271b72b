"""A spec-writing agent: DSPy ReAct over the gym's tools (check, verify where a prover exists, submit).

Each rollout works in a fresh gym folder (so ``submit`` is once per rollout, as for any agent),
with a step budget; ``harness=False`` removes ``check`` for the with/without-harness ablation
of Spec-Harness. The record of a rollout is a ``GymRecord`` (a SpecReport without per-case
detail) plus the trajectory: each step's thought, tool call, tool result (visible feedback and
the aggregate grade only) and the LM's tokens and cost for that step.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import dspy
from pydantic import BaseModel, ConfigDict, Field

from adequacy.errors import AdequacyError
from adequacy.extensions.component import Component, ParamValue, distribution_of
from adequacy.gym.make import make_gym
from adequacy.gym.manifest import read_manifest
from adequacy.gym.session import GymRecord
from adequacy.gym.tools import GymTools
from adequacy.model.metrics import HARNESS_T, summarize
from adequacy.records.log import append_record, producer, read_results
from adequacy.scoring import verification
from adequacy.scoring.spec_report import Provenance

from .lm import LmSettings, make_lm, raise_if_failed

TASK_FILES = ("INSTRUCTIONS.md", "statement.md", "{spec}", "visible_cases.jsonl",
              "LANGUAGE_NOTES.md", "example/statement.md", "example/{spec}",
              "example/visible_cases.jsonl")


class AgentOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    lm: str
    """litellm model string."""
    api_base: str | None = None
    api_key: str | None = Field(default=None, repr=False, exclude=True)
    """Never written anywhere (excluded from dumps)."""
    steps: int = 10
    """Step budget: the most tool calls (ReAct iterations) per rollout."""
    harness: bool = True
    """Offer the check tool (visible-case feedback)."""
    threshold: float = HARNESS_T
    rollouts: int = 1
    visible: int = 3
    seed: int = 0
    temperature: float = 0.7
    max_tokens: int = 4000
    tries: int = 3
    """Attempts per LM call in all (see ``lm.GuardedLM``)."""
    retry_wait: float = 1.0


class AgentStep(BaseModel):
    model_config = ConfigDict(extra="forbid")

    index: int
    thought: str
    tool: str
    args: dict[str, Any]
    observation: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = 0.0
    """US dollars; 0 for models litellm has no price for (None only in old records)."""


class AgentRollout(GymRecord):
    """One rollout: the grade of what was submitted plus how the agent got there."""

    model_config = ConfigDict(extra="forbid")

    agent_model: str = ""
    harness: bool = True
    step_budget: int = 0
    rollout: int = 0
    trajectory: list[AgentStep] = []
    submitted_by: str = ""
    """``agent`` (it called submit) or ``final answer`` (its last answer was submitted for it)."""
    agent_error: str = ""
    """Why the agent stopped early (unparseable answers, a refused request); then the skeleton
    or its last answer was graded and this says so. An unreachable LM stops the whole run."""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = 0.0
    """US dollars; 0 for models litellm has no price for (None only in old records)."""


class WriteSpec(dspy.Signature):
    """You write a formal specification for a function, in the language the task files name
    (INSTRUCTIONS.md says which), that says exactly what the statement says: a precondition accepting all
    valid inputs and no invalid one, a postcondition accepting every correct output and no
    wrong one. Read the task files, write the whole spec file, use the tools to test it, and
    submit it once when you are confident; then finish."""

    task_files: str = dspy.InputField(desc="the task folder's files, each under a ==== header")
    spec: str = dspy.OutputField(desc="the complete spec file you submitted (or would submit)")


def task_files_text(folder: Path, harness: bool) -> str:
    m = read_manifest(folder)
    parts = []
    if not harness:
        parts.append("NOTE: the check tool is not available in this run; mentions of it in "
                     "the instructions do not apply.")
    for name in TASK_FILES:
        p = folder / name.format(spec=m.spec_file)
        if p.is_file():
            parts.append(f"==== {p.relative_to(folder)}\n{p.read_text(encoding='utf-8')}")
    return "\n\n".join(parts)


def _tools(gym: GymTools, task_id: str, language: str, harness: bool,
           state: dict[str, Any]) -> list[Any]:
    def check(spec: str) -> str:
        """Score a spec on the task's visible cases. spec: the complete spec file's text.
        Returns each case with the value your pre/postcondition gave and the value it must
        give, the engine's reason for failures, or the line of a syntax/type error."""
        return gym.check(task_id, spec)

    def verify(spec: str) -> str:
        """Prove with the language's verifier that the method body satisfies your contract.
        spec: the complete spec file. Says nothing about whether the contract is strong
        enough."""
        return gym.verify(task_id, spec)

    def submit(spec: str) -> str:
        """Submit your final spec (the complete file) for grading on all cases, most of them
        hidden. Only once: after submitting, call finish."""
        if state.get("submitted"):
            return "already submitted: call finish"
        res = gym.submit(task_id, spec)
        if not res.startswith("error"):
            state["submitted"] = True
            state["spec"] = spec
        return res

    tools: list[Any] = [check] if harness else []
    if verification.provers(language):
        tools.append(verify)
    tools.append(submit)
    return tools


def _usage(entry: dict[str, Any]) -> tuple[int, int, float]:
    u = entry.get("usage") or {}
    cost = entry.get("cost")
    return (int(u.get("prompt_tokens") or 0), int(u.get("completion_tokens") or 0),
            float(cost) if isinstance(cost, int | float) else 0.0)


def _steps(trajectory: dict[str, Any], history: list[dict[str, Any]]) -> list[AgentStep]:
    out = []
    i = 0
    while f"thought_{i}" in trajectory:
        pt, ct, cost = _usage(history[i]) if i < len(history) else (0, 0, 0.0)
        args = trajectory.get(f"tool_args_{i}")
        out.append(AgentStep(index=i, thought=str(trajectory[f"thought_{i}"]),
                             tool=str(trajectory.get(f"tool_name_{i}", "")),
                             args=args if isinstance(args, dict) else {"raw": str(args)},
                             observation=str(trajectory.get(f"observation_{i}", "")),
                             prompt_tokens=pt, completion_tokens=ct, cost=cost))
        i += 1
    return out


def agent_lm(opts: AgentOptions) -> Any:
    """The agent's LM; uncached, so that rollouts of one task are distinct samples."""
    return make_lm(LmSettings(model=opts.lm, api_base=opts.api_base, api_key=opts.api_key,
                              temperature=opts.temperature, max_tokens=opts.max_tokens,
                              cache=False, tries=opts.tries, retry_wait=opts.retry_wait))


def run_rollout(folder: Path, opts: AgentOptions, lm: Any, rollout: int = 0) -> AgentRollout:
    """One agent run in one gym folder; never raises for the agent's mistakes."""
    m = read_manifest(folder)
    gym = GymTools(folder)
    state: dict[str, Any] = {}
    agent = dspy.ReAct(WriteSpec, tools=_tools(gym, m.task_id, m.language, opts.harness, state),
                       max_iters=opts.steps)
    start = len(getattr(lm, "history", []))
    trajectory: dict[str, Any] = {}
    final = ""
    error = ""
    try:
        with dspy.context(lm=lm):
            pred = agent(task_files=task_files_text(folder, opts.harness))
        trajectory = dict(pred.trajectory)
        final = str(getattr(pred, "spec", "") or "")
    except Exception as e:  # noqa: BLE001 - an unreadable answer ends this rollout only
        # (an LM that cannot answer raises LmUnavailable, not an Exception: it stops the run
        # instead of grading the skeleton as the agent's work)
        error = f"{type(e).__name__}: {str(e)[:500]}"
    raise_if_failed(lm)  # never grade the skeleton for an LM that could not answer
    history = list(getattr(lm, "history", []))[start:]
    by = "agent"
    if not state.get("submitted"):
        by = "final answer"
        text = final.strip() or (folder / m.spec_file).read_text(encoding="utf-8")
        gym.submit(m.task_id, text)
    rec = gym.last_grade
    if rec is None:
        raise AdequacyError(f"{m.task_id}: the submission could not be graded")
    steps = _steps(trajectory, history)
    usage = [_usage(h) for h in history]
    return AgentRollout.model_validate({
        **rec.model_dump(), "agent_model": opts.lm, "harness": opts.harness,
        "step_budget": opts.steps, "rollout": rollout, "trajectory": steps, "submitted_by": by,
        "agent_error": error,
        "prompt_tokens": sum(p for p, _, _ in usage),
        "completion_tokens": sum(c for _, c, _ in usage),
        "cost": sum(c for _, _, c in usage)})


def run_agent(tasks: Sequence[Path], output: Path, opts: AgentOptions,
              workdir: Path | None = None, lm: Any = None) -> list[AgentRollout]:
    """Every task, ``opts.rollouts`` times, each in a fresh gym folder; records appended to
    ``output`` as they finish."""
    if opts.steps < 1 or opts.rollouts < 1:
        raise AdequacyError("--steps and --rollouts must be at least 1")
    lm = lm or agent_lm(opts)
    tmp = None
    if workdir is None:
        tmp = tempfile.TemporaryDirectory(prefix="adequacy-agent-")
        workdir = Path(tmp.name)
    recs: list[AgentRollout] = []
    try:
        for k in range(opts.rollouts):
            out = workdir / f"rollout-{k}"
            made = make_gym(tasks, out, visible=opts.visible, seed=opts.seed, force=True)
            for f in made:
                rec = run_rollout(Path(f.folder), opts, lm, rollout=k)
                recs.append(rec)
                append_record(output, rec, producer("agent", _provenance(opts, k)))
    finally:
        if tmp is not None:
            tmp.cleanup()
    return recs


def _provenance(opts: AgentOptions, rollout: int) -> Provenance:
    """The agent as a rollout's record names it: its model and what shaped its spec; each
    rollout is a sample."""
    dist = distribution_of(__name__)
    params: dict[str, ParamValue] = {
        k: getattr(opts, k) for k in ("lm", "steps", "harness", "threshold", "visible", "seed",
                                      "temperature", "max_tokens")}
    return Provenance(writer="agent", model=opts.lm, sample=rollout, made_by=Component(
        kind="agent", name="react", params=params, distribution=dist[0] if dist else None,
        version=dist[1] if dist else None))


def read_rollouts(path: Path) -> list[AgentRollout]:
    """The rollouts of a results file (through the shared reader: any schema it reads)."""
    return [AgentRollout.model_validate({**r.record.report.model_dump(), **r.record.extra})
            for r in read_results(path)]


def summary_text(recs: Sequence[GymRecord], threshold: float = HARNESS_T) -> str:
    """Pass@1, pass@k over repeated rollouts, bucket means, Harness@t and PostHarness@t."""
    summ = summarize([(r.task_id, r.passed_all, r.buckets if r.status == "scored" else None)
                      for r in recs])  # every rollout is a sample of the agent
    harness = [r.metrics.harness_at(threshold) for r in recs if r.metrics]
    post = [r.metrics.post_harness_at(threshold) for r in recs if r.metrics]

    def frac(xs: list[bool | None]) -> str:
        d = [x for x in xs if x is not None]
        return f"{sum(d) / len(d):.3f}" if d else "N/A"

    lines = [f"rollouts {summ.specs}, tasks {summ.tasks}, invalid {summ.invalid}, "
             f"Pass@1 {summ.pass_at_1 if summ.pass_at_1 is None else f'{summ.pass_at_1:.3f}'}",
             f"Harness@{threshold:g} {frac(harness)}  PostHarness@{threshold:g} {frac(post)}"]
    if summ.pass_at_k:
        lines.append("pass@k " + ", ".join(f"k={k}: {v:.3f}" for k, v in summ.pass_at_k.items())
                     + f" ({summ.grouped()})")
    lines.append("bucket means " + json.dumps({b: None if v is None else round(v, 3)
                                               for b, v in summ.bucket_means.items()}))
    return "\n".join(lines)
