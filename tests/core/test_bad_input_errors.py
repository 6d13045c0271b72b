"""Bad input never reaches the command line as anything but an ``AdequacyError``.

``main`` prints an ``AdequacyError`` as one ``error:`` line (exit 2) and anything else as an
"internal error (please report)" line: so every exception a user's file can provoke must be
an ``AdequacyError``. Hypothesis mangles every file a command reads (task.toml, the cases, the
skeleton, a spec, a results log, a study file, a jobs file) and each command must end in one
of its documented exit codes with no other exception escaping.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from adequacy.cli import app
from adequacy.errors import AdequacyError

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GOLD = "pre: x >= 0\npost: result == x + 1\n"

# text that parsers find hard: TOML and JSON structure, deep nesting, huge numbers, NULs,
# surrogates, BOMs, unterminated strings
_NASTY = st.sampled_from([
    "", "\x00", "\ufeff", "[", "]]", "{", '"', "'''", "\\", "=", "==", "[[", "x = ", "1e999",
    "9" * 5000, "[" * 2000, "{" * 2000, '{"id": "a"', '{"input": {"x": "y"}}', "\ud800",
    "language = 42", "id = ''", "[signature]", "inputs = 3", "tests/../..", "\n", "\r\n",
    'id = "a/b"', "x: int", "-", "true", "null", "nan", "inf",
])


def _mangle(text: str, edits: list[tuple[int, str, int]]) -> str:
    """Apply (position, insertion, deletion length) edits: near-valid files, where the
    interesting parser paths are."""
    for pos, ins, cut in edits:
        at = pos % (len(text) + 1)
        text = text[:at] + ins + text[at + cut:]
    return text


EDITS = st.lists(st.tuples(st.integers(0, 10_000), _NASTY | st.text(max_size=20),
                           st.integers(0, 40)), min_size=1, max_size=4)


def _ok(result: Any, codes: tuple[int, ...] = (0, 1, 2, 3)) -> None:
    """The command ended through an exit code, or by an ``AdequacyError`` (``main`` prints
    it as one line): never by any other exception."""
    exc = result.exception
    if exc is not None and not isinstance(exc, (SystemExit, AdequacyError)):
        raise AssertionError(f"{type(exc).__name__} escaped: {exc}") from exc
    assert result.exit_code in codes or isinstance(exc, AdequacyError), result.output
    assert "internal error" not in result.output


def _fresh(tmp: Path) -> Path:
    d = tmp / "t"
    if d.exists():
        shutil.rmtree(d)
    shutil.copytree(FIXTURES / "toy_task", d)
    return d


FILES = ["task.toml", "tests/pre_complete.jsonl", "tests/post_sound.jsonl", "skeleton.toy",
         "statement.md"]


@pytest.mark.property
@pytest.mark.slow
def test_mangled_task_files(toy: None, tmp_path: Path) -> None:
    runner = CliRunner()

    @settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
    @given(name=st.sampled_from(FILES), edits=EDITS)
    def check(name: str, edits: list[tuple[int, str, int]]) -> None:
        task = _fresh(tmp_path)
        f = task / name
        if f.exists():
            f.write_text(_mangle(f.read_text(encoding="utf-8"), edits), encoding="utf-8",
                         errors="surrogatepass")
        spec = tmp_path / "gold.toy"
        spec.write_text(GOLD)
        for args in (["task", "validate", str(task)], ["score", str(task), str(spec), "--no-cache"],
                     ["mutate", str(task), "--per-case", "1", "--seed", "0"]):
            _ok(runner.invoke(app, args))

    check()


@pytest.mark.property
@pytest.mark.slow
def test_mangled_specs_results_and_studies(toy: None, tmp_path: Path) -> None:
    runner = CliRunner()
    task = _fresh(tmp_path / "base")
    (task / "specs").mkdir()
    (task / "specs" / "gold.toy").write_text(GOLD)
    results = tmp_path / "results.jsonl"
    r = runner.invoke(app, ["run", "--tasks", str(task), "-o", str(results), "--no-progress",
                            "--workers", "1", "--no-cache"])
    assert r.exit_code == 0 and results.read_text().strip(), r.output
    record = results.read_text()
    study = ('name = "s"\ntasks = ["' + str(task) + '"]\nresults = "out.jsonl"\n'
             '[[specs]]\nname = "bundled"\nglob = "default"\n')
    jobs = f'{{"task": "{task}", "spec": "{task / "specs" / "gold.toy"}"}}\n'

    cases: list[tuple[str, str, Callable[[Path], list[str]]]] = [
        ("spec.toy", GOLD, lambda p: ["score", str(task), str(p), "--no-cache"]),
        ("r.jsonl", record, lambda p: ["report", str(p), "--format", "json"]),
        ("c.jsonl", record, lambda p: ["compare", str(results), str(p)]),
        ("study.toml", study, lambda p: ["experiment", "run", str(p)]),
        ("jobs.jsonl", jobs, lambda p: ["run", str(p), "-o", str(tmp_path / "o.jsonl"),
                                        "--no-progress", "--workers", "1", "--no-cache"]),
    ]

    @settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
    @given(which=st.sampled_from(range(len(cases))), edits=EDITS)
    def check(which: int, edits: list[tuple[int, str, int]]) -> None:
        name, text, argv = cases[which]
        p = tmp_path / name
        p.write_text(_mangle(text, edits), encoding="utf-8", errors="surrogatepass")
        _ok(runner.invoke(app, argv(p)))

    check()
