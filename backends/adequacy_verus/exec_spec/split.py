"""One predicate at a time, for specs whose whole file the macro cannot compile.

A compile failure leaves every case of the spec without a binary, although often only one
predicate reaches the construct the macro cannot translate (an ``int`` helper used only by
``post_spec``, say). The spec is then compiled once per predicate, keeping only what that
predicate reaches: the other predicate's body becomes ``true`` and the spec fns only it
reaches become blank lines (line numbers stay the spec's). The cases of a predicate whose part
compiles are decided; the others stay ``unknown`` (fidelity rule 1: "affected cases").
"""

from __future__ import annotations

from ..syntax import ast as A
from .fidelity import reachable

SIGNATURES = {"pre": "spec fn pre_spec(input: Input) -> bool { true }",
              "post": "spec fn post_spec(input: Input, output: Output) -> bool { true }"}


def _lines(f: A.FnItem) -> tuple[int, int]:
    first = min([f.line] + [a.line for a in f.attrs])
    return first, f.end_line


def only(text: str, module: A.SpecModule, keep: str) -> str | None:
    """``text`` with only what the ``keep`` predicate ('pre' or 'post') reaches, or ``None``
    when items share lines and cannot be blanked line by line."""
    other = "post" if keep == "pre" else "pre"
    kept = {id(f) for f in reachable(module, f"{keep}_spec")}
    if not kept:
        return None
    stub = module.fns.get(f"{other}_spec")
    lines = text.split("\n")
    items: list[tuple[int, int]] = []
    for item in module.items:
        if isinstance(item, A.ImplItem):
            items += [_lines(f) for f in item.fns]
        else:
            items.append((min([item.line] + [a.line for a in item.attrs]), item.end_line))
    drop: list[tuple[A.FnItem, bool]] = [
        (f, f is stub) for f in module.all_fns()
        if id(f) not in kept and (f is stub or f.name not in ("pre_spec", "post_spec"))]
    for f, is_stub in drop:
        a, b = _lines(f)
        if any((x, y) != (a, b) and not (y < a or x > b) for x, y in items):
            return None  # another item on these lines
        for k in range(a - 1, b):
            lines[k] = ""
        if is_stub:
            lines[a - 1] = SIGNATURES[other]
    return "\n".join(lines)
