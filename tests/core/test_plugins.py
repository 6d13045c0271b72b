"""Backends arrive through entry points, the built-in ones exactly like third-party ones."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from adequacy import plugins
from adequacy.errors import BackendError
from adequacy.hookspecs import hookimpl


def run_cli(args: list[str], pythonpath: Path, **kw: object) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(pythonpath), COLUMNS="200")
    return subprocess.run([sys.executable, "-m", "adequacy", *args], env=env,
                          capture_output=True, text=True, timeout=120, **kw)  # type: ignore


def test_separately_installed_backend_is_listed(installed_toy: Path) -> None:
    proc = run_cli(["backends", "--json"], installed_toy)
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)["engines"]
    toy = {r["engine"]: r for r in rows if r["backend"] == "toy"}
    assert set(toy) == {"exact", "picky", "liar", "gone", "preonly", "toyprove"}
    assert toy["toyprove"]["kind"] == "verifier" and toy["exact"]["kind"] == "engine"
    assert toy["gone"]["available"] is False and toy["gone"]["reason"] == "install gone-tool"
    assert toy["exact"]["default"] is True


def test_table_output_names_unavailable_reason(installed_toy: Path) -> None:
    proc = run_cli(["backends"], installed_toy)
    assert proc.returncode == 0
    assert "toy" in proc.stdout and "install gone-tool" in proc.stdout


def test_builtin_backends_use_the_same_entry_point_group() -> None:
    from importlib.metadata import entry_points
    names = {ep.name: ep.value for ep in entry_points(group=plugins.ENTRY_POINT_GROUP)}
    assert names.get("verus") == "adequacy.backends.verus.plugin"
    assert names.get("openjml") == "adequacy.backends.openjml.plugin"


class Misspelt:
    @hookimpl
    def adequacy_backend(self) -> list[object]:  # missing "s": must not be silently ignored
        return []


def test_misspelt_hook_fails_loudly() -> None:
    with pytest.raises(BackendError, match="adequacy_backend"):
        plugins.make_manager(load_entry_points=False, plugins=[Misspelt()])


class NotABackend:
    @hookimpl
    def adequacy_backends(self) -> list[object]:
        return [object()]


def test_object_without_backend_surface_is_rejected() -> None:
    pm = plugins.make_manager(load_entry_points=False, plugins=[NotABackend()])
    with pytest.raises(BackendError, match="is not an adequacy.plugin.Backend"):
        plugins.collect_backends(pm)


def test_duplicate_backend_names_name_both_plugins() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures" / "toy_backend"))
    try:
        import adequacy_toy.plugin as toy_plugin

        class Again:
            @hookimpl
            def adequacy_backends(self) -> list[object]:
                return [toy_plugin.ToyBackend()]

        pm = plugins.make_manager(load_entry_points=False, plugins=[toy_plugin, Again()])
        with pytest.raises(BackendError, match="provided twice"):
            plugins.collect_backends(pm)
    finally:
        sys.path.pop(0)


# --- a new language is one package plus one entry point, with no edit to core ---------------

TOY_TASK = Path(__file__).resolve().parents[1] / "fixtures" / "toy_task"


def _copy_toy_task(dest: Path) -> Path:
    import shutil

    shutil.copytree(TOY_TASK, dest)
    return dest


def test_third_party_language_declares_its_task_files(installed_toy: Path, tmp_path: Path
                                                      ) -> None:
    """Core learns the toy language's skeleton name and settings keys from the plugin."""
    good = _copy_toy_task(tmp_path / "good")
    proc = run_cli(["task", "validate", str(good)], installed_toy)
    assert proc.returncode == 0, proc.stderr
    missing = _copy_toy_task(tmp_path / "missing")
    (missing / "skeleton.toy").unlink()
    proc = run_cli(["task", "validate", str(missing)], installed_toy)
    assert proc.returncode == 2 and "missing skeleton.toy" in proc.stdout + proc.stderr
    typo = _copy_toy_task(tmp_path / "typo")
    with (typo / "task.toml").open("a") as f:
        f.write('\n[toy]\nflavor = "sweet"\n')
    proc = run_cli(["task", "validate", str(typo)], installed_toy)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 2 and "unknown key 'flavor' in [toy]" in out
    assert "did you mean 'flavour'" in out and "Traceback" not in out


def test_third_party_language_scores_and_verifies(installed_toy: Path, tmp_path: Path) -> None:
    task = _copy_toy_task(tmp_path / "t")
    spec = tmp_path / "s.toy"
    spec.write_text("pre: x >= 0\npost: result == x + 1\n")
    proc = run_cli(["score", str(task), str(spec), "--json"], installed_toy)
    assert proc.returncode == 0, proc.stderr
    rep = json.loads(proc.stdout)
    assert rep["passed_all"] and rep["options"]["engines"] == []
    # the toy prover says "verified" exactly when the spec has a precondition
    proc = run_cli(["verify", str(task), str(spec), "--json"], installed_toy)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["verification"]["engine"] == "toyprove"
    spec.write_text("post: result == x + 1\n")
    proc = run_cli(["verify", str(task), str(spec)], installed_toy)
    assert proc.returncode == 1 and "not verified by toyprove" in proc.stdout
    proc = run_cli(["verify", str(task), str(spec), "--engine", "nope"], installed_toy)
    assert proc.returncode == 2 and "no prover 'nope'" in proc.stderr
    proc = run_cli(["backends", "--json"], installed_toy)
    kinds = {(r["engine"], r["kind"]) for r in json.loads(proc.stdout)["engines"]
             if r["backend"] == "toy"}
    assert ("toyprove", "verifier") in kinds and ("exact", "engine") in kinds


def test_engine_capabilities_limit_what_it_is_given(toy: None, toy_task: Path) -> None:
    """An engine that declares only ``pre`` never sees a post case; those stay unknown."""
    from adequacy.runner import score_spec
    from adequacy.tasks import load_task

    task = load_task(toy_task)
    rep = score_spec(task, "pre: x >= 0\npost: result == x + 1\n", engines=["preonly"])
    pre = [v for v in rep.verdicts if v.bucket.predicate == "pre"]
    post = [v for v in rep.verdicts if v.bucket.predicate == "post"]
    assert pre and all(v.decided for v in pre)
    assert post and all(not v.decided and "does not evaluate postconditions" in v.reason
                        for v in post)


def test_core_names_no_built_in_language() -> None:
    """Core code holds no language name: what it knows of a language comes from its backend.
    (Docstrings and comments may mention Verus and JML as examples; string literals may not.)"""
    import ast

    root = Path(__file__).resolve().parents[2] / "adequacy"
    found = []
    for p in sorted(root.rglob("*.py")):
        tree = ast.parse(p.read_text(encoding="utf-8"))
        docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                      if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef,
                                        ast.AsyncFunctionDef))
                      and n.body and isinstance(n.body[0], ast.Expr)
                      and isinstance(n.body[0].value, ast.Constant)}
        for n in ast.walk(tree):
            if (isinstance(n, ast.Constant) and isinstance(n.value, str)
                    and id(n) not in docstrings and n.value.strip().lower() in ("verus", "jml")):
                found.append(f"{p.relative_to(root.parent)}:{n.lineno}: {n.value!r}")
    assert not found, "\n".join(found)
