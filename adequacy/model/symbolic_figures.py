"""What the solver adds to a spec's score: figures beside the four buckets.

- **Output determination** (tasks with a unique output): on each valid input with its right
  output, does the postcondition admit any other output? A second output the spec's concrete
  engines accept is a ``post_sound`` failure found without any mutant; "pinned" means the
  solver proved there is none (for every output, or every output whose collections have at
  most L elements).
- **Precondition against the gold spec**: does the precondition accept an input the task's
  gold spec refuses? Each such input is confirmed by the concrete engines on both specs.

``adequacy score --symbolic`` and ``run --symbolic`` fill ``SpecReport.symbolic``; reports and
comparisons show the figures where records carry them. Records are read from files anyone can
edit, so every count is checked against the listed results.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = ["AdmittedInput", "OutputDetermination", "PinnedInput", "PreAdmission",
           "SymbolicFigures", "UniquePost"]


class PinnedInput(BaseModel):
    """One valid input, its right output, and what the solver said about any other."""

    model_config = ConfigDict(extra="forbid")

    input: dict[str, Any]
    output: dict[str, Any]
    """The right output."""
    source: Literal["case", "reference"] = "case"
    """``case``: a ``post_complete`` case's recorded output; ``reference``: the task's
    reference on a ``pre_complete`` case's input."""
    status: Literal["pinned", "second_output", "unconfirmed", "encoding_fault", "unknown"]
    other: dict[str, Any] | None = None
    """The other output the solver found (``second_output``: the concrete engines accept it
    and the task's oracles call it wrong)."""
    claim: str = ""
    reason: str = ""


class OutputDetermination(BaseModel):
    """"post determines the output on N of M valid inputs"."""

    model_config = ConfigDict(extra="forbid")

    inputs: int = Field(default=0, ge=0)
    pinned: int = Field(default=0, ge=0)
    second_output: int = Field(default=0, ge=0)
    unknown: int = Field(default=0, ge=0)
    """Neither proved nor confirmed (a timeout, a construct outside the encoding, a model
    the concrete engines did not confirm, an encoding fault)."""
    seconds: float = 0.0
    results: list[PinnedInput] = []

    @model_validator(mode="after")
    def _counts(self) -> OutputDetermination:
        by = {s: sum(1 for r in self.results if r.status == s)
              for s in ("pinned", "second_output")}
        if (self.inputs != len(self.results) or self.pinned != by["pinned"]
                or self.second_output != by["second_output"]
                or self.unknown != self.inputs - self.pinned - self.second_output):
            raise ValueError("output determination counts do not match its results")
        return self

    def figure(self) -> str:
        return (f"post determines the output on {self.pinned} of {self.inputs} valid inputs"
                f" ({self.second_output} with a second output, {self.unknown} undecided)")


class UniquePost(BaseModel):
    """Does the postcondition determine the output on every input its precondition accepts
    (not only on the task's inputs)?"""

    model_config = ConfigDict(extra="forbid")

    status: Literal["determined", "two_outputs", "unconfirmed", "unknown"]
    """``determined``: proved within ``claim``; ``two_outputs``: an input the precondition
    accepts and two outputs the postcondition accepts, all three confirmed concretely;
    ``unconfirmed``: the solver's model the concrete engines did not confirm."""
    claim: str = ""
    input: dict[str, Any] | None = None
    outputs: list[dict[str, Any]] = []
    oracle: str = ""
    """The task's oracles' word on the input and the two outputs (which one is wrong)."""
    wrong: list[int] = []
    """Indices into ``outputs`` the task's oracles call wrong (on an input they call valid)."""
    reason: str = ""

    @model_validator(mode="after")
    def _shape(self) -> UniquePost:
        if any(i not in (0, 1) for i in self.wrong) or len(set(self.wrong)) != len(self.wrong):
            raise ValueError("unique post: 'wrong' names outputs 0 and 1 at most once")
        if (self.status == "two_outputs") != (self.input is not None and len(self.outputs) == 2):
            raise ValueError("unique post: 'two_outputs' exactly with an input and two outputs")
        return self

    def figure(self) -> str:
        if self.status == "determined":
            return f"post determines the output on every input the pre accepts ({self.claim})"
        if self.status == "two_outputs":
            import json
            return (f"post admits two outputs on {json.dumps(self.input)}: "
                    f"{json.dumps(self.outputs[0])} and {json.dumps(self.outputs[1])}"
                    + (f" ({self.oracle})" if self.oracle else ""))
        return f"post on every input the pre accepts: undecided ({self.reason})"


class AdmittedInput(BaseModel):
    """An input the spec's precondition accepts and the gold spec's refuses (both
    concretely), with the task's own oracles' word on it."""

    model_config = ConfigDict(extra="forbid")

    input: dict[str, Any]
    oracle: Literal["invalid", "valid", "undecided"] = "undecided"
    """``invalid``: the spec is too weak there; ``valid``: the gold spec is too strong there
    (a finding about the gold); ``undecided``: the task's oracles say nothing."""
    note: str = ""


class PreAdmission(BaseModel):
    """Does the precondition accept an input the gold spec refuses?"""

    model_config = ConfigDict(extra="forbid")

    gold: str
    """The gold spec's path."""
    status: Literal["found", "none", "unknown"]
    """``found``: ``inputs`` holds confirmed ones; ``none``: proved within ``claim``."""
    claim: str = ""
    inputs: list[AdmittedInput] = []
    """Inputs the spec's precondition accepts and the gold's rejects, both concretely
    (shrunk)."""
    unconfirmed: int = Field(default=0, ge=0)
    """Solver models the concrete engines did not confirm."""
    reason: str = ""

    @model_validator(mode="after")
    def _status(self) -> PreAdmission:
        if (self.status == "found") != bool(self.inputs):
            raise ValueError("pre admission: 'found' exactly when it lists inputs")
        return self

    def figure(self) -> str:
        if self.status == "found":
            valid = sum(1 for i in self.inputs if i.oracle == "valid")
            invalid = sum(1 for i in self.inputs if i.oracle == "invalid")
            return (f"pre admits {len(self.inputs)} input(s) the gold spec refuses "
                    f"(confirmed concretely; the task's oracles call {invalid} invalid, "
                    f"{valid} valid)")
        if self.status == "none":
            return f"pre admits no input the gold spec refuses ({self.claim})"
        return f"pre against the gold spec: undecided ({self.reason})"


class SymbolicFigures(BaseModel):
    """The solver's figures of one spec (``SpecReport.symbolic``)."""

    model_config = ConfigDict(extra="forbid")

    budget: float = 0.0
    """Seconds the figures were given."""
    output: OutputDetermination | None = None
    output_skipped: str = ""
    """Why there is no output figure (the output is not unique, no valid input...)."""
    unique: UniquePost | None = None
    """The same question over every input the precondition accepts."""
    pre: PreAdmission | None = None
    pre_skipped: str = ""
    """Why there is no precondition figure (no gold spec, the spec is the gold...)."""

    def lines(self) -> list[str]:
        out = []
        if self.output is not None:
            out.append(self.output.figure())
        elif self.output_skipped:
            out.append(f"output determination not measured: {self.output_skipped}")
        if self.unique is not None:
            out.append(self.unique.figure())
        if self.pre is not None:
            out.append(self.pre.figure())
        elif self.pre_skipped:
            out.append(f"pre against the gold spec not measured: {self.pre_skipped}")
        return out
