"""Name resolution of JML clauses: the language errors no engine may decide for itself.

Why here and not in an engine: only the front end may call a spec invalid (docs/design.md,
rule 1), and before this pass existed the rac translator found these errors, so a spec that rac
could not translate was rejected for key and openjml too. The rules follow JML RM 11/12 as
OpenJML applies them: every name is a quantified variable, a parameter, a field of the class
(an instance field only in an instance method's spec), ``this`` (instance methods only) or a
class used as a qualifier; ``\\result`` appears only in ``ensures`` of a non-void method and not
under ``\\old``; a spec may call only pure (or model) methods that return a value; an instance
method cannot be called from a static method's spec; ``\\nothing``/``\\everything`` are not
expressions. Engines translate what passes; a construct an engine cannot compute is its own
gap (``unknown``), never a rejection.
"""

from __future__ import annotations

from dataclasses import dataclass

from adequacy.plugin import SpecInvalid

from . import ast as A
from .members import JavaClass, JavaMethod
from .signatures import LIBRARY_CLASSES


@dataclass(frozen=True)
class _Scope:
    clause: str
    old: bool = False
    quants: frozenset[str] = frozenset()
    qtypes: tuple[tuple[str, str], ...] = ()
    """Each quantified variable's declared type, for javac-worded messages."""


class _Resolver:
    def __init__(self, cls: JavaClass, target: JavaMethod, file: str | None) -> None:
        self.cls, self.target, self.file = cls, target, file
        self.methods: dict[str, list[JavaMethod]] = {}
        for m in cls.methods + cls.models:
            self.methods.setdefault(m.name, []).append(m)

    def err(self, msg: str, line: int) -> SpecInvalid:
        return SpecInvalid(msg, file=self.file, line=line)

    def _has_field(self, name: str) -> bool:
        for f in self.cls.fields:
            if f.name == name:
                return "static" in f.modifiers or not self.target.is_static
        return False

    def _is_param(self, name: str) -> bool:
        return any(n == name for _t, n in self.target.params)

    def is_class(self, e: A.Expr, s: _Scope) -> str | None:
        """``self`` for the spec's own class, the name for a library class, else None."""
        if isinstance(e, A.Name) and e.id not in s.quants and not self._is_param(e.id) \
                and not any(f.name == e.id for f in self.cls.fields):
            if e.id == self.cls.name:
                return "self"
            if e.id in LIBRARY_CLASSES:
                return e.id
        return None

    def visit(self, e: A.Expr, s: _Scope) -> None:
        if isinstance(e, A.Result):
            if s.clause != "ensures":
                raise self.err("\\result may only appear in ensures clauses", e.line)
            if self.target.return_type in (None, "void"):
                raise self.err("\\result used but the method returns void", e.line)
            if s.old:
                raise self.err("\\result inside \\old(...) has no pre-state value", e.line)
        elif isinstance(e, A.Old):
            self.visit(e.expr, _Scope(s.clause, True, s.quants, s.qtypes))
        elif isinstance(e, A.Name):
            self.name(e, s)
        elif isinstance(e, A.Field):
            self.field(e, s)
        elif isinstance(e, A.Call):
            for a in e.args:
                self.visit(a, s)
            own = e.target is None or self.is_class(e.target, s) == "self" or (
                isinstance(e.target, A.Name) and e.target.id == "this")
            if own:
                self.own_call(e, s)
            elif e.target is not None and self.is_class(e.target, s) is None:
                self.visit(e.target, s)
        elif isinstance(e, A.Special):
            if e.name in ("\\nothing", "\\everything"):
                raise self.err(f"{e.name} is not an expression", e.line)
            for a in e.args:
                self.visit(a, s)
        elif isinstance(e, A.Quant):
            inner = _Scope(s.clause, s.old, s.quants | frozenset(e.vars),
                           s.qtypes + tuple((v, e.type) for v in e.vars))
            if e.range is not None:
                self.visit(e.range, inner)
            self.visit(e.body, inner)
        else:
            for x in A.children(e):
                self.visit(x, s)

    def name(self, e: A.Name, s: _Scope) -> None:
        if e.id in s.quants or self._is_param(e.id) or self._has_field(e.id):
            return
        if e.id == "this":
            if self.target.is_static:
                raise self.err("'this' in the spec of a static method", e.line)
            return
        if e.id in LIBRARY_CLASSES or e.id == self.cls.name:
            raise self.err(f"class name {e.id} used as a value", e.line)
        raise self.err(f"cannot find symbol: variable {e.id} (not a parameter, quantified "
                       f"variable or field of {self.cls.name})", e.line)

    def field(self, e: A.Field, s: _Scope) -> None:
        cls = self.is_class(e.obj, s)
        own = cls == "self" or (isinstance(e.obj, A.Name) and e.obj.id == "this")
        if own:
            if not self._has_field(e.name):
                raise self.err(f"cannot find symbol: variable {e.name} in {self.cls.name}",
                               e.line)
            return
        if cls is None:
            self.visit(e.obj, s)

    def arg_types(self, e: A.Call, s: _Scope) -> str:
        """The argument types as javac shows them in "cannot find symbol: method f(int)"."""
        from .typecheck import shown_types  # the checker is only needed for a message
        return ",".join(shown_types(self.cls, self.target, e.args, dict(s.qtypes)))

    def own_call(self, e: A.Call, s: _Scope) -> None:
        same = self.methods.get(e.name, [])
        cands = [m for m in same if len(m.params) == len(e.args)]
        if not cands:
            if same:  # javac's words when only the arity is wrong (JLS 15.12.2)
                want = ",".join(t for t, _n in same[0].params)
                raise self.err(f"method {e.name} in class {self.cls.name} cannot be applied "
                               f"to given types: required ({want}), found "
                               f"({self.arg_types(e, s)}) (actual and formal argument lists "
                               "differ in length)", e.line)
            raise self.err(f"cannot find symbol: method {e.name}({self.arg_types(e, s)}) "
                           f"(not a method of {self.cls.name} nor a model method)", e.line)
        m = cands[0]
        if not (m.is_pure or m.model):
            raise self.err(f"the spec calls {e.name}, which is not pure (mark it "
                           "/*@ pure @*/: specifications may only call pure methods)", e.line)
        if m.return_type in (None, "void"):
            raise self.err(f"{e.name} returns nothing, so it cannot be used in an "
                           "expression", e.line)
        if not m.is_static and self.target.is_static:
            raise self.err(f"instance method {e.name} called from the spec of a static "
                           "method", e.line)


def check_names(cls: JavaClass, method: JavaMethod, requires: list[tuple[A.Expr, int]],
                ensures: list[tuple[A.Expr, int]], file: str | None, clause: str = "requires",
                bound: dict[str, str] | None = None) -> None:
    """Raise ``SpecInvalid`` (file:line) at the first clause that breaks a naming rule.
    ``clause`` names what ``requires`` holds (``signals`` predicates go there too, with the
    exception variable in ``bound``, name to type)."""
    r = _Resolver(cls, method, file)
    names = bound or {}
    for e, _line in requires:
        r.visit(e, _Scope(clause, False, frozenset(names), tuple(names.items())))
    for e, _line in ensures:
        r.visit(e, _Scope("ensures"))
