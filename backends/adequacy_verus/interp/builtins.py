"""vstd's spec methods on Seq, Set, Multiset, Map, Option and friends, with vstd's meaning.

Where vstd leaves a result unspecified (``recommends`` violated: index out of range, ``first``
of an empty Seq, ``unwrap`` of None, ...) the function raises ``Undef`` rather than guessing.
The method list was derived from the verus-bench corpus plus the vstd sources (seq.rs,
seq_lib.rs, set.rs, set_lib.rs, multiset.rs, map.rs, map_lib.rs, std_specs/option.rs).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .ordering import ordered
from .runtime import current
from .values import (
    MAX_BITS,
    MAX_ELEMS,
    NONE,
    FMap,
    MSet,
    Undef,
    check_bits,
    check_elems,
    kind_of,
    show,
    some,
)

Method = Callable[..., Any]

# ---------------------------------------------------------------- what built-ins cost
# A built-in is one CPython call that may build or scan millions of elements without giving
# the evaluation loop a chance to look at the clock, so each one pays before it works: steps
# for the elements it copies (COPY: 128 per step, ~6 ns each here) or hashes and builds
# (HASH: 8 per step, ~100 ns each), and, for large results, an estimate of the bytes it is
# about to allocate (SEQ_BYTES per tuple slot and new int, SET_BYTES per hash-table entry).
COPY = 7
HASH = 3
SEQ_BYTES = 40
SET_BYTES = 72
SETCOPY = 5
"""Set-from-set work (union, copy on insert): 32 entries per step, they keep their hashes."""
BIG = 1 << 14
"""Results with fewer elements are not reserved one by one; the periodic look at the resident
set covers them."""


def work(n: int, shift: int) -> None:
    """Charge ``n`` elements of C-level work (``shift``: COPY or HASH) to this evaluation."""
    if n >> shift:
        b = current()
        if b is not None:
            b.charge(n >> shift)


def alloc(n: int, per: int, what: str) -> None:
    """Reserve the memory of an ``n``-element result before building it."""
    if n >= BIG:
        b = current()
        if b is not None:
            b.reserve(n * per, what)


def _costed(f: Method, size: Callable[..., int], shift: int, per: int, what: str) -> Method:
    """``f`` behind its price: ``size(*args)`` elements of work (and of result, when ``per``)."""
    def priced(*args: Any) -> Any:
        n = size(*args)
        if n >> shift:
            work(n, shift)
            if per:
                alloc(n, per, what)
        return f(*args)
    return priced


def _n1(s: Any, *_: Any) -> int:
    return len(s)


def _n2(s: Any, t: Any, *_: Any) -> int:
    return len(s) + len(t)


def _ms_size(m: Any, *rest: Any) -> int:
    return len(m.counts) + sum(len(x.counts) for x in rest if type(x) is MSet)


def _int(x: Any, what: str) -> int:
    if type(x) is not int:
        raise Undef(f"{what} is not an integer: {show(x)}")
    return x


def _idx(s: tuple, i: Any) -> Any:
    i = _int(i, "index")
    if 0 <= i < len(s):
        return s[i]
    raise Undef(f"index {i} out of range for length {len(s)}")


def seq_index(s: Any, i: Any) -> Any:
    if type(s) is tuple:
        if type(i) is int and 0 <= i < len(s):
            return s[i]
        return _idx(s, i)
    if type(s) is FMap:
        try:
            return s[i]
        except KeyError:
            raise Undef(f"key {show(i)} not in the map's domain") from None
    raise Undef(f"cannot index a {kind_of(s)}")


def _subrange(s: tuple, i: Any, j: Any) -> tuple:
    i, j = _int(i, "subrange start"), _int(j, "subrange end")
    if 0 <= i <= j <= len(s):
        return s[i:j]
    raise Undef(f"subrange({i}, {j}) out of range for length {len(s)}")


def _need_nonempty(s: tuple, what: str) -> tuple:
    if not s:
        raise Undef(f"{what} of an empty sequence")
    return s


def _call(f: Any, *args: Any) -> Any:
    if not callable(f):
        raise Undef("expected a closure")
    return f(*args)


def _any3(xs: list[Any], p: Any) -> bool:
    """``exists x in xs. p(x)`` in three values: true when some element's predicate is
    true, even where another's is undefined; undefined when none is true and one is
    undefined. So the answer does not depend on the order the elements are visited in."""
    undef: Undef | None = None
    for x in xs:
        try:
            if _truth(_call(p, x)):
                return True
        except Undef as e:
            undef = undef or e
    if undef is not None:
        raise undef
    return False


def _all3(xs: list[Any], p: Any) -> bool:
    """``forall x in xs. p(x)`` in three values (``_any3``'s dual)."""
    undef: Undef | None = None
    for x in xs:
        try:
            if not _truth(_call(p, x)):
                return False
        except Undef as e:
            undef = undef or e
    if undef is not None:
        raise undef
    return True


def _fold_left(s: tuple, b: Any, f: Any) -> Any:
    acc = b
    for x in s:
        acc = _call(f, acc, x)
    return acc


def _fold_right(s: tuple, f: Any, b: Any) -> Any:
    acc = b
    for x in reversed(s):
        acc = _call(f, x, acc)
    return acc


def _index_of(s: tuple, x: Any) -> int:
    # vstd: `choose|i| 0 <= i < len && s[i] == x`: determined only when x occurs exactly once
    hits = [i for i, y in enumerate(s) if y == x]
    if len(hits) == 1:
        return hits[0]
    raise Undef("index_of: " + ("value not present" if not hits
                                else "value occurs more than once (choose is unspecified)"))


def _first_or_none(s: tuple, x: Any, last: bool = False) -> Any:
    rng = range(len(s) - 1, -1, -1) if last else range(len(s))
    for i in rng:
        if s[i] == x:
            return some(i)
    return NONE


def _insert(s: tuple, i: Any, a: Any) -> tuple:
    i = _int(i, "insert position")
    if not 0 <= i <= len(s):
        raise Undef(f"insert at {i} out of range for length {len(s)}")
    return s[:i] + (a,) + s[i:]


def _remove(s: tuple, i: Any) -> tuple:
    i = _int(i, "remove position")
    if not 0 <= i < len(s):
        raise Undef(f"remove at {i} out of range for length {len(s)}")
    return s[:i] + s[i + 1:]


def _update(s: tuple, i: Any, a: Any) -> tuple:
    i = _int(i, "update index")
    if not 0 <= i < len(s):
        raise Undef(f"update at {i} out of range for length {len(s)}")
    return s[:i] + (a,) + s[i + 1:]


def _max(s: tuple) -> Any:
    _need_nonempty(s, "max")
    return max(s)


def _min(s: tuple) -> Any:
    _need_nonempty(s, "min")
    return min(s)


def _flatten(s: tuple) -> tuple:
    out: list[Any] = []
    for x in s:
        if len(out) + len(x) > MAX_ELEMS:
            check_elems(len(out) + len(x), "flatten")
        work(len(x) + 1, COPY)
        alloc(len(out) + len(x), SEQ_BYTES, "flatten")
        out.extend(x)
    return tuple(out)


def _concat(s: tuple, t: tuple) -> tuple:
    n = len(s) + len(t)
    if n > MAX_ELEMS:
        check_elems(n, "sequence concatenation")
    work(n, COPY)
    alloc(n, SEQ_BYTES, "sequence concatenation")
    return s + t


def _remove_value(s: tuple, v: Any) -> tuple:
    for i, x in enumerate(s):
        if x == v:
            return s[:i] + s[i + 1:]
    return s


def _no_dups(s: tuple) -> bool:
    work(len(s), HASH)
    alloc(len(s), SET_BYTES, "no_duplicates")
    try:
        return len(set(s)) == len(s)
    except TypeError:
        work(len(s) * len(s), COPY)
        return all(s[i] != s[j] for i in range(len(s)) for j in range(i))


def _span(s: tuple, i: Any, j: Any) -> int:
    return j - i if type(i) is int and type(j) is int and j > i else 0


def _take(s: tuple, n: Any) -> tuple:
    return _subrange(s, 0, n)


def _skip(s: tuple, n: Any) -> tuple:
    return _subrange(s, n, len(s))


def _filter_seq(s: tuple, p: Any) -> tuple:
    return tuple(x for x in s if _truth(_call(p, x)))


def _truth(b: Any) -> bool:
    if type(b) is not bool:
        raise Undef(f"expected a bool, got {show(b)}")
    return b


def _zip(s: tuple, t: tuple) -> tuple:
    from .values import Tup
    if len(s) != len(t):
        raise Undef("zip_with of sequences of different lengths")
    return tuple(Tup((a, b)) for a, b in zip(s, t, strict=True))


SEQ: dict[str, Method] = {
    "len": lambda s: len(s),
    "index": seq_index,
    "spec_index": seq_index,
    "push": _costed(lambda s, a: s + (a,), _n1, COPY, SEQ_BYTES, "push"),
    "update": _costed(_update, _n1, COPY, SEQ_BYTES, "update"),
    "subrange": _costed(_subrange, _span, COPY, SEQ_BYTES, "subrange"),
    "take": _costed(_take, lambda s, n: n if type(n) is int and n > 0 else 0, COPY,
                    SEQ_BYTES, "take"),
    "skip": _costed(_skip, _n1, COPY, SEQ_BYTES, "skip"),
    "add": _concat,
    "spec_add": _concat,
    "first": lambda s: _need_nonempty(s, "first")[0],
    "last": lambda s: _need_nonempty(s, "last")[-1],
    "drop_first": _costed(lambda s: _need_nonempty(s, "drop_first")[1:], _n1, COPY, SEQ_BYTES,
                          "drop_first"),
    "drop_last": _costed(lambda s: _need_nonempty(s, "drop_last")[:-1], _n1, COPY, SEQ_BYTES,
                         "drop_last"),
    "contains": _costed(lambda s, x: x in s, _n1, COPY, 0, "contains"),
    "index_of": _costed(_index_of, _n1, HASH, 0, "index_of"),
    "index_of_first": _costed(lambda s, x: _first_or_none(s, x), _n1, HASH, 0, ""),
    "index_of_last": _costed(lambda s, x: _first_or_none(s, x, True), _n1, HASH, 0, ""),
    "to_set": _costed(lambda s: frozenset(s), _n1, HASH, SET_BYTES, "to_set"),
    "to_multiset": _costed(lambda s: MSet.of(s), _n1, HASH, SET_BYTES, "to_multiset"),
    "map": lambda s, f: tuple(_call(f, i, x) for i, x in enumerate(s)),
    "map_values": lambda s, f: tuple(_call(f, x) for x in s),
    "flat_map": lambda s, f: _flatten(tuple(_call(f, x) for x in s)),
    "filter": _filter_seq,
    "fold_left": _fold_left,
    "fold_right": _fold_right,
    "reverse": _costed(lambda s: s[::-1], _n1, COPY, SEQ_BYTES, "reverse"),
    "insert": _costed(_insert, _n1, COPY, SEQ_BYTES, "insert"),
    "remove": _costed(_remove, _n1, COPY, SEQ_BYTES, "remove"),
    "remove_value": _costed(_remove_value, _n1, HASH, SEQ_BYTES, "remove_value"),
    "is_prefix_of": _costed(lambda s, t: len(s) <= len(t) and t[:len(s)] == s, _n1, COPY, 0, ""),
    "is_suffix_of": _costed(lambda s, t: len(s) <= len(t) and t[len(t) - len(s):] == s, _n1, COPY,
                            0, ""),
    "no_duplicates": _no_dups,
    "disjoint": _costed(lambda s, t: not (set(s) & set(t)), _n2, HASH, SET_BYTES, "disjoint"),
    "all": lambda s, p: all(_truth(_call(p, x)) for x in s),
    "any": lambda s, p: any(_truth(_call(p, x)) for x in s),
    "exactly_one": lambda s, p: sum(1 for x in s if _truth(_call(p, x))) == 1,
    "max": _costed(_max, _n1, COPY, 0, ""),
    "min": _costed(_min, _n1, COPY, 0, ""),
    "flatten": _flatten,
    "zip_with": _costed(_zip, _n1, HASH, SEQ_BYTES, "zip_with"),
    "is_empty": lambda s: len(s) == 0,
    "view": lambda s: s,
    "deep_view": lambda s: s,
    "as_slice": lambda s: s,
    "to_vec": lambda s: s,
    "clone": lambda s: s,
    "as_str": lambda s: s,
    "as_bytes": _costed(lambda s: tuple(ord(c) if type(c) is str else c for c in s), _n1, HASH,
                        SEQ_BYTES, "as_bytes"),
    "unicode_len": lambda s: len(s),
    "get_char": lambda s, i: _idx(s, i),
    "is_ascii": _costed(lambda s: all(type(c) is str and ord(c) < 128 for c in s), _n1, HASH, 0,
                        ""),
}


def _set_len(s: frozenset) -> int:
    return len(s)


def _set_choose(s: frozenset) -> Any:
    if len(s) == 1:
        return next(iter(s))
    raise Undef("Set::choose of a set without exactly one element is unspecified")


SET: dict[str, Method] = {
    "len": _set_len,
    "contains": lambda s, x: x in s,
    "spec_has": lambda s, x: x in s,
    "insert": _costed(lambda s, x: s | {x}, _n1, SETCOPY, SET_BYTES, "Set::insert"),
    "remove": _costed(lambda s, x: s - {x}, _n1, SETCOPY, SET_BYTES, "Set::remove"),
    "union": _costed(lambda s, t: s | t, _n2, SETCOPY, SET_BYTES, "union"),
    "intersect": _costed(lambda s, t: s & t, _n2, SETCOPY, SET_BYTES, "intersect"),
    "difference": _costed(lambda s, t: s - t, _n2, SETCOPY, SET_BYTES, "difference"),
    "spec_add": _costed(lambda s, t: s | t, _n2, SETCOPY, SET_BYTES, "union"),
    "spec_mul": _costed(lambda s, t: s & t, _n2, SETCOPY, SET_BYTES, "intersect"),
    "spec_sub": _costed(lambda s, t: s - t, _n2, SETCOPY, SET_BYTES, "difference"),
    "subset_of": _costed(lambda s, t: s <= t, _n1, SETCOPY, 0, ""),
    "spec_le": _costed(lambda s, t: s <= t, _n1, SETCOPY, 0, ""),
    "disjoint": _costed(lambda s, t: not (s & t), _n2, SETCOPY, SET_BYTES, "disjoint"),
    "finite": lambda s: True,
    "is_empty": lambda s: len(s) == 0,
    "choose": _set_choose,
    "filter": lambda s, p: frozenset(x for x in ordered(s) if _truth(_call(p, x))),
    "map": lambda s, f: frozenset(_call(f, x) for x in ordered(s)),
    "to_multiset": _costed(lambda s: MSet.of(s), _n1, HASH, SET_BYTES, "to_multiset"),
    "is_singleton": lambda s: len(s) == 1,
    "all": lambda s, p: _all3(ordered(s), p),
    "any": lambda s, p: _any3(ordered(s), p),
    "view": lambda s: s,
}


def _ms_sub(a: MSet, b: MSet) -> MSet:
    return MSet({k: v - b.counts.get(k, 0) for k, v in a.counts.items()})


def _ms_add(a: MSet, b: MSet) -> MSet:
    d = dict(a.counts)
    for k, v in b.counts.items():
        d[k] = d.get(k, 0) + v
    return MSet(d)


MULTISET: dict[str, Method] = {
    "len": lambda m: len(m),
    "count": lambda m, x: m.counts.get(x, 0),
    "add": _ms_add,
    "spec_add": _ms_add,
    "sub": _ms_sub,
    "spec_sub": _ms_sub,
    "insert": lambda m, x: _ms_add(m, MSet({x: 1})),
    "remove": lambda m, x: _ms_sub(m, MSet({x: 1})),
    "contains": lambda m, x: m.counts.get(x, 0) > 0,
    "spec_has": lambda m, x: m.counts.get(x, 0) > 0,
    "dom": lambda m: frozenset(m.counts),
    "subset_of": lambda a, b: all(v <= b.counts.get(k, 0) for k, v in a.counts.items()),
    "spec_le": lambda a, b: all(v <= b.counts.get(k, 0) for k, v in a.counts.items()),
    "intersection_with": lambda a, b: MSet({k: min(v, b.counts.get(k, 0))
                                            for k, v in a.counts.items()}),
    "difference_with": _ms_sub,
    "is_disjoint_from": lambda a, b: not (set(a.counts) & set(b.counts)),
    "update": lambda m, x, n: MSet({**m.counts, x: _int(n, "multiplicity")}),
    "filter": lambda m, p: MSet({k: m.counts[k] for k in ordered(m.counts)
                                 if _truth(_call(p, k))}),
    "view": lambda m: m,
}
for _name, _f in list(MULTISET.items()):
    if _name not in ("count", "contains", "spec_has", "view", "filter"):
        MULTISET[_name] = _costed(_f, _ms_size, HASH, SET_BYTES, f"Multiset::{_name}")


def _map_get(m: FMap, k: Any) -> Any:
    try:
        return m[k]
    except KeyError:
        raise Undef(f"key {show(k)} not in the map's domain") from None


MAP: dict[str, Method] = {
    "dom": _costed(lambda m: frozenset(m), _n1, SETCOPY, SET_BYTES, "dom"),
    "len": lambda m: len(m),
    "index": _map_get,
    "spec_index": _map_get,
    "insert": _costed(lambda m, k, v: FMap({**m, k: v}), _n1, SETCOPY, SET_BYTES, "Map::insert"),
    "remove": _costed(lambda m, k: FMap({x: y for x, y in m.items() if x != k}), _n1, HASH,
                      SET_BYTES, "Map::remove"),
    "contains_key": lambda m, k: k in m,
    "contains_value": _costed(lambda m, v: v in m.values(), _n1, COPY, 0, ""),
    "contains_pair": lambda m, k, v: k in m and m[k] == v,
    "get": lambda m, k: some(m[k]) if k in m else NONE,
    "index_opt": lambda m, k: some(m[k]) if k in m else NONE,
    "values": _costed(lambda m: frozenset(m.values()), _n1, HASH, SET_BYTES, "values"),
    "is_empty": lambda m: len(m) == 0,
    "submap_of": _costed(lambda a, b: all(k in b and b[k] == v for k, v in a.items()), _n1, HASH,
                         0, ""),
    "spec_le": _costed(lambda a, b: all(k in b and b[k] == v for k, v in a.items()), _n1, HASH, 0,
                       ""),
    "union_prefer_right": _costed(lambda a, b: FMap({**a, **b}), _n2, SETCOPY, SET_BYTES,
                                  "union_prefer_right"),
    "remove_keys": _costed(lambda m, ks: FMap({k: v for k, v in m.items() if k not in ks}), _n1,
                           HASH, SET_BYTES, "remove_keys"),
    "restrict": _costed(lambda m, ks: FMap({k: v for k, v in m.items() if k in ks}), _n1, HASH,
                        SET_BYTES, "restrict"),
    "map_values": lambda m, f: FMap({k: _call(f, m[k]) for k in ordered(m)}),
    "map_entries": lambda m, f: FMap({k: _call(f, k, m[k]) for k in ordered(m)}),
    "filter_keys": lambda m, p: FMap({k: m[k] for k in ordered(m) if _truth(_call(p, k))}),
    "is_injective": _costed(lambda m: len(set(m.values())) == len(m), _n1, HASH, SET_BYTES,
                            "is_injective"),
    "view": lambda m: m,
}


def _unwrap(o: Any) -> Any:
    if o.variant == "Some":
        return o.vals[0]
    raise Undef("unwrap of None")


OPTION: dict[str, Method] = {
    "is_Some": lambda o: o.variant == "Some",
    "is_some": lambda o: o.variant == "Some",
    "is_None": lambda o: o.variant == "None",
    "is_none": lambda o: o.variant == "None",
    "unwrap": _unwrap,
    "get_Some_0": _unwrap,
    "spec_unwrap": _unwrap,
    "expect": lambda o, _m: _unwrap(o),
    "unwrap_or": lambda o, d: o.vals[0] if o.variant == "Some" else d,
    "view": lambda o: o,
}

CHAR: dict[str, Method] = {
    "is_ascii_digit": lambda c: "0" <= c <= "9",
    "is_ascii_lowercase": lambda c: "a" <= c <= "z",
    "is_ascii_uppercase": lambda c: "A" <= c <= "Z",
    "is_ascii_alphabetic": lambda c: ("a" <= c <= "z") or ("A" <= c <= "Z"),
    "is_ascii_alphanumeric": lambda c: c.isascii() and c.isalnum(),
    "is_ascii": lambda c: ord(c) < 128,
    "view": lambda c: c,
}

SCALAR: dict[str, Method] = {
    "view": lambda x: x,
    "clone": lambda x: x,
}

METHODS: dict[str, dict[str, Method]] = {
    "seq": SEQ, "set": SET, "multiset": MULTISET, "map": MAP, "option": OPTION, "char": CHAR,
    "int": SCALAR, "bool": SCALAR, "tuple": SCALAR, "struct": SCALAR, "enum": SCALAR,
}

ALL_METHOD_NAMES: frozenset[str] = frozenset(n for d in METHODS.values() for n in d)


def _abs(x: Any) -> int:
    return abs(_int(x, "abs argument"))


def _pow(b: Any, e: Any) -> int:
    b, e = _int(b, "pow base"), _int(e, "pow exponent")
    if e < 0:
        raise Undef("pow with a negative exponent")
    if b in (-1, 0, 1) or e == 0:
        return 1 if e == 0 or b == 1 else (0 if b == 0 else (-1) ** (e & 1))
    if e > MAX_BITS or (abs(b).bit_length() - 1) * e > MAX_BITS:
        check_bits(max(e, (abs(b).bit_length() - 1) * e), "pow result")
    bits = abs(b).bit_length() * e
    if bits > 1 << 14:  # repeated squaring: about one product of the result's size
        w = bits >> 6
        work((w * w) >> 9 << COPY, COPY)
        alloc(bits >> 3, 1, "pow result")
    return int(b ** e)


def _pow2(e: Any) -> int:
    return _pow(2, e)


FREE_FNS: dict[str, Method] = {
    "abs": _abs,
    "min": lambda a, b: a if a <= b else b,
    "max": lambda a, b: a if a >= b else b,
    "clip": lambda x: x if x > 0 else 0,
    "pow": _pow,
    "pow2": _pow2,
    "Some": some,
}


def static_call(segs: tuple[str, ...]) -> Method | None:
    """``Seq::empty()``, ``Set::empty()``, ``Map::empty()``, ``Multiset::singleton(x)`` ..."""
    if len(segs) < 2:
        return None
    ty, name = segs[-2], segs[-1]
    table: dict[tuple[str, str], Method] = {
        ("Seq", "empty"): lambda: (),
        ("Seq", "new"): _seq_new,
        ("Set", "empty"): lambda: frozenset(),
        ("Set", "range"): lambda lo, hi: _set_range(lo, _int(hi, "hi")),
        ("Set", "range_inclusive"): lambda lo, hi: _set_range(lo, _int(hi, "hi") + 1),
        ("Map", "empty"): lambda: FMap(),
        ("Multiset", "empty"): lambda: MSet({}),
        ("Multiset", "singleton"): lambda x: MSet({x: 1}),
        ("Multiset", "from_set"): _costed(lambda s: MSet.of(s), _n1, HASH, SET_BYTES, "from_set"),
        ("Option", "Some"): some,
        ("Option", "None"): lambda: NONE,
        ("Seq", "len"): lambda s: len(s),
    }
    f = table.get((ty, name))
    if f is None and len(segs) >= 2 and segs[-1] in FREE_FNS and segs[0] == "vstd":
        return FREE_FNS[segs[-1]]
    return f


def _set_range(lo: Any, hi: int) -> frozenset:
    lo = _int(lo, "lo")
    check_elems(hi - lo, "Set::range")
    work(hi - lo, HASH)
    alloc(hi - lo, SET_BYTES, "Set::range")
    return frozenset(range(lo, hi))


def _seq_new(n: Any, f: Any) -> tuple:
    n = _int(n, "Seq::new length")
    if n < 0:
        raise Undef("Seq::new with a negative length")
    check_elems(n, "Seq::new")
    alloc(n, SEQ_BYTES, "Seq::new")  # each element's closure call pays its own step
    return tuple(_call(f, i) for i in range(n))
