"""Parse the JML annotations attached to one Java member: modifiers, spec cases, model methods.

The class reader hands over the tokens of every ``//@`` / ``/*@ @*/`` comment before (or
inside) a member; this module turns them into ``SpecCase`` lists (nested ``{| |}`` cases
desugared to flat ones), class invariants and ``model`` methods, and raises ``SpecInvalid``
with the line for anything it cannot place.
"""

from __future__ import annotations

from adequacy.plugin import SpecInvalid

from .declarations import join_type, parameters, skip_balanced
from .keywords import (
    BEHAVIORS,
    CLASS_LEVEL_SKIPPED,
    IGNORED_CLAUSES,
    JAVA_MODIFIERS,
    JML_MODIFIERS,
    RECORDED_CLAUSES,
)
from .lexer import Token
from .members import JavaMethod, JmlClause, SpecCase

MAX_CASE_NESTING = 40
"""``{|`` inside ``{|`` the reader follows (it recurses once per level; hostile input may nest
thousands)."""
MAX_CASES = 10_000
"""Flat spec cases a method's nested cases may desugar into: one per nested case written (each
carrying its enclosing clauses, so the copies grow with the nesting depth)."""


def annotation_text(raw: str) -> str:
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


def _joined(outer: SpecCase, inner: SpecCase, ann: Annotations) -> SpecCase:
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


class Annotations:
    """Parse the JML tokens attached to one member: modifiers, spec cases, model members."""

    def __init__(self, toks: list[Token], file: str | None) -> None:
        self.file = file
        self.toks = toks + [Token("eof", "", toks[-1].line if toks else 0)]
        self.modifiers: set[str] = set()
        self.cases: list[SpecCase] = []
        self.models: list[JavaMethod] = []
        self.invariants: list[JmlClause] = []
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
                    clause = JmlClause(RECORDED_CLAUSES[t.text], body, t.line,
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
                    self.invariants.append(JmlClause("invariant", body, t.line,
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
        close = skip_balanced(toks, i, "(", ")")
        params = parameters(toks[i + 1:close - 1])
        j = close
        while toks[j].kind != "eof" and not toks[j].is_op("{", ";"):
            j += 1
        has_body = toks[j].is_op("{")
        end = skip_balanced(toks, j, "{", "}") if has_body else j + 1
        name = header[-1].text if header else "?"
        body_src = render_body(toks[j:end]) if has_body else ";"
        rtype = join_type(header[:-1])
        m = JavaMethod(name, rtype, params, mods, line, 0, 0, (0, 0), list(self.cases),
                       model=True, has_body=has_body)
        self.cases = []
        m.source = body_src
        self.models.append(m)
        return end


def render_body(toks: list[Token]) -> str:
    """Java text of tokens, one line per source line so javac's line numbers stay useful."""
    out: list[str] = []
    line = toks[0].line if toks else 0
    for t in toks:
        if t.line > line:
            out.append("\n" * (t.line - line))
            line = t.line
        out.append(t.text + " ")
    return "".join(out)
