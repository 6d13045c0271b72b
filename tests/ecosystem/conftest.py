"""Fixtures of the ecosystem tests: Harbor's own environment, a wheel, an export of the bundled
tasks, and what Harbor's code says about them.

Harbor needs Python 3.12+, the project supports 3.11: Harbor runs from its own virtual
environment, found at ``$ADEQUACY_HARBOR_VENV`` or beside the checkout at ``../venvs/harbor``
(create it with ``python3.12 -m venv ../venvs/harbor && ../venvs/harbor/bin/pip install
harbor``); the tests that need it skip, saying so, where there is none.
"""

from __future__ import annotations

import json
import os
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest

from adequacy.examples import bundled_folder

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = (bundled_folder("verus"), bundled_folder("jml"))
HERE = Path(__file__).resolve().parent


def harbor_venv() -> Path | None:
    env = os.environ.get("ADEQUACY_HARBOR_VENV")
    for cand in ([Path(env)] if env else []) + [REPO.parent / "venvs" / "harbor"]:
        if (cand / "bin" / "python").is_file() and (cand / "bin" / "harbor").is_file():
            return cand
    return None


@pytest.fixture(scope="session")
def harbor() -> Path:
    venv = harbor_venv()
    if venv is None:
        pytest.skip("no Harbor environment: set ADEQUACY_HARBOR_VENV, or create ../venvs/harbor "
                    "with Python 3.12+ and `pip install harbor` (Harbor needs Python 3.12)")
    return venv


def harbor_call(venv: Path, command: str, payload: dict[str, Any], timeout: float = 300) -> Any:
    """Run one of ``harbor_side.py``'s commands with Harbor's interpreter; its JSON answer."""
    env = {**os.environ, "PATH": f"{venv / 'bin'}:{os.environ.get('PATH', '')}"}
    r = subprocess.run([str(venv / "bin" / "python"), str(HERE / "harbor_side.py"), command,
                        json.dumps(payload)], capture_output=True, text=True, timeout=timeout,
                       cwd=str(HERE), env=env)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's wheel, built once for the session (as an export builds it)."""
    from adequacy.ecosystem.wheel import build_wheel

    return build_wheel(tmp_path_factory.mktemp("wheel"))


@pytest.fixture(scope="session")
def exported(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> Path:
    """Every bundled task (Verus and JML) exported as Harbor tasks."""
    from adequacy.ecosystem.harbor_export import HarborOptions, export_harbor

    out = tmp_path_factory.mktemp("harbor") / "bundled"
    export_harbor(list(EXAMPLES), out, HarborOptions(wheel=wheel))
    return out


def bundled_specs() -> list[tuple[str, str, list[str]]]:
    """(task folder, spec file name, the buckets it must fail) of every bundled spec, from
    each task's ``specs/expected.toml`` (written by hand with the examples)."""
    out = []
    for lang in EXAMPLES:
        for task in sorted(d for d in lang.iterdir() if (d / "task.toml").is_file()):
            exp = tomllib.loads((task / "specs" / "expected.toml").read_text())
            table = exp.get("specs", exp)
            for spec in sorted((task / "specs").iterdir()):
                if spec.suffix not in (".rs", ".java"):
                    continue
                entry = table.get(spec.name) or table.get(spec.stem)
                assert entry is not None, f"{spec} has no entry in expected.toml"
                out.append((str(task.relative_to(REPO)), spec.name, list(entry["fails"])))
    return out
