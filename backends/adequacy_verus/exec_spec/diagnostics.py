"""Reading cargo's JSON diagnostics and deciding what a compile failure means.

A failed build has two very different causes. Either the spec is wrong (an unknown name, a
syntax error): the spec is invalid and the writer must hear the rustc message at the spec's own
line. Or the spec is fine Verus but uses something the erased ``exec_spec_unverified!`` macro
cannot turn into Rust (``int`` fields, closures, ``=~=``, sets inside structs, mixed integer
widths that Verus would widen to ``int``): then this engine simply cannot decide, every case is
``unknown`` with reason "outside exec_spec's fragment: ...", and the next engine in the chain gets
its turn. Sorting the two apart is this module's one job.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..rustc import Diagnostic, from_json, json_objects

INT_NAMES = {"i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128",
             "usize", "int", "nat"}

#: Messages the exec_spec macro itself emits for constructs it does not translate.
_MACRO_GAPS = re.compile(
    r"unsupported|not supported|cannot be compiled|only supports|Missing type on quantified|"
    r"unknown path kind|unexpected path|expected type argument|typed local variables",
    re.IGNORECASE,
)


def parse_cargo_messages(stdout: str) -> list[Diagnostic]:
    """Compiler messages of ``cargo build --message-format=json``; a message's line is that of
    its primary span in the spec crate's ``src/main.rs`` (the spec occupies its first lines)."""
    return [from_json(obj.get("message") or {}, str(obj.get("package_id") or ""), "main.rs")
            for obj in json_objects(stdout) if obj.get("reason") == "compiler-message"]


_LINKER = re.compile(r"linker `[^`]*` not found|linking with `[^`]*` failed|"
                     r"could not exec the linker|No space left on device")


def toolchain_fault(diags: list[Diagnostic], crate_name: str) -> str | None:
    """Why a failed build is the tool chain's fault, not the spec's, or None.

    An error while compiling another crate (vstd or a dependency: a rustc too old or too new)
    or a linker failure says nothing about the spec; recording it as the spec's verdict would
    cache a machine's fault as the spec's for ever."""
    for d in diags:
        if d.level != "error":
            continue
        if d.package and crate_name not in d.package:
            name = d.package.split("#")[-1].split()[0]
            return (f"the tool chain: a dependency ({name}) failed to compile with this "
                    f"rustc: {d.message.strip()[:300]}")
        if _LINKER.search(d.message):
            return f"the tool chain: {d.message.strip()[:300]}"
    return None


def fragment_gap(d: Diagnostic) -> str | None:
    """Why ``d`` is a limit of the exec_spec fragment rather than a mistake in the spec."""
    text = d.message
    if _MACRO_GAPS.search(text) and d.code is None:
        first = text.strip().splitlines()[0] if text.strip() else text
        return first
    if d.code == "E0277" and re.search(r"(HashSet|HashMap|ExecMultiset)<[^`]*>: (Hash|Ord)`?",
                                       text):
        return "sets, maps and multisets cannot be fields of structs (the macro derives Hash)"
    if d.code == "E0599" and re.search(r"`exec_\w+`", text):
        m = re.search(r"`(exec_\w+)`", text)
        name = m.group(1)[len("exec_"):] if m else "?"
        return f"method or function `{name}` has no executable counterpart"
    if d.code == "E0308":
        m = re.search(r"expected `&?(\w+)`, found `&?(\w+)`", d.rendered)
        if m and m.group(1) in INT_NAMES and m.group(2) in INT_NAMES:
            return (f"mixed integer types {m.group(1)} and {m.group(2)} (Verus widens both to "
                    "int; the erased macro keeps machine types)")
    if d.code in ("E0277", "E0308") and re.search(r"\b(int|nat)\b", text) and "vstd" in d.rendered:
        return "int/nat values have no executable counterpart"
    if d.code == "E0369" and re.search(r"`&(\[|str)", text):
        return f"operator on sequences or strings ({text.strip()}); use the method form (add)"
    if d.code == "E0369" and "Seq<" not in text:
        # binary operation between mismatched machine types (e.g. `u64 < usize`)
        m = re.search(r"`(\w+)`", text)
        if m and m.group(1) in INT_NAMES:
            return f"binary operation on mixed machine integer types ({text.strip()})"
    return None


@dataclass(frozen=True)
class CompileOutcome:
    kind: str
    """``outside`` (fragment gap: all cases unknown) or ``invalid`` (the spec's fault)."""
    message: str
    line: int | None = None


def classify(diags: list[Diagnostic], spec_line_count: int) -> CompileOutcome | None:
    """``None`` when cargo reported no error at all (then the failure is ours, not the spec's)."""
    errors = [d for d in diags if d.level == "error" and not d.message.startswith("aborting")
              and not d.message.startswith("could not compile")]
    if not errors:
        return None
    for d in errors:
        gap = fragment_gap(d)
        if gap is not None:
            where = f" (spec line {d.line})" if d.line and d.line <= spec_line_count else ""
            return CompileOutcome("outside", f"outside exec_spec's fragment: {gap}{where}", d.line)
    d = errors[0]
    line = d.line if d.line and d.line <= spec_line_count else None
    msg = d.message if not d.code else f"{d.message} [{d.code}]"
    detail = d.rendered.strip().splitlines()
    if len(detail) > 1:
        msg += "\n" + "\n".join(detail[1:12])
    return CompileOutcome("invalid", f"rustc: {msg}", line)
