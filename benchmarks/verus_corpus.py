"""Coverage of the Verus front end and the interp engine on real Verus programs (verus-bench).

Usage: python benchmarks/verus_corpus.py [DATASET_DIR] [--verbose]

DATASET_DIR defaults to ../shared/datasets/verus-bench relative to the repository. For every
``*/verified/*.rs`` program the script extracts each spec fn and each requires/ensures clause
and reports how many parse and how many compile under the interpreter (names, functions and
methods resolved: our "type check"). For ``MBPP/verified/*.rs`` it turns the ``assert_eq!`` /
``assert!`` tests in ``main`` into cases and evaluates each tested function's ensures clauses
on the tested input and output: these functions are verified, so ``false`` is an engine bug.
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adequacy.errors import SpecInvalid
from adequacy_verus.interp import _run_big_stack
from adequacy_verus.interp.compiler import Abort, Budget, CompileError, Program
from adequacy_verus.interp.values import Undef, show
from adequacy_verus.syntax import ast as A
from adequacy_verus.syntax.parser import parse_module
from adequacy_verus.task_from import main_tests
from adequacy_verus.typecheck import check_fn
from adequacy_verus.typecheck.checker import Module as TypeModule

REPO = Path(__file__).resolve().parents[1]


@dataclass
class Stats:
    files: int = 0
    files_parsed: int = 0
    clauses: int = 0
    parsed: int = 0
    checked: int = 0
    check_fail: collections.Counter[str] = field(default_factory=collections.Counter)
    parse_fail: collections.Counter[str] = field(default_factory=collections.Counter)
    tests: int = 0
    verdicts: collections.Counter[str] = field(default_factory=collections.Counter)
    unknown_causes: collections.Counter[str] = field(default_factory=collections.Counter)
    false_cases: list[str] = field(default_factory=list)
    fns: int = 0
    fns_compiled: int = 0
    """Functions whose every clause compiled under interp: the front end accepted them."""
    fns_typed: int = 0
    """Of those, how many the type checker also accepts (goal: all; Verus verified them)."""
    fns_typed_all: int = 0
    """Every spec-bearing function the type checker accepts, compiled under interp or not."""
    type_fail: list[str] = field(default_factory=list)
    test_fail: collections.Counter[str] = field(default_factory=collections.Counter)


_CLAUSE_RE = re.compile(r"\b(requires|ensures|recommends)\b|\bspec\s+fn\b")


def _cause(msg: str) -> str:
    msg = re.sub(r"\(line \d+\)|line \d+|'[^']*'|\"[^\"]*\"|-?\d+", "_", msg)
    return msg[:90]


def fn_clauses(fn: A.FnItem) -> list[tuple[str, A.Expr]]:
    out: list[tuple[str, A.Expr]] = []
    if fn.mode == "spec" and fn.body is not None:
        out.append(("spec fn body", fn.body))
    out += [("requires", e) for e in fn.requires]
    out += [("ensures", e) for e in fn.ensures]
    return out


def check_file(path: Path, st: Stats, verbose: bool) -> None:
    text = path.read_text(encoding="utf-8")
    st.files += 1
    try:
        mod = parse_module(text, str(path))
    except SpecInvalid as err:
        # count the clause keywords we could not read
        n = len(_CLAUSE_RE.findall(text))
        st.clauses += n
        st.parse_fail[_cause(err.message)] += n
        if verbose:
            print(f"PARSE FAIL {err}")
        return
    st.files_parsed += 1
    prog = Program(mod)
    prog.allow_old = True
    tmod = TypeModule.of(mod)
    for fn in mod.all_fns():
        if fn.mode == "other":
            continue
        checked_before = st.checked
        n_clauses = len(fn_clauses(fn))
        _clauses_of(fn, prog, st, verbose, path)
        if not n_clauses:
            continue
        st.fns += 1
        compiled = st.checked - checked_before == n_clauses
        st.fns_compiled += compiled
        try:
            check_fn(tmod, fn, str(path), allow_old=True)
            st.fns_typed_all += 1
            st.fns_typed += compiled
        except SpecInvalid as err:
            st.type_fail.append(f"{path.parent.parent.name}/{err}"
                                + ("" if compiled else " (interp refused it too)"))


def _clauses_of(fn: A.FnItem, prog: Program, st: Stats, verbose: bool, path: Path) -> None:
    names: list[tuple[str, A.TypeRef | None]] = [(p.name, p.ty) for p in fn.params]
    for kind, e in fn_clauses(fn):
        st.clauses += 1
        st.parsed += 1
        before = len(prog.unsupported)
        try:
            if kind == "spec fn body":
                prog.fn_code(prog.fns.get(fn.name) or _method_code(prog, fn))
            else:
                extra = [(fn.ret_name, fn.ret_type)] if kind == "ensures" and fn.ret_name \
                    else []
                prog.compile_expr(e, names + extra)
        except CompileError as ce:
            st.check_fail[_cause(ce.message)] += 1
            if verbose:
                print(f"CHECK FAIL {path.name}:{ce.line}: {ce.message}")
            continue
        new = prog.unsupported[before:]
        if new:
            st.check_fail["unsupported: " + _cause(new[0][0])] += 1
            if verbose:
                print(f"UNSUPPORTED {path.name}:{new[0][1]}: {new[0][0]}")
            continue
        st.checked += 1


def _method_code(prog: Program, fn: A.FnItem) -> Any:
    for tbl in prog.methods.values():
        for fc in tbl.values():
            if fc.item is fn:
                return fc
    raise CompileError(f"no code for {fn.name}", fn.line)


def extract_tests(mod: A.SpecModule) -> list[tuple[str, list[A.Expr], A.Expr | None, bool]]:
    """``(fn name, argument exprs, expected expr or None, expected bool)`` per assert in main."""
    return [(name, args, exp, want) for _line, name, args, exp, want in main_tests(mod)]


def run_tests(path: Path, st: Stats, verbose: bool) -> None:
    text = path.read_text(encoding="utf-8")
    try:
        mod = parse_module(text, str(path))
    except SpecInvalid:
        return
    prog = Program(mod)
    fns = mod.fns
    for name, arg_exprs, expected, want in extract_tests(mod):
        st.tests += 1
        fn = fns.get(name)
        if fn is None or fn.mode != "exec":
            st.test_fail["tested function not found"] += 1
            continue
        if not fn.ensures:
            st.test_fail["function has no ensures"] += 1
            continue
        prog.budget = Budget(5_000_000, 10.0)
        try:
            args = [prog.compile_expr(a, [])() for a in arg_exprs]
            ret = prog.compile_expr(expected, [])() if expected is not None else want
        except (Undef, CompileError, Abort) as e:
            st.test_fail[f"cannot evaluate test values: {_cause(str(e))}"] += 1
            continue
        if len(args) != len(fn.params):
            st.test_fail["arity mismatch"] += 1
            continue
        names: list[tuple[str, A.TypeRef | None]] = [(p.name, p.ty) for p in fn.params]
        if fn.ret_name:
            names.append((fn.ret_name, fn.ret_type))
        vals = args + ([ret] if fn.ret_name else [])
        pre_ok = True
        for clause in fn.requires:
            prog.budget = Budget(5_000_000, 10.0)
            try:
                code = prog.compile_expr(clause, names[:len(fn.params)])
                if _run_big_stack(lambda code=code, args=args: code(*args)) is False:
                    pre_ok = False
            except (Undef, Abort, CompileError):
                pass
        if not pre_ok:
            st.test_fail["test input violates requires (ensures not applicable)"] += 1
            continue
        for k, clause in enumerate(fn.ensures):
            where = f"{path.parent.parent.name}/{path.name}:{clause.line} {name}#{k}"
            try:
                code = prog.compile_expr(clause, names)
            except CompileError as ce:
                st.verdicts["unknown"] += 1
                st.unknown_causes["compile: " + _cause(ce.message)] += 1
                continue
            prog.budget = Budget(5_000_000, 10.0)
            try:
                r = _run_big_stack(lambda code=code, vals=vals: code(*vals))
            except Undef as u:
                st.verdicts["unknown"] += 1
                st.unknown_causes[_cause(u.reason)] += 1
                if verbose:
                    print(f"UNKNOWN {where}: {u.reason}")
                continue
            except Abort as a:
                st.verdicts["unknown"] += 1
                st.unknown_causes[_cause(str(a))] += 1
                continue
            if r is True:
                st.verdicts["true"] += 1
            elif r is False:
                st.verdicts["false"] += 1
                st.false_cases.append(f"{where} args={[show(a, 40) for a in args]} "
                                      f"ret={show(ret, 40)}")
            else:
                st.verdicts["unknown"] += 1
                st.unknown_causes["non-bool clause value"] += 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset", nargs="?", default=str(REPO.parent / "shared" / "datasets"
                                                        / "verus-bench"))
    ap.add_argument("--verbose", "-v", action="store_true")
    ns = ap.parse_args(argv)
    root = Path(ns.dataset)
    if not root.is_dir():
        print(f"dataset not found: {root}", file=sys.stderr)
        return 2
    st = Stats()
    t0 = time.perf_counter()
    files = sorted(root.glob("*/verified/*.rs"))
    for f in files:
        check_file(f, st, ns.verbose)
    for f in sorted(root.glob("MBPP/verified/*.rs")):
        run_tests(f, st, ns.verbose)
    dt = time.perf_counter() - t0

    def pct(a: int, b: int) -> str:
        return f"{100.0 * a / b:.1f}%" if b else "n/a"
    print(f"verus-bench corpus: {root}")
    print(f"files parsed:     {st.files_parsed}/{st.files} ({pct(st.files_parsed, st.files)})")
    print(f"clauses (spec fn bodies, requires, ensures): {st.clauses}")
    print(f"  parse:          {st.parsed}/{st.clauses} ({pct(st.parsed, st.clauses)})")
    print(f"  compile/check:  {st.checked}/{st.clauses} ({pct(st.checked, st.clauses)})")
    print(f"spec-bearing functions: {st.fns}; all clauses compile under interp: "
          f"{st.fns_compiled}; of those, type-check: {st.fns_typed} "
          f"(rejected: {st.fns_compiled - st.fns_typed}; Verus verified them, goal 0); "
          f"type-check among all {st.fns}: {st.fns_typed_all}")
    print(f"MBPP tests from main: {st.tests}; ensures evaluations: "
          f"true={st.verdicts['true']} false={st.verdicts['false']} "
          f"unknown={st.verdicts['unknown']}")
    print(f"time: {dt:.1f}s")
    for title, ctr in (("parse failures", st.parse_fail), ("check failures", st.check_fail),
                       ("unknown causes", st.unknown_causes),
                       ("tests not evaluated", st.test_fail)):
        if ctr:
            print(f"\n{title} by cause:")
            for cause, n in ctr.most_common():
                print(f"  {n:4d}  {cause}")
    if st.type_fail:
        print("\nverified functions the type checker rejects (checker bugs):")
        for c in st.type_fail:
            print("  " + c)
    if st.false_cases:
        print("\nFALSE on verified functions (engine bugs):")
        for c in st.false_cases:
            print("  " + c)
    return 0


if __name__ == "__main__":
    sys.exit(main())
