"""Harbor's own code, run from Harbor's virtual environment (Python 3.12+) by the tests.

``python harbor_side.py COMMAND JSON`` prints JSON. Every check here is Harbor's: its task and
dataset models, its packager's digest, its verifier's reward reader, its result models writing
a job folder. Nothing of spec-adequacy is imported (it is not installed in that environment).
"""

from __future__ import annotations

import json
import shutil
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any


def check_export(arg: dict[str, Any]) -> dict[str, Any]:
    """Every task.toml through TaskConfig, dataset.toml through DatasetManifest, each digest
    against Packager.compute_content_hash."""
    from harbor.models.dataset.manifest import DatasetManifest
    from harbor.models.task.config import TaskConfig
    from harbor.models.task.task import Task
    from harbor.publisher.packager import Packager

    out = Path(arg["out"])
    manifest = DatasetManifest.from_toml_file(out / "dataset.toml")
    tasks = {}
    for ref in manifest.tasks:
        folder = out / ref.short_name
        config = TaskConfig.model_validate_toml((folder / "task.toml").read_text())
        Task(folder)  # Harbor's whole task model: config, paths, instruction
        digest, _files = Packager.compute_content_hash(folder)
        tasks[ref.name] = {
            "digest_matches": ref.digest == f"sha256:{digest}",
            "verifier_mode": config.verifier.environment_mode.value
            if config.verifier.environment_mode else None,
            "agent_user": config.agent.user, "artifacts": [str(a) for a in config.artifacts],
            "mcp": [s.name for s in config.environment.mcp_servers],
            "network": config.environment.network_mode.value,
            "agent_network": config.agent.network_mode.value if config.agent.network_mode
            else None,
            "metadata": config.metadata,
            "name": config.task.name if config.task else None}
    metric = next((f for f in manifest.files if f.path == "metric.py"), None)
    return {"tasks": tasks, "metric_digest": metric.digest if metric else None,
            "metric_matches": metric is not None and metric.digest ==
            f"sha256:{Packager.compute_file_hash(out / 'metric.py')}"}


def read_rewards(arg: dict[str, Any]) -> dict[str, Any]:
    """Each verifier folder's reward file through Harbor's Verifier reward reader."""
    from harbor.models.trial.paths import TrialPaths
    from harbor.models.verifier.result import VerifierResult
    from harbor.verifier.verifier import Verifier

    got = {}
    for key, trial_dir in arg["trials"].items():
        v = object.__new__(Verifier)  # the reader needs only trial_paths
        v.trial_paths = TrialPaths(Path(trial_dir))
        try:
            rewards = v._parse_reward_json()
            got[key] = {"rewards": VerifierResult(rewards=rewards).rewards}
        except Exception as e:  # noqa: BLE001 - report which file Harbor refused and why
            got[key] = {"error": f"{type(e).__name__}: {e}"}
    return got


def metric(arg: dict[str, Any]) -> dict[str, Any]:
    """The dataset's metric.py through Harbor's UvScript metric (needs uv on PATH)."""
    from harbor.metrics.uv_script import UvScript

    return UvScript(arg["script"]).compute(arg["rewards"])


