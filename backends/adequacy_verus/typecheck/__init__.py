"""Verus type checking of spec code, run by the front end on every spec (see checker.py)."""

from __future__ import annotations

from adequacy.plugin import SpecInvalid

from ..syntax import ast as A
from .checker import Checker, Module
from .termination import check_termination
from .type_names import check_type_names


def check_module(spec: A.SpecModule, path: str | None = None) -> None:
    """Raise ``SpecInvalid`` (file:line, a message in rustc's terms) at the first item whose
    spec code Verus would reject as ill-typed; items are checked in source order."""
    check_type_names(spec, path or spec.path)
    mod = Module.of(spec)
    fns = list(spec.all_fns())
    calls = {id(fn): check_fn(mod, fn, path or spec.path) for fn in fns}
    check_termination(fns, calls, path or spec.path)


def check_fn(mod: Module, fn: A.FnItem, path: str | None,
             allow_old: bool = False) -> list[A.FnItem]:
    """Type-check one function; the spec functions its body calls."""
    c = Checker(mod, allow_old)
    try:
        c.check_fn(fn)
        return c.callees
    except SpecInvalid as e:
        raise SpecInvalid(e.message, file=path, line=e.line or fn.line) from None
    except RecursionError as e:  # the parser bounds nesting; this is a last defence
        raise SpecInvalid("spec nested too deeply to type-check", file=path,
                          line=fn.line) from e
    except (AttributeError, IndexError, KeyError, TypeError, ValueError):
        # A fault of the checker itself (none seen in 4,000 fuzzed specs) must neither crash
        # a batch nor call a spec invalid: the item is left to the engines, as if unchecked.
        return []
