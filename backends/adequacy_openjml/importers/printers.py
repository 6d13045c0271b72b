"""Printer models: how a harness prints the method's result, read backwards into a typed value.

``println(x)`` prints ``String.valueOf(x)``, so elements are formatted by their Java type (from
the schema), not by how the harness spells the call. Each printer parses an ``output`` text and
renders a value back; the importer accepts a pair only when the rendering matches the text.
Some printings lose information (``String.join(" ", ...)`` of strings that contain spaces, a 3-D
array printed without separators); the round-trip check cannot see the first, so it is listed
in docs/jml-import.md, and the second has no template at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from adequacy.plugin import (
    BoolType,
    CharType,
    FloatType,
    IntType,
    MapType,
    SeqType,
    SetType,
    StringType,
    Type,
    TypeVisitor,
    visit,
)

from . import javatext as jt
from .readers import HarnessUnsupported, ReadError, template


class _JavaString(TypeVisitor[[Any], str]):
    """``String.valueOf`` of a non-null value, for the types whose ``toString`` is readable."""

    def visit_bool(self, t: BoolType, v: Any) -> str:
        return "true" if v else "false"

    def visit_float(self, t: FloatType, v: Any) -> str:
        f = jt.json_float(v)
        return jt.float_to_string(f) if t.name == "f32" else jt.double_to_string(f)

    def _text(self, t: IntType | CharType | StringType, v: Any) -> str:
        return str(v)

    visit_int = visit_char = visit_string = _text

    def visit_seq(self, t: SeqType, v: Any) -> str:
        return self._identity(t, v) if t.kind == "array" else self._collection(t, v)

    def _collection(self, t: SeqType | SetType, v: Any) -> str:
        return "[" + ", ".join(java_string(e, t.elem) for e in v) + "]"

    visit_set = _collection

    def _identity(self, t: Type, v: Any) -> str:
        raise ReadError(f"{t} has no readable toString (Java prints an object identity)")

    visit_multiset = visit_map = visit_option = visit_tuple = visit_struct = _identity
    visit_nullable = _identity


_JAVA_STRING = _JavaString()


def java_string(v: Any, t: Type) -> str:
    """``String.valueOf`` of a value of schema type ``t``."""
    return "null" if v is None else visit(t, _JAVA_STRING, v)


class _ParseJavaString(TypeVisitor[[str], Any]):
    """The value a printed ``String.valueOf`` text stands for (see ``parse_java_string``)."""

    def visit_string(self, t: StringType, s: str) -> Any:
        return s

    def visit_char(self, t: CharType, s: str) -> Any:
        if len(s) != 1:
            raise ReadError(f"expected one char, got {s!r}")
        return s

    def visit_bool(self, t: BoolType, s: str) -> Any:
        if s not in ("true", "false"):
            raise ReadError(f"expected true or false, got {s!r}")
        return s == "true"

    def visit_int(self, t: IntType, s: str) -> Any:
        if not re.fullmatch(r"-?[0-9]+", s):
            raise ReadError(f"expected an integer, got {s!r}")
        return int(s)

    def visit_float(self, t: FloatType, s: str) -> Any:
        try:
            return jt.float_json(jt.parse_double(s, "Float.parseFloat" if t.name == "f32"
                                                 else "Double.parseDouble"))
        except jt.JavaConversionError as e:
            raise ReadError(f"expected a {t}, got {s!r}") from e

    def visit_seq(self, t: SeqType, s: str) -> Any:
        return self._unreadable(t, s) if t.kind == "array" else self._collection(t, s)

    def _collection(self, t: SeqType | SetType, s: str) -> Any:
        if not (s.startswith("[") and s.endswith("]")):
            raise ReadError(f"expected a collection [..], got {s!r}")
        inner = s[1:-1]
        if isinstance(t.elem, (StringType, SeqType, SetType, MapType)):
            raise ReadError("a printed collection of strings or collections is ambiguous")
        return [] if inner == "" else [parse_java_string(x, t.elem) for x in inner.split(", ")]

    visit_set = _collection

    def _unreadable(self, t: Type, s: str) -> Any:
        raise ReadError(f"cannot read a printed {t}")

    visit_multiset = visit_map = visit_option = visit_tuple = visit_struct = _unreadable
    visit_nullable = _unreadable


_PARSE_JAVA_STRING = _ParseJavaString()


def parse_java_string(s: str, t: Type) -> Any:
    """The inverse of ``java_string`` where it has one."""
    return visit(t, _PARSE_JAVA_STRING, s)


def _elem(t: Type) -> Type:
    if isinstance(t, (SeqType, SetType)):
        return t.elem
    raise ReadError(f"the harness prints elements of a {t}, which has none")


class Printer:
    """Parses and renders the printed form of one value."""

    def parse(self, text: str, t: Type) -> Any:
        raise NotImplementedError

    def render(self, v: Any, t: Type) -> str:
        raise NotImplementedError


class Scalar(Printer):
    """``System.out.println(result)``."""

    def parse(self, text: str, t: Type) -> Any:
        if isinstance(t, StringType):
            return text
        if isinstance(t, CharType):
            return parse_java_string(text.rstrip("\r\n"), t)
        return parse_java_string(text.strip(), t)

    def render(self, v: Any, t: Type) -> str:
        return java_string(v, t)


@dataclass
class Joined(Printer):
    """Elements on one line joined by ``sep`` (stream joining, ``String.join``, print loops)."""

    sep: str

    def parse(self, text: str, t: Type) -> Any:
        et = _elem(t)
        line = text.rstrip("\r\n")
        if line.strip() == "" and not isinstance(et, StringType):
            return []
        if line == "":
            return []
        parts = line.split() if self.sep.strip() == "" and not isinstance(et, StringType) \
            else line.split(self.sep)
        return [parse_java_string(p, et) for p in parts]

    def render(self, v: Any, t: Type) -> str:
        if v is None:
            raise ReadError("a null array is not printable by this harness")
        et = _elem(t)
        return self.sep.join(java_string(e, et) for e in v)


@dataclass
class Rows(Printer):
    """A 2-D value: an optional header (``rc``: rows and first-row length; ``len``: rows), then
    one line per row, elements joined by ``sep``."""

    header: str | None
    sep: str

    def parse(self, text: str, t: Type) -> Any:
        et = _elem(t)
        lines = text.split("\n")
        if self.header is None:
            rows = [ln for ln in text.strip("\n").split("\n")] if text.strip() else []
        else:
            head = lines[0].split()
            want = 2 if self.header == "rc" else 1
            if len(head) != want or not all(re.fullmatch(r"\d+", h) for h in head):
                raise ReadError(f"expected a header of {want} count(s), got {lines[0]!r}")
            n = int(head[0])
            rows = lines[1:1 + n]
            rows += [""] * (n - len(rows))
            if any(ln.strip() for ln in lines[1 + n:]):
                raise ReadError("printed output has more rows than its header says")
        return [Joined(self.sep).parse(r, et) for r in rows]

    def render(self, v: Any, t: Type) -> str:
        if v is None or any(r is None for r in v):
            raise ReadError("a null array is not printable by this harness")
        et = _elem(t)
        out: list[str] = []
        if self.header == "rc":
            out.append(f"{len(v)} {len(v[0]) if v else 0}")
        elif self.header == "len":
            out.append(str(len(v)))
        out += [Joined(self.sep).render(r, et) for r in v]
        return "\n".join(out)


class SortedMap(Printer):
    """Size line, then ``key<TAB>value`` lines in the order of the keys' ``toString``."""

    def parse(self, text: str, t: Type) -> Any:
        if not isinstance(t, MapType):
            raise ReadError(f"map printing of a {t}")
        lines = text.split("\n")
        if not re.fullmatch(r"\d+", lines[0].strip()):
            raise ReadError(f"expected the map size, got {lines[0]!r}")
        n = int(lines[0].strip())
        body = lines[1:]
        if len(body) < n or any(ln.strip() for ln in body[n:]):
            raise ReadError(f"map size {n} but {len(body)} entry lines")
        pairs = []
        for ln in body[:n]:
            if "\t" not in ln:
                raise ReadError(f"map entry without a tab: {ln!r}")
            k, val = ln.split("\t", 1)
            pairs.append([parse_java_string(k, t.key), parse_java_string(val, t.value)])
        return pairs

    def render(self, v: Any, t: Type) -> str:
        assert isinstance(t, MapType)
        items = sorted(((java_string(k, t.key), java_string(x, t.value)) for k, x in v),
                       key=lambda kv: kv[0].encode("utf-16-be"))
        return "\n".join([str(len(items))] + [f"{k}\t{x}" for k, x in items])


