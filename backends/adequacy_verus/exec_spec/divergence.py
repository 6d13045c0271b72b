"""Which construct of a spec exec_spec would evaluate differently from Verus.

Kept apart from ``fidelity`` (the walker) because it also needs ``widen`` (which int
operations the rewrite computes in ``i128``), and ``widen`` builds on the walker: one module
importing both keeps the two free of an import cycle.
"""

from __future__ import annotations

from ..syntax import ast as A
from .fidelity import _Walker
from .widen import widened_nodes


def divergences(module: A.SpecModule, rewritten: bool = False) -> dict[str, str]:
    """For ``pre`` and ``post``: the first construct reachable from ``pre_spec`` /
    ``post_spec`` on which exec_spec would diverge from Verus (absent when there is none)."""
    fns = module.fns
    methods: dict[str, list[A.FnItem]] = {}
    for im in module.impls:
        for f in im.fns:
            methods.setdefault(f.name, []).append(f)
    per_fn: dict[int, tuple[list[tuple[int, str]], set[str]]] = {}
    widened: frozenset[int] = frozenset()
    if rewritten:
        widened = frozenset(widened_nodes(module))
    w = _Walker(module, module.structs, fns, methods, rewritten=rewritten, widened=widened)
    for f in module.all_fns():
        w.problems, w.calls = [], set()
        w.fn(f)
        per_fn[id(f)] = (w.problems, w.calls)
    out: dict[str, str] = {}
    for pred, root in (("pre", "pre_spec"), ("post", "post_spec")):
        start = fns.get(root)
        if start is None:
            continue
        seen: set[int] = set()
        stack = [start]
        found: list[tuple[int, str]] = []
        while stack:
            f = stack.pop()
            if id(f) in seen:
                continue
            seen.add(id(f))
            problems, calls = per_fn.get(id(f), ([], set()))
            found += problems
            for c in calls:
                if c in fns:
                    stack.append(fns[c])
                stack.extend(methods.get(c, []))
        if found:
            line, what = min(found)
            out[pred] = f"outside exec_spec's fragment: {what} (spec line {line})"
    return out
