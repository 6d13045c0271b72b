"""interp and exec_spec side by side on Verus-Bench's MBPP programs: specs accepted, cases decided
per engine, exec_spec's share of what interp decides, and disagreements.

Usage: python benchmarks/verus_bench_engines.py [MBPP_VERIFIED_DIR] [--only task_id_105,...] [-v]

MBPP_VERIFIED_DIR defaults to ../shared/datasets/verus-bench/MBPP/verified (read from there,
never copied). For every verified function that ``main`` tests with ``assert_eq!``/``assert!``
and whose parameter and result types the task schema expresses (no ``&mut``), the script builds
a task in a temporary folder: its inputs are the parameters, its output the named result; its
spec is the file's own spec fns plus ``pre_spec`` = the conjunction of the ``requires`` clauses and
``post_spec`` = the conjunction of the ``ensures`` clauses, with each parameter read as
``input.<name>``, the result as ``output.<name>`` and views (``x@``) dropped, since the task's
values are already ``Seq``s. Cases: each tested input (pre), and each tested input with the
output ``main`` asserts plus a few edits of it (post). The program is verified, so the asserted
output satisfies the ensures whenever the requires hold; the edited outputs have no known
truth, which is fine: what is measured is what each engine decides and whether two engines
ever decide the same case differently (goal 0), and the share exec_spec decides of what interp
decides (goal >= 80%).
"""

from __future__ import annotations

import argparse
import collections
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from verus_corpus import extract_tests  # noqa: E402

from adequacy.errors import AdequacyError, SpecInvalid  # noqa: E402
from adequacy.extensions.backend import Limits, engine_named  # noqa: E402
from adequacy.extensions.registry import registry  # noqa: E402
from adequacy.model.task import Case
from adequacy.model.types import INT_WIDTHS  # noqa: E402
from adequacy.model.verdicts import Bucket, Truth  # noqa: E402
from adequacy.taskdirs.load import load_task, write_cases  # noqa: E402
from adequacy_verus.interp.compiler import Abort, Budget, CompileError, Program  # noqa: E402
from adequacy_verus.interp.values import EnumVal, Undef  # noqa: E402
from adequacy_verus.skeleton import skeleton_for  # noqa: E402
from adequacy_verus.syntax import ast as A  # noqa: E402
from adequacy_verus.syntax.parser import parse_module  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
ENGINES = ("interp", "exec_spec")
_SEQS = {"Vec", "Seq", "array", "slice"}


@dataclass
class Totals:
    files: int = 0
    fns: int = 0
    built: int = 0
    accepted: int = 0
    cases: int = 0
    decided: collections.Counter[str] = field(default_factory=collections.Counter)
    both: int = 0
    exec_of_interp: int = 0
    disagreements: list[str] = field(default_factory=list)
    skipped: collections.Counter[str] = field(default_factory=collections.Counter)
    rejected: list[str] = field(default_factory=list)
    unknown: collections.Counter[str] = field(default_factory=collections.Counter)


def schema_type(t: A.TypeRef) -> str | None:
    """The task schema's name for a Verus parameter type, or None when it has none."""
    if t.name in INT_WIDTHS or t.name in ("bool", "char"):
        return t.name
    if t.name in _SEQS and len(t.args) == 1:
        inner = schema_type(t.args[0])
        return f"seq<{inner}>" if inner else None
    if t.name == "Option" and len(t.args) == 1:
        inner = schema_type(t.args[0])
        return f"option<{inner}>" if inner else None
    if t.name == "tuple" and t.args:
        parts = [schema_type(a) for a in t.args]
        return None if None in parts else "tuple<" + ", ".join(p or "" for p in parts) + ">"
    return None


def to_json(v: Any) -> Any:
    """An interp value as the case files write it."""
    if isinstance(v, EnumVal) and v.enum == "Option":
        return None if v.variant == "None" else {"some": to_json(v.vals[0])}
    if isinstance(v, tuple):
        return [to_json(x) for x in v]
    return v


def _in_range(ty: str, v: int) -> bool:
    bits, signed = INT_WIDTHS[ty]
    lo, hi = (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1) if signed else (0, 2 ** bits - 1)
    return lo <= v <= hi


