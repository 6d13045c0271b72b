"""The signatures of vstd's spec API that the type checker knows: ONE table, one line a method.

Read from vstd's sources (``seq.rs``, ``seq_lib.rs``, ``set.rs``, ``set_lib.rs``, ``map.rs``,
``map_lib.rs``, ``multiset.rs``, ``multiset_lib.rs``, ``view.rs``, ``slice.rs``; verus-lang/verus,
2026-08). Each line is ``name<Generics>(param: Type, ...) -> Type`` written as in vstd, without
``self``; ``static`` in front marks an associated function (``Seq::empty()``). The receiver's own
type parameters are ``A`` (``Seq``, ``Set``, ``Multiset``, ``Option``) and ``K``, ``V``
(``Map``). A return type of ``?`` means "not checked" (the result type moved between vstd
versions, e.g. ``Set::new``). Adding a method is adding a line.

A method missing here on a type listed here is reported as rustc would ("no method named
`size` found"), so a line must exist for every spec method of these types that real specs
use; methods of element-type-specific impls (``Seq<int>::max``) are listed for all ``A``.
"""

from __future__ import annotations

SPEC_METHODS: dict[str, str] = {
    "Seq": """
        static empty() -> Seq<A>
        static new(len: nat, f: spec_fn(int) -> A) -> Seq<A>
        len() -> nat
        index(i: int) -> A
        spec_index(i: int) -> A
        push(a: A) -> Seq<A>
        update(i: int, a: A) -> Seq<A>
        subrange(start_inclusive: int, end_exclusive: int) -> Seq<A>
        take(n: int) -> Seq<A>
        skip(n: int) -> Seq<A>
        add(rhs: Seq<A>) -> Seq<A>
        spec_add(rhs: Seq<A>) -> Seq<A>
        last() -> A
        first() -> A
        ext_equal(s2: Seq<A>) -> bool
        map<B>(f: spec_fn(int, A) -> B) -> Seq<B>
        map_values<B>(f: spec_fn(A) -> B) -> Seq<B>
        flat_map<B>(f: spec_fn(A) -> Seq<B>) -> Seq<B>
        is_prefix_of(other: Seq<A>) -> bool
        is_suffix_of(other: Seq<A>) -> bool
        sort_by(leq: spec_fn(A, A) -> bool) -> Seq<A>
        all(pred: spec_fn(A) -> bool) -> bool
        any(pred: spec_fn(A) -> bool) -> bool
        exactly_one(pred: spec_fn(A) -> bool) -> bool
        filter(pred: spec_fn(A) -> bool) -> Seq<A>
        max_via(leq: spec_fn(A, A) -> bool) -> A
        min_via(leq: spec_fn(A, A) -> bool) -> A
        contains(needle: A) -> bool
        index_of(needle: A) -> int
        index_of_first(needle: A) -> Option<int>
        index_of_last(needle: A) -> Option<int>
        drop_last() -> Seq<A>
        drop_first() -> Seq<A>
        no_duplicates() -> bool
        disjoint(other: Seq<A>) -> bool
        to_set() -> Set<A>
        to_iset() -> ?
        to_multiset() -> Multiset<A>
        insert(i: int, a: A) -> Seq<A>
        remove(i: int) -> Seq<A>
        remove_value(val: A) -> Seq<A>
        reverse() -> Seq<A>
        zip_with<B>(other: Seq<B>) -> Seq<(A, B)>
        fold_left<B>(b: B, f: spec_fn(B, A) -> B) -> B
        fold_left_alt<B>(b: B, f: spec_fn(B, A) -> B) -> B
        fold_right<B>(f: spec_fn(A, B) -> B, b: B) -> B
        fold_right_alt<B>(f: spec_fn(A, B) -> B, b: B) -> B
        update_subrange_with(off: int, vs: Seq<A>) -> Seq<A>
        remove_duplicates(seen: Seq<A>) -> Seq<A>
        filter_map<B>(f: spec_fn(A) -> Option<B>) -> Seq<B>
        filter_alt(p: spec_fn(A) -> bool) -> Seq<A>
        as_ref() -> ?
        unref() -> ?
        unzip() -> ?
        flatten() -> ?
        flatten_alt() -> ?
        max() -> int
        min() -> int
        sort() -> Seq<A>
        is_sorted() -> ?
        update_at_index(i: int, a: A) -> Seq<A>
    """,
    "Set": """
        static empty() -> Set<A>
        static new(f: spec_fn(A) -> bool) -> ?
        static full() -> ?
        static new_from_iset(s: ?) -> ?
        static range(lo: A, hi: A) -> Set<A>
        static range_inclusive(lo: A, hi: A) -> Set<A>
        static from_finite_type(f: spec_fn(A) -> bool) -> Set<A>
        to_iset() -> ?
        contains(a: A) -> bool
        spec_has(a: A) -> bool
        subset_of(s2: Set<A>) -> bool
        spec_le(s2: Set<A>) -> bool
        insert(a: A) -> Set<A>
        remove(a: A) -> Set<A>
        union(s2: Set<A>) -> Set<A>
        spec_add(s2: Set<A>) -> Set<A>
        intersect(s2: Set<A>) -> Set<A>
        spec_mul(s2: Set<A>) -> Set<A>
        difference(s2: Set<A>) -> Set<A>
        spec_sub(s2: Set<A>) -> Set<A>
        complement() -> ?
        filter(f: spec_fn(A) -> bool) -> Set<A>
        finite() -> bool
        congruent(s2: ?) -> bool
        len() -> nat
        choose() -> A
        disjoint(s2: Set<A>) -> bool
        ext_equal(s2: Set<A>) -> bool
        fold<B>(z: B, f: spec_fn(B, A) -> B) -> B
        is_empty() -> bool
        map<B>(f: spec_fn(A) -> B) -> Set<B>
        map_by<B>(fwd: spec_fn(A) -> B, rev: spec_fn(B) -> A) -> Set<B>
        map_flatten_by(...) -> ?
        to_seq() -> Seq<A>
        to_sorted_seq(leq: spec_fn(A, A) -> bool) -> Seq<A>
        is_singleton() -> bool
        injective_on<B>(r: spec_fn(A) -> B) -> bool
        has_least(leq: spec_fn(A, A) -> bool, min: A) -> bool
        has_minimum(leq: spec_fn(A, A) -> bool, min: A) -> bool
        has_greatest(leq: spec_fn(A, A) -> bool, max: A) -> bool
        has_maximum(leq: spec_fn(A, A) -> bool, max: A) -> bool
        find_unique_minimal(r: spec_fn(A, A) -> bool) -> A
        find_unique_maximal(r: spec_fn(A, A) -> bool) -> A
        to_multiset() -> Multiset<A>
        all(pred: spec_fn(A) -> bool) -> bool
        any(pred: spec_fn(A) -> bool) -> bool
        filter_map<B>(f: spec_fn(A) -> Option<B>) -> Set<B>
        flatten() -> ?
        mk_map<V>(f: spec_fn(A) -> V) -> Map<A, V>
        sum() -> ?
    """,
    "Map": """
        static empty() -> Map<K, V>
        static new(s: ?, fv: ?) -> ?
        static total(fv: ?) -> ?
        dom() -> Set<K>
        index(key: K) -> V
        spec_index(key: K) -> V
        insert(key: K, value: V) -> Map<K, V>
        remove(key: K) -> Map<K, V>
        len() -> nat
        to_imap() -> ?
        congruent(m2: ?) -> bool
        ext_equal(m2: Map<K, V>) -> bool
        is_full() -> bool
        is_empty() -> bool
        contains_key(k: K) -> bool
        contains_value(v: V) -> bool
        index_opt(k: K) -> Option<V>
        values() -> Set<V>
        kv_pairs() -> Set<(K, V)>
        contains_pair(k: K, v: V) -> bool
        submap_of(m2: Map<K, V>) -> bool
        spec_le(m2: Map<K, V>) -> bool
        union_prefer_right(m2: Map<K, V>) -> Map<K, V>
        remove_keys(keys: Set<K>) -> Map<K, V>
        restrict(keys: Set<K>) -> Map<K, V>
        is_equal_on_key(m2: Map<K, V>, key: K) -> bool
        agrees(m2: Map<K, V>) -> bool
        map_entries<W>(f: spec_fn(K, V) -> W) -> Map<K, W>
        map_values<W>(f: spec_fn(V) -> W) -> Map<K, W>
        is_injective() -> bool
        invert() -> Map<V, K>
        filter_keys(p: spec_fn(K) -> bool) -> Map<K, V>
        get(k: K) -> Option<V>
        prefixed_entries(prefix: ?) -> Map<K, V>
        is_monotonic() -> bool
        is_monotonic_from(start: int) -> bool
        update_at_index(k: K, v: V) -> Map<K, V>
    """,
    "Multiset": """
        static empty() -> Multiset<A>
        static from_map(m: Map<A, nat>) -> Multiset<A>
        static from_set(m: Set<A>) -> Multiset<A>
        static singleton(v: A) -> Multiset<A>
        count(value: A) -> nat
        len() -> nat
        add(m2: Multiset<A>) -> Multiset<A>
        sub(m2: Multiset<A>) -> Multiset<A>
        insert(v: A) -> Multiset<A>
        remove(v: A) -> Multiset<A>
        update(v: A, mult: nat) -> Multiset<A>
        subset_of(m2: Multiset<A>) -> bool
        spec_le(m2: Multiset<A>) -> bool
        filter(f: spec_fn(A) -> bool) -> Multiset<A>
        choose() -> A
        contains(v: A) -> bool
        spec_has(v: A) -> bool
        intersection_with(other: Multiset<A>) -> Multiset<A>
        difference_with(other: Multiset<A>) -> Multiset<A>
        is_disjoint_from(other: Multiset<A>) -> bool
        dom() -> Set<A>
        ext_equal(m2: Multiset<A>) -> bool
        is_empty() -> bool
        is_singleton() -> bool
    """,
    # Option's spec-visible methods: vstd's std_specs/option.rs gives these a spec meaning
    # (``when_used_as_spec``) or they are spec fns of its OptionAdditionalFns trait;
    # state_machine_internal.rs adds ``update_at_index`` to Seq and Map.
    "Option": """
        is_some() -> bool
        is_none() -> bool
        is_Some() -> bool
        is_None() -> bool
        is_some_spec() -> bool
        unwrap() -> A
        get_Some_0() -> A
        arrow_Some_0() -> A
        arrow_0() -> A
        eq_spec(other: Option<A>) -> bool
        cmp_spec(other: Option<A>) -> ?
        partial_cmp_spec(other: Option<A>) -> ?
        unwrap_or(default: A) -> A
        expect(msg: ?) -> A
        tracked_unwrap() -> A
        or(optb: Option<A>) -> Option<A>
        and_then(f: ?) -> ?
        map(f: ?) -> ?
        ok_or(err: ?) -> ?
        is_some_and(f: ?) -> bool
        is_none_or(f: ?) -> bool
        cloned() -> ?
        as_ref() -> Option<A>
        clone() -> Option<A>
        view() -> ?
    """,
}

