"""Text surgery on a language model's answer, shared by every backend's ``spec_from_answer``.

Models wrap code in prose and fences, stop mid-answer, or send only part of a file. These
helpers know fences and braces, nothing of a language; a backend decides what its spec file is.
What cannot be turned into a file raises ``ExtractionError``, which a writer turns into a scored
failure whose feedback is the message.
"""

from __future__ import annotations

import re

from adequacy.errors import ExtractionError

FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)(?:```|\Z)", re.S)


def code_blocks(answer: str) -> list[str]:
    """Fenced blocks in order; a fence left open (a truncated answer) runs to the end."""
    return [m.group(2) for m in FENCE.finditer(answer)]


def pick_block(answer: str, needles: tuple[str, ...]) -> str:
    """The last fenced block that mentions one of ``needles``, else the bare answer."""
    blocks = code_blocks(answer)
    for b in reversed(blocks):
        if any(n in b for n in needles):
            return b
    if blocks and not any(n in answer for n in needles):
        return blocks[-1]
    return answer


def matching_brace(text: str, open_at: int) -> int:
    """Index of the brace closing the one at ``open_at``, skipping strings and ``//``/``/* */``
    comments (the C family's lexis, which most spec languages share); -1 when cut off."""
    depth, i, n = 0, open_at, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            continue
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def whole_file(answer: str) -> str:
    """The default extraction: the answer's last fenced block, or the whole answer."""
    if not answer or not answer.strip():
        raise ExtractionError("the answer is empty")
    blocks = code_blocks(answer)
    text = blocks[-1] if blocks else answer
    if not text.strip():
        raise ExtractionError("the answer's code block is empty")
    return text.strip() + "\n"
