"""The Verus backend as a plugin: the ``adequacy_backends`` hook and the ``VerusBackend`` class.

The backend only dispatches: the front end (``frontend``) parses and polices a spec once, and
each engine module decides cases its own way. Engines are imported lazily so that a broken or
absent engine never stops the others (or ``adequacy backends``) from working.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Sequence

from adequacy.backend import EngineInfo, Limits, LoadedSpec
from adequacy.errors import BackendError
from adequacy.hookspecs import hookimpl
from adequacy.tasks import Case, Task
from adequacy.verdicts import Verdict

ENGINES = ("interp", "exec_spec", "verus")


def _package_version() -> str:
    try:
        return importlib.metadata.version("spec-adequacy")
    except importlib.metadata.PackageNotFoundError:
        return "0"


class VerusBackend:
    """Verus specs (``pre_spec``/``post_spec`` over a task's ``Input``/``Output`` structs)."""

    name = "verus"
    language = "verus"

    def engines(self) -> list[EngineInfo]:
        out: list[EngineInfo] = []
        try:
            from adequacy.backends.verus import interp
            if not hasattr(interp, "evaluate_cases"):
                raise ImportError("adequacy.backends.verus.interp has no evaluate_cases yet")
            version = getattr(interp, "VERSION", "") or _package_version()
            out.append(EngineInfo(name="interp", available=True, default=True,
                                  version=f"interp {version}",
                                  reason="embedded evaluator of Verus spec code (Python only)"))
        except ImportError as e:
            out.append(EngineInfo(name="interp", available=False, default=True,
                                  reason=f"interpreter not importable: {e}"))
        from adequacy.backends.verus.exec_spec import availability as exec_avail
        ok, version, reason = exec_avail()
        out.append(EngineInfo(name="exec_spec", available=ok, version=version, reason=reason,
                              default=True))
        from adequacy.backends.verus.verus_driver import availability as verus_avail
        ok, version, reason = verus_avail()
        out.append(EngineInfo(name="verus", available=ok, version=version, reason=reason))
        return out

    def load_spec(self, task: Task, text: str, path: str | None = None) -> LoadedSpec:
        from adequacy.backends.verus import frontend

        if task.language != "verus":
            raise BackendError(f"the verus backend scores verus tasks, not {task.language!r}")
        spec = frontend.parse_spec(text, path)
        skeleton = frontend.parse_spec(task.skeleton, str(task.skeleton_path))
        frontend.check_spec(spec, skeleton, path)
        return LoadedSpec(backend=self.name, task_id=task.id, text=text,
                          normalized=frontend.normalize(text), path=path, data=spec)

    def check(self, spec: LoadedSpec, task: Task, cases: Sequence[Case], engine: str,
              limits: Limits) -> list[Verdict]:
        if engine == "interp":
            from adequacy.backends.verus.interp import evaluate_cases
            return list(evaluate_cases(spec.data, task, list(cases), limits))
        if engine == "exec_spec":
            from adequacy.backends.verus.exec_spec import check as exec_check
            return exec_check(spec.text, task, cases, limits, path=spec.path)
        if engine == "verus":
            from adequacy.backends.verus.verus_driver import check as verus_check
            return verus_check(spec.text, task, cases, limits, path=spec.path)
        raise BackendError(f"the verus backend has no engine {engine!r} "
                           f"(engines: {', '.join(ENGINES)})")


@hookimpl
def adequacy_backends() -> list[VerusBackend]:
    return [VerusBackend()]
