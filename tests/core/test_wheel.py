"""The wheel, installed into a fresh venv outside the repository, does what a new user does in
their first hour: every feature finds what it needs in the installed package, never in a
checkout (the examples, the sandboxed drivers, the Java and Rust sources, the studies).

One slow test: building the wheel and a venv is the cost, so each step is an assertion of the
same test rather than a test of its own.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fake_endpoint import FakeEndpoint, fields

REPO = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.requires("javac")]


def _run(cmd: list[str], cwd: Path, env: dict[str, str], timeout: float = 900
         ) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


def test_the_wheel_works_from_anywhere(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    r = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist),
              str(REPO)], tmp_path, dict(os.environ))
    assert r.returncode == 0, r.stderr
    [wheel] = dist.glob("spec_adequacy-*.whl")
    venv = tmp_path / "venv"
    r = _run([sys.executable, "-m", "venv", str(venv)], tmp_path, dict(os.environ))
    assert r.returncode == 0, r.stderr
    py = venv / "bin" / "python"
    r = _run([str(py), "-m", "pip", "install", "-q", f"{wheel}[optimize,gym]"], tmp_path,
             dict(os.environ), timeout=1800)
    assert r.returncode == 0, r.stderr
    work = tmp_path / "work"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.update(ADEQUACY_CACHE=str(tmp_path / "cache"), OPENAI_API_KEY="unused-by-a-local-base",
               PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}")
    exe = str(venv / "bin" / "adequacy")

    def ok(*args: str, code: int = 0, timeout: float = 900) -> str:
        r = _run([exe, *args], work, env, timeout)
        assert r.returncode == code, f"adequacy {' '.join(args)}: {r.returncode}\n{r.stdout}\n{r.stderr}"
        return r.stdout

    # the installed package, not the checkout, answers
    r = _run([str(py), "-c", "import adequacy, adequacy_verus; print(adequacy.__file__); "
              "print(adequacy_verus.__file__)"], work, env)
    assert r.returncode == 0 and str(REPO) not in r.stdout and "site-packages" in r.stdout
    backends = json.loads(ok("backends", "--json"))
    assert {e["engine"] for e in backends["engines"] if e["available"]} >= {"interp", "rac"}

    ok("examples", "ex")
    for lang, task in (("verus", "binary_search_first"), ("jml", "abs_value")):
        folder = work / "ex" / lang / task
        gold = next((folder / "specs").glob("gold.*"))
        ok("score", str(folder), str(gold))
        flawed = sorted((folder / "specs").glob("flawed_*"))[0]
        ok("score", str(folder), str(flawed), code=1)

    # an agent's folder, and check working in it
    ok("gym", "make", "ex/verus/euclid_mod", "gym", "--visible", "2")
    assert (work / "gym" / "euclid_mod" / "example").is_dir()  # the backend's worked example
    r = _run([exe, "check", "gym/euclid_mod"], work, env)
    assert r.returncode in (0, 1) and "pre_complete" in r.stdout + r.stderr, r.stderr

    # problem packages: the sandboxed drivers (Python judge, C++ checker) are package files
    ok("import", "package", "ex/packages", "pkgs")
    assert sorted(p.name for p in (work / "pkgs").iterdir() if (p / "task.toml").is_file())

    # a few-shot writer's prompt holds the backend's demonstrations (the bundled golds)
    answer = fields(reasoning="r", spec=f"```rust\n{(work / 'ex' / 'verus' / 'euclid_mod' / 'specs' / 'gold.rs').read_text()}```")
    with FakeEndpoint(lambda prompt, i: answer) as lm:
        ok("synthesize", "ex/verus/euclid_mod", "-o", "written", "--writer", "dspy",
           "--family", "fs-cot", "--lm", "openai/local", "--api-base", lm.base)
        prompts = [s["prompt"] for s in lm.seen]
    assert prompts, "the writer never asked the model"
    others = [g.read_text() for g in (work / "ex" / "verus").glob("*/specs/gold.rs")
              if g.parts[-3] != "euclid_mod"]
    shown = [g for g in others
             if any(ln.strip() in p for p in prompts for ln in g.splitlines()
                    if ln.strip().startswith(("spec fn", "&&", "||", "forall", "exists"))
                    and "pre_spec" not in ln and "post_spec" not in ln)]
    assert shown, "no bundled gold spec reached the prompt as a demonstration"

    # the copied-out study: templates and Houdini need no model
    ok("experiment", "run", "ex/studies/baselines.toml", timeout=1800)
    results = work / "ex" / "studies" / "out" / "baselines" / "results.jsonl"
    assert results.is_file() and results.read_text().count("\n") >= 3
