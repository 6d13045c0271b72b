"""``adequacy import harbor-job``: a Harbor job folder into our results log.

A job folder holds one folder per trial (``result.json``: Harbor's ``TrialResult``;
``config.json``; ``agent/`` with the agent's logs and ATIF ``trajectory.json``; ``verifier/``
with what the task's grader wrote; ``artifacts/``). Each trial becomes one record whose
``report`` is a ``SpecReport``, so ``report``, ``compare`` (paired by task), intervals and
pass@k read Harbor runs like any other results file:

- a trial of a task ``adequacy export harbor`` wrote carries our grader's full report
  (``verifier/adequacy-report.json``), checked against the rewards Harbor recorded;
- a trial of a Verus-SpecGym task carries their per-bucket counts
  (``adequacy.ecosystem.specgym_results``);
- a trial with neither (the agent crashed, the verifier never ran) is an ``error`` record
  saying why, so it counts as not passed instead of vanishing.

The records are written unsealed: their grades were computed in containers (or by another
benchmark's grader), not by this installation's grader, so ``report`` and ``compare`` read them
as not verified (docs/report.md, "Records are sealed"). Provenance goes to the record:
``producer.writer`` is the agent, ``producer.model`` its model, ``producer.sample`` the
attempt (from 0: pass@k groups a writer's samples), ``producer.command`` ``harbor``; ``extra.harbor`` holds the job, trial, attempt (the trial's
rank among trials of the same task, agent and model, by start time), rewards, exception,
tokens, cost and the trajectory's path and step count; ``extra.cost`` the trial's cost in US
dollars, where Harbor recorded one. Harbor's models are not imported (they need Python 3.12):
``result.json`` is read as the JSON its ``TrialResult`` writes, and every field is checked.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from adequacy.ecosystem import specgym_results
from adequacy.ecosystem.harbor_verifier import REPORT, REWARD, rewards
from adequacy.errors import InputError, validation_message
from adequacy.model.metrics import harness_metrics, passed_all
from adequacy.model.values import content_hash
from adequacy.model.verdicts import InvalidSpec
from adequacy.records.log import Producer, append_record, producer, read_results, repair_tail
from adequacy.scoring.spec_report import SpecReport

MAX_JSON_BYTES = 64 << 20


class TrialImport(BaseModel):
    """What one trial became."""

    model_config = ConfigDict(extra="forbid")

    trial: str
    task_id: str = ""
    status: str = ""
    """The record's status (``scored``, ``invalid``, ``error``), or ``unreadable``: no record."""
    source: str = ""
    """Where the grade came from: ``adequacy``, a Verus-SpecGym file, or none."""
    reason: str = ""
    written: bool = False


class JobImport(BaseModel):
    model_config = ConfigDict(extra="forbid")

    job: str
    results: str
    trials: list[TrialImport] = []

    @property
    def written(self) -> int:
        return sum(1 for t in self.trials if t.written)

    @property
    def unreadable(self) -> list[TrialImport]:
        return [t for t in self.trials if t.status == "unreadable"]

    def summary(self) -> str:
        by: dict[str, int] = defaultdict(int)
        for t in self.trials:
            by[t.status] += 1
        parts = ", ".join(f"{k} {v}" for k, v in sorted(by.items()))
        already = sum(1 for t in self.trials if t.status != "unreadable" and not t.written)
        return (f"{len(self.trials)} trials from {self.job}: {parts}; {self.written} records "
                f"written to {self.results}" + (f", {already} already there" if already else ""))


def _json(path: Path) -> Any:
    try:
        if path.stat().st_size > MAX_JSON_BYTES:
            raise InputError(f"larger than {MAX_JSON_BYTES >> 20} MiB", file=str(path))
        return json.loads(path.read_bytes().decode("utf-8-sig"))
    except OSError as e:
        raise InputError(f"cannot read: {e.strerror or e}", file=str(path)) from None
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text", file=str(path)) from None
    except json.JSONDecodeError as e:
        raise InputError(f"not JSON: {e.msg}", file=str(path), line=e.lineno) from None
    except RecursionError:
        raise InputError("JSON nested too deeply", file=str(path)) from None


