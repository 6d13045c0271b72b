"""Verus specs as Z3 terms (the backend's ``smt_encoder()``) and the ``smt`` engine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adequacy.plugin import (
    UNFOLD_DEPTH,
    Pred,
    Rec,
    SpecTerms,
    Sym,
    Task,
    Unsupported,
    source_version,
)

__all__ = ["VerusEncoder"]

HERE = Path(__file__).resolve().parent


class VerusEncoder:
    """``SmtEncoder`` for Verus: ``pre_spec(input)`` and ``post_spec(input, output)``."""

    name = "verus-smt"

    def version(self) -> str:
        return source_version(sorted(HERE.glob("*.py")) + sorted(
            (HERE.parent / "syntax").glob("*.py")))

    def encode(self, spec: Any, task: Task, inputs: dict[str, Sym], outputs: dict[str, Sym],
               tag: str, unfold: int = UNFOLD_DEPTH) -> SpecTerms:
        from ..interp import run_deep
        from .encode import Encoder

        module = spec.data.module
        enc = Encoder(module, tag, unfold)
        structs = module.structs
        for name, vals in (("Input", inputs), ("Output", outputs)):
            st = structs.get(name)
            if st is None or {f for f, _ in st.fields} != set(vals):
                raise Unsupported(f"struct {name} does not hold exactly the task's fields")
        rin, rout = Rec(None, dict(inputs)), Rec(None, dict(outputs))  # type: ignore[arg-type]
        gaps: dict[str, str] = {}

        def one(fn: str, args: list[Sym], which: str) -> Pred | None:
            start = len(enc.axioms)
            enc.forget_calls()  # a call's encoding relies on this predicate's axioms
            try:
                e = run_deep(lambda: enc.predicate(fn, args))
                own = enc.axioms[start:]
                del enc.axioms[start:]
                return Pred(e.v, e.d, axioms=own)
            except Unsupported as ex:
                del enc.axioms[start:]
                gaps[which] = str(ex)
                return None
            except RecursionError:
                del enc.axioms[start:]
                gaps[which] = "nested too deeply to encode"
                return None

        pre = one("pre_spec", [rin], "pre")
        post = one("post_spec", [rin, rout], "post")
        return SpecTerms(pre, post, axioms=enc.axioms, gaps=gaps, exact=enc.unfold.exact)
