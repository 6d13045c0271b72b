"""Our own syntax tree for Verus spec items and expressions.

Plain dataclasses, so the evaluator, the policy checker and the corpus tools can pattern-match
on them without depending on any Rust tooling. Every node keeps its source line for messages.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# ---------------------------------------------------------------- types


@dataclass(slots=True)
class TypeRef:
    """A written type; ``name`` is the last path segment (``Seq``, ``u64``, ``tuple``,
    ``spec_fn`` whose last arg is the result, ``unit``)."""

    name: str
    args: list[TypeRef] = field(default_factory=list)
    path: tuple[str, ...] = ()

    def __str__(self) -> str:
        if self.name == "tuple":
            return "(" + ", ".join(map(str, self.args)) + ")"
        if self.args:
            return f"{self.name}<{', '.join(map(str, self.args))}>"
        return self.name


# ---------------------------------------------------------------- expressions


@dataclass(slots=True)
class Expr:
    line: int


@dataclass(slots=True)
class Lit(Expr):
    value: object
    kind: str
    """int | bool | char | str | bytestr | float | unit"""
    suffix: str | None = None


@dataclass(slots=True)
class Path(Expr):
    segs: tuple[str, ...]
    generics: list[TypeRef] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.segs[-1]


@dataclass(slots=True)
class Unary(Expr):
    op: str
    """! - & *"""
    e: Expr


@dataclass(slots=True)
class Binary(Expr):
    op: str
    l: Expr  # noqa: E741
    r: Expr
    span: tuple[int, int, int] | None = None
    """Token indices (start, operator, end) in the module's tokens, when parsed from text."""


@dataclass(slots=True)
class Chain(Expr):
    """Chained comparison ``a <= b < c``: ``ops[i]`` relates ``operands[i]`` and ``[i+1]``."""

    ops: list[str]
    operands: list[Expr]
    spans: list[tuple[int, int]] | None = None
    """Token index range of each operand, when parsed from text."""


@dataclass(slots=True)
class Cast(Expr):
    e: Expr
    ty: TypeRef
    span: tuple[int, int, int] | None = None
    """Token indices (start, ``as``, end) in the module's tokens, when parsed from text."""


@dataclass(slots=True)
class Is(Expr):
    e: Expr
    variant: str


@dataclass(slots=True)
class Matches(Expr):
    e: Expr
    pat: Pat
    grouped: bool = False
    """Written in parentheses: ``(x matches P) && f(v)`` binds nothing in ``f(v)``."""

    @property
    def binds(self) -> bool:
        """Whether its names reach the operands after it (an unparenthesised matches)."""
        return not self.grouped


@dataclass(slots=True)
class Call(Expr):
    func: Expr
    args: list[Expr]
    arg_spans: list[tuple[int, int]] | None = None
    """Token index range of each argument, when parsed from text."""


@dataclass(slots=True)
class MethodCall(Expr):
    recv: Expr
    name: str
    args: list[Expr]


@dataclass(slots=True)
class Field(Expr):
    e: Expr
    name: str
    """A field name, or a tuple index as decimal text."""


@dataclass(slots=True)
class Arrow(Expr):
    """Verus's ``e->field`` / ``e->Variant_0``: a field of an enum variant."""

    e: Expr
    name: str


@dataclass(slots=True)
class Index(Expr):
    e: Expr
    idx: Expr


@dataclass(slots=True)
class View(Expr):
    e: Expr


@dataclass(slots=True)
class Quant(Expr):
    kind: str
    """forall | exists | choose"""
    params: list[tuple[str, TypeRef | None]]
    body: Expr


@dataclass(slots=True)
class Closure(Expr):
    params: list[tuple[Pat, TypeRef | None]]
    body: Expr


@dataclass(slots=True)
class If(Expr):
    cond: Expr
    then: Expr
    els: Expr | None
    let_pat: Pat | None = None
    """``if let let_pat = cond``"""


@dataclass(slots=True)
class MatchArm:
    pat: Pat
    guard: Expr | None
    body: Expr
    line: int


@dataclass(slots=True)
class Match(Expr):
    scrut: Expr
    arms: list[MatchArm]


@dataclass(slots=True)
class Let:
    pat: Pat
    ty: TypeRef | None
    init: Expr | None
    line: int


@dataclass(slots=True)
class Block(Expr):
    stmts: list[Let | Expr]
    """``let`` statements and expression statements (``assert(..)``, ignored by the evaluator)."""
    tail: Expr | None


@dataclass(slots=True)
class Tuple(Expr):
    elems: list[Expr]


@dataclass(slots=True)
class ArrayLit(Expr):
    elems: list[Expr]


@dataclass(slots=True)
class StructLit(Expr):
    path: Path
    fields: list[tuple[str, Expr]]
    base: Expr | None = None


@dataclass(slots=True)
class MacroCall(Expr):
    """``seq![..]``, ``set![..]``, ``vec![..]``: ``args``; ``map![k => v]``: ``pairs``.
    Any other macro keeps only its name (the policy rejects it)."""

    name: str
    args: list[Expr] = field(default_factory=list)
    pairs: list[tuple[Expr, Expr]] = field(default_factory=list)


@dataclass(slots=True)
class Range(Expr):
    lo: Expr | None
    hi: Expr | None
    inclusive: bool


# ---------------------------------------------------------------- patterns


@dataclass(slots=True)
class Pat:
    line: int


@dataclass(slots=True)
class PWild(Pat):
    rest: bool = False
    """``..`` inside a tuple pattern"""


