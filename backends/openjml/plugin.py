"""The JML backend (Spec-Harness half of the product): Java+JML specs, engines rac and openjml."""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from typing import Any

from adequacy.backend import Engine, EngineInfo, Limits, LoadedSpec
from adequacy.backends.openjml.jml.load import JmlSpec, load, reference_unit
from adequacy.backends.openjml.rac import engine as rac
from adequacy.backends.openjml.rac.worker import build_dir, java_tools
from adequacy.errors import EngineUnavailable, SpecInvalid
from adequacy.hookspecs import hookimpl
from adequacy.tasks import Case, Task, TaskFiles
from adequacy.verdicts import Verdict


def openjml_command() -> str | None:
    """``$ADEQUACY_OPENJML`` or ``openjml`` on PATH."""
    env = os.environ.get("ADEQUACY_OPENJML")
    if env and os.path.exists(env):
        return env
    return shutil.which("openjml")


JML_FILES = TaskFiles(skeleton="Solution.java",
                      settings=("class", "method", "static", "post_state", "java_params",
                                "java_return"),
                      empty_skeleton="it must hold the method the spec annotates")


class _Engine:
    def __init__(self, backend: OpenJmlBackend, name: str) -> None:
        self.name = name
        self._backend = backend

    def info(self) -> EngineInfo:
        return next(i for i in self._backend.engine_infos() if i.name == self.name)

    def check(self, spec: LoadedSpec, task: Task, cases: Sequence[Case], limits: Limits
              ) -> list[Verdict]:
        return self._backend.check(spec, task, cases, self.name, limits)


class OpenJmlBackend:
    name = "openjml"
    language = "jml"
    task_files = JML_FILES

    def engines(self) -> list[Engine]:
        return [_Engine(self, "rac"), _Engine(self, "openjml")]

    def engine_infos(self) -> list[EngineInfo]:
        java, javac = java_tools()
        rac_ok = bool(java and javac)
        oj = openjml_command()
        return [
            EngineInfo(name="rac", available=rac_ok, version=rac.VERSION, default=True,
                       fidelity=20, reason="JML runtime checking in a persistent JVM (bigint spec math)"
                       if rac_ok else "needs a JDK: java and javac on PATH or JAVA_HOME"),
            EngineInfo(name="openjml", available=oj is not None, version="openjml",
                       fidelity=30, reason=f"OpenJML ESC on Hoare-triple stubs ({oj})" if oj else
                       "needs OpenJML: put `openjml` on PATH or set ADEQUACY_OPENJML"),
        ]

    def prepare(self) -> str:
        """Compile the rac worker now (``adequacy setup``) rather than at the first check."""
        return f"rac worker compiled: {build_dir()}"

    def load_spec(self, task: Task, text: str, path: str | None = None) -> LoadedSpec:
        spec = load(task, text, path)
        return LoadedSpec(backend=self.name, task_id=task.id, text=text,
                          normalized=spec.source.normalized(), path=path, data=spec)

    def check(self, spec: LoadedSpec, task: Task, cases: Sequence[Case], engine: str,
              limits: Limits) -> list[Verdict]:
        data = spec.data
        if not isinstance(data, JmlSpec):
            data = load(task, spec.text, spec.path)
        if engine == "rac":
            if not self.engine_infos()[0].available:
                raise EngineUnavailable(self.engine_infos()[0].reason)
            return rac.check(data.unit, data.file, task, cases, limits, gap=data.math_gap)
        if engine == "openjml":
            cmd = openjml_command()
            if cmd is None:
                raise EngineUnavailable(self.engine_infos()[1].reason)
            from adequacy.backends.openjml.openjml_driver.driver import check as oj_check
            return oj_check(cmd, data, task, cases, limits)
        raise SpecInvalid(f"unknown engine {engine!r} for backend openjml (rac, openjml)",
                          engine=engine)

    def run_reference(self, task: Task, inputs: list[dict[str, Any]],
                      limits: Limits | None = None) -> list[dict[str, Any] | None]:
        """Outputs ``{"result": value}`` of the task's own method (the mutators' oracle);
        None where the method threw, timed out or crashed."""
        return rac.run_reference(reference_unit(task), task, inputs, limits or Limits())


@hookimpl
def adequacy_backends() -> list[Any]:
    return [OpenJmlBackend()]
