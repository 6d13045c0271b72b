"""The ``#[verifier::...]`` attributes a spec may carry, each with the meaning Verus gives it.

An attribute the front end admits but no engine honours is a hole: ``external_body`` makes
Verus treat a function as opaque (its body is dropped: ``rust_to_vir_func.rs`` sets the body
to None, so the function is uninterpreted, exactly as a ``spec fn`` without a body), yet the
engines evaluated the body and a flawed spec passed everything. So each admitted attribute is
listed here with where it may stand and what it does to the verdicts:

| attribute | on | meaning for the engines |
|---|---|---|
| ``external_body`` | a spec fn | uninterpreted: its calls are unspecified (``unknown`` where they matter) |
| ``external_body`` | a struct or enum | opaque: nothing may build, read or match it (an error where the spec does) |
| ``opaque`` | a spec fn with a body | none (the body still defines it; a proof must ``reveal`` it) |
| ``inline``, ``memoize``, ``spinoff_prover``, ``rlimit(N)`` | a spec fn | none (proof hints) |
| ``ext_equal``, ``accept_recursive_types(T)``, ``reject_recursive_types(T)``, ``reject_recursive_types_in_ground_variants(T)`` | a struct or enum | none (checks Verus makes on the type) |

Both spellings are read: ``#[verifier::X]`` and ``#[verifier(X)]`` (with arguments
``#[verifier::rlimit(20)]`` / ``#[verifier(rlimit(20))]``). Anything else (exec-code and proof
hints such as ``truncate``, ``nonlinear``, ``loop_isolation``, ``allow_in_spec``, an attribute
on a field, a parameter, an expression or an impl block, a malformed argument) is refused
with its line: a spec holds only spec items, and what is refused cannot be read differently.
"""

from __future__ import annotations

from dataclasses import dataclass

from .syntax import ast as A
from .syntax.lexer import Token

FN_FLAGS = frozenset({"external_body", "opaque", "inline", "memoize", "spinoff_prover"})
TYPE_FLAGS = frozenset({"external_body", "ext_equal"})
TYPE_PARAM_ATTRS = frozenset({"accept_recursive_types", "reject_recursive_types",
                              "reject_recursive_types_in_ground_variants"})
ALL = FN_FLAGS | TYPE_FLAGS | TYPE_PARAM_ATTRS | {"rlimit"}


@dataclass(frozen=True)
class VerifierAttr:
    name: str
    args: tuple[str, ...]
    line: int


def parse_verifier(body: list[Token]) -> VerifierAttr | None | str:
    """The tokens inside ``#[...]``: a ``VerifierAttr`` when it is a well-formed verifier
    attribute we admit, a message (str) when it is a verifier attribute we refuse, None when
    it is no verifier attribute at all."""
    if not body or not (body[0].kind == "ident" and body[0].value == "verifier"):
        return None
    line = body[0].line
    rest = body[1:]
    if rest and rest[0].is_p("::"):
        inner = rest[1:]
    elif rest and rest[0].is_p("(") and rest[-1].is_p(")"):
        inner = rest[1:-1]
    else:
        return "a malformed #[verifier...] attribute"
    if not inner or inner[0].kind != "ident" or inner[0].raw:
        return "a malformed #[verifier...] attribute"
    name = str(inner[0].value)
    args_toks = inner[1:]
    args: list[str] = []
    if args_toks:
        if not (args_toks[0].is_p("(") and args_toks[-1].is_p(")")):
            return f"#[verifier::{name}] with a malformed argument"
        for t in args_toks[1:-1]:
            if t.is_p(","):
                continue
            if t.kind not in ("ident", "int") or t.kind == "ident" and t.raw:
                return f"#[verifier::{name}] with an argument Verus does not read ({t.text})"
            args.append(str(t.text))
    if name not in ALL:
        return (f"#[verifier::{name}] has no meaning in a spec (exec-code and proof hints "
                "are not allowed; admitted: " + ", ".join(sorted(ALL)) + ")")
    if name in FN_FLAGS | TYPE_FLAGS and args:
        return f"#[verifier::{name}] takes no argument"
    if name == "rlimit" and not (len(args) == 1 and (args[0].isdigit() or args[0] == "infinity")):
        return "#[verifier::rlimit(N)] takes one number (or infinity)"
    if name in TYPE_PARAM_ATTRS and len(args) != 1:
        return f"#[verifier::{name}(T)] takes one type parameter"
    return VerifierAttr(name, tuple(args), line)


def names(attrs: list[A.Attr]) -> set[str]:
    """The verifier attribute names on an item (both spellings)."""
    out: set[str] = set()
    for a in attrs:
        text = a.text.replace(" ", "")
        if text.startswith("#[verifier::"):
            out.add(text[len("#[verifier::"):].split("(")[0].rstrip("]"))
        elif text.startswith("#[verifier("):
            out.add(text[len("#[verifier("):].split("(")[0].split(")")[0])
    return out


def external_body(item: A.Item) -> bool:
    """Verus drops the body (the function is uninterpreted, the datatype opaque)."""
    return "external_body" in names(item.attrs)


def uninterpreted(fn: A.FnItem) -> bool:
    """A spec fn whose value Verus does not define: no body, or its body dropped."""
    return fn.body is None or external_body(fn)


__all__ = ["ALL", "VerifierAttr", "external_body", "names", "parse_verifier", "uninterpreted"]