@dataclass(slots=True)
class PBind(Pat):
    name: str
    sub: Pat | None = None


@dataclass(slots=True)
class PLit(Pat):
    value: object


@dataclass(slots=True)
class PRange(Pat):
    lo: object
    hi: object
    inclusive: bool


@dataclass(slots=True)
class PTuple(Pat):
    elems: list[Pat]


@dataclass(slots=True)
class PVariant(Pat):
    """``Path``, ``Path(p, ..)`` or ``Path { f: p, .. }``."""

    path: tuple[str, ...]
    elems: list[Pat] | None = None
    fields: list[tuple[str, Pat]] | None = None


@dataclass(slots=True)
class POr(Pat):
    alts: list[Pat]


# ---------------------------------------------------------------- items


@dataclass(slots=True)
class Attr:
    text: str
    line: int
    inner: bool = False


@dataclass(slots=True)
class Item:
    line: int
    end_line: int
    attrs: list[Attr]
    text: str
    """Normalised source text of the whole item (token texts joined by single spaces)."""


@dataclass(slots=True)
class UseItem(Item):
    path: str
    words: tuple[str, ...] = ()
    """Token texts of the use tree (identifiers NFC-normalised), for the policy."""


@dataclass(slots=True)
class StructItem(Item):
    name: str
    fields: list[tuple[str, TypeRef]]
    tuple_struct: bool = False
    generics: list[str] = field(default_factory=list)
    field_lines: list[int] = field(default_factory=list)
    """Source line of each field (for messages about a changed skeleton struct)."""


@dataclass(slots=True)
class Variant:
    name: str
    kind: str
    """unit | tuple | struct"""
    fields: list[tuple[str, TypeRef]]
    line: int


@dataclass(slots=True)
class EnumItem(Item):
    name: str
    variants: list[Variant]
    generics: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Param:
    name: str
    ty: TypeRef
    line: int
    pat: Pat | None = None


@dataclass(slots=True)
class FnItem(Item):
    name: str
    mode: str
    """spec | proof | exec"""
    params: list[Param]
    ret_name: str | None
    ret_type: TypeRef | None
    requires: list[Expr] = field(default_factory=list)
    ensures: list[Expr] = field(default_factory=list)
    recommends: list[Expr] = field(default_factory=list)
    decreases: list[Expr] = field(default_factory=list)
    body: Expr | None = None
    """Parsed for spec fns; ``None`` for others (see ``body_span``)."""
    body_span: tuple[int, int] | None = None
    """Token index range of an unparsed (exec/proof) body, for tools like the corpus script."""
    visibility: str = ""
    openness: str = ""
    """open | closed | uninterp | ''"""
    generics: list[str] = field(default_factory=list)
    self_type: str | None = None
    """Enclosing impl's type for methods."""
    has_self: bool = False
    qualifiers: list[str] = field(default_factory=list)
    """Other keywords seen before ``fn`` (``const``, ``unsafe``, ``extern``, ``broadcast`` ...)."""
    unparsed_clauses: list[str] = field(default_factory=list)


@dataclass(slots=True)
class ImplItem(Item):
    self_type: str
    trait: str | None
    fns: list[FnItem]


@dataclass(slots=True)
class OtherItem(Item):
    """Anything else (``mod``, ``trait``, ``const``, ``macro_rules!``, a macro call ...)."""

    kind: str
    name: str = ""


@dataclass
class SpecModule:
    """A parsed spec or skeleton file."""

    path: str | None
    items: list[Item]
    """Flattened: the contents of ``verus!`` / ``exec_spec_unverified!`` blocks are inlined."""
    wrappers: list[tuple[str, int]]
    """Item-level macro blocks seen (``verus``, ``exec_spec_unverified``) with lines."""
    tokens: list = field(default_factory=list)
    normalized: str = ""
    skipped: list[tuple[str, int]] = field(default_factory=list)
    """Constructs the parser read past without building a tree (what, line)."""

    @property
    def fns(self) -> dict[str, FnItem]:
        return {i.name: i for i in self.items if isinstance(i, FnItem)}

    @property
    def structs(self) -> dict[str, StructItem]:
        return {i.name: i for i in self.items if isinstance(i, StructItem)}

    @property
    def enums(self) -> dict[str, EnumItem]:
        return {i.name: i for i in self.items if isinstance(i, EnumItem)}

    @property
    def impls(self) -> list[ImplItem]:
        return [i for i in self.items if isinstance(i, ImplItem)]

    def all_fns(self) -> list[FnItem]:
        out = [i for i in self.items if isinstance(i, FnItem)]
        for im in self.impls:
            out.extend(im.fns)
        return out


def children(x: object) -> list[Expr | MatchArm | Let]:
    """The sub-nodes of an expression, match arm or ``let`` (fields, lists, and tuples in
    lists such as struct-literal fields), in field order: the one child walk that the front
    end, the interpreter and exec_spec's fidelity check share."""
    out: list[Expr | MatchArm | Let] = []
    if not isinstance(x, (Expr, MatchArm, Let)):
        return out
    for name in x.__slots__:
        v = getattr(x, name, None)
        if isinstance(v, (Expr, MatchArm, Let)):
            out.append(v)
        elif isinstance(v, list):
            for y in v:
                if isinstance(y, tuple):
                    out.extend(z for z in y if isinstance(z, (Expr, Let)))
                elif isinstance(y, (Expr, MatchArm, Let)):
                    out.append(y)
    return out
