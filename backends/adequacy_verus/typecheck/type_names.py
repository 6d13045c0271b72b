"""Type names that exist nowhere: rustc's E0412, found before any engine runs.

A misspelt or invented type (`x as Int`, a parameter `n: Integer`, a return type `Bool`) is
an error for rustc and so for Verus; the checker used to treat every unknown name as an alias
it could not see and let the spec through (the engines then evaluated it as if the name were
right). A spec cannot declare aliases (`type` items are refused by the policy), so a type name
is known exactly when it is a primitive, a name Rust's prelude or vstd exports, a struct or
enum of the spec, or a generic parameter declared in the spec. Every other name is invalid
with the line of the item, parameter or expression that writes it. Paths (`a::B`) are left
to the policy and to Verus.
"""

from __future__ import annotations

from adequacy.plugin import SpecInvalid

from ..syntax import ast as A
from ..syntax.lexer import Token

_PRIMITIVES = (
    "bool char str u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize int nat f32 f64 unit "
    "tuple never _ ptr spec_fn Self "
)
PRIMITIVES = frozenset(_PRIMITIVES.split())
_STD_PRELUDE = (
    "Option Result Vec String Box Rc Arc Some None Ok Err HashMap HashSet BTreeMap BTreeSet "
    "VecDeque slice Ghost Tracked FnSpec Fn FnMut FnOnce PhantomData "
)
STD_PRELUDE = frozenset(_STD_PRELUDE.split())
_VSTD = (
    "AgreementRA Argument ArrayAdditionalExecFns ArrayAdditionalSpecFns AtomicCellId "
    "AtomicInvariant AtomicInvariantPredicate AtomicUpdate AuthRA BTreeMapAdditionalSpecFns "
    "Base BasePow2 BlockGuard CellId Commit CompatibleSmallerBaseFor ContainsSpec "
    "CountToken DeepView DeepViewClone DefaultHasherAdditionalSpecFns ElementToken Endian "
    "EndianNat EntrySpecFns FakeMetadata FiniteFull FiniteRange FixedParity "
    "FloatBitsProperties FnWithRequiresEnsures ForLoopGhostIterator ForLoopGhostIteratorNew "
    "FractionRA FutureAdditionalSpecFns Ghost GhostISetAuth GhostISingleton GhostISubset "
    "GhostPersistentISingleton GhostPersistentISubset GhostPersistentSingleton "
    "GhostPersistentSubset GhostSetAuth GhostSingleton GhostSubset HashMapAdditionalSpecFns "
    "HashMapWithView HashSetWithView ISet InstanceId InvCell InvariantBlockGuard "
    "InvariantPredicate JoinHandle KeyValueToken Loc LocalInvariant "
    "ManuallyDropAdditionalFns Map MaybeUninitAdditionalSpecFns Metadata "
    "MonotonicCountToken Multiset MutLinearizer MutOperation NoCopy OccupiedEntrySpecFns "
    "OpenInvariantCredit OptionAdditionalFns PCM PCell PPtr PartialEqIs PartialOrdIs "
    "Predicate ProductRA Prophecy Protocol RangeAll RangeInclusiveView ReadHandle "
    "ReadLinearizer ReadOperation ResourceAlgebra ResultAdditionalSpecFns RwLock "
    "RwLockPredicate Seq Set SharedReference SimpleToken SliceAdditionalExecFns "
    "SliceAdditionalSpecFns SpecString StrSliceExecFns StringExecFns StringExecFnsIsAscii "
    "StringHashMap StringHashSet StringSliceAdditionalSpecFns SumRA SyncSendIfSyncSend "
    "ThreadId ToOwned ToRef Tracked UniqueElementToken UniqueKeyValueToken "
    "UniqueSimpleToken UniqueValueToken UpdateControlFlow UpdatePredicate UpdateTry "
    "VacantEntrySpecFns ValueToken VecAdditionalExecFns VecAdditionalSpecFns "
    "VecDequeAdditionalSpecFns VerusForLoopWrapper View VstdSpecsForRustStdLib WriteHandle "
)
VSTD = frozenset(_VSTD.split())
"""Public type and trait names of vstd (its `pub struct/enum/type/trait` items)."""


