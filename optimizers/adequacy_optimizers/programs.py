"""DSPy programs that write specs, one typed Signature per language (from its backend's
``writer_texts``), six prompt families.

Families (the seeds GEPA starts from; instructions in our own words):
- ``zs``: the task alone; ``2s`` / ``4s``: with 2 or 4 worked examples (gold specs of *other*
  tasks from the training split); ``zs-cot``: think step by step first; ``fs-cot``: step by step
  with 4 examples; ``fs-ltm``: least-to-most: first list the sub-properties the spec must say
  (input assumptions, then output requirements, simplest first), then write the spec from them.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import dspy

from adequacy.errors import BackendError
from adequacy.extensions import registry
from adequacy.extensions.texts import WriterTexts
from adequacy.extensions.writers import visible_cases
from adequacy.model.task import Task
from adequacy.model.verdicts import Bucket

FAMILIES: tuple[str, ...] = ("zs", "2s", "4s", "zs-cot", "fs-cot", "fs-ltm")
SHOTS = {"zs": 0, "2s": 2, "4s": 4, "zs-cot": 0, "fs-cot": 4, "fs-ltm": 4}


class Properties(dspy.Signature):
    """Before writing a specification, break the problem down: list the properties the spec
    must state, simplest first: what inputs are assumed, then what every correct output
    satisfies, then what singles out the one correct output."""

    statement: str = dspy.InputField()
    code: str = dspy.InputField(desc="the skeleton or class to specify")
    samples: str = dspy.InputField()
    properties: str = dspy.OutputField(desc="numbered list, one property per line")


def samples_text(task: Task, limit: int = 12) -> str:
    """Visible cases only, grouped by bucket, with what a faithful spec must do with each."""
    what = {Bucket.pre_complete: "valid input (pre must accept)",
            Bucket.pre_sound: "invalid input (pre must reject)",
            Bucket.post_complete: "correct output (post must accept)",
            Bucket.post_sound: "wrong output (post must reject)"}
    lines: list[str] = []
    for b in Bucket:
        cs = [c for c in visible_cases(task) if c.bucket == b][:limit]
        if cs:
            lines.append(f"# {what[b]}")
            for c in cs:
                obj: dict[str, Any] = {"input": c.input}
                if c.output is not None:
                    obj["output"] = c.output
                lines.append(json.dumps(obj, ensure_ascii=False))
    return "\n".join(lines) or "(no sample cases)"


def _texts(language: str) -> WriterTexts:
    return registry.registry().owner(language).writer_texts()


def task_inputs(task: Task) -> dict[str, str]:
    """The program's inputs for a task (what a writer may see, docs/optimize.md); the
    skeleton's field is named as the language's backend says (``WriterTexts.code_field``)."""
    base = {"statement": task.statement or task.title, "samples": samples_text(task)}
    return {**base, _texts(task.language).code_field: task.skeleton}


@lru_cache(maxsize=32)
def _signature(texts: WriterTexts) -> type[dspy.Signature]:
    return dspy.make_signature({
        "statement": (str, dspy.InputField(desc="what the function should do, in prose")),
        texts.code_field: (str, dspy.InputField(desc=texts.code_desc)),
        "samples": (str, dspy.InputField(desc="sample cases, one JSON object per line, by "
                                              "bucket")),
        "spec": (str, dspy.OutputField(desc=texts.spec_desc)),
    }, texts.instructions, "WriteSpec")


def signature_for(language: str) -> type[dspy.Signature]:
    """The spec-writing signature of ``language``, built from its backend's writer texts (one
    class per distinct texts, so programs of one language share it)."""
    try:
        return _signature(_texts(language))
    except BackendError as e:
        raise ValueError(f"no spec-writing signature for {language!r} tasks: {e}") from None


class LeastToMost(dspy.Module):
    """Two steps: properties first, then the spec written from them."""

    def __init__(self, language: str) -> None:
        super().__init__()
        self.language = language
        self.decompose = dspy.Predict(Properties)
        sig = signature_for(language).append(
            "properties", dspy.InputField(desc="the properties to state, from step one"),
            type_=str)
        self.write = dspy.Predict(sig)

    def forward(self, **kw: str) -> dspy.Prediction:
        code = kw.get(_texts(self.language).code_field, "")
        props = self.decompose(statement=kw["statement"], code=code, samples=kw["samples"])
        return self.write(**kw, properties=props.properties)


class SpecWriterProgram(dspy.Module):
    """One family's program for one language; ``forward`` takes ``task_inputs`` fields."""

    def __init__(self, language: str, family: str = "zs",
                 demos: list[dspy.Example] | None = None) -> None:
        super().__init__()
        if family not in FAMILIES:
            raise ValueError(f"family={family!r}: expected one of {', '.join(FAMILIES)}")
        self.language, self.family = language, family
        sig = signature_for(language)
        inner: Any
        if family == "fs-ltm":
            inner = LeastToMost(language)
            target = inner.write
        elif family.endswith("cot"):
            inner = dspy.ChainOfThought(sig)
            target = inner.predict
        else:
            inner = dspy.Predict(sig)
            target = inner
        k = SHOTS[family]
        target.demos = list(demos or [])[:k] if k else []
        self.program = inner

    def forward(self, **kw: str) -> dspy.Prediction:
        return self.program(**kw)
