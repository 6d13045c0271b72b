"""The spec's Java+JML as KeY 2.12.3 can load it, without changing what any stub proves.

Why: on real corpora KeY refused whole files for reasons that have nothing to do
with the case being checked, and every case of the spec was then unknown:
- its JavaRedux library has no ``java.lang.Short`` or ``Byte`` and no ``Character.MIN_VALUE``
  / ``MAX_VALUE``, so those constants are inlined, as a cast literal of the constant's own type
  (JLS 4.2.1: the values are exact, and the cast keeps the type, so promotion, overload and
  concatenation behave as with the named constant);
- loop annotations in bodies no stub executes (the target's body: the stubs never call it, and
  methods that are not pure cannot be called from a spec) are dropped, since KeY parses and
  checks them (``decreases`` missing, clauses of other dialects) although nothing proves them;
- the JML ``function`` modifier is unknown to KeY: it becomes ``pure`` (a function is a pure
  method whose result depends on its arguments only, JML Reference Manual 7.1.1.4), which
  asks KeY to assume less, never more;
- KeY 2.12.3 cannot resolve unary minus on a ``short``, ``byte`` or ``char`` operand ("Cannot
  resolve JML operation - num (types (type, sort): (short,int))"), so ``-x`` of such a
  parameter or stub local becomes ``-((int) x)``: unary numeric promotion converts the operand
  to ``int`` before negating it (JLS 15.15.4), so the value is the same;
- a quantifier written as a whole clause without parentheses (``ensures \\forall int i; R; B;``,
  OpenJML accepts it) is parenthesised in the helpers' clauses KeY reads (the target's own
  clauses are blanked: the stubs assert the front end's formulas, fully parenthesised).
Every edit keeps lines, so KeY's line numbers still point at the spec's lines.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ...jml.load import JmlSpec
from ...jml.members import JavaMethod, result_types
from ...jml.model_bodies import body_value
from ...jml.reader import split_comments
from .model_guard import WIDENED, Unbounded, free_name, guarded_body

CONSTANTS = {
    ("Short", "MAX_VALUE"): "((short) 32767)", ("Short", "MIN_VALUE"): "((short) (-32768))",
    ("Byte", "MAX_VALUE"): "((byte) 127)", ("Byte", "MIN_VALUE"): "((byte) (-128))",
    ("Character", "MAX_VALUE"): "((char) 65535)", ("Character", "MIN_VALUE"): "((char) 0)",
    ("Short", "SIZE"): "16", ("Byte", "SIZE"): "8", ("Character", "SIZE"): "16",
    ("Short", "BYTES"): "2", ("Byte", "BYTES"): "1", ("Character", "BYTES"): "2",
}
"""Values from the Java SE API (java.lang.Short, Byte, Character); KeY's JavaRedux has
``Integer`` and ``Long`` constants itself."""

_CONSTANT = re.compile(
    r'"(?:\\.|[^"\\\n])*"'  # string literal: left alone
    r"|'(?:\\.|[^'\\\n])+'"  # char literal: left alone
    r"|(?<![\w$.])(?:java\s*\.\s*lang\s*\.\s*)?(Short|Byte|Character)\s*\.\s*"
    r"(MAX_VALUE|MIN_VALUE|SIZE|BYTES)\b")
_OWN_TYPE = re.compile(r"\b(?:class|interface|enum|record)\s+(Short|Byte|Character)\b")

LOOP_WORDS = frozenset({
    "maintaining", "maintaining_redundantly", "loop_invariant", "loop_invariant_redundantly",
    "decreases", "decreases_redundantly", "decreasing", "decreasing_redundantly",
    "loop_modifies", "loop_assigns", "loop_writes", "loop_determines"})
PURE = frozenset({"pure", "strictly_pure", "spec_pure"})
_MODIFIERS = frozenset({
    "public", "private", "protected", "static", "final", "abstract", "model", "ghost",
    "instance", "helper", "nullable", "non_null", "spec_public", "spec_protected", "function",
    "query", "no_state", "two_state", "code", "extract", *PURE})
_CLAUSE = re.compile(r"\b(requires|ensures|pre|post|invariant|requires_redundantly|"
                     r"ensures_redundantly)\s+(\\forall|\\exists)\b")
_NEXT_CLAUSE = re.compile(r"\b(requires|ensures|assignable|modifies|writes|accessible|"
                          r"signals|signals_only|diverges|measured_by|also|public|private|"
                          r"protected|normal_behavior|normal_behaviour|exceptional_behavior|"
                          r"exceptional_behaviour|behavior|behaviour|invariant|"
                          r"requires_redundantly|ensures_redundantly)\b")

Edit = tuple[int, int, str]


def key_parts(spec: JmlSpec, text: str, cut: int) -> tuple[str, str]:
    """``text[:cut]`` and ``text[cut:]`` with the edits above; ``text`` is the spec file with
    the target's own JML blanked (same offsets as ``spec.source.text``)."""
    edits = source_edits(spec, text)
    head = _apply(text[:cut], [e for e in edits if e[1] <= cut])
    tail = _apply(text[cut:], [(a - cut, b - cut, t) for a, b, t in edits if a >= cut])
    return head, tail


