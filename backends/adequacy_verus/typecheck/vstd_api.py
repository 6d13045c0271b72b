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

#: Free spec functions and builtins spec code can name (``vstd::prelude::*``, the modules it
#: re-exports or a ``use vstd::...``): every ``pub spec fn`` at the top of a vstd module and
#: every public function of verus_builtin (verus-lang/verus, 2026-08; ``old`` and friends).
#: Their arguments are checked for errors inside them but not against a signature; a name not
#: here, not in the spec and not in scope is rustc's E0425.
_FREE = """
    abs add add_ensures admit after_borrow align_of align_of_as_usize align_of_val_as_usize
    allow_panic antisymmetric arbitrary arch_word_bits array_index array_view assert_
    assert_bit_vector assert_bitvector_by assert_by assert_by_compute assert_by_compute_only
    assert_forall_by assert_nonlinear_by associative assume_ asymmetric atomic_call_loop
    atomic_spec base_upper_bound_excl bool_value_eq_option_token bool_value_le_option_token
    borrowed_key_removed bound_as_ref branch_bool btree_map_deep_view_impl
    builds_valid_hashers call_ensures call_requires check_argument_is_map
    check_argument_is_seq check_argument_is_set choose choose_tuple clip cloned
    closure_to_fn_proof closure_to_fn_spec codepoint_width_1 codepoint_width_2
    codepoint_width_3 codepoint_width_4 combine_values commutative commutative_foldl
    commutative_foldr conjunct_shared connected constrain_type contains_borrowed_key
    continuation_bits copy_within_result decode_first_codepoint decode_first_scalar
    decode_last_scalar decode_utf8 decreases decreases_by decreases_when default_ensures
    deposits div div_auto div_auto_minus div_auto_plus div_ensures div_pos div_recursive
    dummy_capture_consume dummy_capture_new encode_scalar encode_utf8 endianness ensures
    eq_ensures equal equivalence_relation erased_ghost_value err exchanges
    exchanges_nondeterministic exists ext_equal ext_equal_deep extra_dependency f32_to_bits
    f64_to_bits final_ float_cast_spec fmt_req_all forall frame_preserving_update
    frame_preserving_update_nondeterministic frame_preserving_update_nondeterministic_opt
    frame_preserving_update_opt ge_ensures get_future_output_type get_union_field
    get_variant_field ghost_exec global_size_of gt_ensures guards has_resolved
    has_resolved_unsized has_width_1_encoding has_width_2_encoding has_width_3_encoding
    has_width_4_encoding hash_map_deep_view_impl ieee_float_cast imply incl increasing_seq
    injective inline_air_stmt into_iter into_iter_btree_keys into_iter_elts
    into_iter_hash_keys into_iter_keys into_iter_remaining into_iter_values into_rev_spec
    inv_mask_any inv_mask_list inv_mask_list_compl inv_mask_none inv_mask_set invariant
    invariant_except_break irreflexive is_ascii is_ascii_chars is_char_boundary
    is_continuation_byte is_err is_le is_leading_byte_width_1 is_leading_byte_width_2
    is_leading_byte_width_3 is_leading_byte_width_4 is_mod_equivalent is_none is_ok is_pow2
    is_pow2_exists is_scalar is_sized is_smaller_than is_smaller_than_lexicographic
    is_smaller_than_recursive_function_field is_some is_variant is_white_space
    iter_into_iter_spec key_obeys_cmp_spec last_continuation_byte le_ensures
    leading_bits_width_1 leading_bits_width_2 leading_bits_width_3 leading_bits_width_4
    leading_byte_width_1 leading_byte_width_2 leading_byte_width_3 leading_byte_width_4
    length_of_first_codepoint length_of_first_scalar length_of_last_scalar log low_bits_mask
    lt_ensures maps_borrowed_key_to_value max max3 min mod_auto mod_auto_minus mod_auto_plus
    mod_recursive modulus mul mul_auto mul_ensures mul_pos mul_recursive mut_ref_current
    mut_ref_future mut_ref_tracked mutable_reference_tie nat_max ne_ensures neg_ensures
    next_multiple_of no_method_body no_unwind no_unwind_when nonzero_from_primitive
    nonzero_spec_get not_overlong_encoding not_surrogate obeys_cmp obeys_cmp_ord
    obeys_cmp_partial_ord obeys_cmp_spec obeys_concrete_eq obeys_deep_eq obeys_eq
    obeys_eq_spec obeys_eq_spec_properties obeys_key_model obeys_partial_cmp_spec_properties
    obeys_view_eq ok old opens_invariant_mask opt_add opt_agree opt_ge opt_is_none opt_sub
    option_value_eq_option_token option_value_le_option_token partial_cmp_ensures
    partial_ordering partial_valid_utf8 pop_first_scalar pow pow2 pre_ordering pred_args
    ptr_from_data ptr_mut_from_data ptr_null ptr_null_mut range_all_spec_rec recommends
    recommends_by reflexive requires returns rev_iter rev_post reveal_byteslit reveal_hide_
    reveal_hide_internal_path_ reveal_strlit rust_div rust_rem second_last_continuation_byte
    seq_to_map set_contains_borrowed_key set_int_range set_op sets_borrowed_key_to_key
    sets_differ_by_borrowed_key shadow_ghost_value shr_ref_struct_wrap signed_max signed_min
    size_of size_of_as_usize size_of_val_as_usize slice_range_end slice_range_start
    slice_range_valid sorted_by spec_affirm spec_align_of_val spec_array_as_slice
    spec_array_fill_for_copy_type spec_array_update spec_btree_map_len spec_btree_set_len
    spec_cast_array_ptr_to_slice_ptr spec_cast_float spec_cast_integer
    spec_cast_ptr_to_thin_ptr spec_cast_ptr_to_usize spec_cast_real
    spec_cast_slice_ptr_to_slice_ptr spec_cast_slice_ptr_to_str_ptr
    spec_cast_str_ptr_to_slice_ptr spec_chained_cmp spec_chained_eq spec_chained_ge
    spec_chained_gt spec_chained_le spec_chained_lt spec_chained_value spec_eq spec_expect
    spec_from spec_hash_map_len spec_hash_set_len spec_literal_decimal spec_literal_int
    spec_literal_integer spec_literal_nat spec_ok_or spec_range_inclusive_end_bound
    spec_range_inclusive_is_empty spec_range_next spec_size_of_val spec_slice_get
    spec_slice_index spec_slice_is_empty spec_slice_len spec_slice_update
    spec_u128_from_le_bytes spec_u128_to_le_bytes spec_u16_from_le_bytes
    spec_u16_to_le_bytes spec_u32_from_le_bytes spec_u32_to_le_bytes spec_u64_from_le_bytes
    spec_u64_to_le_bytes spec_u64_to_le_bytes_open spec_unwrap spec_unwrap_err
    spec_unwrap_or spec_vec_dequeue_len spec_vec_len strict_total_ordering strictly_cloned
    string_is_ascii strongly_connected strslice_get_char strslice_len sub sub_ensures
    symmetric take_first_scalar take_last_scalar third_last_continuation_byte
    to_big_from_digits to_string_from_display_ensures total_ordering tracked_exec
    tracked_exec_borrow transitive trigger trigger_peek_implications
    two_phase_mutable_reference_tie u16_leading_ones u16_leading_zeros u16_trailing_ones
    u16_trailing_zeros u32_leading_ones u32_leading_zeros u32_trailing_ones
    u32_trailing_zeros u64_leading_ones u64_leading_zeros u64_trailing_ones
    u64_trailing_zeros u8_leading_ones u8_leading_zeros u8_trailing_ones u8_trailing_zeros
    unsigned_max updates use_type_invariant valid_first_scalar valid_layout
    valid_leading_and_continuation_bytes_first_codepoint valid_utf8 vec_clone_trigger
    vec_dequeue_clone_trigger verus_erasure_get_first view_reverse_for_eq
    view_reverse_for_eq_sized with_triggers withdraws
"""
#: Older vstd names and builtins seen in real specs, kept for specs written against them.
_HAND = """
    arbitrary spec_affirm spec_literal_int spec_literal_nat spec_cast_integer is_variant
    get_variant_field strictly_cloned seq_to_set pow2 spec_abs spec_min spec_max spec_pow
    is_sorted sorted_by ext_equal exists_unique
"""
FREE_FNS = frozenset(_FREE.split()) | frozenset(_HAND.split())
