"""bad input gets one line naming the file (and line) and exit 2, never a
traceback and never exit 1 (which means "the spec failed"). Each case runs the real CLI."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adequacy.cli import app
from adequacy.examples import bundled_folder

ROOT = Path(__file__).resolve().parents[2]
EUCLID = bundled_folder("verus") / "euclid_mod"
runner = CliRunner()


def cli(*args: str | Path) -> tuple[int, str, str]:
    r = runner.invoke(app, [str(a) for a in args])
    assert not isinstance(r.exception, Exception) or isinstance(r.exception, SystemExit), (
        f"traceback: {r.exception!r}")
    return r.exit_code, r.stdout, r.stderr


def one_line_error(code: int, out: str, err: str) -> str:
    assert code == 2, (code, out, err)
    assert "Traceback" not in out + err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("error:"), err
    return lines[0]


@pytest.fixture
def task(tmp_path: Path) -> Path:
    d = tmp_path / "euclid_mod"
    shutil.copytree(EUCLID, d, ignore=shutil.ignore_patterns("specs"))
    return d


@pytest.fixture
def gold(tmp_path: Path) -> Path:
    p = tmp_path / "gold.rs"
    shutil.copy(EUCLID / "specs" / "gold.rs", p)
    return p


def test_spec_of_random_bytes(task: Path, tmp_path: Path) -> None:
    spec = tmp_path / "random.rs"
    spec.write_bytes(b"// fine\n" + bytes(range(128, 256)) * 4)
    line = one_line_error(*cli("score", task, spec, "--no-cache"))
    assert f"{spec}:2:" in line and "not UTF-8" in line


def test_non_utf8_task_toml(task: Path) -> None:
    toml = task / "task.toml"
    toml.write_bytes(toml.read_bytes().replace(b"Euclidean", b"Eucl\xe9dean"))
    line = one_line_error(*cli("score", task, EUCLID / "specs" / "gold.rs", "--no-cache"))
    assert "task.toml:3:" in line and "not UTF-8" in line


def test_non_utf8_jsonl(task: Path, gold: Path) -> None:
    f = task / "tests" / "post_sound.jsonl"
    f.write_bytes(f.read_bytes() + b'{"id": "\xff"}\n')
    n = f.read_bytes().count(b"\n")
    line = one_line_error(*cli("score", task, gold, "--no-cache"))
    assert f"tests/post_sound.jsonl:{n}:" in line and "not UTF-8" in line


def test_folder_where_jsonl_should_be(task: Path, gold: Path) -> None:
    f = task / "tests" / "pre_sound.jsonl"
    f.unlink()
    f.mkdir()
    line = one_line_error(*cli("score", task, gold, "--no-cache"))
    assert "tests/pre_sound.jsonl" in line and "folder" in line


def test_json_nested_100000_deep(task: Path, gold: Path) -> None:
    f = task / "tests" / "pre_complete.jsonl"
    deep = "[" * 100_000 + "]" * 100_000
    f.write_text(f.read_text() + '{"id": "deep", "input": {"a": ' + deep + ', "b": 1}}\n')
    n = len(f.read_text().splitlines())
    line = one_line_error(*cli("score", task, gold, "--no-cache"))
    assert f"pre_complete.jsonl:{n}:" in line and "nested too deeply" in line


def test_5001_digit_integer_is_a_value(task: Path, gold: Path) -> None:
    # docs/tasks.md: integers of any size. (10**5000 + 7) % 10 == 7 (Euclidean, b > 0)
    a = 10**5000 + 7
    f = task / "tests" / "post_complete.jsonl"
    f.write_text(f.read_text() + '{"id": "huge", "input": {"a": ' + str(a)
                 + ', "b": 10}, "output": {"result": 7}}\n')
    assert len(str(a)) == 5001
    code, out, err = cli("score", task, gold, "--no-cache", "--json")
    assert code == 0, (out, err)
    rep = json.loads(out)
    huge = [v for v in rep["verdicts"] if v["case_id"] == "huge"]
    assert huge and huge[0]["value"] == "true"


def test_integer_beyond_the_cap_is_one_line(task: Path, gold: Path) -> None:
    f = task / "tests" / "pre_complete.jsonl"
    f.write_text(f.read_text() + '{"id": "huger", "input": {"a": ' + "9" * 10_001
                 + ', "b": 1}}\n')
    line = one_line_error(*cli("score", task, gold, "--no-cache"))
    assert "pre_complete.jsonl:4:" in line and "10001 digits" in line and "10000" in line


def test_run_missing_jobs_file(tmp_path: Path) -> None:
    line = one_line_error(*cli("run", tmp_path / "missing.jsonl", "-o", tmp_path / "r.jsonl"))
    assert "missing.jsonl" in line and "does not exist" in line


def test_import_into_a_file(tmp_path: Path) -> None:
    dest = tmp_path / "dest"
    dest.write_text("not a folder")
    line = one_line_error(*cli("import", "verina", bundled_folder("verina-gold"), dest))
    assert str(dest) in line and "is a file" in line


def test_score_dev_zero_is_capped(task: Path) -> None:
    line = one_line_error(*cli("score", task, "/dev/zero", "--no-cache"))
    assert "/dev/zero" in line and "larger than 1048576 bytes" in line


def test_spec_cap_is_configurable(task: Path, gold: Path, monkeypatch: pytest.MonkeyPatch
                                  ) -> None:
    line = one_line_error(*cli("score", task, gold, "--no-cache", "--max-spec-bytes", "100"))
    assert "larger than 100 bytes" in line
    monkeypatch.setenv("ADEQUACY_MAX_SPEC_BYTES", "100")
    assert "larger than 100 bytes" in one_line_error(*cli("score", task, gold, "--no-cache"))


def test_batch_goes_on_past_a_non_utf8_spec(task: Path, gold: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.rs"
    bad.write_bytes(b"\xff\xfe garbage")
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text(json.dumps({"task": str(task), "spec": str(bad)}) + "\n"
                    + json.dumps({"task": str(task), "spec": str(gold)}) + "\n")
    results = tmp_path / "results.jsonl"
    code, out, err = cli("run", jobs, "-o", results, "--workers", "1", "--no-progress",
                         "--no-cache")
    assert code == 2 and "Traceback" not in out + err
    recs = {Path(r["spec_path"]).name: r for r in
            (json.loads(x)["report"] for x in results.read_text().splitlines())}
    assert recs["bad.rs"]["status"] == "error"
    assert f"{bad}:1:" in recs["bad.rs"]["error"] and "not UTF-8" in recs["bad.rs"]["error"]
    assert recs["gold.rs"]["status"] == "scored"


def test_job_line_error_has_no_pydantic_url(tmp_path: Path) -> None:
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text('{"task": "t"}\n')
    line = one_line_error(*cli("run", jobs, "-o", tmp_path / "r.jsonl"))
    assert f"{jobs}:1:" in line and "spec" in line and "http" not in line


def _entry(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "adequacy", *args], capture_output=True,
                          text=True, timeout=120, env={**os.environ, **(env or {})})


def test_entry_point_bad_spec_one_line(task: Path, tmp_path: Path) -> None:
    spec = tmp_path / "random.rs"
    spec.write_bytes(os.urandom(64).replace(b"\n", b"") + b"\xff")
    p = _entry("score", str(task), str(spec), "--no-cache")
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert p.stderr.count("\n") == 1 and str(spec) in p.stderr


@pytest.mark.slow
def test_main_last_resort_is_one_line(tmp_path: Path) -> None:
    code = ("import sys, adequacy.cli as c, adequacy.extensions.registry as plugins\n"
            "def boom(): raise RuntimeError('boom\\nsecond line')\n"
            "plugins.registry = boom\n"
            "sys.argv = ['adequacy', 'backends']\n"
            "c.main()\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120, env={**os.environ, "ADEQUACY_DEBUG": "0"})
    assert p.returncode == 2, p.stderr
    assert p.stderr.strip().count("\n") == 0
    assert "internal error: RuntimeError: boom (please report" in p.stderr
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120, env={**os.environ, "ADEQUACY_DEBUG": "1"})
    assert "Traceback" in p.stderr and p.returncode == 1


def test_run_bad_tasks_and_glob(tmp_path: Path) -> None:
    line = one_line_error(*cli("run", "--tasks", tmp_path / "nowhere", "-o", tmp_path / "r"))
    assert "nowhere: not a task folder" in line
    line = one_line_error(*cli("run", "--tasks", EUCLID, "--spec-glob", "/abs/*.rs",
                               "-o", tmp_path / "r"))
    assert "--spec-glob" in line


def test_results_path_is_a_folder(tmp_path: Path, gold: Path) -> None:
    line = one_line_error(*cli("run", "--tasks", EUCLID, "-o", tmp_path))
    assert "is a folder" in line


def test_import_non_utf8_dataset(tmp_path: Path) -> None:
    src = tmp_path / "fb.jsonl"
    src.write_bytes(b"\xff\xfe{}\n")
    line = one_line_error(*cli("import", "formalbench", src, tmp_path / "out"))
    assert str(src) in line and "not UTF-8" in line


def test_spec_that_is_a_pipe(task: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "spec.rs"
    os.mkfifo(fifo)
    line = one_line_error(*cli("score", task, fifo, "--no-cache"))
    assert str(fifo) in line and "pipe" in line


def test_batch_spec_cap_and_dev_zero(task: Path, gold: Path, tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # the CLI hands the cap to its workers through the environment: let monkeypatch undo it
    monkeypatch.setenv("ADEQUACY_MAX_SPEC_BYTES", "1048576")
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text(json.dumps({"task": str(task), "spec": "/dev/zero"}) + "\n"
                    + json.dumps({"task": str(task), "spec": str(gold)}) + "\n")
    results = tmp_path / "results.jsonl"
    code, out, err = cli("run", jobs, "-o", results, "--workers", "1", "--no-progress",
                         "--no-cache", "--max-spec-bytes", "100")
    assert code == 2 and "Traceback" not in out + err
    recs = [json.loads(x)["report"] for x in results.read_text().splitlines()]
    assert [r["status"] for r in recs] == ["error", "error"]
    assert all("larger than 100 bytes" in r["error"] for r in recs)


def test_run_on_a_folder(tmp_path: Path) -> None:
    # a folder is taken as task folders (as `run --tasks`); one holding no task says so
    line = one_line_error(*cli("run", tmp_path, "-o", tmp_path / "r.jsonl"))
    assert str(tmp_path) in line and "not a task folder or a folder of tasks" in line


def test_jobs_file_nested_100000_deep(tmp_path: Path) -> None:
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text('{"task": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    line = one_line_error(*cli("run", jobs, "-o", tmp_path / "r.jsonl"))
    assert f"{jobs}:1:" in line