def verify_source(spec: JmlSpec) -> str:
    """The spec file for ``adequacy verify``, which proves the real body: its loop
    annotations stay (the proof needs them); the other edits apply."""
    text = spec.source.text
    return inline_constants(_apply(text, source_edits(spec, text, loops=False)))


def source_edits(spec: JmlSpec, text: str, loops: bool = True) -> list[Edit]:
    """Edits at offsets of ``spec.source.text`` (loop annotations unless ``loops`` is false,
    ``function``, clause quantifiers), not overlapping, in file order."""
    src = spec.source
    methods = [m for c in src.classes for m in c.methods if not m.model]
    returns = result_types([m for c in src.classes for m in c.methods + c.models])
    edits: list[Edit] = []
    code, jml = split_comments(src.text, src.file)
    # one token per JML comment, at its offset (``jml_tokens`` are the comments' own tokens)
    for tok in jml:
        end = _comment_end(src.text, tok.pos)
        if text[tok.pos:end] != src.text[tok.pos:end]:
            continue  # blanked already (the target's own spec)
        words = tok.text.split()
        if not words:
            continue
        owner = _owner(methods, tok.pos)
        inside = owner is not None and owner.start <= tok.pos < owner.end
        unreached = owner is not None and (owner.start == spec.method.start
                                           or not owner.is_pure)
        if loops and owner is not None and inside and unreached and (
                words[0] in LOOP_WORDS or tok.pos > _body_open(code, owner)):
            # no stub runs this body: its JML (loop annotations, and ghost declarations,
            # ``set``, ``assert`` in a block with them, which KeY parses all the same) is
            # blanked whole
            edits.append((tok.pos, end, _blank(src.text[tok.pos:end])))
            continue
        edits += _function_edits(src.text, tok.pos, end, owner)
        edits += model_edits(src.text, tok.pos, end, returns)
        edits += _quantifier_edits(src.text, tok.pos, end)
        if owner is not None:
            cls = next((c for c in src.classes if owner in c.methods), None)
            fields = {f.name for f in cls.fields} if cls is not None else set()
            small = {n for t, n in owner.params if t in SMALL_INTS} - fields
            edits += minus_edits(src.text, tok.pos, end, small)
    return sorted(edits)


def _body_open(code: str, m: JavaMethod) -> int:
    """Offset of the ``{`` opening ``m``'s body in ``code`` (comments blanked): the first
    after its parameter list; the method's end when there is none."""
    close = code.find(")", m.start, m.end)
    at = code.find("{", close if close >= 0 else m.start, m.end)
    return at if at >= 0 else m.end


SMALL_INTS = frozenset({"short", "byte", "char"})
_NAME = re.compile(r"[A-Za-z_$][\w$]*")


def minus_edits(text: str, start: int, end: int, names: set[str] | frozenset[str]
                ) -> list[Edit]:
    """``-x`` -> ``-((int) x)`` in ``text[start:end]`` for ``x`` in ``names`` (variables of a
    type narrower than ``int``): a unary ``-`` (after an operator, a ``(`` or the start, not
    after an operand) before the bare name (not a field access, call or index)."""
    out: list[Edit] = []
    if not names:
        return out
    k = text.find("-", start, end)
    while 0 <= k < end:
        j = k + 1
        while j < end and text[j] in " \t":
            j += 1
        close = ""
        if j < end and text[j] == "(":  # the front end's `-(x)`
            j += 1
            while j < end and text[j] in " \t":
                j += 1
            close = ")"
        m = _NAME.match(text, j, end)
        p = k - 1
        while p >= start and text[p] in " \t\r\n@":
            p -= 1
        unary = p < start or not (text[p].isalnum() or text[p] in "_$)]'\"")
        after = m.end() if m else j
        while after < end and text[after] in " \t":
            after += 1
        bare = after >= end or text[after] not in ".([" if not close else \
            after < end and text[after] == ")"
        if m is not None and m.group(0) in names and unary and bare:
            out.append((m.start(), m.start(), "((int) "))
            out.append((m.end(), m.end(), ")"))
        k = text.find("-", k + 1, end)
    return out


