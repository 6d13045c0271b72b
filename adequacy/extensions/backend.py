"""The contract between core and a language backend (docs/plugins.md).

A backend is one specification language: a front end that parses and polices a spec once
(``load_spec``, the only place a spec can be called invalid), the files a task of the language
holds (``task_files``), and a list of ``Engine`` objects that evaluate the spec's predicates on
cases, each deciding only what it computes with the language's semantics. A backend may add
``Verifier`` objects that prove a spec against the method body. Chaining engines, caching,
cross-checking and scoring are the runner's job, so every backend gets them the same way, and a
backend for a new language is one package plus one entry point with no edit to core.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from adequacy.errors import BackendError
from adequacy.extensions.mutants import ProgramMutant, SpecMutant
from adequacy.extensions.texts import GymTexts, WriterTexts
from adequacy.model.verdicts import Verdict

if TYPE_CHECKING:
    from pathlib import Path

    from adequacy.extensions.symbolic import SmtEncoder, Symbolic
    from adequacy.model.clauses import Clause
    from adequacy.model.proofs import VerifyResult
    from adequacy.model.task import Case, Task, TaskFiles
    from adequacy.model.types import Type

#: What an engine may declare it evaluates (``EngineInfo.capabilities``).
CAPABILITIES = ("pre", "post", "post_state")


class EngineInfo(BaseModel):
    """One engine of a backend and whether it can run on this machine."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    available: bool
    version: str = ""
    """Goes into cache keys: a new engine version never reuses old verdicts."""
    reason: str = ""
    """Why unavailable (what to install), or a note on what the engine is."""
    default: bool = False
    """Part of the backend's default chain."""
    fidelity: int = 0
    """How faithfully the engine follows the language's semantics (higher is closer; the
    language's own verifier ranks highest). With ``--cross-check`` the final verdict of a case
    comes from the highest-ranked engine that decided it (ties: chain order)."""
    capabilities: tuple[str, ...] = ("pre", "post")
    """What the engine evaluates: ``pre`` and ``post`` (the predicates), ``post_state`` (a
    postcondition over the arguments' state after the call, e.g. JML's mutated arrays). The
    runner does not hand an engine a case it cannot evaluate; the case stays unknown."""
    decides: str = ""
    """One line on what the engine decides and what it leaves unknown (``adequacy backends``
    prints it; the engine's docs page has the full list)."""


class ContainerRecipe(BaseModel):
    """What a container image needs to score a language's specs on its own (an exported
    Harbor task's image): system packages, whether ``adequacy setup`` must prepare the
    backend, and the engines a grader there names, in chain order, so a grade does not depend
    on what happens to be installed."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    apt: tuple[str, ...] = ()
    """Debian packages to install (``apt-get install``), e.g. a JDK."""
    prepare: bool = False
    """Run ``adequacy setup --backend NAME`` in the image (build workers ahead of grading)."""
    engines: tuple[str, ...]
    """The engine chain the grader runs: engines that work with only the packages above."""


class Limits(BaseModel):
    """Resource limits handed down to engines."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    case_seconds: float = Field(default=10.0, gt=0, allow_inf_nan=False,
                                json_schema_extra={"cli": "--case-timeout"})
    """Wall-clock limit for one case; exceeding it makes that case unknown."""
    spec_seconds: float = Field(default=600.0, gt=0, allow_inf_nan=False,
                                json_schema_extra={"cli": "--spec-timeout"})
    """Wall-clock limit for one spec on one engine (compile included)."""
    memory_mb: int = Field(default=2048, ge=16)
    """Memory of one spec's evaluation in MiB; past it a case is unknown (out of memory).

    The address space of engines' child processes, half of it (128 to 1024 MiB) as a JVM
    worker's heap, and the growth of interp's own process during a case."""
    steps: int = Field(default=2_000_000, gt=0)
    """Evaluation step limit for embedded interpreters (per case)."""
    timeout_streak: int = Field(default=3, ge=0)
    """Give up a predicate after this many failed cases in a row (its other cases unknown;
    0: never).

    Failed means no verdict for want of resources or rights (``FAILURE_KINDS``: a timeout, out
    of memory, a stack overflow, a worker that died, a forbidden action); the engine stops
    evaluating that predicate. Once one predicate is given up, one such failure is enough for
    the other."""


OVERFLOW_REASON = "arithmetic overflow"
"""The start of a ``threw`` outcome's reason where a backend that checks its reference's
arithmetic found an overflow: the input is outside the code's domain, and a recorded output
there is a wrapped value."""


