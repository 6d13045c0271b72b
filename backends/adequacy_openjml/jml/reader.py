"""Read a Java file with JML annotations: its classes, methods, spec cases and model methods.

The reader is deliberately shallow: it knows Java's member structure (enough to find the
method under specification, its parameters and the class's helper methods) but not Java's
statements, which only javac has to understand. JML annotation comments (``//@``, ``/*@ @*/``)
become single ``jml`` tokens between the Java tokens, so the same pass both attaches specs to
members and yields the JML-free token stream that the "code altered" check compares.
"""

from __future__ import annotations

import re

from adequacy.plugin import SpecInvalid

from .annotations import Annotations, annotation_text
from .declarations import declarators, join_type, parameters, skip_balanced
from .keywords import JAVA_MODIFIERS, JML_MODIFIERS, TYPE_KEYWORDS
from .lexer import Token, tokenize
from .members import JavaClass, JavaField, JavaMethod, SpecFile
from .unicode import java_input

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
                annotations.append(Token("jml", annotation_text(text[i + 3:j]), line, i))
            blank(i, j)
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            if j < 0:
                raise SpecInvalid("unterminated comment", file=file, line=line)
            if text.startswith("/*@", i) and not text.startswith("/*@*/", i):
                annotations.append(Token("jml", annotation_text(text[i + 3:j]), line, i))
            blank(i, j + 2)
            line += text.count("\n", i, j + 2)
            i = j + 2
        else:
            i += 1
    return "".join(out), annotations


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
                    i = skip_balanced(toks, i, "(", ")")
                continue
            if t.kind == "ident" and t.text in JAVA_MODIFIERS:
                mods.add(t.text)
                i += 1
                continue
            break
        t = toks[i]
        if t.is_op("{"):  # initializer block
            return skip_balanced(toks, i, "{", "}")
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
            rtype = join_type(header[:-1]) if len(header) > 1 else None
            close = skip_balanced(toks, i, "(", ")")
            params = parameters([x for x in toks[i + 1:close - 1] if x.kind != "jml"])
            nullable = self._nullable_params(toks[i + 1:close - 1])
            j = close
            while toks[j].kind != "eof" and not toks[j].is_op("{", ";"):
                if toks[j].kind == "jml":
                    attached.append(toks[j])
                j += 1
            has_body = toks[j].is_op("{")
            end = skip_balanced(toks, j, "{", "}") if has_body else j + 1
            jml = [tk for a in attached for tk in self.jml_of.get(a.pos, [])]
            ann = Annotations(jml, self.file)
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
                j = skip_balanced(toks, j, "{", "}")
                continue
            j += 1
        ann = Annotations(jml, self.file)
        cls.models.extend(ann.models)
        cls.invariants.extend(ann.invariants)
        for name, ty in declarators(header, [x for x in toks[i:j] if x.kind != "jml"]):
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
        ann = Annotations(jml, self.file)
        cls.models.extend(ann.models)


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
