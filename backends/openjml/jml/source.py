"""Read a Java file with JML annotations: its classes, methods, spec cases and model methods.

The reader is deliberately shallow: it knows Java's member structure (enough to find the
method under specification, its parameters and the class's helper methods) but not Java's
statements, which only javac has to understand. JML annotation comments (``//@``, ``/*@ @*/``)
become single ``jml`` tokens between the Java tokens, so the same pass both attaches specs to
members and yields the JML-free token stream that the "code altered" check compares.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from adequacy.errors import SpecInvalid

from .lexer import Token, tokenize
from .unicode import java_input

BEHAVIORS = {
    "behavior": "behavior", "behaviour": "behavior",
    "normal_behavior": "normal", "normal_behaviour": "normal",
    "exceptional_behavior": "exceptional", "exceptional_behaviour": "exceptional",
}
RECORDED_CLAUSES = {
    "requires": "requires", "pre": "requires", "requires_redundantly": "requires",
    "pre_redundantly": "requires",
    "ensures": "ensures", "post": "ensures", "ensures_redundantly": "ensures",
    "post_redundantly": "ensures",
    "signals": "signals", "exsures": "signals", "signals_redundantly": "signals",
    "signals_only": "signals_only",
    "assignable": "assignable", "modifiable": "assignable", "modifies": "assignable",
    "assigns": "assignable", "assignable_redundantly": "assignable",
    "modifiable_redundantly": "assignable", "modifies_redundantly": "assignable",
    "old": "old",
}
IGNORED_CLAUSES = {
    "accessible", "accessible_redundantly",
    "callable", "callable_redundantly", "diverges", "diverges_redundantly", "when",
    "when_redundantly", "measured_by", "measured_by_redundantly", "duration",
    "duration_redundantly", "working_space", "working_space_redundantly", "captures",
    "captures_redundantly", "forall", "reads", "writes", "decreases", "decreasing",
}
CLASS_LEVEL_SKIPPED = {
    "invariant", "invariant_redundantly", "initially", "constraint", "constraint_redundantly",
    "axiom", "represents", "represents_redundantly", "readable", "writable", "monitors_for",
    "in", "maps", "static_initializer", "initializer",
}
JML_MODIFIERS = {
    "pure", "helper", "spec_public", "spec_protected", "nullable", "non_null",
    "nullable_by_default", "non_null_by_default", "spec_pure", "query", "function",
    "code_java_math", "code_safe_math", "code_bigint_math", "spec_java_math", "spec_safe_math",
    "spec_bigint_math", "instance", "uninitialized", "monitored", "extract", "strictly_pure",
    "inline", "immutable", "options", "skip_esc", "skip_rac", "code", "peer", "rep", "readonly",
}
JAVA_MODIFIERS = {
    "public", "private", "protected", "static", "final", "abstract", "native", "synchronized",
    "transient", "volatile", "strictfp", "default", "sealed", "non-sealed",
}
TYPE_KEYWORDS = {"class", "interface", "enum", "record"}


@dataclass
class Clause:
    keyword: str
    """Canonical keyword: ``requires``, ``ensures``, ``signals``, ``signals_only``,
    ``assignable`` or ``old``."""
    tokens: list[Token]
    line: int
    text: str


@dataclass
class SpecCase:
    kind: str
    """``lightweight``, ``behavior``, ``normal`` or ``exceptional``."""
    line: int
    requires: list[Clause] = field(default_factory=list)
    ensures: list[Clause] = field(default_factory=list)
    signals: list[Clause] = field(default_factory=list)
    assignable: list[Clause] = field(default_factory=list)
    old: list[Clause] = field(default_factory=list)
    """``old T x = e;`` declarations, in order (JML RM 9.9.2)."""

    @property
    def normal(self) -> bool:
        """Whether the case's ensures clauses constrain normal returns."""
        return self.kind != "exceptional"


@dataclass
class JavaMethod:
    name: str
    return_type: str | None
    """None for constructors."""
    params: list[tuple[str, str]]
    """(Java type, name), C-style array brackets moved onto the type."""
    modifiers: set[str]
    """Java and JML modifiers (``pure`` comes from an annotation)."""
    line: int
    start: int
    """Offset of the member's first character (first modifier) in the file."""
    end: int
    """Offset just after the member (its closing brace or semicolon)."""
    tok_range: tuple[int, int]
    """Index range of the member's Java tokens in ``SpecFile.java_tokens``."""
    spec: list[SpecCase] = field(default_factory=list)
    model: bool = False
    """Declared inside a JML annotation (``model`` method): its text is in ``source``."""
    source: str = ""
    has_body: bool = True
    nullable_params: set[str] = field(default_factory=set)
    """Parameters declared ``nullable`` (``/*@ nullable @*/ int[] a``)."""

    @property
    def is_static(self) -> bool:
        return "static" in self.modifiers

    @property
    def is_pure(self) -> bool:
        """Declared pure, or overriding a method that ``java.lang.Object``'s JML specs declare
        pure (purity is inherited by overriding methods, JML RM 7.1.1.3)."""
        if self.modifiers & {"pure", "spec_pure", "strictly_pure", "function", "query"}:
            return True
        sig = (self.name, tuple(t.rsplit(".", 1)[-1] for t, _n in self.params))
        return "static" not in self.modifiers and sig in OBJECT_PURE