class ReferenceOutcome(BaseModel):
    """What the task's reference implementation did on one input (``reference_outcomes``).

    The kinds are kept apart because they prove different things: ``returned`` gives a right
    output of a valid input; ``threw`` (the method itself raised an exception) says the input
    is outside its domain; ``timeout`` and ``failed`` (a crash, out of memory, a stack
    overflow, a refused action, our own trouble) say nothing about the input at all."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: str
    """``returned``, ``threw``, ``timeout`` or ``failed``."""
    output: dict[str, Any] | None = None
    """The output under the task's names, for ``returned``."""
    reason: str = ""
    """The exception's class (``threw``) or why no outcome (``failed``, ``timeout``)."""

    @property
    def overflowed(self) -> bool:
        """The reference's checked arithmetic overflowed (a ``threw`` of its own kind)."""
        return self.kind == "threw" and self.reason.startswith(OVERFLOW_REASON)


class ReferenceSession:
    """``Backend.reference_session``'s default: each batch through ``reference_outcomes``."""

    stateless: bool = False
    """The backend knows that the reference keeps nothing from one input to the next, so an
    input's outcome does not depend on the batch it runs in or on what ran before: a caller
    may split, order and defer its inputs as it likes. False when not known."""

    def __init__(self, backend: Backend, task: Task, limits: Limits | None = None) -> None:
        self.backend, self.task, self.limits = backend, task, limits

    def outcomes(self, inputs: list[dict[str, Any]], limits: Limits | None = None
                 ) -> list[ReferenceOutcome] | None:
        """What the reference did on each input (None: the backend runs no reference);
        ``limits`` overrides the session's for this batch (``case_seconds``)."""
        return self.backend.reference_outcomes(self.task, inputs, limits or self.limits)

    def close(self) -> None:
        return None

    def __enter__(self) -> ReferenceSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


TIMEOUT = "timeout"
OUT_OF_MEMORY = "out of memory"
STACK_OVERFLOW = "stack overflow"
WORKER_DIED = "worker died"
FORBIDDEN = "forbidden"
FAILURE_KINDS = (TIMEOUT, OUT_OF_MEMORY, STACK_OVERFLOW, WORKER_DIED, FORBIDDEN)
"""The ways a case fails to produce a verdict that repeat for the same reason on the next
case (the spec's helper loops, allocates without bound, recurses without end, kills its
worker, or does what the sandbox refuses). Undefined values and exceptions are not among
them: they are the language's own outcome for one case and say nothing about the next."""

_RAN_OUT = {TIMEOUT: "ran out of its case budget (time or steps)", OUT_OF_MEMORY: "ran out of memory",
            STACK_OVERFLOW: "overflowed its stack", WORKER_DIED: "killed its worker",
            FORBIDDEN: "attempted a forbidden action"}


class FailureStreak:
    """Stop paying for a predicate that keeps failing the same way.

    A spec whose helper loops forever costs the full case timeout on every case (206 cases x
    10 s on one SpecGenBench task), and one that allocates without bound pays a full heap and
    a worker restart on every case (824 post cases, 241 s). After ``Limits.timeout_streak``
    failures in a row on one predicate, the rest of that predicate's cases are not run and say
    why. Engines call ``skip_reason`` before each case and ``note`` after each case they ran,
    with the case's failure kind (one of ``FAILURE_KINDS``) or None when it gave a verdict
    (or an unknown of the language's semantics)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.run: dict[str, list[str]] = {}

    def note(self, predicate: str, failure: str | bool | None) -> None:
        """``failure``: the kind, None for a case that finished. ``True`` means a timeout
        (engines that only knew timeouts; ``False`` is None)."""
        kind = TIMEOUT if failure is True else (failure or None)
        if kind is not None and kind not in FAILURE_KINDS:
            raise ValueError(f"unknown failure kind {kind!r} (one of {FAILURE_KINDS})")
        if kind is None:
            self.run[predicate] = []
        else:
            self.run.setdefault(predicate, []).append(kind)

    def skip_reason(self, predicate: str) -> str | None:
        """Why this predicate's next case is not run, or None to run it.

        Once one predicate has been given up, a single failure is enough for the other: a
        looping helper is usually shared by both (measured on SpecGenBench: a helper looping in
        both clauses cost 74 s with 3 + 3 timeouts of 10 s, 3 + 1 keeps it under a minute)."""
        kinds = self.run.get(predicate, [])
        n = len(kinds)
        if self.limit <= 0 or n == 0:
            return None
        other = any(k != predicate and len(v) >= self.limit for k, v in self.run.items())
        if n < self.limit and not other:
            return None
        also = ("; the other predicate was already given up" if other and n < self.limit
                else "")
        seen = list(dict.fromkeys(kinds))
        row = f"{n} case{'s' if n > 1 else ''} in a row"
        what = f"{_RAN_OUT[seen[0]]} on {row}" if len(seen) == 1 else \
            f"failed on {row} ({', '.join(f'{kinds.count(k)} x {k}' for k in seen)})"
        return (f"not evaluated: the {predicate}condition {what}, so its remaining cases "
                f"are skipped{also} (--timeout-streak {self.limit})")




class LoadedSpec(BaseModel):
    """A spec that passed the backend's front end; ``data`` is the backend's own parse."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    backend: str
    task_id: str
    text: str
    """The spec text as given."""
    normalized: str
    """Text with comments and layout normalised: the cache key part for the spec."""
    path: str | None = None
    data: Any = None