def edits(ty: A.TypeRef, v: Any) -> list[Any]:
    """A few other values of type ``ty`` near ``v`` (outputs or inputs of unknown truth)."""
    if ty.name == "bool":
        return [not v]
    if ty.name in INT_WIDTHS and isinstance(v, int):
        return [x for x in (v + 1, v - 1) if _in_range(ty.name, x)]
    if ty.name in _SEQS and isinstance(v, list):
        out: list[Any] = []
        if v:
            out.append(v[:-1])
            out += [[e, *v[1:]] for e in edits(ty.args[0], v[0])[:1]]
        out.append(v + v[:1] if v else [])
        return [x for x in out if x != v]
    if ty.name == "Option":
        return [None] if v is not None else []
    if ty.name == "tuple" and isinstance(v, list) and v:
        return [[e, *v[1:]] for e in edits(ty.args[0], v[0])]
    return []


def clause_tokens(mod: A.SpecModule, fn: A.FnItem) -> dict[str, list[list[Any]]] | None:
    """The tokens of each ``requires``/``ensures`` clause of ``fn`` (None when not found)."""
    toks = mod.tokens
    start = next((k for k, t in enumerate(toks) if t.text == "fn" and k + 1 < len(toks)
                  and toks[k + 1].text == fn.name and t.line == fn.line), None)
    if start is None or fn.body_span is None:
        return None
    out: dict[str, list[list[Any]]] = {"requires": [], "ensures": []}
    kind: str | None = None
    depth = 0
    cur: list[Any] = []
    binder = False
    seg = toks[start:fn.body_span[0]]
    for k, t in enumerate(seg):
        if t.text == "|" and (binder or k and seg[k - 1].text in ("forall", "exists", "choose")):
            binder = not binder  # commas between a quantifier's binders split no clause
        if binder:
            cur.append(t)
            continue
        if depth == 0 and t.text in ("requires", "ensures", "recommends", "decreases"):
            if kind and cur:
                out[kind].append(cur)
            kind, cur = (t.text if t.text in out else None), []
            continue
        if t.text in ("(", "[", "{"):
            depth += 1
        elif t.text in (")", "]", "}"):
            depth -= 1
        if depth < 0:
            break
        if kind and depth == 0 and t.text == ",":
            if cur:
                out[kind].append(cur)
            cur = []
            continue
        if kind:
            cur.append(t)
    if kind and cur and cur[-1].text == "{":
        cur.pop()
    if kind and cur:
        out[kind].append(cur)
    return out


def render(clause: list[Any], names: dict[str, str]) -> str:
    """A clause's text with parameters renamed, views and trigger attributes dropped."""
    out: list[str] = []
    k = 0
    while k < len(clause):
        t = clause[k]
        if t.text == "#" and k + 1 < len(clause) and clause[k + 1].text in ("[", "!"):
            j = k + 1 + (clause[k + 1].text == "!")
            depth = 0
            while j < len(clause):
                depth += {"[": 1, "]": -1}.get(clause[j].text, 0)
                j += 1
                if depth == 0:
                    break
            k = j
            continue
        if t.text == "@":
            k += 1
            continue
        prev = clause[k - 1].text if k else ""
        if t.kind == "ident" and t.text in names and prev not in (".", "::"):
            out.append(names[t.text])
        else:
            out.append(t.text)
        k += 1
    return " ".join(out)


def spec_fn_text(text: str, mod: A.SpecModule) -> str:
    """The source lines of the file's spec fns (copied whole: they are the spec's helpers)."""
    lines = text.splitlines()
    return "\n".join("\n".join(lines[f.line - 1:f.end_line]) for f in mod.fns.values()
                     if f.mode == "spec" and f.body is not None)


