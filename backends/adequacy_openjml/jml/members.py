"""What the reader makes of a Java+JML file: classes, fields, methods, spec cases, clauses.

Plain dataclasses with no parsing of their own, so every checker and engine can import the
model without importing the reader (and its limits and error paths).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cached_property

from .lexer import Token


@dataclass
class JmlClause:
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
    requires: list[JmlClause] = field(default_factory=list)
    ensures: list[JmlClause] = field(default_factory=list)
    signals: list[JmlClause] = field(default_factory=list)
    assignable: list[JmlClause] = field(default_factory=list)
    old: list[JmlClause] = field(default_factory=list)
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


def result_types(methods: list[JavaMethod]) -> dict[str, str]:
    """Result types of ``methods`` by name, where every declaration of the name agrees (an
    overload with another result type leaves the name out: its calls' type is not known
    from the name alone)."""
    seen: dict[str, set[str]] = {}
    for m in methods:
        if m.return_type is not None:
            seen.setdefault(m.name, set()).add(m.return_type.strip())
    return {n: next(iter(ts)) for n, ts in seen.items() if len(ts) == 1}


@dataclass
class JavaField:
    name: str
    type: str
    modifiers: set[str]
    line: int

    @property
    def may_change(self) -> bool:
        """Whether a method may change what the field reads as: any field that is not final,
        and a final one whose value has state of its own (an array, a collection, an object of
        the program's classes: ``final int[] data`` keeps its reference while ``data[0] = v``
        changes what ``data[0]`` reads). Only primitives and the immutable library types
        count as unchanging."""
        base = re.sub(r"\s+", "", self.type).rsplit(".", 1)[-1]
        return "final" not in self.modifiers or base not in IMMUTABLE_TYPES


IMMUTABLE_TYPES = {"int", "long", "short", "byte", "char", "boolean", "double", "float",
                   "String", "Integer", "Long", "Short", "Byte", "Character", "Boolean",
                   "Double", "Float", "BigInteger", "BigDecimal"}
"""Types whose values no method can change (a final field of one reads the same after a call)."""


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
    invariants: list[JmlClause] = field(default_factory=list)
    """``invariant`` clauses (the predicate's tokens): type-checked, not evaluated."""
    modifiers: set[str] = field(default_factory=set)
    """JML modifiers written before the class (``nullable_by_default``, ``spec_java_math``...)."""

    @cached_property
    def methods_by_name(self) -> dict[str, list[JavaMethod]]:
        """Methods, then model methods, by name in declaration order. Built on first use,
        after the reader has filled the class, and kept on the class: the checkers are made
        once per helper body, and rebuilding this per body made a spec of 15,000 helpers cost
        minutes."""
        out: dict[str, list[JavaMethod]] = {}
        for m in self.methods + self.models:
            out.setdefault(m.name, []).append(m)
        return out

    @cached_property
    def fields_by_name(self) -> dict[str, JavaField]:
        """Fields by name (the last declaration of a name wins), built once like
        ``methods_by_name``."""
        return {f.name: f for f in self.fields}


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
