"""`adequacy optimize` rejects bad options with one line and exit 2, before any LM call."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from adequacy.cli import app
from adequacy.examples import bundled_folder


@pytest.mark.parametrize(("extra", "message"), [
    ([], "--lm"),
    (["--lm", "openai/x", "--auto", "huge"], "--auto"),
    (["--lm", "openai/x", "--split", "1/2"], "--split"),
    (["--lm", "openai/x", "--metric", "accuracy"], "metric"),
])
def test_bad_options(tmp_path, extra, message):
    res = CliRunner().invoke(app, ["optimize", str(bundled_folder("verus")), "-o", str(tmp_path / "o"),
                                   *extra])
    assert res.exit_code == 2, res.output
    assert message in res.output and "Traceback" not in res.output


def test_mixed_languages_are_refused(tmp_path):
    res = CliRunner().invoke(app, ["optimize", str(bundled_folder("verus")), str(bundled_folder("jml")),
                                   "-o", str(tmp_path / "o"), "--lm", "openai/x"])
    assert res.exit_code == 2 and "one language at a time" in res.output
