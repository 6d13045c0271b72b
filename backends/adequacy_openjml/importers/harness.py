"""One record's harness as a typed codec: raw stdin <-> argument values, raw stdout <-> output.

Built from three sources that must agree: the Java signature of ``solve`` (the types), the
Scanner statements of ``test_code`` (how text becomes arguments) and its printing statements
(how the result becomes text). Every conversion is checked by a round trip, so a pair is only
accepted when the typed values print back as the harness's own text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from adequacy.plugin import (
    CharType,
    FloatType,
    MapType,
    SeqType,
    SetType,
    Type,
    TypeVisitor,
    ValueTypeError,
    parse_type,
    validate,
    visit,
)

from ..signature import java_type_to_schema, parse_signature
from . import javatext as jt
from .javalex import main_body
from .printers import Nothing, Printer, parse_printer
from .readers import (
    HarnessUnsupported,
    ReaderModel,
    ReadError,
    TokenLine,
    parse_reader,
)

__all__ = ["Harness", "HarnessUnsupported", "ReadError", "build_harness", "to_json"]


class _Floats(TypeVisitor[[Any, "Callable[[Any], Any]"], Any]):
    """A non-null value with each float converted by ``conv`` (the readers' and printers'
    Java floats <-> the schema's JSON spelling); only what a harness reads or prints nests."""

    def _same(self, t: Type, v: Any, conv: Callable[[Any], Any]) -> Any:
        return v

    visit_bool = visit_char = visit_string = visit_int = _same
    visit_multiset = visit_option = visit_tuple = visit_struct = visit_nullable = _same

    def visit_float(self, t: FloatType, v: Any, conv: Callable[[Any], Any]) -> Any:
        return conv(v)

    def _elements(self, t: SeqType | SetType, v: Any, conv: Callable[[Any], Any]) -> Any:
        return [_floats(e, t.elem, conv) for e in v]

    visit_seq = visit_set = _elements

    def visit_map(self, t: MapType, v: Any, conv: Callable[[Any], Any]) -> Any:
        return [[_floats(k, t.key, conv), _floats(x, t.value, conv)] for k, x in v]


_FLOATS = _Floats()


def _floats(v: Any, t: Type, conv: Callable[[Any], Any]) -> Any:
    return None if v is None else visit(t, _FLOATS, v, conv)


def _float_json(v: Any) -> Any:
    return jt.float_json(v) if isinstance(v, float) else v


def to_json(v: Any, t: Type) -> Any:
    """Reader/printer values as schema JSON (floats spelled as docs/tasks.md says)."""
    return _floats(v, t, _float_json)


def _split_call_args(text: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        out.append(cur)
    return out


def _balanced_end(text: str, open_at: int) -> int:
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    raise HarnessUnsupported("unbalanced solve call")


@dataclass
class Harness:
    params: list[tuple[str, str, Type]]
    """(Java name, Java type, schema type) of each parameter."""
    java_return: str
    reader: ReaderModel
    arg_vars: list[str]
    printer: Printer
    output_name: str | None
    """``result``, the name of a parameter whose post-state is printed, or None (nothing)."""
    output_type: Type | None
    output_text: str | None
    printer_problem: str | None = None
    """Why outputs cannot be read although the harness is understood (e.g. the method prints)."""
    blank_char: str | None = None
    """The one whitespace char literal of the method, if any: ``println(char)`` prints exactly
    one char, so an empty recorded output of a char method is that whitespace, stripped by the
    recorder. Without exactly one candidate the pair is rejected rather than guessed."""

    def read_input(self, raw: str) -> dict[str, Any]:
        """Typed, validated arguments for one raw input, checked by a round trip."""
        env, rest = self.reader.read(raw)
        if any(line.strip() for line in rest):
            raise ReadError(f"{sum(1 for x in rest if x.strip())} input line(s) left unread")
        values = {v: env[v] for v in self.arg_vars}
        typed: dict[str, Any] = {}
        for (name, _, ty), var in zip(self.params, self.arg_vars, strict=True):
            typed[name] = to_json(values[var], ty)
            try:
                validate(typed[name], ty, name)
            except ValueTypeError as e:
                raise ReadError(f"value does not fit the signature: {e.message}") from e
        text = self.render_values(values)
        if not jt.same_text(raw, text):
            raise ReadError(f"round trip differs: {raw[:60]!r} printed back as {text[:60]!r}")
        env2, _ = self.reader.read(text)
        again = {name: to_json(env2[v], ty)
                 for (name, _, ty), v in zip(self.params, self.arg_vars, strict=True)}
        if json.dumps(again, sort_keys=True) != json.dumps(typed, sort_keys=True):
            raise ReadError("round trip reads back different values")
        return typed

    def render_values(self, values: dict[str, Any]) -> str:
        try:
            return self.reader.render(values)
        except KeyError as e:
            raise ReadError(f"the harness reads {e} but does not pass it to solve") from e

    def render_input(self, typed: dict[str, Any]) -> str:
        """Raw stdin text for typed arguments (what the harness would read them from)."""
        values = {var: _from_json(typed[name], ty)
                  for (name, _, ty), var in zip(self.params, self.arg_vars, strict=True)}
        return self.render_values(values)

    def read_output(self, raw: str) -> Any:
        if self.printer_problem:
            raise ReadError(self.printer_problem)
        if self.output_type is None or isinstance(self.printer, Nothing):
            if raw.strip():
                raise ReadError("the harness prints nothing, yet the record has output")
            raise ReadError("the harness prints nothing: no output to check")
        if (isinstance(self.output_type, CharType) and raw.strip("\r\n") == ""
                and self.blank_char is not None):
            return self.blank_char
        value = self.printer.parse(raw, self.output_type)
        value = to_json(value, self.output_type)
        try:
            validate(value, self.output_type, self.output_name or "result")
        except ValueTypeError as e:
            raise ReadError(f"output does not fit the signature: {e.message}") from e
        text = self.printer.render(_from_json(value, self.output_type), self.output_type)
        if not jt.same_text(raw, text):
            raise ReadError(f"output round trip differs: {raw[:60]!r} printed back as "
                            f"{text[:60]!r}")
        return value


def _from_json(v: Any, t: Type) -> Any:
    return _floats(v, t, jt.json_float)


def build_harness(code: str, test_code: str, method: str = "solve") -> Harness:
    """Derive the codec of one record; raises HarnessUnsupported or JavaSignatureError."""
    jparams, jret = parse_signature(code, method)
    params = [(n, jt_, parse_type(java_type_to_schema(jt_))) for n, jt_ in jparams]
    body = main_body(test_code)
    reader, pos = parse_reader(body)
    end = body.find(";", pos)
    stmt_m = re.compile(r"(?:(?P<t>var|[\w$]+(?:<[\w$<>,\[\]]*>)?(?:\[\])*)\s?)?"
                        r"(?:(?P<r>[\w$]+)=)?Solution\."
                        + re.escape(method) + r"\(").match(body, pos)
    if not stmt_m:
        raise HarnessUnsupported(f"expected the call Solution.{method}(...) but found: "
                                 f"{body[pos:end + 1][:160]}")
    close = _balanced_end(body, stmt_m.end() - 1)
    if body[close + 1:close + 2] != ";":
        raise HarnessUnsupported(f"the result of {method} is used inside an expression")
    args = _split_call_args(body[stmt_m.end():close])
    if len(args) != len(params):
        raise HarnessUnsupported(f"{method} is called with {len(args)} arguments, declared "
                                 f"with {len(params)}")
    by_var = {v: op for op in reader.ops for v in op.defines}
    arg_vars: list[str] = []
    for i, a in enumerate(args):
        if re.fullmatch(r"[A-Za-z_$][\w$]*", a):
            if a not in by_var:
                raise HarnessUnsupported(f"argument {a} is not read from the input")
            arg_vars.append(a)
            continue
        m = re.fullmatch(r"(?:\(\w+\))?(\w+\.parse\w+)\(([\w$]+)\[(\d+)\]\)", a)
        if m and isinstance(by_var.get(m.group(2)), TokenLine):
            tl = by_var[m.group(2)]
            assert isinstance(tl, TokenLine)
            var = f"__arg{i}"
            tl.fields.append((int(m.group(3)), var, m.group(1)))
            arg_vars.append(var)
            continue
        raise HarnessUnsupported(f"unknown argument expression {a}")
    result_var = stmt_m.group("r")
    printer, printed = parse_printer(body[close + 2:])
    out_name: str | None
    out_type: Type | None
    out_text: str | None
    if isinstance(printer, Nothing):
        out_name, out_type, out_text = None, None, None
    elif printed == result_var and result_var not in arg_vars:
        if jret == "void":
            raise HarnessUnsupported("a void method's result is printed")
        out_name, out_type, out_text = "result", parse_type(java_type_to_schema(jret)), jret
    elif printed in arg_vars:
        idx = arg_vars.index(printed)
        if printed == result_var and jret != "void":
            out_name = "result"
            out_type = parse_type(java_type_to_schema(jret))
            out_text = jret
        else:
            out_name, out_type, out_text = params[idx][0], params[idx][2], params[idx][1]
    else:
        raise HarnessUnsupported(f"the harness prints {printed}, which is neither the result "
                                 "nor an argument")
    problem = None
    if re.search(r"System\s*\.\s*out\b", code):
        problem = "the method prints to standard output itself, so its output text is mixed"
    blanks = {ch for lit in re.findall(r"'(\\[tn]| )'", code)
              for ch in [{"\\t": "\t", "\\n": "\n"}.get(lit, lit)]}
    return Harness(params, jret, reader, arg_vars, printer, out_name, out_type, out_text,
                   problem, blanks.pop() if len(blanks) == 1 else None)