def promote_minus(text: str, names: set[str] | frozenset[str]) -> str:
    """``text`` with ``minus_edits`` applied (a stub's assertion and its typed locals)."""
    return _apply(text, minus_edits(text, 0, len(text), names))


def _owner(methods: list[JavaMethod], pos: int) -> JavaMethod | None:
    """The method an annotation at ``pos`` is in, else the next one (modifiers come first)."""
    for m in methods:
        if m.start <= pos < m.end:
            return m
    after = [m for m in methods if m.start > pos]
    return min(after, key=lambda m: m.start) if after else None


def _comment_end(text: str, pos: int) -> int:
    if text.startswith("//", pos):
        j = text.find("\n", pos)
        return len(text) if j < 0 else j
    j = text.find("*/", pos + 2)
    return len(text) if j < 0 else j + 2


def _blank(s: str) -> str:
    return "".join(ch if ch == "\n" else " " for ch in s)


def _function_edits(text: str, start: int, end: int, owner: JavaMethod | None) -> list[Edit]:
    """``function`` among the modifiers that open an annotation, or that follow its last
    clause, becomes ``pure`` (or spaces when the member is pure already or a model method,
    which is pure by definition). KeY 2.12.3 reads ``/*@ function @*/`` between Java
    modifiers but refuses it in those two places ("no viable alternative")."""
    body = text[start + 3:end]
    mods = r"(?:[\s@]*\b(?:" + "|".join(sorted(_MODIFIERS)) + r")\b)+"
    runs = [m for m in (re.match(mods, body), re.search(r";(" + mods + r")[\s@*/]*$", body))
            if m is not None]
    # a model method declared after the annotation's clauses: `ensures ...; public model
    # function static pure long f(int n) { ... }` (SpecGen's spec_factorial)
    runs += [m for m in re.finditer(r"(?<=;)" + mods + r"(?=\s+[\w$.<>\[\]]+\s+[\w$]+\s*\()",
                                    body) if m.start() > 0]
    words = {w for r in runs for w in re.findall(r"\w+", r.group(0))}
    if "function" not in words:
        return []
    pure = bool(words & PURE) or "model" in words or (
        owner is not None and bool(owner.modifiers & PURE))
    out: list[Edit] = []
    for r in runs:
        for f in re.finditer(r"\bfunction\b", r.group(0)):
            at = start + 3 + r.start() + f.start()
            out.append((at, at + len("function"), "        " if pure else "pure    "))
            pure = True  # one ``pure`` is enough
    return out


_MODEL_SIG = re.compile(r"\bmodel\b[^;{}()]*?\b(?P<rt>[\w$.\[\]]+)\s+(?P<name>[\w$]+)\s*"
                        r"\((?P<ps>[^()]*)\)\s*(?P<open>\{)?")
_PARAM = re.compile(r"(?:^|,)\s*(?:final\s+)?(?P<t>[\w$.\[\]<>]+)\s+[\w$]+\s*")


