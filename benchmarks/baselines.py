"""The classical baselines' four metrics on VERINA and SpecGenBench (the closing-note table).

Usage: python benchmarks/baselines.py [--verina TASKS] [--sgb TASKS] [--houdini N] [--seed S]
Without task folders it imports ../shared/datasets/verina and specgenbench/sgb.jsonl into a
temporary folder through the registered importers. Every task gets one template spec scored on
all its cases (hidden included) with the default engine; Houdini (KeY, seconds to minutes per
task) runs on a seeded sample of N SpecGenBench tasks (default 10; 0 skips it). Metrics are
means over tasks of the per-bucket pass fractions (strict; empty buckets left out), with
Harness@1 the share of tasks whose spec passes everything and "invalid" the specs the front end
refused (a bug in the writer if not 0). VR (the study's graduated verifier score, KeY) is
measured on the sample only. SpecGenBench tasks as imported have no wrong outputs: run
`adequacy mutate` on each task first to get PostComp.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

from adequacy.extensions.registry import registry
from adequacy.extensions.writers import Writer
from adequacy.model.task import Task
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.discovery import discover_tasks
from adequacy.taskdirs.load import load_task
from adequacy_optimizers.houdini import HoudiniWriter
from adequacy_optimizers.objectives import vr_score
from adequacy_optimizers.templates import TemplateWriter
from adequacy_optimizers.verifier import prove

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "datasets"
NAMES = (("post_corr", "PostCorr"), ("post_comp", "PostComp"), ("pre_corr", "PreCorr"),
         ("pre_comp", "PreComp"))


def run(writer: Writer, tasks: list[Task], with_vr: bool = False
        ) -> dict[str, float | int | None]:
    """Means over tasks; with ``with_vr`` also the study's graduated verifier score (KeY)."""
    sums = {k: [0.0, 0] for k, _ in NAMES}
    harness = invalid = 0
    vrs: list[float] = []
    t0 = time.perf_counter()
    for t in tasks:
        [w] = writer.write(t)
        if with_vr:
            vrs.append(vr_score(prove(t, w.text)) if w.text is not None else 0.0)
        if w.text is None:
            invalid += 1
            for k, _ in NAMES:
                sums[k][1] += 1
            continue
        rep = score_spec(t, w.text)
        if rep.metrics is None:
            invalid += 1
            for k, _ in NAMES:
                sums[k][1] += 1
            continue
        harness += bool(rep.metrics.harness_at(1.0))
        for k, _ in NAMES:
            v = getattr(rep.metrics, k)
            if v is not None:
                sums[k][0] += v
                sums[k][1] += 1
    out: dict[str, float | int | None] = {k: (s / n if n else None) for k, (s, n) in
                                          sums.items()}
    out.update(tasks=len(tasks), harness=harness / len(tasks) if tasks else None,
               vr=sum(vrs) / len(vrs) if vrs else None,
               invalid=invalid, seconds=time.perf_counter() - t0)
    return out


def _fmt(v: float | int | None) -> str:
    return "n/a" if v is None else f"{v:.3f}" if isinstance(v, float) else str(v)


def _load(arg: str | None, importer: str, src: Path, tmp: Path) -> list[Task]:
    if arg:
        dirs = discover_tasks([Path(arg)])
    else:
        if not src.exists():
            return []
        registry().importers[importer].run(src, tmp / importer)
        dirs = discover_tasks([tmp / importer])
    return [load_task(d) for d in dirs]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--verina", help="imported VERINA task folders (default: import the dataset)")
    ap.add_argument("--sgb", help="imported SpecGenBench task folders (default: import it)")
    ap.add_argument("--houdini", type=int, default=10, help="SGB tasks sampled for Houdini (0: none)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    opts = {k: v for k, v in (("--verina", args.verina), ("--sgb", args.sgb)) if v}
    n_houdini = args.houdini
    seed = args.seed
    with tempfile.TemporaryDirectory() as tmpd:
        tmp = Path(tmpd)
        verina = _load(opts.get("--verina"), "verina", DATA / "verina", tmp)
        sgb = _load(opts.get("--sgb"), "specgenbench", DATA / "specgenbench" / "sgb.jsonl", tmp)
        rows: list[tuple[str, str, dict[str, float | int | None]]] = []
        if verina:
            rows.append(("templates", "VERINA", run(TemplateWriter(), verina)))
        if sgb:
            rows.append(("templates", "SpecGenBench", run(TemplateWriter(), sgb)))
            if n_houdini:
                sample = random.Random(seed).sample(sgb, min(n_houdini, len(sgb)))
                rows.append(("houdini", f"SGB sample of {len(sample)}",
                             run(HoudiniWriter(proof_seconds=30), sample, with_vr=True)))
                rows.append(("templates", f"same SGB sample of {len(sample)}",
                             run(TemplateWriter(), sample, with_vr=True)))
    print("| writer | dataset | tasks | " + " | ".join(n for _, n in NAMES)
          + " | Harness@1 | VR | invalid | seconds |")
    print("|---" * 11 + "|")
    for w, d, r in rows:
        print(f"| {w} | {d} | {r['tasks']} | " + " | ".join(_fmt(r[k]) for k, _ in NAMES)
              + f" | {_fmt(r['harness'])} | {_fmt(r['vr'])} | {r['invalid']} "
              f"| {_fmt(r['seconds'])} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