OBJECT_PURE = {("equals", ("Object",)), ("hashCode", ()), ("toString", ())}
"""``java.lang.Object``'s methods that OpenJML's ``Object.jml`` declares pure."""


@dataclass
class JavaField:
    name: str
    type: str
    modifiers: set[str]
    line: int


@dataclass
class JavaClass:
    name: str
    line: int
    body_open: int
    """Offset of ``{`` opening the class body."""
    body_close: int
    """Offset of the ``}`` closing the class body (injected code goes just before it)."""
    methods: list[JavaMethod] = field(default_factory=list)
    fields: list[JavaField] = field(default_factory=list)
    models: list[JavaMethod] = field(default_factory=list)
    invariants: list[Clause] = field(default_factory=list)
    """``invariant`` clauses (the predicate's tokens): type-checked, not evaluated."""
    modifiers: set[str] = field(default_factory=set)
    """JML modifiers written before the class (``nullable_by_default``, ``spec_java_math``...)."""


@dataclass
class SpecFile:
    file: str | None
    text: str
    java_text: str
    """The text with every comment (JML included) blanked out, offsets and lines kept."""
    java_tokens: list[Token]
    """Java tokens only (no JML, no comments)."""
    jml_tokens: list[Token]
    """Tokens of all JML annotations, in order."""
    classes: list[JavaClass]
    all_tokens: list[Token] = field(default_factory=list)
    """Java and JML tokens in file order."""

    def find_class(self, name: str) -> JavaClass | None:
        return next((c for c in self.classes if c.name == name), None)

    key_tokens: list[str] = field(default_factory=list)
    """What the engines read, without layout: Java tokens and JML annotations (each between
    ``/*@`` and ``@*/`` markers), a token prefixed with a space unless it touched the one
    before (``>`` ``>`` is a shift, ``> >`` is not)."""

    def normalized(self) -> str:
        """The verdict cache's key for the spec: ``key_tokens`` as one string (JSON, so no two
        token sequences share a key). ``text`` is rebuilt from the same tokens, so the key is
        computed on what every engine reads."""
        return json.dumps(self.key_tokens, ensure_ascii=False)


def _annotation_text(raw: str) -> str:
    """Body of a JML comment with the ``@`` decorations and nested ``//`` comments blanked."""
    out = list(raw)
    lines_start = [0] + [i + 1 for i, ch in enumerate(raw) if ch == "\n"]
    for s in lines_start:
        j = s
        while j < len(raw) and raw[j] in " \t":
            j += 1
        while j < len(raw) and raw[j] == "@":
            out[j] = " "
            j += 1
    # trailing @ before the end of the comment
    k = len(raw) - 1
    while k >= 0 and raw[k] in " \t\n":
        k -= 1
    while k >= 0 and raw[k] == "@":
        out[k] = " "
        k -= 1
    text = "".join(out)
    # blank nested // comments (outside string literals)
    res = list(text)
    i = 0
    quote = ""
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 2
                continue
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif text.startswith("//", i):
            while i < len(text) and text[i] != "\n":
                res[i] = " "
                i += 1
            continue
        i += 1
    return "".join(res)


MAX_CASE_NESTING = 40
"""``{|`` inside ``{|`` the reader follows (it recurses once per level; hostile input may nest
thousands)."""
MAX_CASES = 10_000
"""Flat spec cases a method's nested cases may desugar into: one per nested case written (each
carrying its enclosing clauses, so the copies grow with the nesting depth)."""
MAX_CLASS_NESTING = 40
"""Classes inside classes the reader follows (it recurses once per level)."""
_INTERESTING = re.compile(r"[\n\"'/]")
"""The characters where a comment or a literal can start (the scanner jumps between them)."""


def split_comments(text: str, file: str | None = None) -> tuple[str, list[Token]]:
    """The text with comments blanked, and one ``jml`` token per JML annotation comment."""
    out = list(text)
    annotations: list[Token] = []
    i = 0
    n = len(text)
    line = 1

    def blank(a: int, b: int) -> None:
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    interesting = _INTERESTING.search
    while i < n:
        m = interesting(text, i)
        if m is None:
            break
        i = m.start()
        ch = text[i]
        if ch == "\n":
            line += 1
            i += 1
        elif ch in "\"'":
            if text.startswith('"""', i):
                j = text.find('"""', i + 3)
                j = n if j < 0 else j + 3
            else:
                j = i + 1
                while j < n and text[j] != ch and text[j] != "\n":
                    j += 2 if text[j] == "\\" else 1
                j = min(j + 1, n)
            line += text.count("\n", i, j)
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            if text.startswith("//@", i):
                annotations.append(Token("jml", _annotation_text(text[i + 3:j]), line, i))
            blank(i, j)
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            if j < 0:
                raise SpecInvalid("unterminated comment", file=file, line=line)
            if text.startswith("/*@", i) and not text.startswith("/*@*/", i):
                annotations.append(Token("jml", _annotation_text(text[i + 3:j]), line, i))
            blank(i, j + 2)
            line += text.count("\n", i, j + 2)
            i = j + 2
        else:
            i += 1
    return "".join(out), annotations


