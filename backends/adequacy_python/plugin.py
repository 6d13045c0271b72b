"""The Python backend as a plugin: Python contracts on a task's function.

Everything comes from ``adequacy.plugin`` (the public plugin API): a front end
(``frontend``), the ``exec`` engine (``engine``: Python's own semantics in a sandboxed
interpreter), CrossHair as a verifier (``crosshair_verify``), the writers' and the gym's texts
(``writing``, ``gym_texts``), skeletons and tasks from Python functions (``skeleton``,
``task_from``), references run in the sandbox (``reference``) and the HumanEval importer
(``importers.humaneval``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

from adequacy.plugin import (
    Backend,
    BackendError,
    Clause,
    Engine,
    GymTexts,
    Importer,
    Limits,
    LoadedSpec,
    ProgramMutant,
    ReferenceOutcome,
    SpecMutant,
    Task,
    TaskError,
    TaskFiles,
    Type,
    Verifier,
    WriterTexts,
    hookimpl,
)

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE / "examples"

PYTHON_FILES = TaskFiles(skeleton="skeleton.py", spec_file="spec.py", settings=("function",),
                         empty_skeleton="`adequacy task new` writes it from task.toml")


class PythonBackend(Backend):
    """Python specs: ``pre``/``post`` functions, an assert block, or icontract/deal
    decorators on the task's function."""

    name = "python"
    language = "python"
    task_files = PYTHON_FILES
    example_dir = EXAMPLES
    gold_dir = EXAMPLES / "humaneval-gold"
    gym_example_dir = EXAMPLES / "gym"
    environment = ("ADEQUACY_PYTHON",)

    def engines(self) -> list[Engine]:
        from .engine import ExecEngine

        return [ExecEngine()]

    def verifiers(self) -> list[Verifier]:
        from .crosshair_verify import CrossHairVerifier

        return [CrossHairVerifier()]

    def symbolic(self) -> Any:
        """Symbolic answers (``diff --symbolic``, symbolic ``explore``) from CrossHair's
        ``diffbehavior`` and contract search, not from an encoding into Z3; None without
        CrossHair."""
        from . import crosshair_run
        from .crosshair_symbolic import CrossHairSymbolic

        return None if crosshair_run.available() else CrossHairSymbolic()

    def load_spec(self, task: Task, text: str, path: str | None = None) -> LoadedSpec:
        from . import frontend

        return frontend.load_spec(task, text, path, self.name)

    def check_task(self, task: Task) -> None:
        """Every declared type must have one Python reading (no structs, hashable set
        elements and dict keys, no option of an option)."""
        from . import frontend

        frontend.check_task(task)

    def type_fragment_problem(self, task: Task) -> str | None:
        from .pytypes import problem

        for p in [*task.inputs, *task.outputs]:
            why = problem(p.type)
            if why:
                return f"{p.name}: {why}"
        return None

    def prepare(self) -> str:
        """Find the worker's interpreter, stage the worker's files where sandboxed children
        can read them, and start one worker (``adequacy setup``)."""
        from . import sandboxing
        from .workers import HeldWorker

        interp = sandboxing.interpreter()
        if isinstance(interp, str):
            raise BackendError(f"no Python for the exec engine: {interp}")
        w = HeldWorker(Limits(), None, "python worker (setup)")
        try:
            w.start()
        finally:
            w.stop()
        from . import crosshair_run

        ch = crosshair_run.available() or f"crosshair ready ({crosshair_run.version()})"
        return (f"exec ready (Python {interp.version}, {interp.executable}, worker files in "
                f"{sandboxing.staged_runtime()}); {ch}")

    def runs_references(self) -> bool:
        return True

    def run_reference(self, task: Task, inputs: list[dict[str, Any]],
                      limits: Limits | None = None) -> list[dict[str, Any] | None]:
        outcomes = self.reference_outcomes(task, inputs, limits)
        return [o.output if o.kind == "returned" else None for o in outcomes]

    def reference_outcomes(self, task: Task, inputs: list[dict[str, Any]],
                           limits: Limits | None = None) -> list[ReferenceOutcome]:
        """The task's function (``reference/solution.py``) on each input in the sandbox:
        returned, threw (an exception of the function), timed out or failed."""
        from .reference import reference_outcomes

        return reference_outcomes(task, inputs, limits or Limits())

    def spec_mutation_operators(self) -> list[str]:
        from .mutation import OPERATORS

        return list(OPERATORS)

    def spec_mutants(self, task: Task, text: str, operators: Collection[str] | None = None
                     ) -> list[SpecMutant]:
        """One-change mutants on Python's ``ast`` (``mutation.py``)."""
        from .mutation import spec_mutants
        from .reference import function_name

        return spec_mutants(task, text, function_name(task), operators)

    def program_mutants(self, task: Task, operators: Collection[str] | None = None
                        ) -> list[ProgramMutant]:
        """Mutants of ``reference/solution.py``'s function and the helpers it calls."""
        from .mutation import program_mutants
        from .reference import REFERENCE_FILE, function_name, reference_path

        path = reference_path(task)
        if not path.is_file():
            return []
        return program_mutants(task, path.read_text(encoding="utf-8"),
                               f"reference/{REFERENCE_FILE}", function_name(task), operators)

    def program_outcomes(self, task: Task, mutant: ProgramMutant,
                         inputs: list[dict[str, Any]], limits: Limits | None = None
                         ) -> list[ReferenceOutcome]:
        """The mutant in the reference's sandboxed worker, run once (its outputs are compared
        with the reference's, which ran twice)."""
        from .reference import reference_outcomes

        try:
            return reference_outcomes(task, inputs, limits or Limits(), twice=False,
                                      source=mutant.source)
        except TaskError as e:
            return [ReferenceOutcome(kind="failed", reason=f"the mutant does not load: {e}")
                    ] * len(inputs)

    def new_skeleton(self, task_dir: Path) -> tuple[str, str]:
        from .skeleton import skeleton_for_folder

        return PYTHON_FILES.skeleton, skeleton_for_folder(task_dir)

    def task_from_program(self, program: Path, function: str, dest: Path,
                          task_id: str | None = None, extra: Sequence[Path] = ()) -> str:
        from .task_from import convert

        if extra:
            raise TaskError("a Python function's task is made from one file: --with is for "
                            "languages whose programs span files", file=str(program))
        return convert(program, function, dest, task_id)

    def gym_texts(self) -> GymTexts:
        from .gym_texts import gym_texts

        return gym_texts()

    def writer_texts(self) -> WriterTexts:
        from .writing import TEXTS

        return TEXTS

    def spec_from_answer(self, task: Task, answer: str) -> str:
        from .writing import python_spec

        return python_spec(task, answer)

    def renderable_clauses(self, task: Task, clauses: Sequence[Clause]) -> list[Clause]:
        from .writing import renderable

        return renderable(task, clauses)

    def render_clauses(self, task: Task, clauses: Sequence[Clause]) -> str:
        from .writing import python_file

        return python_file(task, clauses)

    def clause_text(self, clause: Clause) -> str:
        from .writing import Py

        return Py.atom(clause.atom)

    def may_be_null(self, t: Type) -> bool:
        """``None`` is a value of options, nullables and arrays."""
        from .writing import may_be_null

        return may_be_null(t)


@hookimpl
def adequacy_backends() -> list[Backend]:
    return [PythonBackend()]


@hookimpl
def adequacy_importers() -> list[Importer]:
    from .importers.humaneval import HumanEvalImporter

    return [HumanEvalImporter()]