@runtime_checkable
class Engine(Protocol):
    """One way of deciding a spec's predicates on concrete cases.

    ``check`` returns one verdict per case, in order. Per-case trouble (panic, timeout,
    undefined value, a construct outside the engine's fragment) is an ``unknown`` verdict with
    a reason, never an exception. An engine that cannot compile a spec the front end accepted
    raises ``SpecInvalid`` (``engine`` set, line of the spec's own text): the runner turns that
    into ``unknown`` for the engine's cases, because only the front end may call a spec invalid.
    ``EngineUnavailable`` means the engine cannot run here.
    """

    name: str

    def info(self) -> EngineInfo:
        """Name, version, availability with the reason, default-chain membership, fidelity
        rank and capabilities."""
        ...

    def check(self, spec: LoadedSpec, task: Task, cases: Sequence[Case], limits: Limits
              ) -> list[Verdict]:
        ...


@runtime_checkable
class Verifier(Protocol):
    """Proves a spec's contracts against the method's real body (verification rate).

    Verification says whether a body meets a contract, never whether the contract is strong
    enough: ``adequacy verify`` prints it next to the adequacy metrics for that reason.
    """

    name: str

    def info(self) -> EngineInfo:
        ...

    def verify(self, spec: LoadedSpec, task: Task, limits: Limits) -> VerifyResult:
        """Never raises for the spec's own faults: a proof that cannot be attempted is a
        result ``unknown`` with the reason in ``summary``."""
        ...