def _skip_balanced(toks: list[Token], i: int, open_: str, close: str) -> int:
    """Index just after the token closing the bracket opened at ``toks[i]``."""
    depth = 0
    while i < len(toks) and toks[i].kind != "eof":
        t = toks[i]
        if t.is_op(open_):
            depth += 1
        elif t.is_op(close):
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


class _Reader:
    """Walks the merged token stream (Java tokens plus ``jml`` tokens) of one file."""

    def __init__(self, text: str, file: str | None) -> None:
        self.file = file
        self.text = text
        self.java_text, self.annotations = split_comments(text, file)
        self.java_tokens = tokenize(self.java_text, 1, file, split_shifts=True)
        merged = self.java_tokens[:-1] + self.annotations
        merged.sort(key=lambda t: t.pos)
        self.toks = merged + [self.java_tokens[-1]]
        self.java_index = {id(t): k for k, t in enumerate(self.java_tokens)}
        self.jml_tokens: list[Token] = []
        self.jml_of: dict[int, list[Token]] = {}
        for a in self.annotations:
            ts = tokenize(a.text, a.line, file)[:-1]
            self.jml_of[a.pos] = ts
            self.jml_tokens += ts
        self.ordered = [x for t in self.toks[:-1]
                        for x in (self.jml_of[t.pos] if t.kind == "jml" else [t])]

    def err(self, msg: str, line: int) -> SpecInvalid:
        return SpecInvalid(msg, file=self.file, line=line)

    def rebuild(self) -> tuple[str, list[str]]:
        """The file as the engines get it: every token on its own line (indented as it was),
        ordinary comments dropped, each JML annotation rebuilt from its tokens; and the cache key's tokens.

        Why: an engine must read what the front end checked. Whatever our lexer and javac's
        (or KeY's, or OpenJML's) might disagree on (unicode escapes, line terminators, JML
        comment syntaxes we do not read such as ``//+KeY@``) is gone from the rebuilt text.
        """
        out: list[str] = []
        key: list[str] = []
        line = 1
        last_end = -1
        line_comment = False

        def put(text: str, tline: int, start: int, end: int) -> None:
            nonlocal line, last_end, line_comment
            if tline > line or line_comment:
                out.append("\n" * max(tline - line, 1))
                line = max(tline, line + 1)
                line_comment = False
                key.append(" " + text)
                indent = self.text[self.text.rfind("\n", 0, start) + 1:start]
                out.append(indent if indent.isspace() else " " * len(indent))
            elif start != last_end:
                out.append(" ")
                key.append(" " + text)
            else:
                key.append(text)
            out.append(text)
            last_end = end

        for t in self.toks[:-1]:
            if t.kind != "jml":
                put(t.text, t.line, t.pos, t.pos + len(t.text))
                continue
            slashes = self.text.startswith("//@", t.pos)
            put("//@" if slashes else "/*@", t.line, t.pos, -1)
            key[-1] = " /*@"
            base = t.pos + 3
            for x in self.jml_of[t.pos]:
                put(x.text, x.line, base + x.pos, base + x.pos + len(x.text))
            if slashes:
                line_comment = True
            else:
                out.append(" @*/")
            key.append(" @*/")
            last_end = -1
        out.append("\n")
        return "".join(out), key

    def read(self) -> SpecFile:
        classes: list[JavaClass] = []
        toks = self.toks
        i = 0
        pending: list[Token] = []
        while toks[i].kind != "eof":
            t = toks[i]
            if t.kind == "ident" and t.text in TYPE_KEYWORDS and i + 1 < len(toks) \
                    and toks[i + 1].kind == "ident":
                i = self._class(i, classes, self._modifiers(pending))
                pending = []
            else:
                if t.kind == "jml":
                    pending.append(t)
                elif t.is_op(";"):
                    pending = []
                i += 1
        return SpecFile(self.file, self.text, self.java_text, self.java_tokens,
                        self.jml_tokens, classes, self.ordered)

    def _modifiers(self, annotations: list[Token]) -> set[str]:
        return {x.text for a in annotations for x in self.jml_of.get(a.pos, [])
                if x.kind == "ident" and x.text in JML_MODIFIERS}

    def _class(self, i: int, classes: list[JavaClass], mods: set[str] | None = None) -> int:
        self.depth = getattr(self, "depth", 0) + 1
        try:
            if self.depth > MAX_CLASS_NESTING:
                raise self.err(f"nesting deeper than {MAX_CLASS_NESTING} (classes declared "
                               "inside each other)", self.toks[i].line)
            return self._class_body(i, classes, mods)
        finally:
            self.depth -= 1

    def _class_body(self, i: int, classes: list[JavaClass], mods: set[str] | None) -> int:
        toks = self.toks
        name_tok = toks[i + 1]
        j = i + 2
        while toks[j].kind != "eof" and not toks[j].is_op("{"):
            j += 1
        if toks[j].kind == "eof":
            raise self.err(f"class {name_tok.text} has no body", name_tok.line)
        cls = JavaClass(name_tok.text, name_tok.line, toks[j].pos, -1, modifiers=set(mods or ()))
        j += 1
        pending: list[Token] = []
        while True:
            t = toks[j]
            if t.kind == "eof":
                raise self.err(f"class {cls.name} is not closed (missing '}}')", t.line)
            if t.is_op("}"):
                self._loose_annotations(pending, cls)
                cls.body_close = t.pos
                classes.append(cls)
                return j + 1
            if t.kind == "jml":
                pending.append(t)
                j += 1
                continue
            if t.is_op(";"):
                j += 1
                continue
            j = self._member(j, cls, pending)
            pending = []

    def _member(self, i: int, cls: JavaClass, pending: list[Token]) -> int:
        toks = self.toks
        start = i
        mods: set[str] = set()
        attached = list(pending)
        header: list[Token] = []
        while True:
            t = toks[i]
            if t.kind == "eof":
                raise self.err("unexpected end of file in a class body", t.line)
            if t.kind == "jml":
                attached.append(t)
                i += 1
                continue
            if t.is_op("@") and toks[i + 1].kind == "ident" and toks[i + 1].text != "interface":
                i += 2
                while toks[i].is_op(".") and toks[i + 1].kind == "ident":
                    i += 2
                if toks[i].is_op("("):
                    i = _skip_balanced(toks, i, "(", ")")
                continue
            if t.kind == "ident" and t.text in JAVA_MODIFIERS:
                mods.add(t.text)
                i += 1
                continue
            break
        t = toks[i]
        if t.is_op("{"):  # initializer block
            return _skip_balanced(toks, i, "{", "}")
        if t.kind == "ident" and t.text in TYPE_KEYWORDS:
            # nested type: parse it as a class of its own
            nested: list[JavaClass] = []
            end = self._class(i, nested, self._modifiers(attached))
            return end
        # header tokens up to '(' (method), '=' or ';' (field)
        depth = 0
        while True:
            t = toks[i]
            if t.kind == "eof":
                raise self.err("unexpected end of file in a member declaration", t.line)
            if t.kind == "jml":
                attached.append(t)
                i += 1
                continue
            if t.is_op("<"):
                depth += 1
            elif t.is_op(">"):
                depth -= 1
            elif depth == 0 and t.is_op("(", "=", ";", "{"):
                break
            header.append(t)
            i += 1
        first_line = toks[start].line
        jml = [tk for a in attached for tk in self.jml_of.get(a.pos, [])]
        if t.is_op("("):
            name = header[-1].text if header else "?"
            rtype = _join(header[:-1]) if len(header) > 1 else None
            close = _skip_balanced(toks, i, "(", ")")
            params = _params([x for x in toks[i + 1:close - 1] if x.kind != "jml"])
            nullable = self._nullable_params(toks[i + 1:close - 1])
            j = close
            while toks[j].kind != "eof" and not toks[j].is_op("{", ";"):
                if toks[j].kind == "jml":
                    attached.append(toks[j])
                j += 1
            has_body = toks[j].is_op("{")
            end = _skip_balanced(toks, j, "{", "}") if has_body else j + 1
            jml = [tk for a in attached for tk in self.jml_of.get(a.pos, [])]
            ann = _Annotations(jml, self.file)
            for m in ann.models:
                cls.models.append(m)
            cls.invariants.extend(ann.invariants)
            method = JavaMethod(name, rtype, params, mods | ann.modifiers, first_line,
                                toks[start].pos, toks[end - 1].pos + len(toks[end - 1].text),
                                self._java_range(start, end), ann.cases, has_body=has_body)
            method.source = self.text[method.start:method.end]
            method.nullable_params = nullable
            cls.methods.append(method)
            return end
        # field
        j = i
        while toks[j].kind != "eof" and not toks[j].is_op(";"):
            if toks[j].is_op("{"):
                j = _skip_balanced(toks, j, "{", "}")
                continue
            j += 1
        ann = _Annotations(jml, self.file)
        cls.models.extend(ann.models)
        cls.invariants.extend(ann.invariants)
        for name, ty in _declarators(header, [x for x in toks[i:j] if x.kind != "jml"]):
            cls.fields.append(JavaField(name, ty, mods | ann.modifiers, first_line))
        return j + 1

    def _nullable_params(self, toks: list[Token]) -> set[str]:
        """Names of parameters preceded (in their own comma-separated slot) by a JML
        ``nullable`` annotation."""
        out: set[str] = set()
        marked = False
        last: str | None = None
        depth = 0
        for t in toks + [Token("op", ",", 0)]:
            if t.kind == "jml":
                marked |= "nullable" in self._modifiers([t])
            elif t.is_op("<"):
                depth += 1
            elif t.is_op(">"):
                depth -= 1
            elif t.is_op(",") and depth == 0:
                if marked and last:
                    out.add(last)
                marked, last = False, None
            elif t.kind == "ident":
                last = t.text
        return out

    def _java_range(self, a: int, b: int) -> tuple[int, int]:
        ks = [self.java_index[id(t)] for t in self.toks[a:b] if id(t) in self.java_index]
        return (ks[0], ks[-1] + 1) if ks else (0, 0)

    def _loose_annotations(self, pending: list[Token], cls: JavaClass) -> None:
        jml = [tk for a in pending for tk in self.jml_of.get(a.pos, [])]
        ann = _Annotations(jml, self.file)
        cls.models.extend(ann.models)


