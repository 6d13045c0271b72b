"""The JML backend (Spec-Harness half of the product): one front end, three engines.

The front end (``jml/``: parse, implicit clauses, name resolution) is the only place a spec can
be called invalid. The engines (``engines/``) evaluate the front end's spec cases: ``rac``
(runtime checking in a JVM, the default chain), ``openjml`` (OpenJML's static checker on
stubs, opt-in, most faithful when installed) and ``key`` (the KeY prover on stubs, opt-in). KeY
also proves a spec against the method body (``verifiers``, ``adequacy verify``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from adequacy.backend import Engine, Limits, LoadedSpec, Verifier
from adequacy.errors import BackendError
from adequacy.hookspecs import hookimpl
from adequacy.tasks import Task, TaskFiles

from .engines.key import build as key_build
from .engines.key.engine import KeyEngine
from .engines.key.verify import KeyVerifier
from .engines.openjml.driver import OpenJmlEngine
from .engines.rac import engine as rac
from .engines.rac.engine import RacEngine
from .engines.rac.worker import build_dir
from .jml.load import load

if TYPE_CHECKING:
    from adequacy.gym.texts import GymTexts

JML_FILES = TaskFiles(skeleton="Solution.java",
                      settings=("class", "method", "static", "post_state", "java_params",
                                "java_return"),
                      empty_skeleton="it must hold the method the spec annotates")


class OpenJmlBackend:
    name = "openjml"
    language = "jml"
    task_files = JML_FILES

    def engines(self) -> list[Engine]:
        """Default-chain order: rac first; openjml and key are opt-in."""
        return [RacEngine(), OpenJmlEngine(), KeyEngine()]

    def verifiers(self) -> list[Verifier]:
        return [KeyVerifier()]

    def prepare(self) -> str:
        """Compile the rac worker and build the KeY worker jar now (``adequacy setup``) rather
        than at the first check. KeY is optional: without Maven or Java 17 the summary says so
        and setup goes on."""
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

    def new_skeleton(self, task_dir: Path) -> tuple[str, str]:
        """``Solution.java`` declaring the method as task.toml types it (``adequacy task
        new``); its body, the reference implementation, is left to write."""
        from .skeleton import solution_java

        return JML_FILES.skeleton, solution_java(task_dir)

    def load_spec(self, task: Task, text: str, path: str | None = None) -> LoadedSpec:
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
        return rac.run_reference(rac.reference_unit(task), task, inputs, limits or Limits())


@hookimpl
def adequacy_backends() -> list[Any]:
    return [OpenJmlBackend()]
