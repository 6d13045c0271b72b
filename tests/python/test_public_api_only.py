"""The Python backend is a plugin like any outsider's: it imports nothing of core but
``adequacy.plugin``, and the code that runs in its sandboxed worker imports only the standard
library (the worker has nothing else)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "backends" / "adequacy_python"


def _sources() -> list[Path]:
    return [p for p in PACKAGE.rglob("*.py") if "examples" not in p.relative_to(PACKAGE).parts]


def _imports(path: Path) -> list[tuple[str, int]]:
    out = []
    for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(n, ast.ImportFrom) and n.module and not n.level:
            out.append((n.module, n.lineno))
        elif isinstance(n, ast.Import):
            out += [(a.name, n.lineno) for a in n.names]
    return out


def test_only_the_public_plugin_api_of_core() -> None:
    sources = _sources()
    assert len(sources) > 10
    bad = [f"{p.relative_to(PACKAGE)}:{line}: {mod}" for p in sources
           for mod, line in _imports(p)
           if mod.split(".")[0] == "adequacy" and mod != "adequacy.plugin"
           or mod.split(".")[0].startswith("adequacy_") and mod.split(".")[0] != "adequacy_python"]
    assert not bad, bad


def test_the_worker_runtime_needs_only_the_standard_library() -> None:
    runtime = PACKAGE / "runtime"
    ours = {p.stem for p in runtime.glob("*.py")}
    bad = [f"{p.name}:{line}: {mod}" for p in runtime.glob("*.py") for mod, line in _imports(p)
           if mod.split(".")[0] not in sys.stdlib_module_names and mod not in ours]
    assert not bad, bad


def test_the_scan_sees_a_forbidden_import(tmp_path: Path) -> None:
    """The check can fail: a module importing core directly is reported."""
    p = tmp_path / "x.py"
    p.write_text("from adequacy.scoring.runner import score_spec\nimport adequacy.plugin\n")
    found = [m for m, _ in _imports(p) if m != "adequacy.plugin"]
    assert found == ["adequacy.scoring.runner"]


def test_an_edited_staged_worker_is_replaced(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker's files are staged in a cache folder; a copy that differs from the package's
    (someone edited it) is staged again, never run."""
    from adequacy_python import sandboxing

    monkeypatch.setenv("ADEQUACY_CACHE", str(tmp_path / "cache"))
    sandboxing.staged_runtime.cache_clear()
    try:
        first = sandboxing.staged_runtime()
        (first / "worker.py").write_text("import os\nos.system('true')\n")
        sandboxing.staged_runtime.cache_clear()
        again = sandboxing.staged_runtime()
        ours = (sandboxing.RUNTIME / "worker.py").read_bytes()
        assert (again / "worker.py").read_bytes() == ours
    finally:
        sandboxing.staged_runtime.cache_clear()