def _join(toks: list[Token]) -> str:
    out = ""
    for t in toks:
        if out and t.kind == "ident" and (out[-1].isalnum() or out[-1] in "_$>]"):
            out += " "
        out += t.text
    return out.replace(" [", "[")


def _declarators(header: list[Token], rest: list[Token]) -> list[tuple[str, str]]:
    """(name, type) of each variable a field declaration declares (JLS 8.3): ``int a, b[];``
    and C-style ``long fib[]`` (the brackets belong to that variable's type). ``header`` is
    the declaration up to its first ``=`` or ``;``, ``rest`` the tokens from there to the ``;``
    (initializers, later declarators)."""
    h = [t for t in header if t.kind != "jml"]
    first, level = len(h), 0
    for k, t in enumerate(h):
        level += t.is_op("<") - t.is_op(">")
        if t.is_op(",") and level == 0:
            first = k
            break
    head, tail = h[:first], h[first:]
    dims = ""
    while len(head) >= 3 and head[-1].is_op("]") and head[-2].is_op("["):
        dims += "[]"
        head = head[:-2]
    if len(head) < 2:
        return []
    base = _join(head[:-1])
    out = [(head[-1].text, base + dims)]
    # later declarators: after each comma at depth 0, a name and its own brackets
    depth = generics = 0
    toks = tail + rest
    for k, t in enumerate(toks):
        if t.is_op("(", "[", "{"):
            depth += 1
        elif t.is_op(")", "]", "}"):
            depth -= 1
        elif t.is_op("<") and k and toks[k - 1].kind == "ident" and toks[k - 1].text[:1].isupper():
            generics += 1  # new HashMap<K, V>(): type arguments, not a less-than
        elif t.is_op(">") and generics:
            generics -= 1
        elif t.is_op(",") and generics:
            continue
        elif t.is_op(",") and depth == 0 and k + 1 < len(toks) and toks[k + 1].kind == "ident":
            extra = ""
            m = k + 2
            while m + 1 < len(toks) and toks[m].is_op("[") and toks[m + 1].is_op("]"):
                extra += "[]"
                m += 2
            out.append((toks[k + 1].text, base + extra))
    return out