def _field(d: Any, path: str, kind: type | tuple[type, ...], where: Path,
           required: bool = False) -> Any:
    """``d[a][b]...`` for ``path`` "a.b", checked to be of ``kind`` (None when absent and
    not required)."""
    cur = d
    for part in path.split("."):
        if not isinstance(cur, dict) or cur.get(part) is None:
            if required:
                raise InputError(f"{path}: missing", file=str(where))
            return None
        cur = cur[part]
    if isinstance(cur, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise InputError(f"{path}: expected {kind}, got {cur!r}", file=str(where))
    if not isinstance(cur, kind):
        raise InputError(f"{path}: expected {getattr(kind, '__name__', kind)}, got "
                         f"{type(cur).__name__}", file=str(where))
    return cur


def is_trial(p: Path) -> bool:
    return (p / "result.json").is_file() and (p / "config.json").is_file()


def trial_dirs(job: Path) -> list[Path]:
    """The trials of a job folder (or the folder itself when it is one trial)."""
    if not job.is_dir():
        raise InputError("not a folder (expected a Harbor job folder)", file=str(job))
    # a job folder has result.json and config.json too: its trials are what tells them apart
    found = sorted(d for d in job.iterdir()
                   if d.is_dir() and not d.is_symlink() and is_trial(d))
    if not found and is_trial(job):
        return [job]
    if not found:
        raise InputError("no trial folder in it (a trial folder holds result.json and "
                         "config.json)", file=str(job))
    return found


class _Trial(BaseModel):
    """The parts of a ``TrialResult`` a record needs."""

    model_config = ConfigDict(extra="forbid")

    folder: Path
    trial_name: str
    trial_id: str
    task_name: str
    source: str | None
    agent: str
    agent_version: str
    model: str | None
    started_at: str | None
    finished_at: str | None
    rewards: dict[str, float] | None
    exception_type: str | None
    exception_message: str | None
    n_input_tokens: int | None
    n_cache_tokens: int | None
    n_output_tokens: int | None
    cost_usd: float | None
    job_id: str | None

    @property
    def task_id(self) -> str:
        return self.task_name.split("/")[-1]


def read_trial_result(folder: Path) -> _Trial:
    path = folder / "result.json"
    d = _json(path)
    if not isinstance(d, dict):
        raise InputError("expected a JSON object (Harbor's TrialResult)", file=str(path))
    f = lambda p, k, req=False: _field(d, p, k, path, req)  # noqa: E731
    raw = f("verifier_result.rewards", dict)
    rew: dict[str, float] | None = None
    if raw is not None:
        rew = {}
        for k, v in raw.items():
            if isinstance(v, bool) or not isinstance(v, int | float):
                raise InputError(f"verifier_result.rewards.{k}: expected a number, got {v!r}",
                                 file=str(path))
            rew[str(k)] = float(v)
    name = f("agent_info.model_info.name", str)
    provider = f("agent_info.model_info.provider", str)
    model = (f"{provider}/{name}" if provider and name and not name.startswith(provider + "/")
             else name) or f("config.agent.model_name", str)
    message = f("exception_info.exception_message", str)
    return _Trial(
        folder=folder, trial_name=f("trial_name", str, True), trial_id=str(f("id", str) or ""),
        task_name=f("task_name", str, True), source=f("source", str),
        agent=f("agent_info.name", str, True), agent_version=f("agent_info.version", str) or "",
        model=model, started_at=f("started_at", str), finished_at=f("finished_at", str),
        rewards=rew, exception_type=f("exception_info.exception_type", str),
        exception_message=message.splitlines()[0][:500] if message else None,
        n_input_tokens=f("agent_result.n_input_tokens", int),
        n_cache_tokens=f("agent_result.n_cache_tokens", int),
        n_output_tokens=f("agent_result.n_output_tokens", int),
        cost_usd=f("agent_result.cost_usd", (int, float)),
        job_id=f("config.job_id", str))


def _trajectory(folder: Path) -> dict[str, Any]:
    path = folder / "agent" / "trajectory.json"
    if not path.is_file():
        return {}
    out: dict[str, Any] = {"trajectory": str(path)}
    try:
        t = _json(path)
    except InputError as e:
        out["trajectory_error"] = e.message
        return out
    steps = t.get("steps") if isinstance(t, dict) else None
    if isinstance(steps, list):
        out["trajectory_steps"] = len(steps)
    fm = t.get("final_metrics") if isinstance(t, dict) else None
    if isinstance(fm, dict):
        for k in ("total_prompt_tokens", "total_completion_tokens", "total_cached_tokens",
                  "total_cost_usd"):
            if isinstance(fm.get(k), int | float) and not isinstance(fm.get(k), bool):
                out[k] = fm[k]
    return out


def _key(job: str, t: _Trial) -> str:
    return "harbor:" + content_hash("harbor-trial", job, t.trial_name, t.trial_id)


def _spec_artifact(t: _Trial, rep: SpecReport) -> str | None:
    """The agent's spec as Harbor collected it (``artifacts/<container path>``), when its text
    is the one graded: report pages can then show it."""
    from adequacy.scoring.keys import spec_hash

    if not rep.spec_path or not rep.spec_path.startswith("/") or \
            ".." in rep.spec_path.split("/"):
        return None
    artifacts = (t.folder / "artifacts").resolve()
    host = artifacts / rep.spec_path.lstrip("/")
    try:
        if not host.resolve().is_relative_to(artifacts):
            return None
        if host.is_file() and not host.is_symlink() and host.stat().st_size <= 1 << 20 and \
                spec_hash(host.read_bytes().decode("utf-8-sig")) == rep.spec_sha:
            return str(host)
    except (OSError, UnicodeDecodeError):
        return None
    return None


def _ours(t: _Trial, key: str) -> tuple[SpecReport, dict[str, Any]]:
    """Our grader's report of the trial, checked against the rewards Harbor recorded; the
    report's own key (its job key) goes to ``extra.adequacy_key``."""
    path = t.folder / "verifier" / REPORT
    d = _json(path)
    try:
        rep = SpecReport.model_validate(d)
    except ValidationError as e:
        raise InputError(f"not a spec-adequacy report: {validation_message(e)}",
                         file=str(path)) from None
    if rep.task_id != t.task_id:
        return _error(t, key, f"{path}: the report is of task {rep.task_id!r}, the trial of "
                      f"{t.task_name!r}"), {}
    recorded = t.rewards
    if recorded is None and (t.folder / "verifier" / REWARD).is_file():
        recorded = {k: float(v) for k, v in _json(t.folder / "verifier" / REWARD).items()
                    if isinstance(v, int | float)}
    if rep.status in ("scored", "invalid"):
        if recorded is None:
            return _error(t, key, "Harbor recorded no reward for this trial (" +
                          (t.exception_type or "no exception recorded") + ")"), {}
        want = rewards(rep)
        if any(abs(recorded.get(k, -1.0) - v) > 1e-9 for k, v in want.items()):
            return _error(t, key, f"{path}: the report's figures {want} disagree with the "
                          f"rewards Harbor recorded {recorded}"), {}
    spec = _spec_artifact(t, rep) or rep.spec_path
    return rep.model_copy(update={"key": key, "spec_path": spec}), {"adequacy_key": rep.key}


def _specgym(t: _Trial, key: str, language: str) -> tuple[SpecReport, str, bool]:
    """The trial's record from SpecGym's files; their files do not name the language, so
    the record has the one the user gave (``--language``), else none."""
    score = specgym_results.read_trial(t.folder)
    assert score is not None
    common: dict[str, Any] = {"key": key, "task_id": t.task_id, "task_path": str(t.folder),
                              "spec_path": None, "spec_sha": "", "language": language,
                              "strict": True}
    if not score.syntax_ok:
        rep = SpecReport.model_validate({**common, "status": "invalid", "invalid": InvalidSpec(
            message="the spec failed the benchmark's own syntax checks "
                    "(syntax_check_feedback)")}).finish()
        return rep, score.source, score.did_solve
    stats = score.buckets
    rep = SpecReport.model_validate({**common, "status": "scored", "buckets": stats,
                                     "metrics": harness_metrics(stats, True),
                                     "passed_all": passed_all(stats, True, [])})
    return rep, score.source, score.did_solve


def _error(t: _Trial, key: str, why: str) -> SpecReport:
    return SpecReport.failure(key, why, task_path=str(t.folder), spec_path=None,
                              task_id=t.task_id)


def _record(t: _Trial, job: str, language: str) -> tuple[SpecReport, str, dict[str, Any]]:
    key = _key(job, t)
    extra: dict[str, Any] = {}
    if (t.folder / "verifier" / REPORT).is_file():
        rep, extra = _ours(t, key)
        source = "adequacy"
    elif specgym_results.present(t.folder):
        rep, source, solved = _specgym(t, key, language)
        extra["specgym_did_solve"] = solved
    else:
        why = ("the trial has no per-bucket result: "
               + (f"{t.exception_type}: {t.exception_message}" if t.exception_type else
                  f"only the rewards {t.rewards}" if t.rewards else "no reward either"))
        rep, source = _error(t, key, why), ""
    return rep, source, extra


def _harbor_extra(t: _Trial, job: str, attempt: int, source: str) -> dict[str, Any]:
    h: dict[str, Any] = {
        "job": job, "job_id": t.job_id, "trial": t.trial_name, "trial_id": t.trial_id,
        "trial_folder": str(t.folder), "task_name": t.task_name, "dataset": t.source,
        "attempt": attempt, "agent": t.agent, "agent_version": t.agent_version,
        "model": t.model, "started_at": t.started_at, "finished_at": t.finished_at,
        "rewards": t.rewards, "grade_source": source, "exception_type": t.exception_type,
        "exception_message": t.exception_message, "n_input_tokens": t.n_input_tokens,
        "n_cache_tokens": t.n_cache_tokens, "n_output_tokens": t.n_output_tokens,
        "cost_usd": t.cost_usd, **_trajectory(t.folder)}
    return {k: v for k, v in h.items() if v is not None}


def import_job(job_dir: Path, results: Path, language: str = "") -> JobImport:
    """Append one record per trial of ``job_dir`` to ``results`` (records already there, by
    key, are not written again: importing a job twice adds nothing). ``language``: the
    language of trials graded by Verus-SpecGym's files, which do not say it."""
    from adequacy.scoring.spec_report import Provenance

    folders = trial_dirs(job_dir)
    job = (job_dir.resolve().parent.name if folders == [job_dir]
           else job_dir.resolve().name)
    known = {r.record.report.key for r in read_results(results)} if results.exists() else set()
    out = JobImport(job=str(job_dir), results=str(results))
    trials: list[tuple[_Trial, TrialImport]] = []
    for folder in folders:
        info = TrialImport(trial=folder.name)
        out.trials.append(info)
        try:
            trials.append((read_trial_result(folder), info))
        except InputError as e:
            info.status, info.reason = "unreadable", str(e)
    # attempts: rank among trials of the same task, agent and model, by start time
    groups: dict[tuple[str, str, str | None], list[_Trial]] = defaultdict(list)
    for t, _ in trials:
        groups[(t.task_id, t.agent, t.model)].append(t)
    attempt = {}
    for members in groups.values():
        for i, t in enumerate(sorted(members, key=lambda m: (m.started_at or "", m.trial_name)),
                              1):
            attempt[t.trial_name] = i
    results.parent.mkdir(parents=True, exist_ok=True)
    repair_tail(results)
    with results.open("a", encoding="utf-8") as f:
        for t, info in trials:
            info.task_id = t.task_id
            try:
                rep, source, extra = _record(t, job, language)
            except InputError as e:
                info.status, info.reason = "unreadable", str(e)
                continue
            info.status, info.source = rep.status, source
            info.reason = rep.error or (rep.invalid.message if rep.invalid else "")
            if rep.key in known:
                continue
            cost = t.cost_usd
            # each trial is one of the agent's samples of the task: pass@k groups them
            prod: Producer = producer("harbor", Provenance(
                writer=t.agent, model=t.model, sample=attempt[t.trial_name] - 1))
            append_record(results, rep, prod, {
                "harbor": _harbor_extra(t, job, attempt[t.trial_name], source),
                **({"cost": float(cost)} if cost is not None else {}), **extra}, out=f,
                seal=False)
            known.add(rep.key)
            info.written = True
    return out