def write_job(arg: dict[str, Any]) -> dict[str, Any]:
    """A job folder written with Harbor's result models: JobConfig, JobResult, TrialConfig,
    TrialResult (with AgentInfo, ModelInfo, AgentContext, VerifierResult, ExceptionInfo) and an
    ATIF trajectory, as a Harbor run leaves them."""
    from uuid import uuid4

    from harbor.models.agent.context import AgentContext
    from harbor.models.job.config import JobConfig
    from harbor.models.job.result import JobResult, JobStats
    from harbor.models.task.id import LocalTaskId
    from harbor.models.trajectories.agent import Agent
    from harbor.models.trajectories.final_metrics import FinalMetrics
    from harbor.models.trajectories.step import Step
    from harbor.models.trajectories.trajectory import Trajectory
    from harbor.models.trial.config import TaskConfig as TrialTaskConfig
    from harbor.models.trial.config import TrialConfig
    from harbor.models.trial.paths import TrialPaths
    from harbor.models.trial.result import AgentInfo, ExceptionInfo, ModelInfo, TrialResult
    from harbor.models.verifier.result import VerifierResult
    from harbor.verifier.verifier import Verifier

    job = Path(arg["job"])
    job.mkdir(parents=True)
    job_id = uuid4()
    start = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
    config = JobConfig(job_name=job.name, jobs_dir=job.parent)
    (job / "config.json").write_text(config.model_dump_json(indent=4))
    results = []
    for i, t in enumerate(arg["trials"]):
        folder = job / t["trial_name"]
        folder.mkdir()
        task_cfg = TrialTaskConfig(path=Path(t["task_path"]))
        trial_cfg = TrialConfig(task=task_cfg, trial_name=t["trial_name"], trials_dir=job,
                                job_id=job_id)
        trial_cfg.agent.name = t["agent"]
        trial_cfg.agent.model_name = t["model"]
        (folder / "config.json").write_text(trial_cfg.model_dump_json(indent=4))
        rewards = None
        if t.get("verifier"):
            shutil.copytree(t["verifier"], folder / "verifier")
            v = object.__new__(Verifier)
            v.trial_paths = TrialPaths(folder)
            if v.trial_paths.reward_json_path.exists():
                rewards = v._parse_reward_json()
            elif v.trial_paths.reward_text_path.exists():
                rewards = v._parse_reward_text()
        for rel, text in (t.get("files") or {}).items():
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            (folder / rel).write_text(text)
        exception = None
        if t.get("exception"):
            exception = ExceptionInfo(exception_type=t["exception"][0],
                                      exception_message=t["exception"][1],
                                      exception_traceback="", occurred_at=start)
        traj = Trajectory(session_id=f"s{i}", agent=Agent(name=t["agent"], version="1.0",
                                                          model_name=t["model"]),
                          steps=[Step(step_id=1, source="user", message="write the spec"),
                                 Step(step_id=2, source="agent", message="done")],
                          final_metrics=FinalMetrics(total_prompt_tokens=t["tokens"][0],
                                                     total_completion_tokens=t["tokens"][1],
                                                     total_cost_usd=t["cost"], total_steps=2))
        (folder / "agent").mkdir(exist_ok=True)
        (folder / "agent" / "trajectory.json").write_text(traj.model_dump_json(indent=2))
        provider, _, name = t["model"].partition("/")
        result = TrialResult(
            task_name=t["task_name"], trial_name=t["trial_name"], trial_uri=folder.as_uri(),
            task_id=LocalTaskId(path=Path(t["task_path"])), source=arg.get("source"),
            task_checksum="0" * 64, config=trial_cfg,
            agent_info=AgentInfo(name=t["agent"], version="1.0",
                                 model_info=ModelInfo(name=name, provider=provider)),
            agent_result=AgentContext(n_input_tokens=t["tokens"][0],
                                      n_output_tokens=t["tokens"][1], n_cache_tokens=0,
                                      cost_usd=t["cost"]),
            verifier_result=VerifierResult(rewards=rewards) if rewards is not None else None,
            exception_info=exception,
            started_at=start + timedelta(minutes=t.get("minute", i)),
            finished_at=start + timedelta(minutes=t.get("minute", i) + 1))
        (folder / "result.json").write_text(result.model_dump_json(indent=4))
        results.append(result)
    job_result = JobResult(id=job_id,
                           started_at=start, n_total_trials=len(results),
                           stats=JobStats.from_trial_results(results), trial_results=results)
    (job / "result.json").write_text(job_result.model_dump_json(indent=4))
    return {"trials": [r.trial_name for r in results], "job_id": str(job_id)}


if __name__ == "__main__":
    command, payload = sys.argv[1], json.loads(sys.argv[2])
    print(json.dumps({"check_export": check_export, "read_rewards": read_rewards,
                      "metric": metric, "write_job": write_job}[command](payload),
                     default=str))
