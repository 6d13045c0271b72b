"""Cost of the Verus front end (rustc-exact lexer + token/tree policy) against what it guards.

Usage: python benchmarks/verus_frontend.py [DATASET_DIR]

Prints, measured in this one run:
- lexer throughput over every ``*.rs`` file of the datasets (MB/s) and lexing vs parsing time;
- for the bundled example specs: front end (lex, parse, policy) vs scoring every case with the
  default engine (interp), as a ratio, so the policy's share of a ``score`` is visible;
- interp scoring that reuses the program the front end compiled (``VerusSpec.program``, what
  the engine does) against scoring that compiles the parsed module again (what it did before).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from adequacy.examples import bundled_folder
from adequacy.extensions.backend import Limits, engine_named
from adequacy.extensions.registry import registry
from adequacy.taskdirs.load import load_task
from adequacy_verus.frontend import check_source
from adequacy_verus.interp import evaluate_cases
from adequacy_verus.syntax.lexer import tokenize
from adequacy_verus.syntax.parser import parse_tokens

REPO = Path(__file__).resolve().parents[1]
REPEAT = 10


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("datasets", nargs="?", type=Path, default=REPO.parent / "shared" / "datasets",
                    help="a folder whose *.rs files are lexed and parsed")
    data = ap.parse_args().datasets
    texts = [p.read_text(encoding="utf-8") for p in sorted(data.rglob("*.rs"))]
    size = sum(len(t) for t in texts)
    t0 = time.perf_counter()
    toks = [tokenize(t) for t in texts]
    lex = time.perf_counter() - t0
    t0 = time.perf_counter()
    for k in toks:
        parse_tokens(k)
    parse = time.perf_counter() - t0
    print(f"datasets: {len(texts)} files, {size / 1e6:.2f} MB")
    if texts:
        print(f"  lexing {lex:.2f}s ({size / 1e6 / lex:.2f} MB/s), parsing {parse:.2f}s, "
              f"lex/parse ratio {lex / parse:.2f}")

    verus = registry().backends["verus"]
    front = score = 0.0
    n_specs = n_cases = 0
    specs = []
    for task_dir in sorted((bundled_folder("verus")).iterdir()):
        if not (task_dir / "task.toml").is_file():
            continue
        task = load_task(task_dir)
        cases = task.all_cases()
        for spec_path in sorted((task_dir / "specs").glob("*.rs")):
            text = spec_path.read_text(encoding="utf-8")
            t0 = time.perf_counter()
            check_source(text, task.skeleton, str(spec_path), str(task.skeleton_path))
            front += time.perf_counter() - t0
            loaded = verus.load_spec(task, text, str(spec_path))
            t0 = time.perf_counter()
            engine_named(verus, "interp").check(loaded, task, cases, Limits())
            score += time.perf_counter() - t0
            specs.append((task, loaded, cases))
            n_specs += 1
            n_cases += len(cases)
    reuse = recompile = 0.0
    for _ in range(REPEAT):
        for task, loaded, cases in specs:
            t0 = time.perf_counter()
            evaluate_cases(loaded.data.module, task, cases, Limits())
            t1 = time.perf_counter()
            evaluate_cases(loaded.data.program, task, cases, Limits())
            recompile += t1 - t0
            reuse += time.perf_counter() - t1
    print(f"examples: {n_specs} specs, {n_cases} cases")
    print(f"  front end {front * 1000 / n_specs:.1f} ms/spec; interp scoring "
          f"{score * 1000 / n_specs:.1f} ms/spec; front end / scoring = {front / score:.2f}")
    runs = REPEAT * n_specs
    print(f"  interp reusing the front end's program {reuse * 1000 / runs:.2f} ms/spec, compiling "
          f"again {recompile * 1000 / runs:.2f} ms/spec (x{REPEAT}, interleaved)")


if __name__ == "__main__":
    main()
