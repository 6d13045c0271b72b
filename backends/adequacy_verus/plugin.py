"""The Verus backend as a plugin: the ``adequacy_backends`` hook and the ``VerusBackend`` class.

The backend is a front end plus a list of engines: the front end (``frontend``) parses and
polices a spec once, and each engine package (``interp``, ``exec_spec``, ``verus_driver``)
provides an object with the ``adequacy.extensions.backend.Engine`` surface. Engine modules are imported
lazily, one at a time, so that a broken or absent engine never stops the others (or
``adequacy backends``) from working: it is listed unavailable with the import error.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from adequacy.plugin import (
    Backend,
    BackendError,
    Clause,
    ContainerRecipe,
    Engine,
    EngineRow,
    Limits,
    LoadedSpec,
    SpecInvalid,
    SpecMutant,
    Task,
    TaskError,
    TaskFiles,
    Verifier,
    WriterTexts,
    hookimpl,
    load_engines,
)

EXAMPLES = Path(__file__).resolve().parent / "examples"
"""Bundled with the package: example tasks, a dataset's gold specs, the gym's worked example."""

if TYPE_CHECKING:
    from adequacy.plugin import GymTexts, SmtEncoder

    from .interp.compiler import Program
    from .syntax.ast import SpecModule

#: (name, module relative to this package, class, default chain, fidelity), in chain order:
#: the one place each engine's default-chain membership and rank are declared.
ENGINES: tuple[EngineRow, ...] = (("interp", ".interp.engine", "InterpEngine", True, 20),
           ("exec_spec", ".exec_spec.engine", "ExecSpecEngine", True, 10),
           ("smt", ".smt.engine", "VerusSmtEngine", True, 15),
           ("verus", ".verus_driver.engine", "VerusEngine", False, 30))


class VerusBackend(Backend):
    """Verus specs (``pre_spec``/``post_spec`` over a task's ``Input``/``Output`` structs)."""

    name = "verus"
    language = "verus"
    task_files = TaskFiles(skeleton="skeleton.rs", spec_file="spec.rs",
                           settings=("rlimit", "lean_signature"),
                           empty_skeleton="`adequacy task new` writes it from task.toml")
    example_dir = EXAMPLES / "verus"
    gold_dir = EXAMPLES / "verina-gold"
    gym_example_dir = EXAMPLES / "gym"

    def engines(self) -> list[Engine]:
        return load_engines(__package__, ENGINES)

    def verifiers(self) -> list[Verifier]:
        """The ``verus`` binary proving the spec against the task's ``reference/reference.rs``
        (listed even when not installed: its ``info()`` says what to install)."""
        from .verus_driver.verifier import VerusVerifier

        return [VerusVerifier()]

    def load_spec(self, task: Task, text: str, path: str | None = None) -> LoadedSpec:
        from . import frontend
        from .interp import compile_module, run_deep
        from .loaded import VerusSpec

        if task.language != "verus":
            raise BackendError(f"the verus backend scores verus tasks, not {task.language!r}")

        def front_end() -> tuple[SpecModule, Program]:
            try:
                spec = frontend.check_source(text, task.skeleton, path, str(task.skeleton_path))
            except SpecInvalid as e:
                if "is an exec fn" not in e.message:
                    raise
                from .contract_answer import how_to_convert

                how = how_to_convert(task, text, path)
                if how is None:
                    raise
                raise SpecInvalid(f"{e.message}: {how}", e.file, e.line, e.field,
                                  e.engine) from None
            # Resolve names now: a spec calling an undefined function is invalid (rustc would
            # reject it), not a spec whose every case is unknown.
            return spec, compile_module(spec, path)
        # In a fresh deep thread: the parser and compiler recurse once per nesting level (at
        # most syntax.parser.MAX_NESTING), whatever stack the caller has already used.
        spec, program = run_deep(front_end)
        return LoadedSpec(backend=self.name, task_id=task.id, text=text,
                          normalized=frontend.normalize(text), path=path,
                          data=VerusSpec(spec, program))

    def spec_mutation_operators(self) -> list[str]:
        from .mutation import OPERATORS

        return list(OPERATORS)

    def spec_mutants(self, task: Task, text: str, operators: Collection[str] | None = None
                     ) -> list[SpecMutant]:
        """One-change mutants on our Verus syntax tree, written back as text edits
        (``mutation.py``); parsed in a deep thread like the front end."""
        from .interp import run_deep
        from .mutation import spec_mutants

        return run_deep(lambda: spec_mutants(task, text, operators))

    def smt_encoder(self) -> SmtEncoder:
        """Verus specs as Z3 terms (``smt/``): the symbolic questions and the ``smt`` engine."""
        from .smt import VerusEncoder

        return VerusEncoder()

    def gym_texts(self) -> GymTexts:
        """An agent's instructions and language notes for Verus tasks (the gym)."""
        from .gym_texts import gym_texts

        return gym_texts()

    def writer_texts(self) -> WriterTexts:
        from .writing import TEXTS

        return TEXTS

    def spec_from_answer(self, task: Task, answer: str) -> str:
        from .writing import verus_spec

        return verus_spec(task, answer)

    def renderable_clauses(self, task: Task, clauses: Sequence[Clause]) -> list[Clause]:
        from .writing import renderable

        return renderable(task, clauses)

    def render_clauses(self, task: Task, clauses: Sequence[Clause]) -> str:
        from .writing import verus_file

        return verus_file(task, clauses)

    def clause_text(self, clause: Clause) -> str:
        from .writing import Verus

        return Verus.atom(clause.atom)

    def type_fragment_problem(self, task: Task) -> str | None:
        """exec_spec's macro compiles only primitive integers, bool, char, strings, Seq, Set,
        Multiset, Map, Option, tuples and structs of them: an ``int`` or ``nat`` field (at any
        depth) is outside its fragment (docs/verus.md), so such a task is decided by interp
        alone."""
        import re

        word = re.compile(r"\b(int|nat)\b")
        fields = [(f"{part}.{p.name}", p.type_text) for part, ps in
                  (("input", task.inputs), ("output", task.outputs)) for p in ps]
        fields += [(f"struct {s}.{f}", t) for s, fs in task.structs.items() for f, t in fs.items()]
        for where, text in fields:
            m = word.search(text)
            if m:
                return (f"{where}: {text} holds {m.group(1)}, outside exec_spec's fragment "
                        "(its macro takes no unbounded integer as a field); declare a "
                        "fixed-width integer such as i64 or u64")
        return None

    def new_skeleton(self, task_dir: Path) -> tuple[str, str]:
        """(file name, text) of the skeleton the task's ``task.toml`` implies, for
        ``adequacy task new``; raises ``TaskError`` (file:line) on a bad schema."""
        from .skeleton import skeleton_for_folder

        return "skeleton.rs", skeleton_for_folder(task_dir)

    def task_from_program(self, program: Path, function: str, dest: Path,
                          task_id: str | None = None, extra: Sequence[Path] = ()) -> str:
        from .task_from import convert

        if extra:
            raise TaskError("a Verus program is one file: --with is for languages whose "
                            "programs span files", file=str(program))

        done = convert(program, function, dest, task_id)
        skipped = f"; {len(done.skipped_tests)} test(s) skipped" if done.skipped_tests else ""
        return f"{dest}: {done.cases} case(s) from the program's tests{skipped}"

    def container_recipe(self) -> ContainerRecipe:
        """interp is pure Python: an image needs nothing else to grade (exec_spec would need
        cargo and a vstd build, verus its release; neither is put in an image)."""
        return ContainerRecipe(engines=("interp",))

    def prepare(self) -> str:
        """Build vstd once into the shared cargo target directory (minutes cold, then cached),
        by compiling a one-case warm-up harness through the real exec_spec engine."""
        import tempfile

        from adequacy.plugin import Truth, load_task

        from .exec_spec.engine import ExecSpecEngine
        from .exec_spec.engine import check as exec_check
        from .skeleton import skeleton_for

        info = ExecSpecEngine().info()
        if not info.available:
            return f"exec_spec unavailable ({info.reason}); interp needs no preparation"
        with tempfile.TemporaryDirectory() as d:
            root = Path(d) / "warmup"
            (root / "tests").mkdir(parents=True)
            (root / "task.toml").write_text(
                'id = "warmup"\nlanguage = "verus"\n[signature.input]\nxs = "seq<i64>"\n'
                '[signature.output]\nresult = "i64"\n')
            (root / "tests" / "pre_complete.jsonl").write_text(
                '{"id": "a", "input": {"xs": [1, 2]}}\n')
            (root / "skeleton.rs").write_text("// replaced below\n")
            task = load_task(root)
            (root / "skeleton.rs").write_text(skeleton_for(task))
            spec = skeleton_for(task).replace(
                "fn pre_spec(input: Input) -> bool {\n    true",
                "fn pre_spec(input: Input) -> bool {\n    input.xs.len() == 2")
            [v] = exec_check(spec, task, task.all_cases(), Limits(spec_seconds=1800))
        if v.value != Truth.true:
            raise BackendError(f"the exec_spec warm-up harness answered {v.value.value}: "
                               f"{v.reason}")
        return f"exec_spec ready ({info.version})"


@hookimpl
def adequacy_backends() -> list[VerusBackend]:
    return [VerusBackend()]