class SortedSet(Printer):
    """Size line, then the elements sorted by ``toString`` on one line."""

    def parse(self, text: str, t: Type) -> Any:
        lines = text.split("\n")
        if not re.fullmatch(r"\d+", lines[0].strip()):
            raise ReadError(f"expected the set size, got {lines[0]!r}")
        vals = Joined(" ").parse(lines[1] if len(lines) > 1 else "", t)
        if len(vals) != int(lines[0]):
            raise ReadError("set size line disagrees with the elements")
        return vals

    def render(self, v: Any, t: Type) -> str:
        et = _elem(t)
        items = sorted((java_string(e, et) for e in v), key=lambda s: s.encode("utf-16-be"))
        return f"{len(items)}\n" + " ".join(items)


class Nothing(Printer):
    """The harness prints nothing (a void method whose effect is not shown)."""

    def parse(self, text: str, t: Type) -> Any:
        raise ReadError("the harness prints nothing")

    def render(self, v: Any, t: Type) -> str:
        return ""


def _unquote(lit: str) -> str:
    body = lit[1:-1]
    return re.sub(r"\\(.)", lambda m: {"t": "\t", "n": "\n"}.get(m.group(1), m.group(1)), body)


_PRINTERS: list[tuple[Any, Any]] = [
    (template(r"System.out.println(__V_r);"), lambda m: Scalar()),
    (template(r"System.out.println(Arrays.stream(__V_r).mapToObj(__V_e::toString)"
              r".collect(Collectors.joining(__S_sep)));"), lambda m: Joined(_unquote(m["sep"]))),
    (template(r"System.out.println(String.join(__S_sep, __V_r));"),
     lambda m: Joined(_unquote(m["sep"]))),
    (template(r"System.out.println(__V_r.stream().map(String::valueOf)"
              r".collect(Collectors.joining(__S_sep)));"), lambda m: Joined(_unquote(m["sep"]))),
    (template(r"for (int __V_i = 0; __B_i < __V_r.length; __B_i++) {"
              r"System.out.print(__B_r[__B_i] + __S_sep); }"),
     lambda m: Joined(_unquote(m["sep"]))),
    (template(r"for (int __V_i = 0; __B_i < __V_r.length; __B_i++) {"
              r'System.out.print(__B_r[__B_i] + (__B_i == __B_r.length - 1 ? "" : __S_sep)); }'),
     lambda m: Joined(_unquote(m["sep"]))),
    (template(r'System.out.println(__V_r.length + " " + (__B_r.length > 0 ? __B_r[0].length : 0));'
              r"for (__T_t __V_row : __B_r) { System.out.println(Arrays.stream(__B_row)"
              r".mapToObj(__V_e::toString).collect(Collectors.joining(__S_sep))); }"),
     lambda m: Rows("rc", _unquote(m["sep"]))),
    (template(r'System.out.println(__V_r.size() + " " + (__B_r.isEmpty() ? 0 : __B_r.get(0).size()));'
              r"for (__T_t __V_row : __B_r) { System.out.println(__B_row.stream()"
              r".map(String::valueOf).collect(Collectors.joining(__S_sep))); }"),
     lambda m: Rows("rc", _unquote(m["sep"]))),
    (template(r"System.out.println(__V_r.length);"
              r"for (__T_t __V_row : __B_r) { System.out.println(String.join(__S_sep, __B_row)); }"),
     lambda m: Rows("len", _unquote(m["sep"]))),
    (template(r"System.out.println(__V_r.length);"
              r"for (__T_t __V_row : __B_r) { System.out.println(Arrays.stream(__B_row)"
              r".mapToObj(__V_e::toString).collect(Collectors.joining(__S_sep))); }"),
     lambda m: Rows("len", _unquote(m["sep"]))),
    (template(r"for (int __V_i = 0; __B_i < __V_r.length; __B_i++) {"
              r"for (int __V_j = 0; __B_j < __B_r[__B_i].length; __B_j++) {"
              r"System.out.print(__B_r[__B_i][__B_j]);"
              r"if (__B_j != __B_r[__B_i].length - 1) System.out.print(__S_sep); }"
              r"System.out.println(); }"),
     lambda m: Rows(None, _unquote(m["sep"]))),
    (template(r"{ int __V_n = __V_r.length, __V_c = (__B_n > 0 && __B_r[0] != null) ? "
              r"__B_r[0].length : 0;"
              r'System.out.println(__B_n + " " + __B_c);'
              r"for (__T_t __V_row : __B_r) { StringBuilder __V_sb = new StringBuilder();"
              r"for (__T_e __V_x : __B_row) __B_sb.append(__B_x).append(__S_sep);"
              r'System.out.println(__B_sb.length() > 0 ? __B_sb.toString().trim() : ""); } }'),
     lambda m: Rows("rc", _unquote(m["sep"]))),
    (template(r"for (int __V_i = 0; __B_i < __V_r.length; __B_i++) {"
              r"System.out.println(String.join(__S_sep, __B_r[__B_i])); }"),
     lambda m: Rows(None, _unquote(m["sep"]))),
    (template(r"List<Object> __V_keys = new ArrayList<>(__V_r.keySet());"
              r"__B_keys.sort((__V_a, __V_b) -> __B_a.toString().compareTo(__B_b.toString()));"
              r"System.out.println(__B_keys.size());"
              r'for (Object __V_k : __B_keys) { System.out.println(__B_k + "\t" + __B_r.get(__B_k)); }'),
     lambda m: SortedMap()),
    (template(r"List<Object> __V_s = new ArrayList<>(__V_r);"
              r"__B_s.sort((__V_a, __V_b) -> __B_a.toString().compareTo(__B_b.toString()));"
              r"System.out.println(__B_s.size());"
              r'System.out.println(__B_s.stream().map(String::valueOf)'
              r'.collect(Collectors.joining(" ")));'),
     lambda m: SortedSet()),
]


def parse_printer(rest: str) -> tuple[Printer, str | None]:
    """The printer of the code after the solve call, and the variable it prints."""
    rest = rest.strip()
    if rest == "" or rest == "System.out.println();":
        return Nothing(), None
    for pat, build in _PRINTERS:
        m = pat.fullmatch(rest) or pat.fullmatch(rest.removesuffix("System.out.println();"))
        if m:
            return build(m), m["r"]
    raise HarnessUnsupported(f"unknown printing code: {rest[:200]}")
