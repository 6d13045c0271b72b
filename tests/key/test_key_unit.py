"""Fast tests of the key engine's pieces that need no JVM: verdict rules, stub text, discovery."""

from __future__ import annotations

from pathlib import Path

import pytest
from key_support import EXAMPLES

from adequacy.model.verdicts import Truth
from adequacy.taskdirs.load import load_task
from adequacy_openjml.engines.key import build
from adequacy_openjml.engines.key.engine import KeyEngine, decide
from adequacy_openjml.engines.key.stubs import render_key_stubs
from adequacy_openjml.jdk import Java
from adequacy_openjml.jml.load import load


def res(status: str, steps: int = 10) -> dict[str, object]:
    return {"status": status, "steps": steps, "millis": 100, "open_goals": 0 if
            status == "closed" else 1, "reason": "r"}


@pytest.mark.parametrize(("phi", "neg", "truth", "why"), [
    ("closed", "open", Truth.true, "proved phi"),
    ("open", "closed", Truth.false, "proved not-phi"),
    ("closed", None, Truth.true, "proved phi"),
    (None, "closed", Truth.false, "proved not-phi"),
    ("open", "timeout", Truth.unknown, "decided neither"),
    ("error", "open", Truth.unknown, "decided neither"),
    ("closed", "closed", Truth.unknown, "inconsistent"),
    ("open", None, Truth.unknown, "no result"),
])
def test_decide(phi: str | None, neg: str | None, truth: Truth, why: str) -> None:
    pair = {k: res(v) for k, v in (("phi", phi), ("not-phi", neg)) if v is not None}
    value, reason, _ = decide(pair, [])
    assert value is truth
    assert why in reason


def test_warnings_make_a_closed_proof_unknown() -> None:
    value, reason, _ = decide({"phi": res("closed"), "not-phi": res("open")},
                              ["Stub.java:3: ignored unsupported clause"])
    assert value is Truth.unknown and "skipped JML" in reason


def test_stubs_share_locals_and_negate_the_formula() -> None:
    task = load_task(EXAMPLES / "abs_value")
    spec = load(task, (EXAMPLES / "abs_value" / "specs" / "gold.java").read_text(), "gold.java")
    cases = task.all_cases()
    sf = render_key_stubs(spec, task, cases)
    assert len(sf.stubs) == 2 * len(cases) and not sf.skipped
    names = [s.name for s in sf.stubs]
    assert len(set(names)) == len(names)  # case ids repeat across buckets; names do not
    for phi, neg in zip(sf.stubs[::2], sf.stubs[1::2], strict=True):
        assert (phi.direction, neg.direction) == ("phi", "not-phi")
        assert phi.locals == neg.locals and neg.assertion == f"!{phi.assertion}"
        assert f"//@ assert {phi.assertion};" in sf.text
    # one contract per stub, and the canary's (``KeyStubFile.canary``: asserts false)
    assert sf.text.count("public normal_behavior") == len(sf.stubs) + 1
    assert f"void {sf.canary}()" in sf.text
    # the class's own code is kept as written, on its own lines; the method's JML is blanked
    # (the stubs assert the front end's formulas, KeY need not parse the original clauses)
    assert "return -x;" in sf.text and "ensures \\result >= 0;" not in sf.text
    original = (EXAMPLES / "abs_value" / "specs" / "gold.java").read_text()
    line = next(k for k, ln in enumerate(original.splitlines()) if "return -x;" in ln)
    assert sf.text.splitlines()[line] == original.splitlines()[line]


def test_engine_unavailable_reason(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("ADEQUACY_CACHE", str(tmp_path))
    monkeypatch.setattr(build, "find_java", lambda: None)
    info = KeyEngine().info()
    assert not info.available and "Java 17" in info.reason
    monkeypatch.setattr(build, "find_java", lambda: Java("/usr/bin/java", None, 11))
    assert "found 11" in KeyEngine().info().reason
    monkeypatch.setattr(build, "find_java", lambda: Java("/usr/bin/java", None, 17))
    monkeypatch.setattr(build, "jar_path", lambda: tmp_path / "missing.jar")
    info = KeyEngine().info()
    assert not info.available and "adequacy setup" in info.reason


def test_jml_default_chain_stays_rac() -> None:
    """key is opt-in: installing it must not take over the JML default chain (rac decides first;
    the symbolic engine only answers what rac leaves unknown)."""
    from adequacy.extensions import registry
    from adequacy.scoring.runner import resolve_engines
    chain, _ = resolve_engines("jml")
    names = [r.info.name for r in chain]
    assert names[0] == "rac" and "key" not in names and "openjml" not in names
    assert registry.registry().backend_for("jml").name == "openjml"