class Backend:
    """One specification language; what the plugin hook ``adequacy_backends`` returns.

    Subclass it and set ``name``, ``language``, ``task_files`` and implement ``engines`` and
    ``load_spec``. Every other method is an optional capability with a typed default meaning
    "this backend has none", so core, the optimizers and the gym call it without probing, and a
    minimal backend is the two methods above.
    """

    name: str
    language: str
    """Task language this backend scores (``language`` key of task.toml)."""
    task_files: TaskFiles
    """The files a task of this language holds besides the common ones (its skeleton) and the
    keys allowed in its ``[<language>]`` table of task.toml."""
    example_dir: Path | None = None
    """Folder of bundled example tasks (each a folder with task.toml and ``specs/gold.*``):
    few-shot demonstrations. None: the backend bundles none."""
    gold_dir: Path | None = None
    """Folder of known-good specs of imported tasks, one ``<task id>.<spec ext>`` each (a
    dataset's golds, bundled with the backend). None: a task's own gold only."""
    environment: tuple[str, ...] = ()
    """Variables of the user's environment the backend's tools read (where a runtime is
    installed): forwarded to remote workers so they build the same keys and find the same
    tools. Every other variable stays behind."""
    gym_example_dir: Path | None = None
    """Folder of worked-example tasks (each with a gold spec) that ``gym make`` puts in an
    agent's folder; never tasks of a batch. None: the backend ships none."""

    def engines(self) -> list[Engine]:
        """All engines in default-chain order (available or not: ``info()`` says)."""
        raise NotImplementedError

    def load_spec(self, task: Task, text: str, path: str | None = None) -> LoadedSpec:
        """Parse and check a spec against its task; raise ``SpecInvalid`` with file:line."""
        raise NotImplementedError

    # -- optional capabilities -------------------------------------------------------------

    def verifiers(self) -> list[Verifier]:
        """Provers of the language (``adequacy verify``, the gym's ``verify`` tool, Houdini)."""
        return []

    def check_task(self, task: Task) -> None:
        """Raise TaskError (file:line) for what ``score`` would refuse in the task itself before
        reading any spec (its code does not read, the method it names is missing), so that
        ``adequacy task validate`` cannot say ok where ``score`` exits 2. Default: nothing."""
        return None

    def prepare(self) -> str | None:
        """Build or fetch what the engines need ahead of time (``adequacy setup``); a one-line
        summary, None when there is nothing to prepare; BackendError saying what to install."""
        return None

    def container_recipe(self) -> ContainerRecipe | None:
        """What an image needs to grade this language's specs (``adequacy export harbor``);
        None: the language's tasks cannot be exported to a container."""
        return None

    def run_reference(self, task: Task, inputs: list[dict[str, Any]],
                      limits: Limits | None = None) -> list[dict[str, Any] | None] | None:
        """Outputs of the task's reference implementation on ``inputs`` (mutator oracles), None
        per input that failed; None as a whole when the backend cannot run references."""
        return None

    def runs_references(self) -> bool:
        """Whether ``run_reference`` is implemented (decided before paying for oracles)."""
        return type(self).run_reference is not Backend.run_reference

    def reference_outcomes(self, task: Task, inputs: list[dict[str, Any]],
                           limits: Limits | None = None) -> list[ReferenceOutcome] | None:
        """What the reference did on each input, telling a thrown exception from a timeout or
        a crash (generated cases: only the first says an input is invalid). The default asks
        ``run_reference`` and so can say only ``returned`` or ``failed``."""
        outs = self.run_reference(task, inputs, limits)
        if outs is None:
            return None
        return [ReferenceOutcome(kind="returned", output=o) if isinstance(o, dict)
                else ReferenceOutcome(kind="failed", reason="the reference gave no output")
                for o in outs]

    def spec_mutants(self, task: Task, text: str, operators: Collection[str] | None = None
                     ) -> list[SpecMutant]:
        """One-change mutants of ``text`` (a spec of ``task`` the front end accepts), made on
        the language's own syntax tree with the operators of ``SPEC_OPERATORS`` this language
        has (``operators``: only these; an unknown name is a ``ValueError``). Each mutant is
        the whole file; the front end judges it like any spec (a mutant it refuses is
        ``invalid``, never counted as killed). Default: none (``adequacy task strength``
        says the language offers no spec mutants)."""
        return []

    def spec_mutation_operators(self) -> list[str]:
        """The ``SPEC_OPERATORS`` keys ``spec_mutants`` implements (for listings)."""
        return []

    def program_mutants(self, task: Task, operators: Collection[str] | None = None
                        ) -> list[ProgramMutant]:
        """One-change mutants of the task's own reference program in the language's code (a
        Java method, a Python ``solution.py``), with the operators of ``PROGRAM_OPERATORS``;
        run them with ``program_outcomes``. Not for a task's ``reference/reference.py``,
        which core mutates and runs itself. Default: none."""
        return []

    def program_outcomes(self, task: Task, mutant: ProgramMutant,
                         inputs: list[dict[str, Any]], limits: Limits | None = None
                         ) -> list[ReferenceOutcome] | None:
        """What ``mutant`` (one of ``program_mutants``) did on each input, as
        ``reference_outcomes`` says it for the reference, in the same sandbox; a mutant that
        does not compile or load gives ``failed`` outcomes. None: not supported."""
        return None

    def reference_session(self, task: Task, limits: Limits | None = None) -> ReferenceSession:
        """A runner of the task's reference for several batches of inputs, each batch answered
        as ``reference_outcomes`` answers it (the reference's own state fresh at each batch);
        close it (or use it as a context manager) when done. A backend whose references need
        a start-up (a compile, a JVM) pays it once per session. Default: one
        ``reference_outcomes`` call per batch."""
        return ReferenceSession(self, task, limits)

    def implicit_invalid(self, task: Task, inp: dict[str, Any]) -> str | None:
        """Why ``inp`` breaks a precondition that every spec of the language states without
        writing it (a default of the language), or None. Generated invalid inputs use it as an
        oracle; the default language has no such rule."""
        return None

    def new_skeleton(self, task_dir: Path) -> tuple[str, str] | None:
        """(file name, text) of the skeleton a task's task.toml implies (``adequacy task new``);
        TaskError (file:line) on a schema the language cannot express; None: not supported."""
        return None

    def task_from_program(self, program: Path, function: str, dest: Path,
                          task_id: str | None = None, extra: Sequence[Path] = ()) -> str | None:
        """Write a task folder at ``dest`` from an annotated program (``adequacy task from``):
        the signature of ``function``, its clauses as ``specs/original.*``, cases from the
        program's own tests. ``extra``: other files of the program it uses. Returns a one-line
        summary; TaskError (file:line) when the program is out of reach (saying why); None: the
        language does not support it."""
        return None

    def type_fragment_problem(self, task: Task) -> str | None:
        """Why a task with ``task``'s declared types should not be built by an importer that
        wants every engine of the language to evaluate its cases (a type outside an engine's
        fragment, e.g. one the compiled engine cannot take as a field); None: fine. Default:
        None."""
        return None

    def smt_encoder(self) -> SmtEncoder | None:
        """The language's specs as Z3 terms (``adequacy.extensions.symbolic.SmtEncoder``), for
        symbolic questions answered by core's Z3 driver; None: the backend has no encoding."""
        return None

    def symbolic(self) -> Symbolic | None:
        """Answers to symbolic questions in the backend's own way
        (``adequacy.extensions.symbolic.Symbolic``: an input where two specs differ, an output a
        postcondition admits, a case decided), e.g. with another solver or a symbolic
        executor. None (the default): core answers them with its Z3 driver over
        ``smt_encoder()`` when there is one (``adequacy.symbolic.capability.symbolic_of``)."""
        return None

    def gym_texts(self) -> GymTexts | None:
        """An agent's instructions and language notes for gym folders; None: generic ones."""
        return None

    def writer_texts(self) -> WriterTexts:
        """What spec writers are told about the language (prompts, fences, file extension)."""
        return WriterTexts()

    def spec_from_answer(self, task: Task, answer: str) -> str:
        """The whole spec file for ``task`` from a model's answer (``ExtractionError`` saying
        what is missing). The default takes the last fenced block as the file."""
        from adequacy.extensions.answers import whole_file

        return whole_file(answer)

    def renderable_clauses(self, task: Task, clauses: Sequence[Clause]) -> list[Clause]:
        """The template clauses this language can write for ``task`` (none by default: a
        backend without ``render_clauses`` gets no template specs)."""
        return []

    def render_clauses(self, task: Task, clauses: Sequence[Clause]) -> str:
        """A whole spec file stating ``clauses`` (pre clauses conjoined into the precondition,
        post clauses into the postcondition); ``ExtractionError`` when not supported."""
        from adequacy.errors import ExtractionError

        raise ExtractionError(f"the {self.name} backend writes no template specs")

    def clause_text(self, clause: Clause) -> str:
        """One clause in the language, for notes a writer prints."""
        return repr(clause.atom)

    def may_be_null(self, t: Type) -> bool:
        """Whether a value of ``t`` may be null in the language (template writers then guard
        it with a non-null clause)."""
        return False

    def example_tasks(self) -> list[Path]:
        """Folders of bundled example tasks with gold specs (few-shot demonstrations): the task
        folders in ``example_dir``, sorted."""
        folder = self.example_dir
        if folder is None or not folder.is_dir():
            return []
        return sorted(d for d in folder.iterdir() if (d / "task.toml").is_file())

    def gold_spec(self, task: Task) -> str | None:
        """A known-good spec of ``task``, for demonstrations: its own ``specs/gold.<ext>``,
        else ``gold_dir/<task id>.<ext>`` (an imported dataset's gold)."""
        ext = self.writer_texts().spec_ext
        candidates = [task.root / "specs" / f"gold.{ext}"]
        if self.gold_dir is not None:
            candidates.append(self.gold_dir / f"{task.id}.{ext}")
        for p in candidates:
            if p.is_file():
                return p.read_text(encoding="utf-8")
        return None


def engine_named(backend: Backend, name: str) -> Engine:
    """The backend's engine called ``name`` (BackendError naming the known ones)."""
    engines = backend.engines()
    for e in engines:
        if e.name == name:
            return e
    raise BackendError(f"backend {backend.name!r} has no engine {name!r} (engines: "
                       f"{', '.join(e.name for e in engines)})")


def verifiers_of(backend: Backend) -> list[Verifier]:
    return list(backend.verifiers())


__all__ = ["Backend", "CAPABILITIES", "Engine", "EngineInfo", "FAILURE_KINDS", "FORBIDDEN",
           "FailureStreak", "Limits", "LoadedSpec", "OUT_OF_MEMORY", "ProgramMutant",
           "ReferenceOutcome", "ReferenceSession", "STACK_OVERFLOW", "SpecMutant",
           "TIMEOUT", "Verifier", "WORKER_DIED", "engine_named", "verifiers_of"]

