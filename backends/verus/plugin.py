"""The Verus backend as a plugin: the ``adequacy_backends`` hook and the ``VerusBackend`` class.

The backend only dispatches: the front end (``frontend``) parses and polices a spec once, and
each engine module decides cases its own way. Engines are imported lazily so that a broken or
absent engine never stops the others (or ``adequacy backends``) from working.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Sequence
from pathlib import Path

from adequacy.backend import Engine, EngineInfo, Limits, LoadedSpec
from adequacy.errors import BackendError
from adequacy.hookspecs import hookimpl
from adequacy.tasks import Case, Task, TaskFiles
from adequacy.verdicts import Verdict

ENGINES = ("interp", "exec_spec", "verus")


def _package_version() -> str:
    try:
        return importlib.metadata.version("spec-adequacy")
    except importlib.metadata.PackageNotFoundError:
        return "0"


class _Engine:
    """One engine of the backend: its info and its own ``check``."""

    def __init__(self, backend: VerusBackend, name: str) -> None:
        self.name = name
        self._backend = backend

    def info(self) -> EngineInfo:
        return next(i for i in self._backend.engine_infos() if i.name == self.name)

    def check(self, spec: LoadedSpec, task: Task, cases: Sequence[Case], limits: Limits
              ) -> list[Verdict]:
        return self._backend.check(spec, task, cases, self.name, limits)


class VerusBackend:
    """Verus specs (``pre_spec``/``post_spec`` over a task's ``Input``/``Output`` structs)."""

    name = "verus"
    language = "verus"
    task_files = TaskFiles(skeleton="skeleton.rs", spec_file="spec.rs",
                           settings=("rlimit", "lean_signature"),
                           empty_skeleton="`adequacy task new` writes it from task.toml")

    def engines(self) -> list[Engine]:
        return [_Engine(self, n) for n in ENGINES]

    def engine_infos(self) -> list[EngineInfo]:
        out: list[EngineInfo] = []
        try:
            from adequacy.backends.verus import interp
            if not hasattr(interp, "evaluate_cases"):
                raise ImportError("adequacy.backends.verus.interp has no evaluate_cases yet")
            version = getattr(interp, "VERSION", "") or _package_version()
            out.append(EngineInfo(name="interp", available=True, default=True,
                                  version=f"interp {version}", fidelity=20,
                                  reason="embedded evaluator of Verus spec code (Python only)"))
        except ImportError as e:
            out.append(EngineInfo(name="interp", available=False, default=True, fidelity=20,
                                  reason=f"interpreter not importable: {e}"))
        from adequacy.backends.verus.exec_spec import availability as exec_avail
        ok, version, reason = exec_avail()
        out.append(EngineInfo(name="exec_spec", available=ok, version=version, reason=reason,
                              default=True, fidelity=10))
        from adequacy.backends.verus.verus_driver import availability as verus_avail
        ok, version, reason = verus_avail()
        out.append(EngineInfo(name="verus", available=ok, version=version, reason=reason,
                              fidelity=30))
        return out

    def load_spec(self, task: Task, text: str, path: str | None = None) -> LoadedSpec:
        from adequacy.backends.verus import frontend

        if task.language != "verus":
            raise BackendError(f"the verus backend scores verus tasks, not {task.language!r}")
        spec = frontend.check_source(text, task.skeleton, path, str(task.skeleton_path))
        # Resolve names now: a spec calling an undefined function is invalid (rustc would
        # reject it), not a spec whose every case is unknown.
        from adequacy.backends.verus.interp import compile_module
        compile_module(spec, path)
        return LoadedSpec(backend=self.name, task_id=task.id, text=text,
                          normalized=frontend.normalize(text), path=path, data=spec)

    def new_skeleton(self, task_dir: Path) -> tuple[str, str]:
        """(file name, text) of the skeleton the task's ``task.toml`` implies, for
        ``adequacy task new``; raises ``TaskError`` (file:line) on a bad schema."""
        from adequacy.backends.verus.skeleton import skeleton_for_folder

        return "skeleton.rs", skeleton_for_folder(task_dir)

    def prepare(self) -> str:
        """Build vstd once into the shared cargo target directory (minutes cold, then cached),
        by compiling a one-case warm-up harness through the real exec_spec engine."""
        import tempfile

        from adequacy.backends.verus.exec_spec import check as exec_check
        from adequacy.backends.verus.skeleton import skeleton_for
        from adequacy.tasks import load_task
        from adequacy.verdicts import Truth

        ok, version, reason = next((e.available, e.version, e.reason)
                                   for e in self.engine_infos() if e.name == "exec_spec")
        if not ok:
            return f"exec_spec unavailable ({reason}); interp needs no preparation"
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
        return f"exec_spec ready ({version})"

    def check(self, spec: LoadedSpec, task: Task, cases: Sequence[Case], engine: str,
              limits: Limits) -> list[Verdict]:
        if engine == "interp":
            from adequacy.backends.verus.interp import evaluate_cases
            return list(evaluate_cases(spec.data, task, list(cases), limits))
        if engine == "exec_spec":
            from adequacy.backends.verus.exec_spec import check as exec_check
            return exec_check(spec.text, task, cases, limits, path=spec.path, module=spec.data)
        if engine == "verus":
            from adequacy.backends.verus.verus_driver import check as verus_check
            return verus_check(spec.text, task, cases, limits, path=spec.path)
        raise BackendError(f"the verus backend has no engine {engine!r} "
                           f"(engines: {', '.join(ENGINES)})")


@hookimpl
def adequacy_backends() -> list[VerusBackend]:
    return [VerusBackend()]
