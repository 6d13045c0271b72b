"""The text of a scored spec for its report page: found on disk, checked, highlighted.

A results file names the spec's path, and a results file may come from anyone: embedding
whatever file it names would let a crafted record copy ``~/.ssh/id_rsa`` into a report that
is then mailed around. So the text is shown only when its hash is the record's ``spec_sha``
(which the scorer computed from the text it scored): a file that changed since, or one a
record points at without knowing its content, is not shown, and the page says why. Only
regular files up to the spec size limit are read.

Highlighting is pygments' (rich depends on it), its lexer chosen by the file name, so no
language is named here. Lines an engine names (``line 12`` in a verdict's reason, the line of
an invalid-spec message) are marked, with what was said about them.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from adequacy.model.textfiles import max_spec_bytes
from adequacy.scoring.keys import spec_hash
from adequacy.scoring.spec_report import SpecReport

LINE_IN_REASON = re.compile(r"\bline (\d+)\b")
"""How engines name a spec line in a verdict's reason ("ensures (line 4) is false")."""
MAX_NOTES_PER_LINE = 3


class SpecText(BaseModel):
    """What a spec page shows of the spec."""

    model_config = ConfigDict(extra="forbid")

    html: str = ""
    """Highlighted, numbered lines (pygments' HTML); empty when the text is not shown."""
    marked: dict[int, list[str]] = {}
    """Line -> what engines said about it (failing cases' reasons, an invalid-spec message)."""
    missing: str = ""
    """Why the text is not shown."""


def spec_text(rep: SpecReport, results_dir: Path | None = None) -> SpecText:
    marked = _marked_lines(rep)
    if not rep.spec_path:
        return SpecText(marked=marked, missing="the spec was scored from text, not a file")
    text = _read_checked(rep, results_dir)
    if text is None:
        return SpecText(marked=marked, missing=f"{rep.spec_path} is not on disk with the text "
                        "that was scored (moved or changed since)")
    n = text.count("\n") + 1
    marked = {ln: notes for ln, notes in marked.items() if 1 <= ln <= n}
    return SpecText(html=highlight(text, rep.spec_path, sorted(marked)), marked=marked)


def highlight(text: str, filename: str, lines: list[int]) -> str:
    from pygments import highlight as _hl
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import TextLexer, get_lexer_for_filename
    from pygments.util import ClassNotFound

    try:
        lexer = get_lexer_for_filename(filename, stripnl=False)
    except ClassNotFound:
        lexer = TextLexer(stripnl=False)
    fmt = HtmlFormatter(linenos="inline", hl_lines=lines, cssclass="src", wrapcode=True,
                        lineanchors="", anchorlinenos=False)
    return _hl(text, lexer, fmt)


def css() -> str:
    """The highlighter's styles, scoped to ``.src`` (embedded once in the report)."""
    from pygments.formatters import HtmlFormatter

    return str(HtmlFormatter(cssclass="src").get_style_defs(".src"))


def _marked_lines(rep: SpecReport) -> dict[int, list[str]]:
    notes: dict[int, list[str]] = defaultdict(list)
    if rep.invalid is not None and rep.invalid.line is not None:
        notes[rep.invalid.line].append(f"invalid: {rep.invalid.message}")
    for v in rep.verdicts:
        if v.passed:
            continue
        for m in LINE_IN_REASON.finditer(v.reason):
            ln = int(m.group(1))
            note = f"{v.bucket.value} {v.case_id}: {v.reason}"
            if len(notes[ln]) < MAX_NOTES_PER_LINE and note not in notes[ln]:
                notes[ln].append(note)
    return dict(notes)


def _read_checked(rep: SpecReport, results_dir: Path | None) -> str | None:
    assert rep.spec_path is not None
    p = Path(rep.spec_path)
    candidates = [p]
    if not p.is_absolute():
        if results_dir is not None:
            candidates.append(results_dir / p)
        # a path relative to where `run` was started: find its tail under the task folder
        candidates += [Path(rep.task_path).joinpath(*p.parts[i:]) for i in range(len(p.parts))]
    limit = max_spec_bytes()
    for c in candidates:
        try:
            if not c.is_file() or c.stat().st_size > limit:
                continue
            data = c.read_bytes()[: limit + 1]
            text = data.removeprefix(b"\xef\xbb\xbf").decode("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if spec_hash(text) == rep.spec_sha:
            return text
    return None
