"""Checks of the clauses outside requires/ensures: ``signals`` predicates and class invariants.

Why a module of its own: these run name resolution and then the type checker on the same
predicate, and ``resolve`` already asks ``typecheck`` for argument types in its messages; kept
in either of the two, the pair would import each other.
"""

from __future__ import annotations

from adequacy.plugin import SpecInvalid

from .members import JavaClass, JavaMethod
from .resolve import check_names
from .typecheck import UNKNOWN, Checker


def check_signals(cls: JavaClass, method: JavaMethod, file: str | None) -> None:
    """Raise ``SpecInvalid`` when the predicate of a ``signals (E e) P;`` clause names what
    does not exist or is not boolean (JML RM 9.9.4: P is a boolean predicate over the
    pre-state, the exception ``e`` and the post-state; ``\\result`` is not in scope). No
    engine evaluates ``signals`` (exceptional cases are unknown), but a type error there is
    still an ill-formed spec. A predicate the parser cannot read is left alone."""
    from .parser import parse_expression  # the parser imports nothing of this module
    c = Checker(cls, method, file)
    for sc in method.spec:
        for cl in sc.signals:
            if cl.keyword != "signals" or not cl.tokens or not cl.tokens[0].is_op("("):
                continue
            depth, close = 0, len(cl.tokens)
            for k, t in enumerate(cl.tokens):
                depth += t.is_op("(") - t.is_op(")")
                if depth == 0:
                    close = k
                    break
            binder = [t for t in cl.tokens[1:close] if t.kind == "ident"]
            pred = [t for t in cl.tokens[close + 1:] if not t.is_op(";") and t.kind != "eof"]
            if not pred:
                continue  # ``signals (E e);`` means ``signals (E e) true;``
            try:
                e = parse_expression(pred, file)
            except (SpecInvalid, RecursionError):
                continue
            names = {binder[-1].text: UNKNOWN} if len(binder) >= 2 else {}
            check_names(cls, method, [(e, cl.line)], [], file, clause="signals", bound=names)
            c.expect_bool(e, names, "a signals clause")


def check_invariants(cls: JavaClass, file: str | None) -> None:
    """Raise ``SpecInvalid`` when an ``invariant`` names what the class lacks or is not
    boolean (JML RM 8.2: a boolean predicate over the object's fields; no parameters, no
    ``\\result``). Checked as an instance invariant (a ``static`` one that reads an instance
    field is accepted). A predicate the parser cannot read is left alone."""
    from .parser import parse_expression
    scope = JavaMethod("<invariant>", "boolean", [], set(), 0, 0, 0, (0, 0))
    c = Checker(cls, scope, file)
    for cl in cls.invariants:
        toks = [t for t in cl.tokens if t.kind != "eof"]
        if not toks:
            continue
        try:
            e = parse_expression(toks, file)
        except (SpecInvalid, RecursionError):
            continue
        check_names(cls, scope, [(e, cl.line)], [], file, clause="invariant")
        c.expect_bool(e, {}, "an invariant")