#: Types with a ``View`` impl in vstd (``view.rs``, ``slice.rs``, ``array.rs``, ``string.rs``)
#: and what ``@`` gives: ``T`` is the element type. The spec types (``Seq``, ``Set``, ``Map``,
#: ``Multiset``, ``int``, ``nat``) have none, so rustc rejects ``s@`` on them.
VIEWS: dict[str, str] = {
    "Vec": "Seq<T>",
    "slice": "Seq<T>",
    "String": "Seq<char>",
    "str": "Seq<char>",
    "Option": "?",
    "tuple": "?",
    "bool": "bool",
    "char": "char",
    "unit": "unit",
    "u8": "u8", "u16": "u16", "u32": "u32", "u64": "u64", "u128": "u128", "usize": "usize",
    "i8": "i8", "i16": "i16", "i32": "i32", "i64": "i64", "i128": "i128", "isize": "isize",
}

#: Spec methods of exec types that spec code may call (``when_used_as_spec``); any other
#: method of these types is left unchecked (exec fns' clauses use many).
EXEC_METHODS: dict[str, str] = {
    "Vec": "len() -> nat",
    "slice": "len() -> nat",
}

#: Free spec functions and builtins spec code can name from the prelude (``vstd::prelude::*``
#: and the modules it re-exports, or a ``use vstd::...``): their arguments are not checked.
FREE_FNS = frozenset(["old", "arbitrary", "spec_affirm", "spec_literal_int", "spec_literal_nat", "spec_cast_integer", "is_variant", "get_variant_field", "strictly_cloned", "cloned", "seq_to_set", "set_int_range", "check_argument_is_seq", "check_argument_is_set", "check_argument_is_map", "commutative_foldr", "commutative_foldl", "abs", "min", "max", "pow", "pow2", "sum", "spec_abs", "spec_min", "spec_max", "spec_pow", "spec_slice_len", "spec_slice_index", "spec_slice_get", "spec_slice_update", "spec_slice_is_empty", "array_view", "spec_array_as_slice", "spec_array_update", "is_ascii", "string_is_ascii", "encode_utf8", "decode_utf8", "valid_utf8", "spec_u8_to_char", "spec_char_to_u8", "is_sorted", "sorted_by", "total_ordering", "antisymmetric", "transitive", "reflexive", "connected", "strongly_connected", "partial_ordering", "pre_ordering", "injective", "surjective", "bijective", "bit_and", "bit_or", "bit_xor", "ext_equal", "f64_arith_seq", "exists_unique"])
