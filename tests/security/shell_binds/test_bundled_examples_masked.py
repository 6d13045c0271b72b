"""The installed package's bundled examples are masked in the gym shell wherever a bind holds
them. A bundled task carries every case, hidden ones included; an agent graded on a copy of
one (``adequacy examples`` then ``gym make``) must not read them from the installation, which
lies inside the system view when it was installed under ``/usr`` (here: a ``--ro`` bind of the
folder that holds it stands in for that)."""

from __future__ import annotations

from pathlib import Path

import pytest
from gym_support import installation, leaks, make_gym

from adequacy.examples import bundled_folder
from adequacy.gym.shell import run_shell
from adequacy.gym.shell_view import bundled_examples, shell_view, withheld_for

pytestmark = pytest.mark.requires("bwrap")


def test_the_bundled_copy_of_a_graded_task_is_not_readable(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    installation(tmp_path, monkeypatch)
    gym, _ = make_gym(tmp_path)
    folder = gym / "euclid_mod"
    hidden = leaks().hidden_cases(gym)
    package = bundled_folder("verus").parent.parent  # the language's package folder
    bundled_task = bundled_folder("verus") / "euclid_mod"
    assert (bundled_task / "tests" / "post_sound.jsonl").is_file()
    script = (f"cat {bundled_task}/tests/*.jsonl; ls {bundled_folder('verus')}; "
              f"echo PLUGIN; ls {package}")
    out = run_shell(folder, ["bash", "-c", script], extra_ro=[str(package)]).text()
    assert leaks().leaks_in(out, hidden) == []
    assert "euclid_mod" not in out.split("PLUGIN")[0]  # the examples folder reads empty
    assert "plugin.py" in out  # the rest of the bound folder is there


def test_every_bundled_folder_under_a_bind_is_masked(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    installation(tmp_path, monkeypatch)
    gym, _ = make_gym(tmp_path)
    roots = {p.parent.parent for p in bundled_examples()}
    assert bundled_examples()
    view = shell_view([str(r) for r in roots], withheld_for(gym / "euclid_mod")).view
    assert set(view.masks) == {str(p) for p in bundled_examples()}