def declared_generics(toks: list[Token]) -> set[str]:
    """Every generic parameter the spec declares (`impl<T>`, `fn f<A, B: X>`, `struct S<T>`)."""
    out: set[str] = set()
    for k, t in enumerate(toks):
        opens = None
        if t.kind == "ident" and t.value == "impl" and k + 1 < len(toks) and toks[k + 1].is_p("<"):
            opens = k + 1
        elif t.kind == "ident" and t.value in ("fn", "struct", "enum") and k + 2 < len(toks) \
                and toks[k + 2].is_p("<"):
            opens = k + 2
        if opens is None:
            continue
        depth, j, expect = 0, opens, True
        while j < len(toks) and toks[j].kind != "eof":
            x = toks[j]
            if x.is_p("<"):
                depth += 1
                expect = depth == 1
            elif x.kind == "punct" and str(x.value) in (">", ">>"):
                depth -= len(str(x.value))
                if depth <= 0:
                    break
            elif x.is_p(",") and depth == 1:
                expect = True
            elif x.kind == "ident" and expect and depth == 1 and x.value != "const":
                out.add(str(x.value))
                expect = False
            j += 1
    return out


def check_type_names(spec: A.SpecModule, path: str | None) -> None:
    """Raise ``SpecInvalid`` (E0412) at the first type name that exists nowhere."""
    known = set(PRIMITIVES | STD_PRELUDE | VSTD)
    known |= {s for s in spec.structs} | {e for e in spec.enums}
    known |= declared_generics(spec.tokens)
    for item in spec.items:
        fns: list[A.FnItem] = []
        if isinstance(item, A.FnItem):
            fns = [item]
        elif isinstance(item, A.ImplItem):
            fns = list(item.fns)
            _name(A.TypeRef(item.self_type), known, item.line, path)
        elif isinstance(item, A.StructItem):
            lines = item.field_lines or [item.line] * len(item.fields)
            for (_f, ty), ln in zip(item.fields, lines, strict=False):
                _walk_type(ty, known, ln, path)
        elif isinstance(item, A.EnumItem):
            for v in item.variants:
                for _f, ty in v.fields:
                    _walk_type(ty, known, getattr(v, "line", item.line), path)
        for fn in fns:
            for p in fn.params:
                _walk_type(p.ty, known, p.line, path)
            if fn.ret_type is not None:
                _walk_type(fn.ret_type, known, fn.line, path)
            for part in (fn.body, *fn.requires, *fn.ensures, *fn.recommends, *fn.decreases):
                if part is not None:
                    _walk_expr(part, known, path)


def _walk_expr(e: A.Expr, known: set[str], path: str | None) -> None:
    """Every type written inside an expression: casts, turbofish generics, quantifier and
    closure parameters, ``let`` annotations (the only places the syntax tree keeps one)."""
    stack: list[tuple[object, int]] = [(e, e.line)]
    while stack:
        x, line = stack.pop()
        here = getattr(x, "line", line) or line
        if isinstance(x, A.Cast):
            _walk_type(x.ty, known, here, path)
        elif isinstance(x, A.Path):
            for g in x.generics:
                _walk_type(g, known, here, path)
        elif isinstance(x, (A.Quant, A.Closure)):
            for _p, ty in x.params:
                _walk_type(ty, known, here, path)
        elif isinstance(x, A.Let):
            _walk_type(x.ty, known, here, path)
        stack.extend((c, here) for c in A.children(x))


def _walk_type(t: A.TypeRef | None, known: set[str], line: int, path: str | None) -> None:
    stack = [t]
    while stack:
        x = stack.pop()
        if x is None:
            continue
        _name(x, known, line, path)
        stack.extend(x.args)


def _name(t: A.TypeRef, known: set[str], line: int, path: str | None) -> None:
    if len(t.path) > 1 or t.name in known:
        return
    raise SpecInvalid(f"cannot find type `{t.name}` in this scope [E0412]", file=path,
                      line=line)


__all__ = ["check_type_names", "declared_generics"]
