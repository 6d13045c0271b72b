"""The JML backend (Spec-Harness half of the product): one front end, three engines.

The front end (``jml/``: parse, implicit clauses, name resolution) is the only place a spec can
be called invalid. The engines (``engines/``) evaluate the front end's spec cases: ``rac``
(runtime checking in a JVM, the default chain), ``openjml`` (OpenJML's static checker on
stubs, opt-in, most faithful when installed) and ``key`` (the KeY prover on stubs, opt-in). KeY
also proves a spec against the method body (``verifiers``, ``adequacy verify``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adequacy.plugin import (
    Backend,
    BackendError,
    Clause,
    ContainerRecipe,
    Engine,
    EngineRow,
    Limits,
    LoadedSpec,
    ProgramMutant,
    ReferenceOutcome,
    SeqType,
    SpecMutant,
    StringType,
    Task,
    TaskFiles,
    Type,
    Verifier,
    WriterTexts,
    hookimpl,
    load_engines,
)

from .jdk import JAVA_ENV

# The front end and the workers are imported when first used: loading the plugin (every
# command that needs any backend does) must not pay for their imports.
#: (name, module relative to this package, class, default chain, fidelity), in chain order:
#: rac first; openjml and key are opt-in. Each engine module is imported when the engines are
#: asked for, one at a time, so a broken one is listed unavailable and the others still run.
ENGINES: tuple[EngineRow, ...] = (
    ("rac", ".engines.rac.engine", "RacEngine", True, 20),
    ("smt", ".smt.engine", "JmlSmtEngine", True, 15),
    ("openjml", ".engines.openjml.driver", "OpenJmlEngine", False, 30),
    ("key", ".engines.key.engine", "KeyEngine", False, 10))

EXAMPLES = Path(__file__).resolve().parent / "examples"
"""Bundled with the package: example tasks, a dataset's gold specs, the gym's worked example."""

if TYPE_CHECKING:
    from adequacy.plugin import GymTexts, SmtEncoder

JML_FILES = TaskFiles(skeleton="Solution.java",
                      settings=("class", "method", "static", "post_state", "post_fields", "java_params",
                                "java_return"),
                      empty_skeleton="it must hold the method the spec annotates")


class OpenJmlBackend(Backend):
    name = "openjml"
    language = "jml"
    task_files = JML_FILES
    example_dir = EXAMPLES / "jml"
    gold_dir = EXAMPLES / "sgb-gold"
    gym_example_dir = EXAMPLES / "gym"
    environment = JAVA_ENV

    def smt_encoder(self) -> SmtEncoder:
        """JML specs as Z3 terms (``smt/``): the symbolic questions and the ``smt`` engine."""
        from .smt import JmlSmtEncoder

        return JmlSmtEncoder()

    def engines(self) -> list[Engine]:
        """Default-chain order (``ENGINES``)."""
        return load_engines(__package__, ENGINES)

    def verifiers(self) -> list[Verifier]:
        from .engines.key.verify import KeyVerifier

        return [KeyVerifier()]

    def container_recipe(self) -> ContainerRecipe:
        """rac needs a JDK (Debian's default, 17 or newer) and its worker compiled by
        ``adequacy setup``; KeY and OpenJML stay out of the image."""
        return ContainerRecipe(apt=("default-jdk-headless",), prepare=True, engines=("rac",))

    def prepare(self) -> str:
        """Compile the rac worker and build the KeY worker jar now (``adequacy setup``) rather
        than at the first check. KeY is optional: without Maven or Java 17 the summary says so
        and setup goes on."""
        from .engines.key import build as key_build
        from .engines.rac.worker import build_dir

        done = [f"rac worker compiled: {build_dir()}"]
        try:
            done.append(f"KeY worker built: {key_build.build()}")
        except BackendError as e:
            done.append(f"KeY worker not built (the key engine stays unavailable): {e}")
        return "; ".join(done)

    def gym_texts(self) -> GymTexts:
        """An agent's instructions and language notes for JML tasks (the gym)."""
        from .gym_texts import gym_texts

        return gym_texts()

    def writer_texts(self) -> WriterTexts:
        from .writing import TEXTS

        return TEXTS

    def spec_from_answer(self, task: Task, answer: str) -> str:
        from .writing import jml_spec

        return jml_spec(task, answer)

    def renderable_clauses(self, task: Task, clauses: Sequence[Clause]) -> list[Clause]:
        from .writing import renderable

        return renderable(task, clauses)

    def render_clauses(self, task: Task, clauses: Sequence[Clause]) -> str:
        from .writing import jml_file

        return jml_file(task, clauses)

    def clause_text(self, clause: Clause) -> str:
        from .writing import Jml

        return Jml.atom(clause.atom)

    def may_be_null(self, t: Type) -> bool:
        """Java strings and arrays are references (JML's non_null default aside, a template
        states it)."""
        return isinstance(t, StringType) or isinstance(t, SeqType) and t.kind == "array"

    def task_from_program(self, program: Path, function: str, dest: Path,
                          task_id: str | None = None, extra: Sequence[Path] = ()) -> str:
        from .task_from import convert

        done = convert(program, function, dest, task_id, extra=extra)
        return (f"{dest}: {done.cases} valid input(s) with the method's results, "
                f"{done.invalid} outside its precondition, of {done.drawn} drawn")

    def new_skeleton(self, task_dir: Path) -> tuple[str, str]:
        """``Solution.java`` declaring the method as task.toml types it (``adequacy task
        new``); its body, the reference implementation, is left to write."""
        from .skeleton import solution_java

        return JML_FILES.skeleton, solution_java(task_dir)

    def load_spec(self, task: Task, text: str, path: str | None = None) -> LoadedSpec:
        from .jml.load import load

        spec = load(task, text, path)
        return LoadedSpec(backend=self.name, task_id=task.id, text=text,
                          normalized=spec.source.normalized(), path=path, data=spec)

    def check_task(self, task: Task) -> None:
        """The checks every ``score`` runs on the task's own code (``jml.load.check_task``)."""
        from .jml.load import check_task
        check_task(task)

    def run_reference(self, task: Task, inputs: list[dict[str, Any]],
                      limits: Limits | None = None) -> list[dict[str, Any] | None]:
        """Outputs ``{"result": value}`` of the task's own method (the mutators' oracle);
        None where the method threw, timed out or crashed."""
        from .engines.rac import engine as rac

        return rac.run_reference(rac.reference_unit(task), task, inputs, limits or Limits())

    def reference_outcomes(self, task: Task, inputs: list[dict[str, Any]],
                           limits: Limits | None = None) -> list[ReferenceOutcome]:
        """The task's own method on each input in the sandboxed JVM: returned, threw (an
        exception of the method, not an error of the JVM), timed out or failed."""
        from .engines.rac import engine as rac

        return rac.reference_outcomes(rac.reference_unit(task), task, inputs,
                                      limits or Limits())

    def spec_mutation_operators(self) -> list[str]:
        from .jml.mutation import OPERATORS

        return list(OPERATORS)

    def spec_mutants(self, task: Task, text: str, operators: Collection[str] | None = None
                     ) -> list[SpecMutant]:
        """One-change mutants of the method's requires/ensures clauses, on our JML syntax
        tree written back as text edits (``jml/mutation.py``); Java code is left alone."""
        from .jml.mutation import spec_mutants

        return spec_mutants(task, text, operators)

    def program_mutants(self, task: Task, operators: Collection[str] | None = None
                        ) -> list[ProgramMutant]:
        """One-change mutants of the task's Java method body (``program_mutation.py``)."""
        from .program_mutation import program_mutants

        return program_mutants(task, operators)

    def program_outcomes(self, task: Task, mutant: ProgramMutant,
                         inputs: list[dict[str, Any]], limits: Limits | None = None
                         ) -> list[ReferenceOutcome]:
        """The mutant run as the reference is: javac with checked arithmetic, a sandboxed
        JVM."""
        from .program_mutation import program_outcomes

        return program_outcomes(task, mutant, inputs, limits or Limits())

    def reference_session(self, task: Task, limits: Limits | None = None) -> Any:
        """One compile and one sandboxed JVM for every batch (``rac.ReferenceSession``: the
        reference's classes reloaded per batch, so each batch starts from fresh statics)."""
        from .engines.rac.reference import JvmReferenceSession

        return JvmReferenceSession(task, limits or Limits())

    def implicit_invalid(self, task: Task, inp: dict[str, Any]) -> str | None:
        """JML's non-null default (JML RM 2.8): a null String or array argument breaks every
        spec case's implicit ``p != null``, unless the task's code says ``nullable`` anywhere
        (a ``nullable`` parameter or a ``nullable_by_default`` class opts out)."""
        nulls = [p.name for p in task.inputs
                 if inp.get(p.name, 0) is None and self.may_be_null(p.type)]
        if not nulls:
            return None
        try:
            code = task.skeleton
        except Exception:  # noqa: BLE001 - an unreadable skeleton: claim nothing
            return None
        if "nullable" in code:
            return None
        return f"null {', '.join(nulls)} (JML references are non-null by default)"


@hookimpl
def adequacy_backends() -> list[Any]:
    return [OpenJmlBackend()]
