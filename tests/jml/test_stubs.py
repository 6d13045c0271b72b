"""Spec-Harness stubs: both directions per case, helpers kept, valid Java."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from jml_support import EXAMPLES

from adequacy.extensions.registry import collect_backends, make_manager
from adequacy.taskdirs.load import load_task
from adequacy_openjml.jml.load import load
from adequacy_openjml.stubs import java_literal, render_stubs


def test_java_literals() -> None:
    assert java_literal([1, -2], "int[]") == "new int[]{1, (-2)}"
    assert java_literal("a\"b", "String") == '"a\\"b"'
    assert java_literal("x", "char") == "'x'"
    # not '\\u0027': Java replaces unicode escapes before lexing, so that is '''
    assert java_literal("'", "char") == "'\\''"
    assert java_literal(None, "int[]") == "null"
    assert java_literal(5, "long") == "5L"
    assert java_literal("NaN", "double") == "Double.NaN"


def test_stubs_cover_both_directions_and_keep_helpers() -> None:
    task = load_task(EXAMPLES / "is_prime")
    spec = load(task, (EXAMPLES / "is_prime" / "specs" / "gold.java").read_text(), "g.java")
    sf = render_stubs(spec, task, task.all_cases())
    assert not sf.skipped
    n = len(task.all_cases())
    assert len(sf.stubs) == 2 * n
    assert {s.direction for s in sf.stubs} == {"phi", "not-phi"}
    assert "static boolean divides(int d, int n)" in sf.text  # helper kept
    post_phi = next(s for s in sf.stubs if s.kind == "post_phi")
    assert "assume n ==" in sf.text and post_phi.spec_jml.startswith("//@ requires")
    pre_phi = next(s for s in sf.stubs if s.kind == "pre_phi")
    assert pre_phi.call.startswith("Solution.solve(")


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("javac") is None, reason="needs javac")
def test_stub_files_compile(tmp_path: Path) -> None:
    tasks = sorted(EXAMPLES.iterdir())
    assert len(tasks) >= 5  # the bundled JML examples: an empty folder must not pass
    for d in tasks:
        task = load_task(d)
        spec = load(task, (d / "specs" / "gold.java").read_text(), "g.java")
        sf = render_stubs(spec, task, task.all_cases())
        out = tmp_path / d.name
        out.mkdir()
        (out / "Solution.java").write_text(sf.text)
        r = subprocess.run(["javac", "-d", str(out), str(out / "Solution.java")],
                           capture_output=True, text=True)
        assert r.returncode == 0, (d.name, r.stderr)


def test_registered_through_the_plugin_manager() -> None:
    backends = collect_backends(make_manager())
    b = backends["openjml"]
    assert b.language == "jml"
    engines = {e.name: e.info() for e in b.engines()}
    assert list(engines) == ["rac", "smt", "openjml", "key"]
    assert [n for n, i in engines.items() if i.default] == ["rac", "smt"]  # openjml, key: opt-in
    assert [engines[n].fidelity for n in engines] == [20, 15, 30, 10]
    if shutil.which("openjml") is None and "ADEQUACY_OPENJML" not in os.environ:
        assert not engines["openjml"].available and "openjml" in engines["openjml"].reason
