"""Methods on integers, ``bool`` and ``char`` in spec code: which Verus lets a spec call.

Spec code may call only spec functions. Rust's own methods on primitive types are exec
functions; vstd makes a few usable in spec code (``#[verifier::allow_in_spec]`` /
``when_used_as_spec`` in ``vstd/std_specs/num.rs`` and ``char.rs``: the checked, wrapping and
saturating arithmetic, ``is_multiple_of``, ``char::len_utf8``). Any other Rust method (``max``,
``abs``, ``pow``, ``is_alphabetic``...) is "cannot call function ... with mode exec" in Verus,
and a name Rust does not have at all is rustc's E0599: both invalid with the line, where the
checker used to leave them to the engines (which answered unknown).
"""

from __future__ import annotations

_SPEC_CALLABLE = (
    "checked_add checked_add_signed checked_add_unsigned checked_div checked_div_euclid "
    "checked_mul checked_next_multiple_of checked_rem checked_rem_euclid checked_sub "
    "checked_sub_unsigned is_multiple_of saturating_add saturating_mul saturating_sub "
    "wrapping_add wrapping_add_signed wrapping_add_unsigned wrapping_mul wrapping_shl "
    "wrapping_shr wrapping_sub len_utf8 view deep_view clone")
SPEC_CALLABLE = frozenset(_SPEC_CALLABLE.split())
_INT_EXEC = (
    "abs pow max min signum count_ones count_zeros leading_zeros trailing_zeros leading_ones "
    "trailing_ones rem_euclid div_euclid is_positive is_negative to_string cmp partial_cmp eq ne "
    "lt le gt ge clamp unsigned_abs abs_diff isqrt ilog ilog2 ilog10 checked_pow checked_neg "
    "checked_abs checked_shl checked_shr checked_ilog2 overflowing_add overflowing_sub "
    "overflowing_mul overflowing_neg wrapping_neg wrapping_abs wrapping_pow wrapping_div "
    "wrapping_rem saturating_pow saturating_div saturating_neg saturating_abs rotate_left "
    "rotate_right swap_bytes reverse_bits to_be to_le to_be_bytes to_le_bytes to_ne_bytes "
    "is_power_of_two next_power_of_two midpoint div_ceil next_multiple_of into try_into "
    "from hash fmt default")
_CHAR_EXEC = (
    "is_alphabetic is_numeric is_alphanumeric is_ascii_digit is_ascii_alphabetic "
    "is_ascii_alphanumeric is_ascii_uppercase is_ascii_lowercase is_uppercase is_lowercase "
    "to_digit to_ascii_uppercase to_ascii_lowercase is_whitespace is_ascii_whitespace is_ascii "
    "is_ascii_punctuation is_ascii_hexdigit is_ascii_graphic is_ascii_control is_control "
    "is_digit to_uppercase to_lowercase eq_ignore_ascii_case len_utf16 encode_utf8 "
    "to_string cmp partial_cmp eq ne lt le gt ge max min into hash fmt")
_BOOL_EXEC = "then then_some not cmp partial_cmp eq ne lt le gt ge max min into hash fmt"
EXEC = {"int": frozenset(_INT_EXEC.split()), "char": frozenset(_CHAR_EXEC.split()),
        "bool": frozenset(_BOOL_EXEC.split())}


def verdict(kind: str, type_name: str, method: str) -> str | None:
    """Why calling ``method`` on a ``type_name`` value (kind ``int``/``char``/``bool``) in spec
    code is an error, or None where Verus allows it."""
    if method in SPEC_CALLABLE or method.startswith("spec_"):
        return None
    if type_name in ("int", "nat", "{integer}") and kind == "int":
        return (f"no method named `{method}` found for `{type_name}` in the current scope "
                "(Verus's mathematical integers have no Rust methods) [E0599]")
    if method in EXEC[kind]:
        return (f"cannot call function `{type_name}::{method}` with mode exec (spec code may "
                "call only spec functions; vstd allows only checked_/wrapping_/saturating_ "
                "arithmetic on primitive types)")
    return f"no method named `{method}` found for `{type_name}` in the current scope [E0599]"


__all__ = ["SPEC_CALLABLE", "verdict"]
