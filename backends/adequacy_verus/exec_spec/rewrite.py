"""Rewrite a spec's text so that the erased ``exec_spec_unverified!`` macro computes Verus's values.

The macro emits Rust's operators on machine integers and deletes ``as int``/``as nat``
(``verus_builtin_macros/src/contrib/exec_spec.rs``). Where Verus means something else, the spec
text handed to cargo is rewritten into calls the macro renames to ``exec_<name>`` (its rule for
every function call) and the harness defines (``templates/harness.rs.j2``):

* ``a / b`` and ``a % b`` -> ``__ade_div(a, b)`` / ``__ade_rem(a, b)``: Euclidean, via Rust's
  ``div_euclid``/``rem_euclid`` (guide ``reference-arithmetic.md``: ``-7 / 3 == -3``,
  ``-7 % 3 == 2``); left alone where both operands are provably non-negative (then Rust's
  ``/`` ``%`` already agree).
* ``a <= b < c`` outside a quantifier guard -> ``(a <= b && b < c)`` (guide
  ``reference-chained-ineq.md``); guards keep the chained form the macro's range analysis reads.
* ``e as nat`` of a value that may be negative -> ``__ade_nat(e)``: the value itself when
  non-negative, a panic (so ``unknown``) otherwise, since Verus only says the result is >= 0.
* ``e as char`` -> ``__ade_char(e)``: the char when ``e`` is a Unicode scalar value, a panic
  otherwise (Rust only casts ``u8`` to ``char``).
* ``forall|i: int| ..`` / ``exists|i: nat| ..`` -> ``forall|i: usize| ..``: the macro only loops
  over machine-integer variables ("Unsupported quantified type"), and real specs quantify over
  ``int``. Exact because rustc then types the guard's bounds as ``usize``: a bound that is not
  ``usize`` (an ``i64`` value, a negative literal) fails to compile, so ``unknown``; a ``usize``
  bound lies in ``0..=usize::MAX``, so ``{i: int | lo <= i < hi}`` is the same set of values; and
  arithmetic on ``i`` in the body that leaves ``usize`` (``i - 1`` at ``i == 0``) panics under the
  harness's overflow checks, so ``unknown``, never a wrapped value.

Edits replace text within the operands' own lines, so line numbers in panics stay the spec's.
"""

from __future__ import annotations

from ..syntax import ast as A
from ..syntax.lexer import Token
from .edits import Edit, Offsets, RewriteError, render
from .fidelity import _Walker
from .widen import widen

_Edit = Edit
_Offsets = Offsets


class _Collector(_Walker):
    def __init__(self, module: A.SpecModule, off: _Offsets) -> None:
        super().__init__(module, module.structs, module.fns, {})
        self.off = off
        self.edits: list[_Edit] = []

    def expr(self, e: object, env: dict[str, A.TypeRef | None], guard: bool) -> None:
        if isinstance(e, A.Binary) and e.op in ("/", "%") and e.span is not None and not (
                self.nonneg(e.l, env) and self.nonneg(e.r, env)):
            s, op, t = e.span
            name = "__ade_div" if e.op == "/" else "__ade_rem"
            a, b = self.off.range(s, t)
            self.edits.append(_Edit(a, b, [f"{name}(", self.off.range(s, op), ", ",
                                           self.off.range(op + 1, t), ")"]))
        elif isinstance(e, A.Cast) and e.span is not None and (
                e.ty.name == "char" or e.ty.name == "nat" and not self.nonneg(e.e, env)):
            s, as_at, t = e.span
            name = "__ade_char" if e.ty.name == "char" else "__ade_nat"
            a, b = self.off.range(s, t)
            self.edits.append(_Edit(a, b, [f"{name}(", self.off.range(s, as_at), ")"]))
        elif isinstance(e, A.Chain) and not guard and e.spans:
            parts: list[str | tuple[int, int]] = ["("]
            for k, cmp in enumerate(e.ops):
                if k:
                    parts.append(" && ")
                parts += [self.off.range(*e.spans[k]), f" {cmp} ",
                          self.off.range(*e.spans[k + 1])]
            parts.append(")")
            a, _ = self.off.range(*e.spans[0])
            _, b = self.off.range(*e.spans[-1])
            self.edits.append(_Edit(a, b, parts))
        super().expr(e, env, guard)

    def flag(self, line: int, what: str) -> None:
        pass


def rewrite(text: str, module: A.SpecModule) -> str:
    """The spec text the macro should see (``text`` itself when nothing needs rewriting)."""
    if not module.tokens:
        return text
    off = _Offsets(text, module)
    col = _Collector(module, off)
    for f in module.all_fns():
        col.fn(f)
    edits = col.edits + _quantifier_types(module, off) + widen(module, off)[0]
    if not edits:
        return text
    # nested edits render inside their parent's operand ranges
    edits.sort(key=lambda e: (e.start, -e.end))
    return _render(text, 0, len(text), edits)


_WIDENED = {"int", "nat"}


def _quantifier_types(module: A.SpecModule, off: _Offsets) -> list[_Edit]:
    """Edits turning ``int``/``nat`` binder types of ``forall``/``exists`` into ``usize``.

    Read from the tokens, since the AST keeps no position for a binder's type; only a type that
    is the single token between ``:`` and ``,``/``|`` is touched (``Seq<int>`` is left alone).
    """
    toks = module.tokens
    edits: list[_Edit] = []
    for k, t in enumerate(toks):
        if t.text not in ("forall", "exists") or k + 1 >= len(toks) or toks[k + 1].text != "|":
            continue
        found: list[tuple[str, int]] = []
        j = k + 2
        while j + 2 < len(toks) and toks[j].text != "|":
            if (toks[j + 1].text == ":" and toks[j + 2].text in _WIDENED
                    and j + 3 < len(toks) and toks[j + 3].text in (",", "|")):
                found.append((toks[j].text, j + 2))
            j += 1
        for name, at in found:
            if _bounded_below(toks, j + 1, name):
                a = off.start(at)
                edits.append(_Edit(a, a + len(toks[at].text), ["usize"]))
    return edits


def _bounded_below(toks: list[Token], start: int, name: str) -> bool:
    """Whether the guard after a binder list reads ``lo (<|<=) name (<|<=) hi`` for ``name``.

    Defence in depth: a ``usize`` binder silently drops the negative values an ``int`` binder
    without a lower bound takes (``forall|i: int| i < 2 ==> i >= 0`` is false at -1), so only
    a binder with an explicit lower bound (which rustc then types ``usize``, so >= 0) is
    rewritten, whatever the macro accepts.
    """
    # a guard in parentheses, ``(0 <= i < n) ==> ..``, is read inside them (``widen`` drops
    # them for the macro)
    level = 1 if start < len(toks) and toks[start].text == "(" else 0
    depth = 0
    for j in range(start, len(toks) - 1):
        x = toks[j].text
        if x in ("(", "[", "{"):
            depth += 1
        elif x in (")", "]", "}"):
            depth -= 1
            if depth < 0:
                return False
        elif depth == 0 and x in ("==>", ";", ","):
            return False
        elif depth == level and x == name and j > start:
            return toks[j - 1].text in ("<", "<=") and toks[j + 1].text in ("<", "<=")
    return False


def _render(text: str, a: int, b: int, edits: list[_Edit]) -> str:
    return render(text, a, b, edits)


__all__ = ["RewriteError", "rewrite"]
