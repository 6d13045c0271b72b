"""Every content key in one place: spec hash, task fingerprint, verdict key, job key.

A key decides what is recomputed and what is trusted from disk (the verdict cache, a resumed
results file). Written in several modules, two keys drifted: one module hashed the limits, the
other not. Here each key says what goes into it, and why each part is there.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING

from adequacy.model.values import content_hash, encode

if TYPE_CHECKING:
    from adequacy.model.task import Case, Task
    from adequacy.scoring.options import ScoreOptions
    from adequacy.scoring.spec_report import Provenance


def spec_hash(spec_text: str) -> str:
    """The spec's exact text (``SpecReport.spec_sha``): what a person wrote, byte for byte."""
    return content_hash(spec_text)


def case_key(task: Task, case: Case) -> str:
    """The canonical text of what a predicate sees of a case (input, and output for post)."""
    parts = [encode(case.input.get(p.name), p.type) for p in task.inputs]
    if case.bucket.predicate == "post" and case.output is not None:
        parts += [encode(case.output.get(p.name), p.type) for p in task.outputs]
    return "\x1f".join(parts)


def task_context(task: Task) -> str:
    """What of a task, besides the case, can change a predicate's value: the signature and the
    backend settings (a JML task's ``[jml] method`` or ``post_state`` names what a spec means)."""
    sig = ";".join(f"{p.name}:{p.type}" for p in task.inputs + task.outputs)
    return sig + "\x1f" + json.dumps(task.settings, sort_keys=True, default=str)


def task_fingerprint(task: Task) -> str:
    """The task's identity and every case's full content (a relabelled case changes it)."""
    cases = "\n".join(f"{c.key}\x1f{case_key(task, c)}" for c in task.all_cases())
    return content_hash(task.id, str(task.root), task_context(task), cases)


def verdict_key(engine: str, engine_version: str, normalized_spec: str, task: Task,
                case: Case) -> str:
    """One engine's verdict on one case: the spec as the engine reads it (normalised: a
    comment does not change it), the case as the predicate sees it, and the engine's version
    (an upgrade recomputes). Not the task's path or id: the same case of a copied task hits."""
    return content_hash(engine, engine_version, normalized_spec, task_context(task),
                        case.bucket.predicate, case_key(task, case))


def engine_fingerprint(language: str) -> str:
    """Names, versions and availability of every engine for a language: a resumed batch must
    recompute when an engine was upgraded or became available (cargo installed, say). Asked
    of the registry, whose engine infos are asked once (``Registry.refresh`` asks again)."""
    from adequacy.extensions import registry

    return registry.registry().fingerprint(language)


def job_key(task: Task, spec_text: str, options: ScoreOptions) -> str:
    """Identity of a scoring job, for resuming batches: the task's full content (cases,
    signature, settings), the spec, every scoring option (the whole model, so a field added to
    ``ScoreOptions`` or ``Limits`` is in the key without an edit here), and the engines'
    versions."""
    return content_hash(task_fingerprint(task), spec_text,
                        json.dumps(options.model_dump(mode="json"), sort_keys=True),
                        engine_fingerprint(task.language))


_JOINS_WHEN_SET = ("sample", "made_by")


def with_provenance(key: str, provenance: Provenance | None) -> str:
    """A job's key: the scoring key, and who wrote the spec when the jobs file says so (the
    same text written by two models, or twice by one model as two samples, is two records)."""
    if provenance is None or key.startswith("error:"):
        return key
    # fields added to Provenance later join the key only when set: keys of jobs that carry
    # none stay as they were
    unset = {f for f in _JOINS_WHEN_SET if getattr(provenance, f) is None} or None
    return content_hash(key, provenance.model_dump_json(exclude=unset))


def with_verification(key: str, verify: bool) -> str:
    """A job asked to be proved too (``run --verify``) is another job: its record carries a
    measurement a plain run's lacks, so resuming must not take one for the other."""
    if not verify or key.startswith("error:"):
        return key
    return content_hash(key, "verify")


def with_symbolic(key: str, budget: float | None) -> str:
    """A job asked for the solver's figures too (``run --symbolic``, with its budget) is
    another job: its record carries figures a plain run's lacks."""
    if budget is None or key.startswith("error:"):
        return key
    return content_hash(key, "symbolic", f"{budget:g}")


def task_content_hash(task: Task) -> str:
    """A task's content independent of where its folder lives (the gym manifest's
    ``task_hash``): header, statement, skeleton and every case's bucket, id and values. A gym
    folder graded against a source task whose hash differs is refused."""
    cases = "\n".join(c.model_dump_json(exclude={"line", "origin", "seed"})
                      for c in task.all_cases())
    header = (task.root / "task.toml").read_text(encoding="utf-8")
    return content_hash(task.id, task.language, header, task.statement, task.skeleton, cases)


def grading_failure_key(task_hash: str, spec_text: str) -> str:
    """A gym grade that failed on our side: the task's content and the spec (the same spec
    submitted again to the same task is the same failure)."""
    return content_hash(task_hash, spec_text)


def submission_key(report_key: str, folder: str, submission: int, when: str) -> str:
    """One submission's record: the grade's key, the gym folder, the submission's number and
    time (two submissions of one spec are two records)."""
    return content_hash(report_key, folder, str(submission), when)


def split_record_key(report_key: str, program: str, split: str) -> str:
    """An optimizer's evaluation record: the seed and the optimized program may write the same
    text on the same split, which is two records."""
    return content_hash(report_key, program, split)


def fallback_key(task_path: str, spec_path: str) -> str:
    """Key of a job whose task or spec cannot be read: its paths (there is no content)."""
    return f"error:{task_path}:{spec_path}"


def writer_failed_key(task_path: str, spec_path: str, reason: str) -> str:
    """A spec its writer failed to write: keyed by the task, the path and the reason, so a
    rewritten spec at the same path is a new job."""
    sha = hashlib.sha256(f"{task_path}\0{spec_path}\0{reason}".encode()).hexdigest()
    return f"writer-failed:{sha}"