def _params(toks: list[Token]) -> list[tuple[str, str]]:
    groups: list[list[Token]] = [[]]
    depth = 0
    for t in toks:
        if t.is_op("<"):
            depth += 1
        elif t.is_op(">"):
            depth -= 1
        if t.is_op(",") and depth == 0:
            groups.append([])
        else:
            groups[-1].append(t)
    params: list[tuple[str, str]] = []
    for g in groups:
        g = [t for t in g if not (t.kind == "ident" and t.text in {"final"} | JML_MODIFIERS)]
        # drop annotations like @NonNull
        h: list[Token] = []
        k = 0
        while k < len(g):
            if g[k].is_op("@"):
                k += 2
                continue
            h.append(g[k])
            k += 1
        if not h:
            continue
        dims = ""
        while len(h) >= 2 and h[-1].is_op("]") and h[-2].is_op("["):
            dims += "[]"
            h = h[:-2]
        name = h[-1].text
        ty = _join(h[:-1]) + dims
        params.append((ty.replace("...", "[]"), name))
    return params


QUANTIFIER_KEYWORDS = {"\\forall", "\\exists", "\\num_of", "\\sum", "\\product", "\\max",
                       "\\min"}
_CLAUSE_STARTS = (set(RECORDED_CLAUSES) | IGNORED_CLAUSES | CLASS_LEVEL_SKIPPED | set(BEHAVIORS)
                  | JML_MODIFIERS | JAVA_MODIFIERS | {"also", "model", "ghost"})
_CONTINUES = {".", "[", "(", "?", ":", "==>", "<==", "<==>", "<=!=>", "||", "&&", "|", "^", "&",
              "==", "!=", "<", "<=", ">", ">=", "<:", "<<", ">>", ">>>", "+", "-", "*", "/", "%"}
