"""The KeY backend: JML specs proved by the real KeY verifier (engine ``key``).

Shares the JML front end and stubs with the openjml backend (same tasks, same spec parse), so
``key`` verdicts are directly comparable with ``rac``'s; adds ``verify`` (verification rate).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adequacy.backend import Engine, EngineInfo, Limits, LoadedSpec, Verifier
from adequacy.backends.key import build
from adequacy.backends.key import engine as key_engine
from adequacy.backends.key.verify import verify
from adequacy.backends.openjml.jml.load import JmlSpec, load
from adequacy.backends.openjml.plugin import JML_FILES
from adequacy.errors import EngineUnavailable, SpecInvalid
from adequacy.hookspecs import hookimpl
from adequacy.tasks import Case, Task
from adequacy.verdicts import Verdict
from adequacy.verification import VerifyResult

KEY_VERSION = "2.12.3"


class _Engine:
    name = "key"

    def __init__(self, backend: KeyBackend) -> None:
        self._backend = backend

    def info(self) -> EngineInfo:
        return self._backend.engine_infos()[0]

    def check(self, spec: LoadedSpec, task: Task, cases: Sequence[Case], limits: Limits
              ) -> list[Verdict]:
        return self._backend.check(spec, task, cases, "key", limits)


class _Verifier(_Engine):
    def verify(self, spec: LoadedSpec, task: Task, limits: Limits) -> VerifyResult:
        return self._backend.verify_model(task, spec, limits)


class KeyBackend:
    name = "key"
    language = "jml"
    task_files = JML_FILES

    def engines(self) -> list[Engine]:
        return [_Engine(self)]

    def verifiers(self) -> list[Verifier]:
        return [_Verifier(self)]

    def engine_infos(self) -> list[EngineInfo]:
        why = build.why_unavailable()
        java = build.java_binary()
        major = build.java_major(java) if java else None
        return [EngineInfo(
            name="key", available=why is None, default=False, fidelity=10,
            version=f"key-{KEY_VERSION}-{build.jar_path().stem.rsplit('-', 1)[-1]}",
            reason=why or f"KeY {KEY_VERSION} on Java {major}: stubs proved symbolically "
                          "(Java int semantics for code, mathematical spec arithmetic)")]

    def prepare(self) -> str:
        jar = build.build()
        return f"KeY worker built: {jar}"

    def load_spec(self, task: Task, text: str, path: str | None = None) -> LoadedSpec:
        spec = load(task, text, path)
        return LoadedSpec(backend=self.name, task_id=task.id, text=text,
                          normalized=spec.source.normalized(), path=path, data=spec)

    def _spec(self, spec: LoadedSpec, task: Task) -> JmlSpec:
        data = spec.data
        return data if isinstance(data, JmlSpec) else load(task, spec.text, spec.path)

    def check(self, spec: LoadedSpec, task: Task, cases: Sequence[Case], engine: str,
              limits: Limits) -> list[Verdict]:
        if engine != "key":
            raise SpecInvalid(f"unknown engine {engine!r} for backend key (key)", engine=engine)
        why = build.why_unavailable()
        if why:
            raise EngineUnavailable(f"key: {why}")
        if not cases:
            return []
        return key_engine.check(self._spec(spec, task), task, cases, limits)

    def verify_model(self, task: Task, spec: LoadedSpec, limits: Limits) -> VerifyResult:
        why = build.why_unavailable()
        if why:
            raise EngineUnavailable(f"key: {why}")
        return verify(task, spec.text, limits, spec.path, spec=self._spec(spec, task))


@hookimpl
def adequacy_backends() -> list[Any]:
    return [KeyBackend()]