def build_task(dest: Path, path: Path, text: str, mod: A.SpecModule, fn: A.FnItem,
               tests: list[tuple[list[Any], Any]]) -> tuple[Path, str] | str:
    """(task folder, spec text), or why the function is not scored."""
    body_line = mod.tokens[fn.body_span[0]].line if fn.body_span else fn.line
    if "&mut" in "\n".join(text.splitlines()[fn.line - 1:body_line]):
        return "a &mut parameter"
    if fn.ret_name is None or fn.ret_type is None:
        return "no named result"
    types = {p.name: schema_type(p.ty) for p in fn.params}
    types_out = schema_type(fn.ret_type)
    if None in types.values() or types_out is None:
        return "a type the task schema lacks"
    clauses = clause_tokens(mod, fn)
    if clauses is None:
        return "clauses not found"
    names = {p.name: f"input.{p.name}" for p in fn.params}
    names[fn.ret_name] = f"output.{fn.ret_name}"
    pre = " &&\n    ".join(f"({render(c, names)})" for c in clauses["requires"]) or "true"
    post = " &&\n    ".join(f"({render(c, names)})" for c in clauses["ensures"]) or "true"
    d = dest / f"{path.stem}__{fn.name}"
    (d / "tests").mkdir(parents=True)
    sig_in = "\n".join(f'{n} = "{t}"' for n, t in types.items())
    (d / "task.toml").write_text(
        f'id = "{d.name}"\nlanguage = "verus"\ntitle = "{path.stem} {fn.name}"\n\n'
        f'[signature.input]\n{sig_in}\n\n[signature.output]\n{fn.ret_name} = "{types_out}"\n')
    (d / "skeleton.rs").write_text("placeholder")
    pre_cases: list[Case] = []
    post_cases: list[Case] = []
    for k, (args, ret) in enumerate(tests):
        inp = {p.name: a for p, a in zip(fn.params, args, strict=True)}
        pre_cases.append(Case(id=f"t{k}", bucket=Bucket.pre_complete, input=inp,
                              origin="generated"))
        for j, p in enumerate(fn.params):
            for e, other in enumerate(edits(p.ty, inp[p.name])[:1]):
                pre_cases.append(Case(id=f"t{k}_in{j}_{e}", bucket=Bucket.pre_sound,
                                      input={**inp, p.name: other}, origin="generated"))
        post_cases.append(Case(id=f"t{k}", bucket=Bucket.post_complete, input=inp,
                               output={fn.ret_name: ret}, origin="generated"))
        for e, other in enumerate(edits(fn.ret_type, ret)):
            post_cases.append(Case(id=f"t{k}_out{e}", bucket=Bucket.post_sound, input=inp,
                                   output={fn.ret_name: other}, origin="generated"))
    for b in Bucket:
        write_cases(d, b, [c for c in pre_cases + post_cases if c.bucket is b])
    task = load_task(d)
    (d / "skeleton.rs").write_text(skeleton_for(task))
    skeleton = (d / "skeleton.rs").read_text()
    helpers = spec_fn_text(text, mod)
    spec = skeleton.replace(
        "/// Which inputs the function promises to handle.",
        (helpers + "\n\n" if helpers else "") + "/// Which inputs the function promises to handle.")
    spec = spec.replace("spec fn pre_spec(input: Input) -> bool {\n    true\n}",
                        "spec fn pre_spec(input: Input) -> bool {\n    " + pre + "\n}")
    spec = spec.replace("spec fn post_spec(input: Input, output: Output) -> bool {\n    true\n}",
                        "spec fn post_spec(input: Input, output: Output) -> bool {\n    " + post
                        + "\n}")
    return d, spec


def tests_of(mod: A.SpecModule) -> dict[str, list[tuple[list[Any], Any]]]:
    """Per tested function: (argument values, asserted result) from ``main``'s asserts."""
    prog = Program(mod)
    out: dict[str, list[tuple[list[Any], Any]]] = collections.defaultdict(list)
    for name, arg_exprs, expected, want in extract_tests(mod):
        prog.budget = Budget(5_000_000, 10.0)
        try:
            args = [to_json(prog.compile_expr(a, [])()) for a in arg_exprs]
            ret = to_json(prog.compile_expr(expected, [])()) if expected is not None else want
        except (Undef, CompileError, Abort):
            continue
        out[name].append((args, ret))
    return out


