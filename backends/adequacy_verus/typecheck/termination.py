"""Recursion without ``decreases``: an error in Verus, so an invalid spec here.

Verus computes the call graph of the crate's functions and, for each function in a recursive
strongly connected component (a self-call or a cycle through others), requires a ``decreases``
clause: "recursive function must have a decreases clause" (vir ``recursion.rs``). A spec that
recursed without one was accepted and evaluated (interp evaluates recursion to its depth
limit, exec_spec runs it as Rust), and passed everything. The edges here are the calls the type
checker resolved to the spec's own functions (``Checker.callees``, the body only, as Verus's
termination check reads it); a function whose body Verus drops (``external_body``) has none.
"""

from __future__ import annotations

from adequacy.plugin import SpecInvalid

from ..attributes import uninterpreted
from ..syntax import ast as A


def check_termination(fns: list[A.FnItem], calls: dict[int, list[A.FnItem]],
                      path: str | None) -> None:
    """Raise ``SpecInvalid`` at the first (by line) recursive spec fn without ``decreases``."""
    by_id = {id(f): f for f in fns}
    graph = {id(f): [id(g) for g in calls.get(id(f), []) if id(g) in by_id]
             for f in fns if not uninterpreted(f)}
    recursive: set[int] = set()
    for comp in _sccs(graph):
        if len(comp) > 1 or comp[0] in graph.get(comp[0], []):
            recursive.update(comp)
    bad = sorted((by_id[i] for i in recursive
                  if by_id[i].mode == "spec" and not by_id[i].decreases), key=lambda f: f.line)
    if bad:
        f = bad[0]
        raise SpecInvalid(f"recursive function must have a decreases clause (spec fn "
                          f"{f.name!r} calls itself{'' if _self_loop(f, graph) else ' through others'})",
                          file=path, line=f.line)


def _self_loop(f: A.FnItem, graph: dict[int, list[int]]) -> bool:
    return id(f) in graph.get(id(f), [])


def _sccs(graph: dict[int, list[int]]) -> list[list[int]]:
    """Tarjan's strongly connected components, iteratively (hostile specs can be large)."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    on: set[int] = set()
    stack: list[int] = []
    out: list[list[int]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                on.add(v)
            succ = graph.get(v, [])
            if i < len(succ):
                work.append((v, i + 1))
                w = succ[i]
                if w not in index:
                    work.append((w, 0))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(comp)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
    return out


__all__ = ["check_termination"]
