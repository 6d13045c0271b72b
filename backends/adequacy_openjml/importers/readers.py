"""Reader models: what a harness's Scanner statements make of standard input, and back.

Each statement shape found in the Spec-Harness harnesses is one template below; matching the
compact ``main`` body left to right against them turns a ``test_code`` into a list of ops. An op
reads its lines from a cursor (Java semantics, including the ``hasNextLine() ? ... : ""``
defaults and ``split("\\\\s+")`` quirks) and renders the values back into lines, which is what the
round-trip check of the importer compares against the raw text. A statement no template knows
makes the whole harness unsupported, with the statement quoted: guessing would silently mistype.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from adequacy.plugin import DatasetError

from . import javatext as jt
from .javalex import compact


class ReadError(DatasetError):
    """The harness would fail on this input (or the value cannot be printed back)."""


class HarnessUnsupported(DatasetError):
    """The harness uses a statement shape no template covers."""


class Cursor:
    def __init__(self, text: str) -> None:
        self.lines = jt.scanner_lines(text)
        self.pos = 0

    def next_line(self, optional: bool) -> str:
        if self.pos < len(self.lines):
            self.pos += 1
            return self.lines[self.pos - 1]
        if optional:
            return ""
        raise ReadError("input ends early: scanner.nextLine() throws NoSuchElementException")

    def rest(self) -> list[str]:
        return self.lines[self.pos:]


@dataclass(frozen=True)
class LineSpec:
    """``scanner.nextLine()``, maybe guarded by ``hasNextLine() ? ... : ""``, maybe trimmed."""

    optional: bool
    trim: bool

    def take(self, cur: Cursor) -> str:
        s = cur.next_line(self.optional)
        return jt.java_trim(s) if self.trim else s


def render_scalar(conv: str | None, v: Any) -> str:
    if conv in ("Double.parseDouble",):
        return jt.double_to_string(v)
    if conv == "Float.parseFloat":
        return jt.float_to_string(v)
    if conv == "Boolean.parseBoolean":
        return "true" if v else "false"
    if conv is None or conv == "charAt0":
        return str(v)
    return str(v)


def read_scalar(conv: str | None, s: str) -> Any:
    if conv is None:
        return s
    if conv == "charAt0":
        if not s:
            raise ReadError("charAt(0) of an empty string throws StringIndexOutOfBoundsException")
        return s[0]
    try:
        return jt.convert(conv, s)
    except jt.JavaConversionError as e:
        raise ReadError(str(e)) from e


def _one_line(s: str, what: str) -> str:
    if any(c in s for c in "\n\r\u2028\u2029\u0085"):
        raise ReadError(f"{what} contains a line break, which one input line cannot hold")
    return s


class Op:
    """One reading step; ``defines`` are the variables it binds."""

    defines: tuple[str, ...] = ()

    def read(self, cur: Cursor, env: dict[str, Any]) -> None:
        raise NotImplementedError

    def render(self, env: dict[str, Any]) -> list[str]:
        raise NotImplementedError


@dataclass
class ScalarLine(Op):
    """``T v = CONV(line)`` or ``String v = line``."""

    var: str
    line: LineSpec
    conv: str | None

    @property
    def defines(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.var,)

    def read(self, cur: Cursor, env: dict[str, Any]) -> None:
        env[self.var] = read_scalar(self.conv, self.line.take(cur))

    def render(self, env: dict[str, Any]) -> list[str]:
        return [_one_line(render_scalar(self.conv, env[self.var]), "a string")]


@dataclass
class TokenLine(Op):
    """``String[] x = line.split("\\\\s+")``: used whole (a ``String[]`` argument) or by fields
    ``T v = CONV(x[k])`` declared after it."""

    var: str
    line: LineSpec
    fields: list[tuple[int, str, str | None]] = field(default_factory=list)

    @property
    def defines(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.var, *(v for _, v, _ in self.fields))

    def read(self, cur: Cursor, env: dict[str, Any]) -> None:
        toks = jt.split_ws(self.line.take(cur))
        env[self.var] = toks
        for k, v, conv in self.fields:
            if k >= len(toks):
                raise ReadError(f"token {k} missing (the line has {len(toks)}): "
                                "ArrayIndexOutOfBoundsException")
            env[v] = read_scalar(conv, toks[k])

    def render(self, env: dict[str, Any]) -> list[str]:
        if not self.fields:
            return [_join_tokens([str(t) for t in env[self.var]])]
        by_index = {k: render_scalar(conv, env[v]) for k, v, conv in self.fields}
        n = max(by_index) + 1
        if set(by_index) != set(range(n)):
            raise ReadError("the harness skips a token, which cannot be printed back")
        return [_join_tokens([by_index[k] for k in range(n)])]


def _join_tokens(toks: list[str]) -> str:
    for t in toks:
        if t == "" and len(toks) > 1 or re.search(r"[ \t\n\x0b\f\r]", t):
            raise ReadError(f"token {t!r} cannot be printed back as one whitespace-free token")
    return " ".join(toks)


@dataclass
class SeqLine(Op):
    """A one-line sequence: ``Arrays.stream(line.split(..)).mapToInt(..)``, ``List<Integer>``,
    ``Integer[]``, ``List<String>`` via ``Arrays.asList``, ``boolean[]`` via a loop, or the
    ``line.isEmpty() ? new int[0] : ...`` guarded form (an empty line is an empty array)."""

    var: str
    line: LineSpec
    conv: str | None
    empty_guard: bool = False

    @property
    def defines(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.var,)

    def read(self, cur: Cursor, env: dict[str, Any]) -> None:
        s = self.line.take(cur)
        if self.empty_guard and s == "":
            env[self.var] = []
            return
        env[self.var] = [read_scalar(self.conv, t) for t in jt.split_ws(s)]

    def render(self, env: dict[str, Any]) -> list[str]:
        vals = env[self.var]
        if vals is None:
            raise ReadError("a null array cannot be written as harness input")
        if not vals and not self.empty_guard:
            if self.conv is None:
                raise ReadError("an empty String[] cannot be written (split gives [\"\"])")
            raise ReadError("an empty array cannot be written: the harness reads an empty "
                            "line as one empty token")
        return [_join_tokens([render_scalar(self.conv, v) for v in vals])]


@dataclass
class CharArrayLine(Op):
    """``char[] v = line.toCharArray()``."""

    var: str
    line: LineSpec

    @property
    def defines(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.var,)

    def read(self, cur: Cursor, env: dict[str, Any]) -> None:
        env[self.var] = list(self.line.take(cur))

    def render(self, env: dict[str, Any]) -> list[str]:
        return [_one_line("".join(env[self.var]), "a char[]")]


@dataclass
class DelimChar(Op):
    """``useDelimiter("\\n")``, ``next()``, first char or ``' '`` when there is no token."""

    var: str

    @property
    def defines(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.var,)

    def read(self, cur: Cursor, env: dict[str, Any]) -> None:
        rest = "\n".join(cur.rest())
        cur.pos = len(cur.lines)
        toks = [t for t in rest.split("\n") if t]
        env[self.var] = toks[0][0] if toks else " "

    def render(self, env: dict[str, Any]) -> list[str]:
        return [_one_line(env[self.var], "a char")]


@dataclass
class Rect2D(Op):
    """Header ``r c``, then ``r`` lines of ``c`` tokens; ``guard``: no row lines when c == 0."""

    var: str
    header: LineSpec
    row: LineSpec
    conv: str | None
    guard: bool

    @property
    def defines(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.var,)

    def read(self, cur: Cursor, env: dict[str, Any]) -> None:
        toks = jt.split_ws(self.header.take(cur))
        if len(toks) < 2:
            raise ReadError("matrix header needs 'rows cols': ArrayIndexOutOfBoundsException")
        r, c = (read_scalar("Integer.parseInt", t) for t in toks[:2])
        if r < 0 or c < 0:
            raise ReadError("negative array size: NegativeArraySizeException")
        rows: list[list[Any]] = []
        for _ in range(r):
            if self.guard and c == 0:
                rows.append([])
                continue
            rt = jt.split_ws(self.row.take(cur))
            if len(rt) != c and not (c == 0 and rt == [""]):
                raise ReadError(f"a row has {len(rt)} tokens but the 'rows cols' header says "
                                f"{c} (the harness {'fails' if len(rt) < c else 'drops the rest'})")
            rows.append([read_scalar(self.conv, t) for t in rt[:c]])
        env[self.var] = rows

    def render(self, env: dict[str, Any]) -> list[str]:
        rows = env[self.var]
        if rows is None or any(r is None for r in rows):
            raise ReadError("a null array cannot be written as harness input")
        c = len(rows[0]) if rows else 0
        if any(len(r) != c for r in rows):
            raise ReadError("a jagged array cannot be written in 'rows cols' form")
        out = [f"{len(rows)} {c}"]
        if not (self.guard and c == 0):
            out += [_join_tokens([render_scalar(self.conv, v) for v in r]) for r in rows]
        return out


@dataclass
class Jagged2D(Op):
    """Count line ``r``, then ``r`` lines each split into one row of any length."""

    var: str
    header: LineSpec
    row: LineSpec
    conv: str | None

    @property
    def defines(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.var,)

    def read(self, cur: Cursor, env: dict[str, Any]) -> None:
        r = read_scalar("Integer.parseInt", self.header.take(cur))
        if r < 0:
            raise ReadError("negative array size: NegativeArraySizeException")
        env[self.var] = [[read_scalar(self.conv, t) for t in jt.split_ws(self.row.take(cur))]
                         for _ in range(r)]

    def render(self, env: dict[str, Any]) -> list[str]:
        rows = env[self.var]
        if rows is None or any(r is None or not r for r in rows):
            raise ReadError("a null or empty row cannot be written as harness input")
        return [str(len(rows))] + [_join_tokens([render_scalar(self.conv, v) for v in r])
                                   for r in rows]


@dataclass
class MapLines(Op):
    """Count line ``n``, then ``n`` lines ``key<TAB>value`` (``put`` keeps the last value)."""

    var: str
    header: LineSpec
    key_conv: str | None
    key_trim: bool
    val_conv: str | None
    val_trim: bool

    @property
    def defines(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.var,)

    def read(self, cur: Cursor, env: dict[str, Any]) -> None:
        n = read_scalar("Integer.parseInt", self.header.take(cur))
        pairs: dict[Any, Any] = {}
        for _ in range(max(n, 0)):
            line = cur.next_line(False)
            tab = line.find("\t")
            if tab < 0:
                raise ReadError("map line without a tab: substring throws "
                                "StringIndexOutOfBoundsException")
            k, v = line[:tab], line[tab + 1:]
            k = jt.java_trim(k) if self.key_trim else k
            v = jt.java_trim(v) if self.val_trim else v
            pairs[read_scalar(self.key_conv, k)] = read_scalar(self.val_conv, v)
        env[self.var] = [[k, v] for k, v in pairs.items()]

    def render(self, env: dict[str, Any]) -> list[str]:
        pairs = env[self.var]
        out = [str(len(pairs))]
        for k, v in pairs:
            ks, vs = render_scalar(self.key_conv, k), render_scalar(self.val_conv, v)
            if "\t" in ks:
                raise ReadError(f"map key {ks!r} contains a tab")
            out.append(_one_line(f"{ks}\t{vs}", "a map entry"))
        return out


@dataclass
class SetLine(Op):
    """A count line the harness skips, then the elements on one line into a ``HashSet``."""

    var: str
    header: LineSpec
    line: LineSpec
    conv: str | None

    @property
    def defines(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.var,)

    def read(self, cur: Cursor, env: dict[str, Any]) -> None:
        read_scalar("Integer.parseInt", self.header.take(cur))
        seen: dict[Any, None] = {}
        for t in jt.split_ws(self.line.take(cur)):
            seen[read_scalar(self.conv, t)] = None
        env[self.var] = list(seen)

    def render(self, env: dict[str, Any]) -> list[str]:
        vals = env[self.var]
        if not vals:
            raise ReadError("an empty set cannot be written (split gives one empty token)")
        return [str(len(vals)), _join_tokens([render_scalar(self.conv, v) for v in vals])]


# ---------------------------------------------------------------------------------------------
# Templates


_PLACEHOLDERS = {
    "V": r"(?P<{n}>[A-Za-z_$][\w$]*)",
    "B": r"(?P={n})",
    "LE": r"(?P<{n}_opt>(?:scanner\.hasNextLine\(\)\?)*)scanner\.nextLine\(\)"
          r"(?P<{n}_trim>\.trim\(\))?(?::\"\")*",
    "T": r"(?P<{n}>var|[\w$]+(?:<[\w$<>,\[\]]*>)?(?:\[\])*)",
    "C": r"(?P<{n}>(?:Integer|Long|Short|Byte|Double|Float|Boolean)\.parse[A-Z]\w*)",
    "N": r"(?P<{n}>\d+)",
    "G": r"(?P<{n}>&&(?P=c)>0)?",
    "KC": r"(?P<{n}>(?:Integer|Long|Short|Byte|Double|Float|Boolean)\.parse[A-Z]\w*\()?",
    "KT": r"(?P<{n}>\.trim\(\))?\)?",
    "S": r'(?P<{n}>"(?:[^"\\]|\\.)*")',
}
_PH = re.compile(r"__(V|B|LE|T|C|N|G|KC|KT|S)_([A-Za-z0-9]+)")


def template(src: str) -> re.Pattern[str]:
    """Compile a Java-shaped template: compact it like the harness, then open placeholders."""
    text = compact(src)
    out: list[str] = []
    pos = 0
    for m in _PH.finditer(text):
        out.append(re.escape(text[pos:m.start()]).replace(r"\ ", r"\s?").replace(" ", r"\s?"))
        out.append(_PLACEHOLDERS[m.group(1)].format(n=m.group(2)))
        pos = m.end()
    out.append(re.escape(text[pos:]).replace(r"\ ", r"\s?").replace(" ", r"\s?"))
    return re.compile("".join(out))


def _line(m: re.Match[str], name: str) -> LineSpec:
    return LineSpec(optional=bool(m.group(f"{name}_opt")), trim=bool(m.group(f"{name}_trim")))


_ELEM_CONV = {"Integer": "Integer.parseInt", "Long": "Long.parseLong", "Double":
              "Double.parseDouble", "Short": "Short.parseShort", "Byte": "Byte.parseByte",
              "Float": "Float.parseFloat", "Boolean": "Boolean.parseBoolean"}

Builder = Callable[[re.Match[str], dict[str, Op]], Op | None]


_DECL = (r"([A-Za-z_$][\w$]*)=(?:(\w+\.parse\w+)\(([\w$]+)\[(\d+)\]\)|"
         r"([\w$]+)\[(\d+)\]\.charAt\(0\))")


def _fields(m: re.Match[str], ops: dict[str, Op]) -> Op | None:
    decls = m.group("decls")
    if not re.fullmatch(f"{_DECL}(?:,{_DECL})*", decls):
        raise HarnessUnsupported(f"unknown reading statement: {m.group(0)[:160]}")
    for d in re.finditer(_DECL, decls):
        var = d.group(1)
        src, idx, conv = ((d.group(3), int(d.group(4)), d.group(2)) if d.group(2)
                          else (d.group(5), int(d.group(6)), "charAt0"))
        line = ops.get(src)
        if not isinstance(line, TokenLine):
            raise HarnessUnsupported(f"{src}[{idx}] does not index a split input line")
        line.fields.append((idx, var, conv))
    return None


_DECLS = r"(?P<decls>[A-Za-z_$][\w$]*=[^;]*);"

TEMPLATES: list[tuple[str, re.Pattern[str], Builder]] = [
    ("rect2d", template(
        r'String[] __V_rc = __LE_a.split("\\s+");'
        r"int __V_r = Integer.parseInt(__B_rc[0]), __V_c = Integer.parseInt(__B_rc[1]);"
        r"__T_t __V_p = new __T_e[__B_r][__B_c];"
        r"for (int __V_i = 0; __B_i < __B_r __G_g; __B_i++) {"
        r'String[] __V_pr = __LE_b.split("\\s+");'
        r"for (int __V_j = 0; __B_j < __B_c; __B_j++) __B_p[__B_i][__B_j] = __C_cv(__B_pr[__B_j]);"
        r"}"),
     lambda m, ops: Rect2D(m.group("p"), _line(m, "a"), _line(m, "b"),
                           m.group("cv"), bool(m.group("g")))),
    ("jagged2d", template(
        r"int __V_r = Integer.parseInt(__LE_a);"
        r"__T_t __V_p = new __T_e[__B_r][];"
        r"for (int __V_i = 0; __B_i < __B_r; __B_i++) {"
        r'String[] __V_pr = __LE_b.split("\\s+");'
        r"__B_p[__B_i] = Arrays.stream(__B_pr).mapToInt(Integer::parseInt).toArray();"
        r"}"),
     lambda m, ops: Jagged2D(m.group("p"), _line(m, "a"), _line(m, "b"), "Integer.parseInt")),
    ("jagged2d_str", template(
        r"int __V_r = Integer.parseInt(__LE_a);"
        r"String[][] __V_p = new String[__B_r][];"
        r"for (int __V_i = 0; __B_i < __B_r; __B_i++) {"
        r'__B_p[__B_i] = __LE_b.split("\\s+");'
        r"}"),
     lambda m, ops: Jagged2D(m.group("p"), _line(m, "a"), _line(m, "b"), None)),
    ("map", template(
        r"int __V_n = Integer.parseInt(__LE_a);"
        r"__T_t __V_p = new HashMap<>();"
        r"for (int __V_i = 0; __B_i < __B_n; __B_i++) {"
        r"String __V_l = scanner.nextLine();"
        r"int __V_tab = __B_l.indexOf('\t');"
        r"String __V_k = __B_l.substring(0, __B_tab);"
        r"String __V_v = __B_l.substring(__B_tab + 1);"
        r"__B_p.put(__KC_kc __B_k __KT_kt, __KC_vc __B_v __KT_vt);"
        r"}"),
     lambda m, ops: MapLines(m.group("p"), _line(m, "a"),
                             m.group("kc")[:-1] if m.group("kc") else None, bool(m.group("kt")),
                             m.group("vc")[:-1] if m.group("vc") else None, bool(m.group("vt")))),
    ("set", template(
        r"Integer.parseInt(__LE_a);"
        r'String[] __V_els = __LE_b.split("\\s+");'
        r"__T_t __V_p = new HashSet<>();"
        r"for (String __V_s : __B_els) __B_p.add(__C_cv(__B_s));"),
     lambda m, ops: SetLine(m.group("p"), _line(m, "a"), _line(m, "b"), m.group("cv"))),
    ("bool_array", template(
        r'String[] __V_raw = __LE_a.split("\\s+");'
        r"boolean[] __V_p = new boolean[__B_raw.length];"
        r"for (int __V_i = 0; __B_i < __B_raw.length; __B_i++)"
        r" __B_p[__B_i] = Boolean.parseBoolean(__B_raw[__B_i]);"),
     lambda m, ops: SeqLine(m.group("p"), _line(m, "a"), "Boolean.parseBoolean")),
    ("guarded_array", template(
        r"String __V_l = __LE_a;"
        r"__T_t __V_p = __B_l.isEmpty() ? new __T_e[0] :"
        r' Arrays.stream(__B_l.split("\\s+")).mapToInt(Integer::parseInt).toArray();'),
     lambda m, ops: SeqLine(m.group("p"), _line(m, "a"), "Integer.parseInt", True)),
    ("char_array", template(r"String __V_l = __LE_a; char[] __V_p = __B_l.toCharArray();"),
     lambda m, ops: CharArrayLine(m.group("p"), _line(m, "a"))),
    ("delim_char", template(
        r'scanner.useDelimiter("\n");'
        r'String __V_l = scanner.hasNext() ? scanner.next() : "";'
        r"char __V_p = __B_l.isEmpty() ? ' ' : __B_l.charAt(0);"),
     lambda m, ops: DelimChar(m.group("p"))),
    ("int_array", template(
        r'__T_t __V_p = Arrays.stream(__LE_a.split("\\s+")).mapToInt(Integer::parseInt).toArray();'),
     lambda m, ops: SeqLine(m.group("p"), _line(m, "a"), "Integer.parseInt")),
    ("boxed_array", template(
        r'__T_t __V_p = Arrays.stream(__LE_a.split("\\s+")).map(__V_e::parseInt)'
        r".toArray(Integer[]::new);"),
     lambda m, ops: SeqLine(m.group("p"), _line(m, "a"), "Integer.parseInt")),
    ("list", template(
        r'__T_t __V_p = Arrays.stream(__LE_a.split("\\s+")).map(__V_e::__V_f)'
        r".collect(Collectors.toList());"),
     lambda m, ops: SeqLine(m.group("p"), _line(m, "a"), f"{m.group('e')}.{m.group('f')}")),
    ("string_list", template(
        r'__T_t __V_p = new ArrayList<>(Arrays.asList(__LE_a.split("\\s+")));'),
     lambda m, ops: SeqLine(m.group("p"), _line(m, "a"), None)),
    ("token_line", template(r'String[] __V_p = __LE_a.split("\\s+");'),
     lambda m, ops: TokenLine(m.group("p"), _line(m, "a"))),
    ("scalar", template(r"__T_t __V_p = __C_cv(__LE_a);"),
     lambda m, ops: ScalarLine(m.group("p"), _line(m, "a"), m.group("cv"))),
    ("string", template(r"String __V_p = __LE_a;"),
     lambda m, ops: ScalarLine(m.group("p"), _line(m, "a"), None)),
    ("fields", re.compile(r"(?:var|[\w$]+)\s?" + _DECLS), _fields),
]


@dataclass
class ReaderModel:
    """The ops of one harness, in reading order."""

    ops: list[Op]

    def read(self, text: str) -> tuple[dict[str, Any], list[str]]:
        """Variables after reading ``text``, and the lines left unread."""
        cur = Cursor(text)
        env: dict[str, Any] = {}
        for op in self.ops:
            op.read(cur, env)
        return env, cur.rest()

    def render(self, env: dict[str, Any]) -> str:
        lines: list[str] = []
        for op in self.ops:
            lines += op.render(env)
        # Every line terminated, so that trailing empty lines survive a second reading.
        return "".join(line + "\n" for line in lines)


def parse_reader(body: str) -> tuple[ReaderModel, int]:
    """Match reading statements from the start of a compact ``main`` body.

    Returns the model and the offset where reading stopped (the solve call should follow).
    """
    m0 = re.match(r"Scanner (\w+)=new Scanner\(System\.in\);", body)
    if not m0:
        raise HarnessUnsupported("main does not start with a Scanner on System.in")
    if m0.group(1) != "scanner":
        body = re.sub(rf"\b{m0.group(1)}\b", "scanner", body)
    pos = m0.end()
    ops: list[Op] = []
    by_var: dict[str, Op] = {}
    while pos < len(body):
        if "Solution." in body[pos:].split(";", 1)[0]:
            break
        for _, pat, build in TEMPLATES:
            m = pat.match(body, pos)
            if m:
                op = build(m, by_var)
                if op is not None:
                    ops.append(op)
                    for v in op.defines:
                        by_var[v] = op
                pos = m.end()
                break
        else:
            stmt = body[pos:pos + 160]
            raise HarnessUnsupported(f"unknown reading statement: {stmt}")
    return ReaderModel(ops), pos
