"""The symbolic contract: the questions core asks a backend, and the answers it gets.

Two levels, so a backend answers symbolic questions its own way:

- ``Symbolic`` (generic): "find an input where these two specs' preconditions differ", "a
  valid input and an output where their postconditions differ", "an output other than this
  one that the postcondition admits", "decide this case". A backend may answer with any tool
  (a property tester, a symbolic executor); ``Backend.symbolic()`` returns one or None.
- ``SmtEncoder`` (SMT-term level): a backend that wants Z3 only turns a loaded spec into Z3
  terms over the task's values (``Sym`` trees, built with ``adequacy.symbolic.terms``); core's
  ``Z3Symbolic`` asks the questions, runs the solver in its limited child and decodes the
  models.

Every answer is a claim to be checked: a found input or output is re-checked by the concrete
engines before anything reports it (``adequacy.search.symbolic``), and "none" says exactly how
far it holds (``scope``: every input, or every input whose collections have at most ``bound``
elements).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    from adequacy.model.task import Task
    from adequacy.model.types import Type

LoadedSpec = Any
"""``adequacy.extensions.backend.LoadedSpec`` (named loosely: the backend contract imports this
module)."""

__all__ = ["UNFOLD_DEPTH", "Answer", "Decision", "Model", "Null", "Opt", "Pred", "Question", "Rec", "Scalar", "SmtEncoder",
           "SolverLimits", "SpecTerms", "Sym", "Symbolic", "Unsupported"]


class Unsupported(Exception):
    """A construct or type the encoding cannot express faithfully (the question is unknown)."""


@dataclass
class Sym:
    """A value of the task's type ``ty`` as solver terms, in a tree that mirrors the type:
    every backend names a task's values the same way, so core can read a model back into the
    task's JSON values without knowing the language (``adequacy.symbolic.terms``)."""

    ty: Type


@dataclass
class Scalar(Sym):
    """One term: an integer, bool, char, or a sequence of scalars (``z3.ExprRef``)."""

    term: Any


@dataclass
class Opt(Sym):
    """An ``option<T>``: whether it is ``Some``, and the value it holds then."""

    some: Any
    val: Sym


@dataclass
class Null(Sym):
    """A reference that may be null (``nullable<T>``, arrays): whether it is, and the value."""

    null: Any
    val: Sym


@dataclass
class Rec(Sym):
    """A tuple or struct: one ``Sym`` per field."""

    fields: dict[str, Sym] = field(default_factory=dict)

Predicate = Literal["pre", "post"]

UNFOLD_DEPTH = 10
"""Nested calls of one recursive helper an encoder unfolds before the uninterpreted remainder
(``adequacy.symbolic.unfolding``): one more than the default longest collection of a bounded
question (``SolverLimits.max_len``), so a helper recursing on a collection's length is exact
there."""


