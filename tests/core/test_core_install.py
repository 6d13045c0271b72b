"""The core install (``pip install -e .``, no extras) runs everything that needs no extra, and
says which extra to install, in one line and exit 2, for what does.

A fresh venv without system site-packages, so that nothing the development environment holds
(click, DSPy, mcp, Ray) can stand in for a dependency the core lacks: a module the core imports
without declaring it fails here as it would on a user's machine. One venv for every assertion
(installing it is most of the time)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from adequacy.examples import bundled_folder

REPO = Path(__file__).resolve().parents[2]
VERUS = bundled_folder("verus")
NEEDS = {
    "optimize": "pip install 'spec-adequacy[optimize]'",
    "gym": "pip install 'spec-adequacy[gym]'",
    "ray": "pip install 'spec-adequacy[ray]'",
}


def _run(venv: Path, args: list[str], cwd: Path, env: dict[str, str],
         timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(venv / "bin" / "adequacy"), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)


def _one_line_needing(proc: subprocess.CompletedProcess[str], extra: str) -> None:
    said = proc.stdout + proc.stderr
    assert proc.returncode == 2, said
    assert "internal error" not in said and "Traceback" not in said, said
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert lines and lines[-1].startswith("error: ") and NEEDS[extra] in lines[-1], said
    assert sum(NEEDS[extra] in ln for ln in lines) == 1, said


@pytest.mark.slow
def test_core_install_without_extras(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    pip = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "-e", str(REPO)],
                         capture_output=True, text=True, timeout=900)
    assert pip.returncode == 0, pip.stderr[-3000:]
    py = str(venv / "bin" / "python")
    probe = subprocess.run([py, "-c", "import importlib.util as u; print([m for m in "
                            "('dspy', 'mcp', 'ray', 'click') if u.find_spec(m)])"],
                           capture_output=True, text=True, timeout=60)
    assert probe.stdout.strip() == "[]", probe.stdout  # no extra leaked in

    work = tmp_path / "work"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["ADEQUACY_CACHE"] = str(tmp_path / "cache")

    proc = _run(venv, ["--help"], work, env)
    assert proc.returncode == 0 and "score" in proc.stdout, proc.stderr

    task = VERUS / "binary_search_first"
    proc = _run(venv, ["score", str(task), str(task / "specs" / "flawed_post_too_weak.rs")],
                work, env)
    assert proc.returncode == 1, proc.stdout + proc.stderr  # the flawed spec fails post_sound
    assert "FAILED" in proc.stdout and "post_sound" in proc.stdout

    two = [str(VERUS / "euclid_mod"), str(VERUS / "binary_search_first")]
    proc = _run(venv, ["synthesize", *two, "-o", str(work / "specs"), "--writer",
                       "templates"], work, env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (work / "specs" / "jobs.jsonl").read_text().count("\n") == 2

    study = work / "study.toml"
    study.write_text(f'name = "core"\ntasks = {two!r}\nresults = "results.jsonl"\n'
                     '[[specs]]\nname = "templates"\nwriter = "templates"\n'
                     '[[specs]]\nname = "houdini"\nwriter = "houdini"\n'.replace("'", '"'))
    proc = _run(venv, ["experiment", "run", str(study), "--no-progress"], work, env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "4 pairs" in proc.stdout and "errors 0" in proc.stdout, proc.stdout

    # What truly needs an extra says which, once, and exits 2.
    model_study = work / "model.toml"
    model_study.write_text(study.read_text() + '[[specs]]\nname = "gpt"\nwriter = "dspy"\n'
                           'model = "openai/gpt-4o-mini"\n')
    _one_line_needing(_run(venv, ["experiment", "run", str(model_study), "--no-progress"],
                           work, env), "optimize")
    _one_line_needing(_run(venv, ["synthesize", *two, "-o", str(work / "m"), "--writer",
                                  "dspy", "--lm", "openai/gpt-4o-mini"], work, env),
                      "optimize")
    _one_line_needing(_run(venv, ["optimize", *two, "-o", str(work / "o"), "--lm",
                                  "openai/gpt-4o-mini"], work, env), "optimize")
    proc = _run(venv, ["gym", "make", two[0], str(work / "gym")], work, env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    _one_line_needing(_run(venv, ["mcp", "--gym", str(work / "gym")], work, env), "gym")
    _one_line_needing(_run(venv, ["run", "--tasks", two[0], "-o", str(work / "r.jsonl"),
                                  "--executor", "ray", "--no-progress"], work, env), "ray")
