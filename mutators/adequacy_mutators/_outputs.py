"""Typed output mutants: N distinct, valid values that differ from the original.

Operators are tried round-robin in an order shuffled by the seed, so the first mutants of a case
come from different operators; randomised operators (``int.nearby``, ``seq.change_elem``) are
retried until ``n`` mutants exist or the attempt budget runs out. A candidate is kept only when it
passes ``strictly_valid`` and its ``value_key`` is new (neither the original nor an earlier
mutant), which is what makes "mutant equal to the original" impossible by construction.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from adequacy.extensions.operators import MutationOperator
from adequacy.model.identity import params_key, strictly_valid, value_key
from adequacy.model.types import SeqType, Type

from ._operators import operators_for

__all__ = ["Mutant", "mutants", "output_mutants"]


class Mutant(BaseModel):
    """One made value and the operator chain that made it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    value: Any
    """The mutated value (for ``output_mutants``: the whole output dict)."""
    operator: str
    """Operator chain, outermost first: ``seq.change_elem>int.plus_one``."""


def _rng(seed: int, *parts: str) -> random.Random:
    return random.Random("\x1f".join([str(seed), *parts]))


def _run(
    targets: list[tuple[str, Type, MutationOperator]],
    original: Any,
    build: Any,
    check: Any,
    n: int,
    rng: random.Random,
    orig_key: str,
) -> list[Mutant]:
    """Round-robin over (field, type, operator) until n distinct valid candidates exist."""
    out: list[Mutant] = []
    seen = {orig_key}
    order = list(targets)
    rng.shuffle(order)
    misses = [0] * len(order)
    budget = max(40, 12 * n)
    i = 0
    while len(out) < n and budget > 0 and any(m < _MAX_MISSES for m in misses):
        k = i % len(order)
        i += 1
        if misses[k] >= _MAX_MISSES:
            continue
        budget -= 1
        field, ty, op = order[k]
        res = op.apply(original[field] if field else original, ty, rng)
        if res is None:
            misses[k] = _MAX_MISSES if op.deterministic else misses[k] + 1
            continue
        name, value = res
        whole = build(field, value)
        key = check(whole)
        if key is None or key in seen:
            misses[k] = _MAX_MISSES if op.deterministic else misses[k] + 1
            continue
        seen.add(key)
        misses[k] = _MAX_MISSES if op.deterministic else 0
        out.append(Mutant(value=whole, operator=(f"{field}.{name}" if field and len(
            {t[0] for t in targets}) > 1 else name)))
    return out


#: failed tries (not applicable, invalid or duplicate) after which an operator is retired.
_MAX_MISSES = 8

def mutants(value: Any, ty: Type, n: int, seed: int = 0) -> list[Mutant]:
    """Up to ``n`` distinct mutants of ``value`` (fewer when the type has fewer, e.g. bool)."""
    if n <= 0:
        return []
    orig = value_key(value, ty)
    targets = [("", ty, op) for op in operators_for(ty)]

    def check(v: Any) -> str | None:
        return value_key(v, ty) if strictly_valid(v, ty) else None

    return _run(targets, value, lambda f, v: v, check, n, _rng(seed, str(ty), orig), orig)


def _fixed_shape(ty: Type) -> bool:
    """An ``array`` (a Java array, a Rust array or slice) has its length for life: a method
    can change its elements, never its length, and never turn the reference into ``null``."""
    return isinstance(ty, SeqType) and ty.kind == "array"


def in_place_fixed(params: Sequence[Any], inputs: dict[str, Any] | None,
                   input_params: Sequence[Any] | None) -> dict[str, Any]:
    """Output fields that are an input array's post-state (same name, ``array`` type in both),
    mapped to the input's value: what no mutant of that field may change the shape of."""
    if not inputs or not input_params:
        return {}
    in_types = {p.name: p.type for p in input_params}
    return {p.name: inputs[p.name] for p in params
            if p.name in in_types and p.name in inputs and _fixed_shape(p.type)
            and _fixed_shape(in_types[p.name])}


def _same_shape(value: Any, before: Any) -> bool:
    if before is None or value is None:
        return value is None and before is None
    return isinstance(value, list) and isinstance(before, list) and len(value) == len(before)


def output_mutants(output: dict[str, Any], params: Sequence[Any], n: int, seed: int = 0,
                   salt: str = "", inputs: dict[str, Any] | None = None,
                   input_params: Sequence[Any] | None = None) -> list[Mutant]:
    """Mutants of a whole output dict, changing one field each (``params``: ``Param`` list).

    ``salt`` (e.g. the case's input key) separates the random streams of cases that share an
    output, so that ``0`` gets different ``int.nearby`` mutants on different inputs.
    ``inputs`` and ``input_params`` (the case's input and the task's input ``Param`` list)
    let the mutants respect what the language makes impossible: the post-state of an input
    array keeps the array's length and its null-ness (``in_place_fixed``), so a spec that
    rightly omits ``a.length == \\old(a.length)`` is not tested on an output no method can
    produce.
    """
    if n <= 0:
        return []
    orig = params_key(output, params)
    types = {p.name: p.type for p in params}
    fixed = in_place_fixed(params, inputs, input_params)
    targets = [(p.name, p.type, op) for p in params for op in operators_for(p.type)]

    def build(field: str, v: Any) -> dict[str, Any]:
        return {**output, field: v}

    def check(whole: dict[str, Any]) -> str | None:
        if not all(strictly_valid(whole[f], t) for f, t in types.items()):
            return None
        if not all(_same_shape(whole.get(f), before) for f, before in fixed.items()):
            return None
        return params_key(whole, params)

    rng = _rng(seed, salt, orig, ",".join(str(p.type) for p in params))
    return _run(targets, output, build, check, n, rng, orig)
