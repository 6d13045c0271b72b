"""``adequacy package convert --lm MODEL``: a model writes a package's ``io.py``, with the
round-trip failures as feedback (the construction agent of Verus-SpecGym, appendix D).

Each attempt asks for the whole ``io.py`` given the statement, the declared types, sample
texts and (after the first) the previous program with the cases it failed: a text that does
not parse, a value outside the declared types, or ``P(R(t)) != t`` with the first differing
byte. The target is every official test (input and answer); the attempt that converts them
all is written to ``adequacy/io.py``, and when none does within ``attempts`` the package is
dropped (nothing written). The program runs in the sandbox like any package code.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import dspy

from adequacy.errors import ExtractionError, PackageRefused
from adequacy.extensions.answers import whole_file
from adequacy.packages.build import declared_types
from adequacy.packages.convert import Request, convert_all
from adequacy.packages.layout import read_bytes, read_package

#: Failures quoted back to the model per attempt.
FEEDBACK_FAILURES = 8


class WriteConversion(dspy.Signature):
    """Write io.py, a Python 3 module (standard library only) that converts a competitive
    programming problem's test text into typed values and back. Define parse_input(text) ->
    dict of the declared input names, print_input(value) -> str, parse_output(text, input) ->
    dict of the declared output names, and print_output(value, input) -> str. Values are JSON
    values (integers, strings, lists, null or {"some": v} for options). The conversion must be
    lossless: print_input(parse_input(t)) == t exactly, byte for byte (whitespace and line ends
    included), and the same for outputs; raise an exception for text that is not in the
    problem's format."""

    statement: str = dspy.InputField(desc="the problem statement")
    types: str = dspy.InputField(desc="the declared input and output names and types")
    examples: str = dspy.InputField(desc="test inputs and their answers, as Python literals")
    feedback: str = dspy.InputField(desc="the previous attempt and the cases it failed, or "
                                         "'first attempt'")
    io_py: str = dspy.OutputField(desc="the whole io.py in one fenced code block")


@dataclass
class Attempt:
    number: int
    failures: list[str] = field(default_factory=list)
    error: str = ""


@dataclass
class ConvertResult:
    package: str
    converted: bool
    attempts: list[Attempt] = field(default_factory=list)
    written: str | None = None
    cases: int = 0


def _texts(root: Path) -> tuple[Any, list[tuple[str, bytes, bytes | None]]]:
    pkg = read_package(root)
    tests = [(f"official-{t.number:02d}", read_bytes(t.input, "test"),
              read_bytes(t.answer, "answer") if t.answer else None) for t in pkg.tests]
    return pkg, [t for t in tests if not t[1].rstrip().endswith(b"...")]


def check_program(code: str, texts: list[tuple[str, bytes, bytes | None]],
                  params: dict[str, Any]) -> list[str]:
    """Every failure of ``code`` on the texts (empty: all convert losslessly)."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "io.py"
        path.write_text(code, encoding="utf-8")
        ins = convert_all(path, [Request(n, "input", i) for n, i, _ in texts], params)
        fails = [c.error for c in ins if c.value is None]
        outs = [Request(n, "output", a, c.value) for (n, _, a), c in zip(texts, ins, strict=True)
                if a is not None and c.value is not None]
        fails += [c.error for c in convert_all(path, outs, params) if c.value is None]
    return fails


def convert_package(root: Path, lm: Any, attempts: int = 3, write: bool = True
                    ) -> ConvertResult:
    pkg, texts = _texts(root)
    with tempfile.TemporaryDirectory() as d:
        try:
            _head, inputs, outputs = declared_types(pkg, Path(d) / "stage", need_io=False)
        except PackageRefused as r:
            return ConvertResult(pkg.name, False, [Attempt(0, error=r.detail)])
    params = {"input": inputs, "output": outputs}
    types = "\n".join([f"input {p.name}: {p.type_text}" for p in inputs]
                      + [f"output {p.name}: {p.type_text}" for p in outputs])
    examples = "\n".join(f"input {i!r}\nanswer {a!r}" for _, i, a in texts[:4])
    result = ConvertResult(pkg.name, False, cases=len(texts))
    feedback = "first attempt"
    predict = dspy.Predict(WriteConversion)
    for n in range(1, attempts + 1):
        att = Attempt(n)
        result.attempts.append(att)
        with dspy.context(lm=lm):
            pred = predict(statement=pkg.statement or pkg.title, types=types,
                           examples=examples, feedback=feedback)
        try:
            code = whole_file(str(pred.io_py))
        except ExtractionError as e:
            att.error = str(e)
            feedback = f"the answer held no code block ({e}); answer with io.py in one block"
            continue
        att.failures = check_program(code, texts, params)
        if not att.failures:
            result.converted = True
            if write:
                target = pkg.root / "adequacy" / "io.py"
                target.write_text(code, encoding="utf-8")
                result.written = str(target)
            return result
        shown = "\n".join(att.failures[:FEEDBACK_FAILURES])
        more = len(att.failures) - FEEDBACK_FAILURES
        feedback = (f"previous io.py:\n```python\n{code}\n```\nit failed {len(att.failures)} "
                    f"of {2 * len(texts)} texts:\n{shown}"
                    + (f"\n... and {more} more" if more > 0 else ""))
    return result