"""Tokens after which a keyword-like name is an operand (``code[i]``), not a new clause."""
_AFTER_NESTED = ("%s after a nested spec case's |} (JML RM 9.6.1: nested cases end their spec "
                 "case; join another case with 'also')")


def _ends_clause(toks: list[Token], i: int) -> bool:
    """Whether a clause ends before ``toks[i]`` (the ``;`` before it ended the clause): what
    follows is not an expression but the annotation's end or the next clause or case."""
    t = toks[i]
    if t.kind == "eof" or t.is_op(";", "{|", "|}"):
        return True
    if t.kind == "ident" and t.text in _CLAUSE_STARTS:
        nxt = toks[i + 1]
        return not (nxt.kind == "op" and nxt.text in _CONTINUES)
    return False


def _joined(outer: SpecCase, inner: SpecCase, ann: _Annotations) -> SpecCase:
    """One nested case with its enclosing case's clauses in front (JML RM 9.6.1: a nested case
    means the enclosing header conjoined with it); the enclosing case's behavior holds for
    every nested case, which may restate it but not contradict it."""
    kind = outer.kind
    if inner.kind != "lightweight":
        if outer.kind not in ("lightweight", "behavior", inner.kind):
            raise ann.err(f"{inner.kind}_behavior nested in a {outer.kind}_behavior case "
                          "(JML RM 9.6.1: a nested case keeps the enclosing behavior)",
                          inner.line)
        kind = inner.kind
    return SpecCase(kind, inner.line, outer.requires + inner.requires,
                    outer.ensures + inner.ensures, outer.signals + inner.signals,
                    outer.assignable + inner.assignable, outer.old + inner.old)


