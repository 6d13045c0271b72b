"""`adequacy examples DEST`: the bundled examples copied out as one tree, the same tree the README
and docs use, owned by each language's backend and by core."""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

from typer.testing import CliRunner

from adequacy.cli import app
from adequacy.examples import bundled, bundled_folder, copy_examples
from adequacy.extensions import registry


def test_every_language_brings_its_own_examples() -> None:
    """Tasks and golds come from the backends (no language's store inside core); core brings
    what belongs to no language."""
    owners = {f.name: f.owner for f in bundled()}
    assert owners["packages"] == owners["studies"] == "core"
    for b in registry.registry().backends.values():
        if b.example_dir is not None:
            assert owners[b.language] == b.name
            package = importlib.import_module(type(b).__module__.split(".")[0])
            assert b.example_dir.is_relative_to(Path(str(package.__file__)).parent)


def test_the_copy_is_the_bundle_and_a_study_finds_its_tasks(tmp_path: Path) -> None:
    done = copy_examples(tmp_path / "ex")
    assert {target.name for _, target, _ in done} >= {"verus", "jml", "packages", "studies"}
    gold = tmp_path / "ex" / "verus" / "binary_search_first" / "specs" / "gold.rs"
    assert gold.read_bytes() == (bundled_folder("verus") / "binary_search_first" / "specs"
                                 / "gold.rs").read_bytes()
    # a study's task paths are relative to the study file: they resolve inside the copied tree
    study = tmp_path / "ex" / "studies" / "baselines.toml"
    for rel in tomllib.loads(study.read_text())["tasks"]:
        assert (study.parent / rel / "task.toml").is_file(), rel


def test_running_it_twice_is_fine_and_edits_are_never_lost(tmp_path: Path) -> None:
    dest = tmp_path / "ex"
    r = CliRunner().invoke(app, ["examples", str(dest)])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(app, ["examples", str(dest)])
    assert r.exit_code == 0 and "up to date" in r.output
    edited = dest / "jml" / "abs_value" / "statement.md"
    edited.write_text("my notes\n")
    r = CliRunner().invoke(app, ["examples", str(dest)])
    assert r.exit_code == 2 and "--force" in r.output
    assert edited.read_text() == "my notes\n"
    r = CliRunner().invoke(app, ["examples", str(dest), "--force"])
    assert r.exit_code == 0 and "replaced" in r.output
    assert edited.read_text() != "my notes\n"
