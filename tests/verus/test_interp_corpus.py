"""The interp engine on the verus-bench corpus: verified functions' ensures must not be false."""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_corpus_parses_and_no_false_on_verified_functions(datasets_dir: Path) -> None:
    root = datasets_dir / "verus-bench"
    if not root.is_dir():
        import pytest
        pytest.skip("verus-bench is not in the datasets folder")
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import verus_corpus
    finally:
        sys.path.pop(0)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert verus_corpus.main([str(root)]) == 0
    out = buf.getvalue()
    parse_line = next(ln for ln in out.splitlines() if ln.strip().startswith("parse:"))
    pct = float(parse_line.split("(")[1].split("%")[0])
    assert pct >= 95.0, out
    ev = next(ln for ln in out.splitlines() if "ensures evaluations" in ln)
    assert "false=0" in ev, out
    true_count = int(ev.split("true=")[1].split()[0])
    assert true_count >= 300, out