def model_edits(text: str, start: int, end: int,
                returns: Mapping[str, str] | None = None) -> list[Edit]:
    """Model methods declared in the annotation ``text[start:end]``, as KeY 2.12.3 reads them
    (SpecGen's ``spec_factorial``), lines kept:

    - integral parameters (``int``, ``long``, ``short``, ``byte``) become ``\\bigint``: in
      bigint spec math an argument such as ``n - 1`` is ``\\bigint``, and KeY does not narrow
      it to an ``int`` parameter ("Method spec_factorial(\\bigint) not found"). The body's
      guard (below) requires every argument to lie in its declared type's range.
    - a body ``{ if (C) { return A; } else { assert X; return B; } }`` is read as
      ``(C) ? (A) : (B)``: KeY reads a model method's body only as one ``return`` ("missing
      'return' at 'if'"). The conditional picks the branch the ``if`` would run (JLS 15.25);
      the ``assert`` is a check on the body, not part of the value it defines.
    - the body's value is defined only where Java's arithmetic agrees with KeY's
      mathematical integers (``model_guard``): elsewhere, and for every body of another shape,
      the value is a body-less twin's, about which KeY knows nothing (unknown, never wrong).
    ``returns``: result types of the class's methods by name, which type the guard's
    operands (an unknown type counts as ``int``, the stricter range)."""
    body = text[start:end]
    out: list[Edit] = []
    for m in _MODEL_SIG.finditer(body):
        params = _params(m.group("ps"))
        for p in _PARAM.finditer(m.group("ps")):
            if p.group("t") in WIDENED:
                a = start + m.start("ps") + p.start("t")
                out.append((a, a + len(p.group("t")), "\\bigint"))
        if m.group("open") is None or params is None:
            continue
        o = m.start("open")
        depth, k = 0, o
        while k < len(body):
            depth += {"{": 1, "}": -1}.get(body[k], 0)
            if depth == 0:
                break
            k += 1
        if k >= len(body):
            continue
        block = body[o:k + 1]
        flat = re.sub(r"(?m)^[ \t]*@(?!\*)", " ", block)
        name, rt = m.group("name"), m.group("rt")
        shape = body_value(flat)
        args = ", ".join(n for _t, n in params)
        try:
            if shape is None:
                raise Unbounded("not one return")
            new = guarded_body(shape, params, rt, name, _line_at(text, start + o),
                               returns or {})
        except Unbounded:
            new = f"{{ return {free_name(name)}({args}); }}"
        static = "static " if re.search(r"\bstatic\b", _declaration(body, m.start())
                                        + m.group(0)) else ""
        widened = ", ".join(("\\bigint" if t in WIDENED else t) + " " + n for t, n in params)
        twin = f" public model {static}pure {rt} {free_name(name)}({widened});"
        out.append((start + o, start + k + 1, new + twin + "\n" * block.count("\n")))
    return out


def _params(ps: str) -> list[tuple[str, str]] | None:
    """(type, name) of a model method's parameters, or None where we do not read them
    (generic types: a comma inside ``<>``)."""
    if "<" in ps:
        return None
    out: list[tuple[str, str]] = []
    for part in ps.split(","):
        words = [w for w in part.replace("final ", " ").split() if w]
        if not words:
            continue
        if len(words) != 2:
            return None
        out.append((words[0], words[1]))
    return out


def _declaration(body: str, at: int) -> str:
    """The modifiers before ``model`` at ``at``: back to the previous ``;``, brace or the
    annotation's opening."""
    k = at
    while k > 0 and body[k - 1] not in ";{}":
        k -= 1
    return body[k:at]


def _line_at(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _quantifier_edits(text: str, start: int, end: int) -> list[Edit]:
    """Parentheses around a clause that is one bare quantifier: its range and body run to
    the last ``;`` before the next clause keyword (or the annotation's end)."""
    body = text[start:end]
    out: list[Edit] = []
    for m in _CLAUSE.finditer(body):
        q = m.start(2)
        stop = _next_clause(body, m.end())
        semi = body.rfind(";", q, stop)
        if semi < 0 or body.count(";", q, semi) < 1:
            continue  # not a whole clause we can delimit: left to KeY
        out.append((start + q, start + q, "("))
        out.append((start + semi, start + semi, ")"))
    return out


def parenthesise_quantifiers(annotation: str) -> str:
    """One JML annotation's text with its bare quantifier clauses parenthesised."""
    return _apply(annotation, _quantifier_edits(annotation, 0, len(annotation)))


def _next_clause(body: str, at: int) -> int:
    """Where the next clause starts: a clause keyword right after a ``;`` (layout and ``@``
    between them), so an identifier such as ``post`` inside the quantifier is not one."""
    for m in _NEXT_CLAUSE.finditer(body, at):
        k = m.start() - 1
        while k >= at and body[k] in " \t\r\n@":
            k -= 1  # walk back over layout only: linear in the annotation overall
        if k >= at and body[k] == ";":
            return m.start()
    return len(body)


def _apply(text: str, edits: list[Edit]) -> str:
    parts: list[str] = []
    at = 0
    for a, b, new in edits:
        if a < at:
            continue  # overlapping edit: the first one wins
        parts += [text[at:a], new]
        at = b
    parts.append(text[at:])
    return "".join(parts)


def inline_constants(text: str) -> str:
    """``Short.MAX_VALUE`` and friends as literals, outside string and char literals; left
    alone in a file that declares its own type of that name."""
    own = set(_OWN_TYPE.findall(text))

    def repl(m: re.Match[str]) -> str:
        if m.group(1) is None or m.group(1) in own:
            return m.group(0)
        return CONSTANTS[(m.group(1), m.group(2))]

    return _CONSTANT.sub(repl, text)