def run_file(path: Path, work: Path, st: Totals, verbose: bool) -> None:
    backend = registry().backends["verus"]
    text = path.read_text(encoding="utf-8")
    st.files += 1
    try:
        mod = parse_module(text, str(path))
    except SpecInvalid as e:
        st.skipped[f"file does not parse: {e.message[:60]}"] += 1
        return
    for name, tests in tests_of(mod).items():
        fn = mod.fns.get(name)
        if fn is None or fn.mode != "exec" or not fn.ensures:
            continue
        st.fns += 1
        built = build_task(work, path, text, mod, fn, tests)
        if isinstance(built, str):
            st.skipped[built] += 1
            continue
        st.built += 1
        d, spec_text = built
        task = load_task(d)
        try:
            spec = backend.load_spec(task, spec_text, str(d / "spec.rs"))
        except (SpecInvalid, AdequacyError) as e:
            st.rejected.append(f"{path.name} {name}: {e}")
            if verbose:
                print(f"REJECTED {path.name} {name}: {e}\n{spec_text}")
            continue
        st.accepted += 1
        cases = task.all_cases()
        st.cases += len(cases)
        got = {en: engine_named(backend, en).check(spec, task, cases, Limits())
               for en in ENGINES}
        for en, vs in got.items():
            st.decided[en] += sum(v.decided for v in vs)
            for v in vs:
                if not v.decided:
                    st.unknown[f"{en}: {(v.reason or '')[:110]}"] += 1
        for c, vi, vx in zip(cases, got["interp"], got["exec_spec"], strict=True):
            if vi.decided and vx.decided:
                st.both += 1
                if vi.value != vx.value:
                    st.disagreements.append(f"{path.name} {name} {c.bucket.value}/{c.id}: "
                                            f"interp {vi.value.value}, exec_spec {vx.value.value}")
        if verbose:
            line = ", ".join(f"{e} {sum(v.decided for v in got[e])}/{len(cases)}"
                             for e in ENGINES)
            print(f"{path.name} {name}: {line}")
            for v in got["exec_spec"]:
                if not v.decided and v.value is Truth.unknown:
                    print(f"    exec_spec unknown: {(v.reason or '')[:200]}")
                    break


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset", nargs="?", type=Path,
                    default=REPO.parent / "shared" / "datasets" / "verus-bench" / "MBPP"
                    / "verified")
    ap.add_argument("--only", default="", help="comma-separated file stems")
    ap.add_argument("--verbose", "-v", action="store_true")
    ns = ap.parse_args(argv)
    if not ns.dataset.is_dir():
        print(f"dataset not found: {ns.dataset}", file=sys.stderr)
        return 2
    backend = registry().backends["verus"]
    for name in ENGINES:
        info = engine_named(backend, name).info()
        if not info.available:
            print(f"engine {name} unavailable: {info.reason}", file=sys.stderr)
            return 2
    only = {s for s in ns.only.split(",") if s}
    st = Totals()
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="adequacy-vb-") as tmp:
        for f in sorted(ns.dataset.glob("*.rs")):
            if only and f.stem not in only:
                continue
            run_file(f, Path(tmp), st, ns.verbose)
    dt = time.perf_counter() - t0

    def pct(a: int, b: int) -> str:
        return f"{100.0 * a / b:.1f}%" if b else "n/a"
    print(f"Verus-Bench MBPP: {ns.dataset}")
    print(f"files {st.files}; tested functions with ensures {st.fns}; tasks built {st.built}; "
          f"specs accepted by the front end {st.accepted}/{st.built}")
    print(f"cases {st.cases}")
    for e in ENGINES:
        print(f"  {e:<10} decided {st.decided[e]:5d} ({pct(st.decided[e], st.cases)})")
    print(f"exec_spec/interp decided share: {pct(st.decided['exec_spec'], st.decided['interp'])} "
          f"(goal >= 80%); both decided {st.both}; disagreements {len(st.disagreements)} "
          "(goal 0)")
    print(f"time {dt:.1f}s")
    if st.skipped:
        print("\nfunctions not scored:")
        for why, n in st.skipped.most_common():
            print(f"  {n:4d}  {why}")
    if st.rejected:
        print("\nspecs the front end refused (each a front-end bug: Verus verified them):")
        for r in st.rejected:
            print("  " + r[:300])
    if st.unknown:
        print("\nunknown by engine and reason:")
        for why, n in st.unknown.most_common(25):
            print(f"  {n:4d}  {why}")
    if st.disagreements:
        print("\nDISAGREEMENTS:")
        for d in st.disagreements:
            print("  " + d)
    return 1 if st.disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