class SolverLimits(BaseModel):
    """Limits of symbolic questions (the solver runs in its own limited child)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    query_seconds: float = Field(default=5.0, gt=0)
    """Solver time for one query (Z3's timeout; the child is killed a few seconds later)."""
    memory_mb: int = Field(default=1024, ge=64)
    """Solver memory (Z3's cap; the child's address space is capped a little above it)."""
    max_len: int = Field(default=8, ge=0)
    """Collections longer than this are left out of a bounded question (asked only when the
    unbounded one is undecided)."""
    unfold: int = Field(default=UNFOLD_DEPTH, ge=0, le=64)
    """Nested calls of one recursive helper unfolded before the uninterpreted remainder."""
    deadline: float | None = None
    """``time.monotonic()`` past which no further query starts (the command's budget)."""


@dataclass
class Question:
    """One symbolic question about one task.

    ``kind``:
    - ``differ``: an input (``predicate="pre"``) where ``a`` and ``b``'s preconditions decide
      differently, or an input and output (``"post"``) where their postconditions do, on an
      input ``gate``'s precondition accepts (the reference side: ``b`` by default);
    - ``other_output``: an output other than ``output`` that ``a``'s postcondition accepts on
      ``input`` (the input is taken as valid);
    - ``two_outputs``: an input ``a``'s precondition accepts and two different outputs its
      postcondition accepts on it (none: the postcondition determines the output on every
      input the precondition accepts);
    - ``decide``: whether ``a``'s ``predicate`` holds on ``input`` (and ``output``).
    """

    kind: Literal["differ", "other_output", "two_outputs", "decide"]
    a: LoadedSpec
    b: LoadedSpec | None = None
    predicate: Predicate = "pre"
    gate: Literal["a", "b", "none"] = "b"
    input: dict[str, Any] | None = None
    output: dict[str, Any] | None = None
    side: Literal["either", "a", "b"] = "either"
    """``differ``: any difference, or only where ``a`` holds and ``b`` does not (``a``), or the
    other way round (``b``): each side is a different bucket."""
    models: int = 1
    """``differ``, ``other_output``: up to this many models, each with an input (or, for
    ``other_output``, an output) no earlier one has."""


class Model(BaseModel):
    """One model of a question, as the task's JSON values."""

    model_config = ConfigDict(extra="forbid")

    input: dict[str, Any]
    output: dict[str, Any] | None = None
    other: dict[str, Any] | None = None
    """``two_outputs``: the second output."""


class Answer(BaseModel):
    """What the solver found, proved, or could not say."""

    model_config = ConfigDict(extra="forbid")

    status: Literal["found", "none", "unknown"]
    """``found``: ``input`` (and ``output``) is a model; ``none``: proved that none exists
    within ``scope``; ``unknown``: neither, with the ``reason``."""
    input: dict[str, Any] | None = None
    output: dict[str, Any] | None = None
    other: dict[str, Any] | None = None
    """``two_outputs``: the second output the postcondition accepts."""
    more: list[Model] = []
    """``found`` with ``Question.models`` > 1: the further models, each a new input."""
    scope: Literal["all", "bounded"] | None = None
    """For ``none``: every input, or every input whose collections (sequences, strings,
    arrays) have at most ``bound`` elements."""
    bound: int | None = None
    reason: str = ""
    queries: int = 0
    seconds: float = 0.0
    cached: int = 0
    """How many of the queries were answered from the cache."""

    def claim(self) -> str:
        """The exact statement a ``none`` proves."""
        if self.status != "none":
            return ""
        if self.scope == "bounded":
            return f"for every input with collections of length <= {self.bound}"
        return "for every input"


class Decision(BaseModel):
    """A case decided symbolically: ``value`` true/false (proved), None (neither proved)."""

    model_config = ConfigDict(extra="forbid")

    value: bool | None
    reason: str = ""
    seconds: float = 0.0
    failure: Literal["outside", "timeout"] | None = None
    """Why ``value`` is None, where the engine can act on it: ``outside`` (the spec's
    predicate is outside the encoding: every case of it will be), ``timeout`` (the solver ran
    out of time: a streak of them gives the predicate up, as ``Limits.timeout_streak`` says)."""


@runtime_checkable
class Symbolic(Protocol):
    """A backend's symbolic answers (``Backend.symbolic()``)."""

    name: str

    def version(self) -> str:
        """Goes into cache keys of answers built on it (tool version and encoder sources)."""
        ...

    def find(self, task: Task, q: Question, limits: SolverLimits) -> Answer:
        """Answer a ``differ`` or ``other_output`` question. Never raises for a spec's own
        constructs: what cannot be expressed faithfully is ``unknown`` with the reason."""
        ...

    def decide(self, task: Task, q: Question, limits: SolverLimits) -> Decision:
        """Answer a ``decide`` question (the per-case ``smt`` engine)."""
        ...


@dataclass
class Pred:
    """A predicate as two Z3 booleans: its value, and where that value is defined (the
    language fixes it: no index out of range, no division by zero, no unspecified choice,
    with the language's short-circuits). Outside ``defined`` a concrete engine says
    unknown, so only inputs inside it can become counterexamples."""

    value: Any
    defined: Any
    axioms: list[Any] = field(default_factory=list)
    """Facts only this predicate's encoding relies on (its definitions), asserted only in
    questions that use it (``SpecTerms.axioms`` hold for both)."""


@dataclass
class SpecTerms:
    """A spec as Z3 terms over the task's values: its precondition, its postcondition, and
    facts the encoding relies on (definitions' axioms). A predicate that could not be
    encoded is None with the reason in ``gaps``."""

    pre: Pred | None
    post: Pred | None
    axioms: list[Any] = field(default_factory=list)
    gaps: dict[str, str] = field(default_factory=dict)
    domain: list[Any] = field(default_factory=list)
    """Facts about which values a method can produce at all (an array's length is kept by a
    call): asserted when the solver looks for inputs and outputs, never when it decides a
    case, whose values may lie outside them (a ``post_sound`` case with a shorter array is a
    case like any other). A fact that can be false of the values must never be an axiom:
    from a false one the solver proves anything."""
    exact: Any = None
    """A Z3 boolean that holds where the encoding is exact, or None where it always is: an
    encoding that leaves part of a definition uninterpreted (a recursive helper unfolded to a
    depth, ``adequacy.symbolic.unfolding``) is defined there only when this is false. Search
    queries assert it (so a model never rests on the uninterpreted part); proofs do not (so
    they hold whatever that part is)."""


@runtime_checkable
class SmtEncoder(Protocol):
    """A backend's encoding of its specs into Z3 terms (``Backend.smt_encoder()``)."""

    name: str

    def version(self) -> str:
        """A hash of the encoder's sources (answers built on an older encoding are not reused)."""
        ...

    def encode(self, spec: LoadedSpec, task: Task, inputs: dict[str, Sym],
               outputs: dict[str, Sym], tag: str, unfold: int = UNFOLD_DEPTH) -> SpecTerms:
        """``spec``'s predicates over ``inputs`` (the pre-state) and ``outputs`` (the
        method's results and post-states, named as the task names them). ``tag`` makes the
        names of any function or constant the encoding declares unique to this spec, so two
        specs' helpers never meet in one query. A recursive helper is unfolded at most
        ``unfold`` calls deep, the rest left uninterpreted (``SpecTerms.exact``)."""
        ...
