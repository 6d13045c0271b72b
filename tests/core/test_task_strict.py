"""Task validation: typos are errors with a did-you-mean, a BOM is fine."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adequacy.cli import app
from adequacy.examples import bundled_folder
from adequacy.taskdirs.load import check_task

ROOT = Path(__file__).resolve().parents[2]
EUCLID = bundled_folder("verus") / "euclid_mod"
ABS = bundled_folder("jml") / "abs_value"


def copy(src: Path, tmp_path: Path) -> Path:
    d = tmp_path / src.name
    shutil.copytree(src, d, ignore=shutil.ignore_patterns("specs"))
    return d


def messages(d: Path) -> list[str]:
    task, errors = check_task(d)
    assert task is None
    return [str(e) for e in errors]


@pytest.mark.parametrize("old,new,expect", [
    ("[signature.input]", "[signature.inputs]",
     "task.toml:8: signature.inputs: unknown key 'inputs' in [signature] (did you mean 'input'?)"),
    ("[signature.output]", "[signature.output]\n[signature.extra]\nx = \"int\"",
     "task.toml:13: signature.extra: unknown key 'extra' in [signature]"),
])
def test_unknown_signature_tables(tmp_path: Path, old: str, new: str, expect: str) -> None:
    d = copy(EUCLID, tmp_path)
    toml = d / "task.toml"
    toml.write_text(toml.read_text().replace(old, new))
    assert any(m.startswith(f"{d.name}/{expect}") for m in messages(d)), messages(d)


def test_jml_clas_did_you_mean(tmp_path: Path) -> None:
    d = copy(ABS, tmp_path)
    toml = d / "task.toml"
    text = toml.read_text()
    assert 'class = "Solution"' in text
    toml.write_text(text.replace('class = "Solution"', 'clas = "Solution"'))
    line = text.splitlines().index('class = "Solution"') + 1
    assert f"{d.name}/task.toml:{line}: jml.clas: unknown key 'clas' in [jml] (did you mean " \
           "'class'?)" in messages(d)


def test_verus_rlimt_did_you_mean(tmp_path: Path) -> None:
    d = copy(EUCLID, tmp_path)
    (d / "task.toml").write_text((d / "task.toml").read_text() + "\n[verus]\nrlimt = 10\n")
    n = len((d / "task.toml").read_text().splitlines())
    assert f"{d.name}/task.toml:{n}: verus.rlimt: unknown key 'rlimt' in [verus] (did you " \
           "mean 'rlimit'?)" in messages(d)


def test_misspelt_bucket_file(tmp_path: Path) -> None:
    d = copy(EUCLID, tmp_path)
    (d / "tests" / "pre_sound.jsonl").rename(d / "tests" / "pre_sond.jsonl")
    assert f"{d.name}/tests/pre_sond.jsonl: not a bucket file (did you mean " \
           "'pre_sound.jsonl'?)" in messages(d)


def test_missing_tests_folder(tmp_path: Path) -> None:
    d = copy(EUCLID, tmp_path)
    shutil.rmtree(d / "tests")
    assert any(m.startswith(f"{d.name}/tests: missing tests/ folder") for m in messages(d))


def test_empty_solution_java(tmp_path: Path) -> None:
    d = copy(ABS, tmp_path)
    (d / "Solution.java").write_text("\n  \n")
    assert f"{d.name}/Solution.java: Solution.java is empty (it must hold the method the spec " \
           "annotates)" in messages(d)


def test_bom_accepted_everywhere(tmp_path: Path) -> None:
    d = copy(EUCLID, tmp_path)
    bom = b"\xef\xbb\xbf"
    for f in [d / "task.toml", d / "statement.md", *sorted((d / "tests").glob("*.jsonl"))]:
        f.write_bytes(bom + f.read_bytes())
    task, errors = check_task(d)
    assert errors == [] and task is not None
    assert task.cases[next(iter(task.cases))][0].line == 1
    spec = tmp_path / "gold.rs"
    spec.write_bytes(bom + (EUCLID / "specs" / "gold.rs").read_bytes())
    r = CliRunner().invoke(app, ["score", str(d), str(spec), "--no-cache"])
    assert r.exit_code == 0, r.stdout + r.stderr
    assert "PASSED ALL" in r.stdout


def test_examples_still_valid() -> None:
    r = CliRunner().invoke(app, ["task", "validate", str(bundled_folder("verus")),
                                 str(bundled_folder("jml"))])
    assert r.exit_code == 0, r.stdout + r.stderr


def test_hostile_toml_is_a_located_error(tmp_path: Path) -> None:
    d = copy(EUCLID, tmp_path)
    base = (d / "task.toml").read_text()
    (d / "task.toml").write_text(base + "\n[constraints]\nx = " + "[" * 100_000
                                 + "]" * 100_000 + "\n")
    assert messages(d) == [f"{d.name}/task.toml: TOML nested too deeply"]
    (d / "task.toml").write_text(base + "\n[constraints]\ny = " + "9" * 20_000 + "\n")
    assert messages(d) == [f"{d.name}/task.toml: TOML value refused: an integer has more than "
                           "10000 digits"]
    text = base.replace('a = "int"', 'a = "' + "seq<" * 5000 + "int" + ">" * 5000 + '"')
    (d / "task.toml").write_text(text)
    line = text.splitlines().index(next(x for x in text.splitlines() if x.startswith("a = "))) + 1
    assert messages(d)[0] == f"{d.name}/task.toml:{line}: signature.input.a: type nested too " \
                             "deeply"


def test_every_input_valid_contradicted_by_pre_sound_cases(tmp_path: Path) -> None:
    import shutil

    from adequacy.errors import TaskError
    from adequacy.taskdirs.load import load_task

    src = bundled_folder("verus") / "euclid_mod"
    task = tmp_path / "t"
    shutil.copytree(src, task)
    toml = task / "task.toml"
    toml.write_text(toml.read_text().replace('language = "verus"',
                                             'language = "verus"\nevery_input_valid = true'))
    with pytest.raises(TaskError, match="every_input_valid"):
        load_task(task)
    (task / "tests" / "pre_sound.jsonl").write_text("")
    assert load_task(task).every_input_valid
