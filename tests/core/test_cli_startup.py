"""A CLI that starts fast: what each entry point imports, checked in a fresh
interpreter (``sys.modules`` after the import), and that ``--version`` needs no app."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import version

import pytest

import adequacy

HEAVY = ("pydantic", "typer", "rich", "pluggy", "jinja2")
LIBRARY = ("adequacy.extensions.backend", "adequacy.taskdirs.load", "adequacy.extensions.registry",
           "adequacy.records.log", "adequacy.scoring.options", "adequacy.scoring.runner",
           "adequacy.scoring.cache", "adequacy_verus", "adequacy_openjml")


def _loaded_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", f"{code}\nimport sys, json\n"
                          "print(json.dumps(sorted(sys.modules)))"],
                         capture_output=True, text=True, timeout=120, check=True)
    return set(json.loads(out.stdout.splitlines()[-1]))


def _offenders(mods: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in mods if any(m == n or m.startswith(n + ".") for n in names))


def test_import_adequacy_imports_nothing_else() -> None:
    mods = _loaded_after("import adequacy")
    assert _offenders(mods, HEAVY + LIBRARY) == []
    assert sorted(m for m in mods if m.startswith("adequacy")) == ["adequacy", "adequacy.version"]


def test_import_adequacy_cli_imports_nothing_else() -> None:
    """The console script's own import: ``--version`` is answered from here."""
    mods = _loaded_after("import adequacy.cli")
    assert _offenders(mods, HEAVY + LIBRARY) == []


def test_building_the_app_imports_no_model_plugin_or_backend() -> None:
    """Every command registered, the click objects built (``--help``'s work): still no
    pydantic model, plugin manager, task model or backend."""
    mods = _loaded_after("import typer.main\nfrom adequacy.cli import app\n"
                         "typer.main.get_command(app)")
    assert "typer" in mods  # the guard sees what was imported
    assert _offenders(mods, ("pydantic", "pluggy", "jinja2", *LIBRARY)) == []


def test_version_needs_no_app() -> None:
    code = ("import sys\nsys.argv = ['adequacy', '--version']\n"
            "from adequacy.cli import main\nmain()\n"
            "print('typer' in sys.modules, 'pydantic' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout.splitlines()
    assert out == [f"adequacy {adequacy.__version__}", "False False"]


def test_version_constant_matches_the_installed_distribution() -> None:
    """``--version`` prints the constant (reading the distribution's metadata costs 30 ms):
    it must be the version the package was built with."""
    assert adequacy.__version__ == version("spec-adequacy")


def test_every_public_name_resolves() -> None:
    assert sorted(adequacy.__all__) == sorted(adequacy._WHERE)
    for name in adequacy.__all__:
        assert getattr(adequacy, name) is not None
    with pytest.raises(AttributeError):
        adequacy.no_such_name  # noqa: B018


def test_a_run_builds_only_the_command_it_names() -> None:
    """Typer turns every command into a click command before parsing: a run needs one."""
    import typer.main

    from adequacy.cli.root import app, app_for

    def names(a: object) -> list[str]:
        return sorted(typer.main.get_command(a).commands)  # type: ignore[arg-type, attr-defined]

    everything = names(app)
    assert len(everything) > 20 and "score" in everything and "task" in everything
    assert names(app_for(["score", "T", "S", "--no-cache"])) == ["score"]
    assert names(app_for(["task", "new", "X"])) == ["task"]  # a group keeps its commands
    assert sorted(typer.main.get_command(app_for(["task"])).commands["task"].commands) == \
        sorted(typer.main.get_command(app).commands["task"].commands)  # type: ignore[attr-defined]
    for whole in ([], ["--help"], ["-h"], ["scor"], ["--version"]):
        assert app_for(whole) is app


def test_a_misspelt_command_still_gets_suggestions() -> None:
    out = subprocess.run([sys.executable, "-m", "adequacy", "scor"], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 2
    assert "No such command 'scor'" in out.stderr and "score" in out.stderr


def test_the_registry_loads_no_importer_until_one_is_asked_for() -> None:
    """Importers can be large (HumanEval's imports the Python backend's task writer) and a
    score never imports."""
    code = ("from adequacy.extensions.registry import registry\nr = registry()\n"
            "assert 'verus' in r.backends\nimport sys\n"
            "print('adequacy_python.importers.humaneval' in sys.modules, "
            "'adequacy_mutators._operators' in sys.modules)\n"
            "print(sorted(r.importers)[:0], 'humaneval' in r.importers, "
            "'adequacy_python.importers.humaneval' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout.splitlines()
    assert out == ["False False", "[] True True"]


def test_listing_the_engines_imports_no_solver() -> None:
    """Every score asks each engine of its backend for its info; z3 (10 ms) waits until the
    ``smt`` engine or a symbolic question really runs."""
    code = ("from adequacy.extensions.registry import registry\nr = registry()\n"
            "for b in ('verus', 'openjml'):\n    r.engine_infos(r.backends[b])\n"
            "import sys\nprint('z3' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout.split()
    assert out == ["False"]
