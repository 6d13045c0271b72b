"""Text edits of a spec located by its tokens, shared by the rewrites of ``rewrite`` and
``widen``: an edit replaces a character range with literal text and (recursively rendered)
ranges of the original, so edits nest (an operand wrapped inside a rewritten division)."""

from __future__ import annotations

from dataclasses import dataclass

from adequacy.plugin import BackendError

from ..syntax import ast as A


@dataclass
class Edit:
    start: int
    end: int
    parts: list[str | tuple[int, int]]
    """Literal text and (start, end) character ranges of the original to render recursively."""
    outer: bool = False
    """Of two edits of the same range, the outer one renders the other inside its parts (a
    wrapper such as ``__ade_int(...)`` around a range another edit rewrites)."""


class RewriteError(BackendError, ValueError):
    """The token positions do not match the text (the engine then rewrites nothing)."""


class Offsets:
    def __init__(self, text: str, module: A.SpecModule) -> None:
        self.text = text
        self.toks = module.tokens
        self.line_start = [0, 0]
        for i, c in enumerate(text):
            if c == "\n":
                self.line_start.append(i + 1)

    def start(self, k: int) -> int:
        t = self.toks[k]
        at = self.line_start[t.line] + t.col - 1
        if self.text[at:at + len(t.text)] != t.text:
            # never edit text we have not located exactly: a shifted edit could compile into
            # a different expression
            raise RewriteError(f"token {t.text!r} is not at line {t.line}, column {t.col}")
        return at

    def end(self, k: int) -> int:
        t = self.toks[k]
        return self.start(k) + len(t.text)

    def range(self, a: int, b: int) -> tuple[int, int]:
        """Characters of tokens ``a`` up to (excluding) ``b``."""
        return self.start(a), self.end(b - 1)


def render(text: str, a: int, b: int, edits: list[Edit]) -> str:
    """``text[a:b]`` with the edits inside it applied (each once, nested ones inside)."""
    out: list[str] = []
    pos = a
    inside = [e for e in edits if a <= e.start and e.end <= b]
    inside.sort(key=lambda e: (e.start, -e.end, not e.outer))
    top: list[Edit] = []
    for e in inside:
        if top and e.start < top[-1].end:
            continue  # nested in the previous top-level edit
        top.append(e)
    for e in top:
        out.append(text[pos:e.start])
        rest = [x for x in inside if x is not e]
        for p in e.parts:
            if isinstance(p, str):
                out.append(p)
            else:
                out.append(render(text, p[0], p[1], rest))
        pos = e.end
    out.append(text[pos:b])
    return "".join(out)
