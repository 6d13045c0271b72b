"""A snapshot of what every walker of the type language makes of a fixed corpus, to diff trees.

Usage: python benchmarks/walker_snapshot.py OUT.json [--types N] [--seed S]

Builds N random types (every constructor, nested) and, per type, a few valid values and a few
invalid ones with its own generator (a seeded ``random.Random``, independent of the code under
test), then records what each walker gives on them: validation messages, canonical forms, value
keys, strict validity, random values, shrink candidates, mutation operators and mutants, input
profiles and their draws, schema candidates, Hypothesis values (derandomized), the Verus token
stream, decoder, spec expressions, types and interpreter values, the JML ``toString`` printer,
its parser and the harness codecs, the Python language's type trees, annotations and drawn
values. Run it under two checkouts (``PYTHONPATH`` pointing at each
tree's source roots) and compare the files: a refactoring of the walkers must leave them equal.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from adequacy.model.types import Type, parse_type

SCALARS = ["bool", "char", "string", "f32", "f64", "int", "nat", "i8", "i32", "i64", "u8",
           "u64", "usize", "i128"]


def gen_type(rng: random.Random, depth: int, structs: dict[str, dict[str, str]]) -> str:
    if depth <= 0 or rng.random() < 0.35:
        return rng.choice(SCALARS)
    k = rng.choice(["seq", "array", "list", "set", "multiset", "map", "option", "nullable",
                    "tuple", "struct"])
    if k == "map":
        return f"map<{gen_type(rng, depth - 1, structs)}, {gen_type(rng, depth - 1, structs)}>"
    if k == "tuple":
        n = rng.randint(1, 3)
        return "tuple<" + ", ".join(gen_type(rng, depth - 1, structs) for _ in range(n)) + ">"
    if k == "struct":
        name = f"S{len(structs)}"
        structs[name] = {}
        fields = {f"f{i}": gen_type(rng, depth - 1, structs) for i in range(rng.randint(1, 3))}
        structs[name] = fields
        return name
    return f"{k}<{gen_type(rng, depth - 1, structs)}>"


CHARS = "abcxyzAZ09 _-é\u00e9\u4e2d'\\\"\t\n"


def gen_value(t: Type, rng: random.Random, size: int) -> Any:
    """A value of ``t`` by the JSON conventions, deliberately not using the code under test."""
    name = type(t).__name__
    sub = max(size - 1, 0)
    if name == "NullableType":
        return None if rng.random() < 0.3 else gen_value(t.elem, rng, size)  # type: ignore[attr-defined]
    if name == "BoolType":
        return rng.random() < 0.5
    if name == "IntType":
        lo, hi = t.bounds  # type: ignore[attr-defined]
        cands = [0, 1, -1, 2, 7, -13, 100, 255, 1 << 40]
        if lo is not None:
            cands.append(lo)
        if hi is not None:
            cands.append(hi)
        v = rng.choice(cands)
        return v if (lo is None or v >= lo) and (hi is None or v <= hi) else 0
    if name == "FloatType":
        return rng.choice([0.0, -0.0, 1.5, -2.25, 1e10, 3.0, "NaN", "Infinity", "-Infinity",
                           0.1])
    if name == "CharType":
        return rng.choice(CHARS)
    if name == "StringType":
        return "".join(rng.choice(CHARS) for _ in range(rng.randint(0, 4)))
    if name == "SeqType":
        if t.kind == "array" and rng.random() < 0.15:  # type: ignore[attr-defined]
            return None
        return [gen_value(t.elem, rng, sub) for _ in range(rng.randint(0, size))]  # type: ignore[attr-defined]
    if name == "MultisetType":
        return [gen_value(t.elem, rng, sub) for _ in range(rng.randint(0, size))]  # type: ignore[attr-defined]
    if name in ("SetType", "MapType"):
        kt = t.elem if name == "SetType" else t.key  # type: ignore[attr-defined]
        out: list[Any] = []
        seen: set[str] = set()
        for _ in range(rng.randint(0, size)):
            k = gen_value(kt, rng, sub)
            key = json.dumps(k, sort_keys=True)
            if key in seen:
                continue
            seen.add(key)
            out.append(k if name == "SetType" else [k, gen_value(t.value, rng, sub)])  # type: ignore[attr-defined]
        return out
    if name == "OptionType":
        return None if rng.random() < 0.3 else {"some": gen_value(t.elem, rng, sub)}  # type: ignore[attr-defined]
    if name == "TupleType":
        return [gen_value(e, rng, sub) for e in t.elems]  # type: ignore[attr-defined]
    if name == "StructType":
        return {n: gen_value(ft, rng, sub) for n, ft in t.fields}  # type: ignore[attr-defined]
    raise TypeError(name)


def corrupt(v: Any, rng: random.Random) -> Any:
    """A likely-invalid variant of a value (wrong shape somewhere)."""
    choices: list[Any] = [None, "x", 3, 2.5, True, [], {}, [1, 2], {"some": 1}, {"zz": 0}]
    if isinstance(v, list) and v and rng.random() < 0.6:
        i = rng.randrange(len(v))
        return [*v[:i], corrupt(v[i], rng), *v[i + 1:]]
    if isinstance(v, dict) and v and rng.random() < 0.6:
        k = rng.choice(sorted(v))
        return {**v, k: corrupt(v[k], rng)}
    return rng.choice(choices)


def _safe(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` as JSON-able data, or what it raised."""
    try:
        return _jsonable(fn(*args))
    except Exception as e:  # noqa: BLE001 - the snapshot records what each walker raises
        return {"raised": type(e).__name__, "message": str(e)[:300]}


