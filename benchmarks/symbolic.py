"""Symbolic diff and the smt engine on the bundled examples: power and speed, in one run.

Power: for every bundled example task, gold vs each flawed spec (a confirmed counterexample in
a bucket the flaw is expected to fail, `specs/expected.toml`), and gold vs the equivalent
rewrites in `benchmarks/symbolic_rewrites/<language>/<task>/` (proved equivalent, or bounded).
Speed: the median seconds of a symbolic diff of gold vs a flawed Verus spec (solver child and
rac's javac worker warm, answer cache empty), and the smt engine's seconds per decided case beside interp's on the same
cases (every case of the Verus examples, scored by the gold spec).

    python benchmarks/symbolic.py [--budget 10] [--only verus|jml]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
os.environ["ADEQUACY_CACHE"] = tempfile.mkdtemp(prefix="adequacy-symbolic-bench-")

from adequacy.examples import bundled_folder  # noqa: E402
from adequacy.extensions.registry import registry  # noqa: E402
from adequacy.scoring.options import ScoreOptions  # noqa: E402
from adequacy.search.oracles import SpecJudge  # noqa: E402
from adequacy.search.symbolic.compare import (  # noqa: E402
    SymbolicReport,
    claim_of,
    compare_symbolic,
    concrete_options,
)
from adequacy.taskdirs.load import load_task  # noqa: E402


def expected(task_dir: Path, spec: Path) -> list[str]:
    data = tomllib.loads((task_dir / "specs" / "expected.toml").read_text())
    if "specs" in data:
        return list(data["specs"].get(spec.name, {}).get("fails", []))
    return list(data.get(spec.stem, {}).get("fails", []))


def diff(task_dir: Path, gold: Path, other: Path, budget: float) -> tuple[SymbolicReport, float]:
    t = load_task(task_dir)
    opts = concrete_options(t, ScoreOptions())
    right = SpecJudge(t, gold.read_text(), str(gold), opts, name="gold")
    left = SpecJudge(t, other.read_text(), str(other), opts, name=other.name)
    t0 = time.monotonic()
    rep = compare_symbolic(t, left, right, budget=budget)
    return rep, time.monotonic() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--budget", type=float, default=10.0)
    ap.add_argument("--only", choices=["verus", "jml"])
    a = ap.parse_args()
    langs = [a.only] if a.only else ["verus", "jml"]
    # warm the solver child (the first start copies z3 into the cache folder)
    from adequacy.symbolic.solver import ask
    ask("(declare-const x Int)(assert (> x 0))", [], timeout=5, cache=False)
    if "jml" in langs:
        # the first rac run of a fresh cache builds its javac worker (seconds): paid once
        # here, not inside the first pair's budget
        from adequacy.scoring.runner import score_spec
        td = bundled_folder("jml") / "abs_value"
        score_spec(load_task(td), (td / "specs" / "gold.java").read_text(), "gold.java",
                   engines=["rac"])
    verus_times: list[float] = []
    print("== flawed specs (gold vs flawed: confirmed counterexample in an expected bucket)")
    hits = total = 0
    for lang in langs:
        ext = "rs" if lang == "verus" else "java"
        for td in sorted(bundled_folder(lang).iterdir()):
            gold = td / "specs" / f"gold.{ext}"
            for f in sorted((td / "specs").glob(f"flawed*.{ext}")):
                rep, secs = diff(td, gold, f, a.budget)
                want = expected(td, f)
                got = [(fd.oracle_bucket or fd.disagreement.bucket).value
                       for fd in rep.findings
                       if fd.status == "counterexample" and fd.disagreement is not None]
                faults = [fd.status for fd in rep.findings if fd.status != "counterexample"]
                ok = any(g in want for g in got)
                total += 1
                hits += ok
                if lang == "verus":
                    verus_times.append(secs)
                print(f"{lang:5} {td.name:20} {f.name:34} {'ok  ' if ok else 'MISS'} "
                      f"found {got or '-'} expected {want} {secs:5.1f} s"
                      + (f" other: {faults}" if faults else ""))
    print(f"flawed: {hits}/{total} with a confirmed counterexample in the flaw's bucket")
    print("== equivalent rewrites (gold vs rewrite)")
    proved = n = 0
    for lang in langs:
        ext = "rs" if lang == "verus" else "java"
        for f in sorted((ROOT / "benchmarks" / "symbolic_rewrites" / lang).glob(f"*/*.{ext}")):
            td = bundled_folder(lang) / f.parent.name
            rep, secs = diff(td, td / "specs" / f"gold.{ext}", f, a.budget)
            v = rep.verdict()
            n += 1
            proved += v in ("equivalent", "bounded")
            parts = []
            for pred in ("pre", "post"):
                proof = rep.proved(pred)
                if proof is not None:
                    parts.append(claim_of(pred, proof))
                else:
                    parts += [f"{pred} side {r.side}: {r.answer.status} ({r.answer.reason[:60]})"
                              for r in rep.results if r.predicate == pred
                              and r.answer.status != "none"]
            claims = "; ".join(parts)
            print(f"{lang:5} {f.parent.name:20} {f.name:26} {v:10} {secs:5.1f} s  {claims}")
    print(f"rewrites: {proved}/{n} proved equivalent (bounded where lengths are unbounded)")
    if verus_times:
        med = statistics.median(verus_times)
        print(f"speed: symbolic diff gold vs flawed (Verus examples): median {med:.2f} s over "
              f"{len(verus_times)} pairs (goal <= 2 s: ratio {med / 2.0:.2f})")
    if "verus" in langs:
        engine_costs()


def engine_costs() -> None:
    b = registry().backend_for("verus")
    eng = {e.name: e for e in b.engines()}
    per: dict[str, list[float]] = {"interp": [0.0, 0.0], "smt": [0.0, 0.0]}
    from adequacy.extensions.backend import Limits
    for td in sorted(bundled_folder("verus").iterdir()):
        t = load_task(td)
        spec = b.load_spec(t, (td / "specs" / "gold.rs").read_text(), "gold.rs")
        cases = list(t.all_cases())
        for name in ("interp", "smt"):
            t0 = time.monotonic()
            vs = eng[name].check(spec, t, cases, Limits(case_seconds=4.0))
            per[name][0] += time.monotonic() - t0
            per[name][1] += sum(v.decided for v in vs)
    (ti, ni), (ts, ns) = per["interp"], per["smt"]
    ci, cs = ti / max(ni, 1), ts / max(ns, 1)
    print(f"engine cost per decided case (Verus examples, gold spec, every case): interp "
          f"{ci * 1000:.2f} ms ({int(ni)} decided), smt {cs * 1000:.1f} ms ({int(ns)} decided); "
          f"smt/interp = {cs / max(ci, 1e-9):.0f}x")


if __name__ == "__main__":
    main()
    sys.exit(0)