class _Annotations:
    """Parse the JML tokens attached to one member: modifiers, spec cases, model members."""

    def __init__(self, toks: list[Token], file: str | None) -> None:
        self.file = file
        self.toks = toks + [Token("eof", "", toks[-1].line if toks else 0)]
        self.modifiers: set[str] = set()
        self.cases: list[SpecCase] = []
        self.models: list[JavaMethod] = []
        self.invariants: list[Clause] = []
        self.depth = 0
        self._parse()

    def err(self, msg: str, line: int) -> SpecInvalid:
        return SpecInvalid(msg, file=self.file, line=line)

    def _until_semicolon(self, i: int) -> int:
        """Index of the ``;`` ending the clause that starts at ``i``.

        A quantifier written without parentheses (``\\forall int i; 0 <= i < n; a[i] > 0;``,
        which OpenJML accepts) has semicolons of its own at bracket depth 0: the one after its
        variables always, and the one after its range when an expression follows it (not a
        clause keyword, a behavior keyword, ``also``, ``{|``, ``|}`` or the annotation's end).
        """
        toks = self.toks
        depth = 0
        decls = 0
        ranges = 0
        while toks[i].kind != "eof":
            t = toks[i]
            if t.is_op("(", "[", "{"):
                depth += 1
            elif t.is_op(")", "]", "}"):
                depth -= 1
            elif depth == 0 and t.kind == "backslash" and t.text in QUANTIFIER_KEYWORDS:
                decls += 1
                ranges += 1
            elif t.is_op(";") and depth == 0:
                if decls:
                    decls -= 1
                    if toks[i + 1].is_op(";"):  # an empty range: (\forall int i; ; P)
                        ranges -= 1
                        i += 1
                elif ranges and not _ends_clause(toks, i + 1):
                    ranges -= 1
                else:
                    return i
            i += 1
        raise self.err("JML clause is missing its ';'", toks[i - 1].line)

    def _parse(self) -> None:
        cases, i = self._case_seq(0, None)
        self.cases = cases
        del i

    def _case_seq(self, i: int, opened: Token | None) -> tuple[list[SpecCase], int]:
        """Spec cases from ``i`` up to the annotation's end, or (``opened``: the ``{|`` of a
        nested case) up to its ``|}``. Nested cases come back desugared (JML RM 9.6.1): each
        is the enclosing case's clauses followed by its own, as its own case joined by
        ``also``, so every engine reads flat cases."""
        toks = self.toks
        cases: list[SpecCase] = []
        current: SpecCase | None = None
        closed = False
        """The current case ended with a nested ``|}``: only ``also`` may follow."""
        mods: list[Token] = []
        while True:
            t = toks[i]
            if t.kind == "eof":
                if opened is not None:
                    raise self.err("nested spec cases opened with {| are not closed with |}",
                                   opened.line)
                return cases, i
            if t.is_op("|}"):
                if opened is None:
                    raise self.err("|} without a {| opening it", t.line)
                return cases, i + 1
            if t.kind == "ident" and t.text == "also":
                current, closed = None, False
                i += 1
            elif t.kind == "ident" and t.text in BEHAVIORS:
                current = SpecCase(BEHAVIORS[t.text], t.line)
                cases.append(current)
                closed = False
                mods = []
                i += 1
            elif t.kind == "ident" and (t.text in RECORDED_CLAUSES or t.text in IGNORED_CLAUSES):
                if closed:
                    raise self.err(_AFTER_NESTED % t.text, t.line)
                end = self._until_semicolon(i + 1)
                if t.text in RECORDED_CLAUSES:
                    if current is None:
                        current = SpecCase("lightweight", t.line)
                        cases.append(current)
                    body = toks[i + 1:end]
                    if not body:
                        raise self.err(f"empty {t.text} clause", t.line)
                    clause = Clause(RECORDED_CLAUSES[t.text], body, t.line,
                                    " ".join(x.text for x in body))
                    getattr(current, {"requires": "requires", "ensures": "ensures",
                                      "assignable": "assignable", "old": "old"}.get(
                        clause.keyword, "signals")).append(clause)
                mods = []
                i = end + 1
            elif t.is_op("{|"):
                if closed:
                    raise self.err(_AFTER_NESTED % "{|", t.line)
                if current is None:
                    current = SpecCase("lightweight", t.line)
                    cases.append(current)
                self.depth += 1
                if self.depth > MAX_CASE_NESTING:
                    raise self.err(f"nested spec cases deeper than {MAX_CASE_NESTING}", t.line)
                try:
                    inner, i = self._case_seq(i + 1, t)
                finally:
                    self.depth -= 1
                if not inner:
                    raise self.err("empty nested spec cases {| |}", t.line)
                at = cases.index(current)
                cases[at:at + 1] = [_joined(current, c, self) for c in inner]
                if len(cases) > MAX_CASES:
                    raise self.err(f"more than {MAX_CASES} spec cases once nested cases are "
                                   "expanded", t.line)
                closed = True
            elif t.kind == "ident" and t.text in CLASS_LEVEL_SKIPPED and opened is None:
                end = self._until_semicolon(i + 1)
                if t.text in ("invariant", "invariant_redundantly"):
                    body = self.toks[i + 1:end]
                    self.invariants.append(Clause("invariant", body, t.line,
                                                  " ".join(x.text for x in body)))
                i = end + 1
                mods = []
            elif t.kind == "ident" and t.text in ("model", "ghost") and opened is None:
                i = self._model(i, {m.text for m in mods} | {t.text})
                mods = []
                current = None
            elif t.kind == "ident" and (t.text in JML_MODIFIERS or t.text in JAVA_MODIFIERS):
                mods.append(t)
                if t.text in JML_MODIFIERS:
                    self.modifiers.add(t.text)
                i += 1
            elif t.is_op(";"):
                i += 1
            else:
                raise self.err(f"unexpected {t.text!r} in a JML annotation (expected a clause "
                               "such as requires/ensures, also, a behavior keyword or a "
                               "modifier)", t.line)

    def _model(self, i: int, mods: set[str]) -> int:
        toks = self.toks
        line = toks[i].line
        i += 1
        header: list[Token] = []
        depth = 0
        while toks[i].kind != "eof":
            t = toks[i]
            if t.kind == "ident" and (t.text in JML_MODIFIERS or t.text in JAVA_MODIFIERS) \
                    and not header:
                mods.add(t.text)
                i += 1
                continue
            if t.is_op("<"):
                depth += 1
            elif t.is_op(">"):
                depth -= 1
            elif depth == 0 and t.is_op("(", "=", ";"):
                break
            header.append(t)
            i += 1
        t = toks[i]
        if not t.is_op("(") or "ghost" in mods:
            return self._until_semicolon(i) + 1  # model/ghost field: not evaluable, ignored
        close = _skip_balanced(toks, i, "(", ")")
        params = _params(toks[i + 1:close - 1])
        j = close
        while toks[j].kind != "eof" and not toks[j].is_op("{", ";"):
            j += 1
        has_body = toks[j].is_op("{")
        end = _skip_balanced(toks, j, "{", "}") if has_body else j + 1
        name = header[-1].text if header else "?"
        body_src = _render(toks[j:end]) if has_body else ";"
        rtype = _join(header[:-1])
        m = JavaMethod(name, rtype, params, mods, line, 0, 0, (0, 0), list(self.cases),
                       model=True, has_body=has_body)
        self.cases = []
        m.source = body_src
        self.models.append(m)
        return end


def _render(toks: list[Token]) -> str:
    """Java text of tokens, one line per source line so javac's line numbers stay useful."""
    out: list[str] = []
    line = toks[0].line if toks else 0
    for t in toks:
        if t.line > line:
            out.append("\n" * (t.line - line))
            line = t.line
        out.append(t.text + " ")
    return "".join(out)