def _jsonable(x: Any) -> Any:
    try:
        json.dumps(x, allow_nan=True)
        return x
    except (TypeError, ValueError):
        return repr(x)


def snapshot(n_types: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    out: dict[str, Any] = {}
    for ti in range(n_types):
        structs: dict[str, dict[str, str]] = {}
        text = gen_type(rng, 3, structs)
        out[f"t{ti}"] = _one(parse_type(text, structs), text, f"{seed}/{ti}")
    return out


def _one(ty: Type, text: str, salt: str) -> dict[str, Any]:
    from adequacy.model import identity, random_values, values
    from adequacy.model.task import Param
    from adequacy.search import shrinking
    from adequacy_mutators import _inputs, _operators, _outputs, _profile
    from adequacy_mutators._constraints import Constraints

    rec: dict[str, Any] = {"type": str(ty)}
    vals = [gen_value(ty, random.Random(f"{salt}/{k}"), 3) for k in range(4)]
    bad = [corrupt(v, random.Random(f"{salt}/bad{k}")) for k, v in enumerate(vals)]
    rec["validate"] = [_safe(values.validate, v, ty) for v in vals + bad]
    for k, v in enumerate(vals + bad):
        try:
            values.validate(v, ty)
        except Exception as e:  # noqa: BLE001
            rec[f"err{k}"] = [type(e).__name__, str(e), getattr(e, "field", None)]
    good = [v for v in vals if _safe(values.validate, v, ty) is None]
    rec["canonical"] = [_safe(values.canonical, v, ty) for v in good]
    rec["value_key"] = [_safe(identity.value_key, v, ty) for v in good]
    rec["strict"] = [_safe(identity.strictly_valid, v, ty) for v in vals + bad]
    rec["random"] = [_safe(random_values.random_value, ty, random.Random(s)) for s in range(3)]
    rec["shrink"] = [_safe(lambda v: list(shrinking.candidates(v, ty))[:40], v) for v in good]
    rec["ops"] = [o.name for o in _operators.operators_for(ty)]
    rec["mutate_once"] = [_safe(_operators.mutate_once, v, ty, random.Random(s))
                          for v in good for s in range(2)]
    rec["mutants"] = [_safe(lambda v: [(m.operator, m.value) for m in
                                       _outputs.mutants(v, ty, 6, seed=1)], v) for v in good]
    params = [Param(name="a", type=ty, type_text=text),
              Param(name="b", type=parse_type("i32"), type_text="i32")]
    rec["space"] = _safe(_profile.input_space_size, params)
    inputs = [{"a": v, "b": i} for i, v in enumerate(good)]
    prof = _profile.profile_inputs(params, inputs)
    r = random.Random(5)
    rec["draws"] = [_safe(prof.draw, r) for _ in range(4)]
    cons = Constraints([], True, {"a": ty, "b": parse_type("i32")})
    rec["schema"] = [_safe(lambda i: [(c.operator, c.input) for c in _inputs.invalid_candidates(
        i, params, cons, 8, seed=2)], i) for i in inputs]
    rec["hypothesis"] = _safe(_hypothesis_values, ty)
    rec["verus"] = _verus(ty, good)
    rec["jml"] = _jml(ty, good)
    rec["python"] = _python(ty)
    return rec


def _hypothesis_values(ty: Type) -> list[Any]:
    from hypothesis import HealthCheck, given, settings
    from hypothesis.internal.conjecture import providers

    from adequacy_mutators.strategies import values as hv

    # Hypothesis mixes in constants it finds in the source of local modules: edited source
    # would change the draws without any strategy changing.
    providers._get_local_constants = lambda: providers._local_constants
    got: list[Any] = []

    @settings(derandomize=True, max_examples=8, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(hv(ty, 3))
    def run(v: Any) -> None:
        got.append(v)

    run()
    return got


def _verus(ty: Type, good: list[Any]) -> dict[str, Any]:
    from adequacy_verus import render, skeleton, task_from
    from adequacy_verus.interp import values as iv

    rec: dict[str, Any] = {}
    rec["type"] = _safe(skeleton.verus_type, ty)
    rec["structs"] = _safe(lambda: [s.name for s in skeleton._structs_in_order([ty])])
    rec["decoder"] = _safe(render.rust_decoder, ty)
    rec["tokens"] = [_safe(render.encode_tokens, v, ty) for v in good]
    rec["decoded"] = [_safe(lambda v: render.decode_tokens(iter(render.encode_tokens(v, ty)),
                                                           ty), v) for v in good]
    rec["spec"] = [_safe(render.spec_expr, v, ty) for v in good]
    rec["interp"] = [_safe(lambda v: _show(iv.from_json(v, ty)), v) for v in good]
    rec["to_json"] = [_safe(lambda v: task_from.to_json(iv.from_json(v, ty), ty), v)
                      for v in good]
    for r in rec["to_json"]:
        if isinstance(r, dict) and "message" in r:  # it quotes a set's repr: order is hashing's
            r["message"] = r["message"].split(" as ")[-1]
    return rec


def _show(v: Any) -> str:
    """An interpreter value's text with set, multiset and map members sorted (hashes of NaN
    differ per object, so their iteration order is not reproducible)."""
    from adequacy_verus.interp import values as iv

    if isinstance(v, frozenset):
        return "{" + ", ".join(sorted(_show(x) for x in v)) + "}"
    if isinstance(v, iv.MSet):
        return "M{" + ", ".join(sorted(f"{_show(k)}: {c}" for k, c in v.counts.items())) + "}"
    if isinstance(v, iv.FMap):
        return "F{" + ", ".join(sorted(f"{_show(k)}: {_show(x)}" for k, x in v.items())) + "}"
    if isinstance(v, iv.StructVal):
        return v.name + "{" + ", ".join(f"{k}: {_show(x)}" for k, x in v.d.items()) + "}"
    if isinstance(v, iv.EnumVal):
        return v.variant + "(" + ", ".join(_show(x) for x in v.vals) + ")"
    if isinstance(v, tuple):
        return type(v).__name__ + "(" + ", ".join(_show(x) for x in v) + ")"
    return repr(v)


def _jml(ty: Type, good: list[Any]) -> dict[str, Any]:
    from adequacy_openjml.importers import harness, printers

    rec: dict[str, Any] = {}
    rec["string"] = [_safe(printers.java_string, v, ty) for v in good]
    rec["parsed"] = [_safe(lambda v: printers.parse_java_string(printers.java_string(v, ty),
                                                                ty), v) for v in good]
    rec["to_json"] = [_safe(harness.to_json, v, ty) for v in good]
    rec["from_json"] = [_safe(harness._from_json, v, ty) for v in good]
    return rec


def _python(ty: Type) -> dict[str, Any]:
    try:
        from adequacy_python import draw, pytypes
    except ImportError:  # a tree without the Python language
        return {}
    return {"tree": _safe(pytypes.type_tree, ty), "annotation": _safe(pytypes.annotation, ty),
            "problem": _safe(pytypes.problem, ty),
            "draws": [_safe(draw.value, ty, random.Random(s)) for s in range(3)]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--types", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    sys.setrecursionlimit(10_000)
    try:
        snap = snapshot(a.types, a.seed)
    except Exception:
        traceback.print_exc()
        raise
    a.out.write_text(json.dumps(snap, indent=1, sort_keys=True, ensure_ascii=False,
                                allow_nan=True))
    print(f"{len(snap)} types written to {a.out}")


if __name__ == "__main__":
    main()
