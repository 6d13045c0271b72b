"""What would fill a task's empty sound bucket, given what the task has.

``score`` on a task without invalid inputs or wrong outputs cannot pass a spec, and used to
send every user to ``adequacy cases generate``, which needs a reference and does nothing
without one: advice that adds nothing loops. Each command fills a bucket from its own oracles
(docs/cases.md, docs/mutators.md), so the advice names the command whose oracle the task has,
or, where it has none, the file the user can write.
"""

from __future__ import annotations

from adequacy.model.task import Task
from adequacy.model.verdicts import Bucket


def _runs_reference(task: Task) -> bool:
    """A reference ``cases generate`` can run: ``reference/reference.py``, or the language's
    own (a JML task's method body)."""
    if (task.reference_dir / "reference.py").is_file():
        return True
    from adequacy.errors import AdequacyError
    from adequacy.extensions import registry

    try:
        return registry.registry().owner(task.language).runs_references()
    except AdequacyError:
        return False


def fill_advice(task: Task, bucket: Bucket) -> str:
    """One clause saying how to fill ``bucket`` (a sound bucket) of ``task``."""
    path = task.root
    ref = task.reference_dir
    if bucket is Bucket.pre_sound:
        if _runs_reference(task):
            return (f"`adequacy cases generate {path}` adds invalid inputs the reference "
                    "rejects (or marks the task every_input_valid)")
        if (ref / "validator.py").is_file() or set(task.constraints) - {"unique_output"}:
            return f"`adequacy mutate {path}` adds invalid inputs its validator labels"
        return (f"the task has no reference, validator or [constraints] to label invalid "
                f"inputs: write some into {path}/tests/pre_sound.jsonl, add "
                f"{ref}/validator.py or a [constraints] table to task.toml (then `adequacy "
                "mutate`), or declare every_input_valid = true in task.toml if no input is "
                "invalid")
    if bucket is Bucket.post_sound:
        recorded = any(c.output is not None for c in task.cases.get(Bucket.post_complete, []))
        unique = task.constraints.get("unique_output", True) is not False
        if (ref / "checker.py").is_file() or (unique and (recorded or _runs_reference(task))):
            return f"`adequacy mutate {path}` adds wrong outputs"
        if not unique:
            return (f"several outputs may be right (unique_output = false), so only a checker "
                    f"labels wrong ones: write some into {path}/tests/post_sound.jsonl, or add "
                    f"{ref}/checker.py (then `adequacy mutate`)")
        return (f"the task has no correct outputs, reference or checker to label wrong "
                f"outputs: write some into {path}/tests/post_sound.jsonl, or add "
                f"post_complete cases or {ref}/checker.py (then `adequacy mutate`)")
    return f"add cases to {path}/tests/{bucket.value}.jsonl"