def read_source(text: str, file: str | None = None) -> SpecFile:
    """Read a Java+JML file; raises ``SpecInvalid`` with file and line on malformed input.

    Java's unicode-escape and line-terminator translation comes first (``jml.unicode``); the
    ``SpecFile`` is then the reading of the text rebuilt from the tokens (``_Reader.rebuild``),
    so its ``text`` (what the engines are given) holds nothing the checks did not see.
    """
    first = _Reader(java_input(text, file), file)
    rebuilt, key = first.rebuild()
    if java_input(rebuilt, file) != rebuilt:
        line = _first_difference(rebuilt, java_input(rebuilt, file))
        raise SpecInvalid("a unicode escape produces a backslash that starts another "
                          "unicode escape; write the characters themselves (JLS 3.3)",
                          file=file, line=line)
    reader = _Reader(rebuilt, file)
    spec = reader.read()
    for a, b in zip(first.ordered, spec.all_tokens, strict=False):
        if (a.kind, a.text, a.line) != (b.kind, b.text, b.line):
            raise SpecInvalid(f"the file does not read the same way twice near {a.text!r} "
                              "(a token the Java lexer would split or join differently)",
                              file=file, line=a.line)
    if len(first.ordered) != len(spec.all_tokens):
        raise SpecInvalid("the file does not read the same way twice", file=file,
                          line=spec.all_tokens[-1].line if spec.all_tokens else 1)
    spec.key_tokens = key
    return spec


def _first_difference(a: str, b: str) -> int:
    k = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), 0)
    return a.count("\n", 0, k) + 1


def check_code(spec: SpecFile, original: SpecFile, allow_pure_helpers: bool = True) -> None:
    """Raise ``SpecInvalid("code altered at line N")`` unless the spec's Java is the task's.

    JML is stripped on both sides and the Java tokens compared one by one. Added methods that
    carry a JML ``pure`` modifier and do not exist in the task are allowed (spec helpers, as
    language models write them); everything else, however small, is an alteration, because
    the adequacy of a spec for different code means nothing.
    """
    orig_names = {m.name for c in original.classes for m in c.methods}
    skip: list[tuple[int, int]] = []
    if allow_pure_helpers:
        for c in spec.classes:
            for m in c.methods:
                # never a constructor: rac makes the receiver of an instance method with it
                if m.is_pure and m.name not in orig_names and m.return_type is not None:
                    skip.append(m.tok_range)
    skipped = bytearray(len(spec.java_tokens))
    for lo, hi in skip:
        skipped[lo:hi] = b"\x01" * (hi - lo)
    mine = [t for k, t in enumerate(spec.java_tokens) if not skipped[k]]
    theirs = original.java_tokens
    for k, (a, b) in enumerate(zip(mine, theirs, strict=False)):
        if a.kind == "eof" and b.kind == "eof":
            return
        if a.text != b.text or a.kind != b.kind:
            if a.kind == "eof":
                raise SpecInvalid(f"code altered at line {a.line}: the task's code continues "
                                  f"with {b.text!r} (line {b.line} of the task) but the spec "
                                  "ends", file=spec.file, line=a.line)
            found = a.text
            want = b.text if b.kind != "eof" else "end of file"
            raise SpecInvalid(f"code altered at line {a.line}: found {found!r} where the task's "
                              f"code has {want!r} (line {b.line}); only JML comments and pure "
                              "helper methods may be added", file=spec.file, line=a.line)
        del k


_BEFORE_USE = {"return", "new", "instanceof", "else", "do", "case", "throw", "yield", "assert"}
_ASSIGN_OPS = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", ">>>="}


def returned_parameter(spec: SpecFile, method: JavaMethod) -> str | None:
    """The parameter the method always returns, when its code shows that it does.

    Some harnesses print an array argument after the call instead of the returned value (the
    argument's post-state is the task's output) while the method also returns that same array.
    ``\\result`` is then the post-state object itself; this holds when every ``return`` in the
    body is ``return p;`` and ``p`` is never assigned or redeclared, which a token scan can
    decide without understanding statements. Anything else (no return, another expression, a
    lambda's return, a reassignment) gives None: ``\\result`` stays unknown rather than guessed.
    """
    if method.return_type in (None, "void") or not method.has_body:
        return None
    names = {n for _t, n in method.params}
    a, b = method.tok_range
    toks = spec.java_tokens[a:b]
    body = next((k for k, t in enumerate(toks) if t.is_op("{")), None)
    if body is None:
        return None
    toks = toks[body:]
    returned: set[str] = set()
    for k, t in enumerate(toks):
        if t.is_ident("return"):
            if not (k + 2 < len(toks) and toks[k + 1].kind == "ident"
                    and toks[k + 1].text in names and toks[k + 2].is_op(";")):
                return None
            returned.add(toks[k + 1].text)
    if len(returned) != 1:
        return None
    p = returned.pop()
    for k, t in enumerate(toks):
        if not t.is_ident(p) or k == 0:
            continue
        prev, nxt = toks[k - 1], toks[k + 1] if k + 1 < len(toks) else None
        if prev.is_op(".", "::"):
            continue  # a member named like the parameter
        if nxt is not None and nxt.kind == "op" and nxt.text in _ASSIGN_OPS:
            return None  # reassigned
        if prev.kind == "ident" and prev.text not in _BEFORE_USE or \
                prev.is_op(">", "]"):
            return None  # declared again (a local or lambda parameter shadows it)
        if nxt is not None and nxt.is_op("->"):
            return None
    return p
