"""The Verus type checker against rustc: where exec_spec compiles a spec, do we agree?

Usage: python benchmarks/verus_types.py [--datasets DIR] [--sample N]

Specs: every bundled example spec (valid), the ill-typed corpus of
``tests/verus/test_verus_typecheck_corpus.py`` (one edit from a gold each), and, when the VERINA
dataset is there, the VERINA golds and their corpus edits. For each spec it prints whether our
front end accepts it, and compiles it with exec_spec's real macro and rustc **without** the
front end (its ``forbidden`` hook is bypassed here only, to hear rustc's own verdict). Counts:

- rustc rejects with a compile error, we accept (goal 0: a type error we miss);
- we reject, rustc compiles (the reverse; expected only where Verus's rules are stricter than
  erased Rust, each listed);
- specs outside exec_spec's fragment (rustc cannot judge: ``int`` fields, closures ...).

Run ``benchmarks/verus_corpus.py`` for the 150 Verus-Bench programs (all accepted).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from adequacy.errors import SpecInvalid
from adequacy.extensions.backend import Limits
from adequacy.model.task import Task
from adequacy.taskdirs.load import load_task
from adequacy_verus.exec_spec import engine
from adequacy_verus.frontend import check_source

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "verus"))
sys.path.insert(0, str(REPO / "tests" / "semantics"))


def _specs(datasets: Path | None, work: Path) -> list[tuple[str, Task, str, bool | None]]:
    """(label, task, text, ill-typed by construction?) — None: a bundled spec, valid."""
    from test_verus_typecheck_corpus import CASES, EX, _edit
    from verus_bundled_specs import example_specs, verina_gold_specs

    out: list[tuple[str, Task, str, bool | None]] = []
    for task, spec in example_specs():
        out.append((f"{task.id}/{spec.name}", task, spec.read_text(encoding="utf-8"), None))
    tasks: dict[str, Task] = {}
    for task, spec in verina_gold_specs(datasets, work):
        tasks[str(spec.relative_to(REPO))] = task
        out.append((spec.name, task, spec.read_text(encoding="utf-8"), None))
    for k, (gold, old, new, _code, _rule, at) in enumerate(CASES):
        if gold.startswith(EX):
            task = load_task((REPO / gold).parents[1])
        elif gold in tasks:
            task = tasks[gold]
        else:
            continue
        _text, mutated, _line = _edit(gold, old, new, at)
        out.append((f"corpus#{k} {Path(gold).name}: {old[:30]!r}->{new[:30]!r}", task,
                    mutated, True))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", default=os.environ.get(
        "ADEQUACY_DATASETS", str(REPO.parent / "shared" / "datasets")))
    ap.add_argument("--sample", type=int, default=0, help="compile only every k-th spec")
    ns = ap.parse_args(argv)
    ok, why, _ = engine.availability()
    ds = Path(ns.datasets) if Path(ns.datasets).is_dir() else None
    with tempfile.TemporaryDirectory() as tmp:
        specs = _specs(ds, Path(tmp))
        ours: dict[str, bool] = {}
        for label, task, text, _bad in specs:
            try:
                check_source(text, task.skeleton, "spec.rs", str(task.skeleton_path))
                ours[label] = True
            except SpecInvalid:
                ours[label] = False
        valid = [s for s in specs if s[3] is None]
        bad = [s for s in specs if s[3]]
        print(f"specs: {len(valid)} bundled (valid), {len(bad)} ill-typed corpus edits")
        print(f"front end accepts: valid {sum(ours[s[0]] for s in valid)}/{len(valid)}, "
              f"ill-typed {sum(ours[s[0]] for s in bad)}/{len(bad)} (goals: all, 0)")
        if not ok:
            print(f"exec_spec unavailable ({why}): no rustc comparison")
            return 0
        engine.forbidden = lambda *a, **k: None  # hear rustc itself (this script only)
        todo = specs[::ns.sample] if ns.sample > 1 else specs
        r_rej_we_acc: list[str] = []
        we_rej_r_acc: list[str] = []
        outside = agree = 0
        t0 = time.perf_counter()
        for label, task, text, _bad in todo:
            b = engine.build(text, task, "spec.rs", Limits())
            if b.binary is not None:
                rustc_ok: bool | None = True
            elif b.outside and "does not compile" in b.outside:
                rustc_ok = False
            else:
                rustc_ok = None
            if rustc_ok is None:
                outside += 1
            elif rustc_ok == ours[label]:
                agree += 1
            elif not rustc_ok:
                r_rej_we_acc.append(f"{label}: {(b.outside or '')[:160]}")
            else:
                we_rej_r_acc.append(label)
        dt = time.perf_counter() - t0
        print(f"exec_spec compiled {len(todo)} specs in {dt:.0f}s "
              f"({'every ' + str(ns.sample) + 'th' if ns.sample > 1 else 'all'}): "
              f"agree {agree}, outside the fragment {outside}")
        print(f"rustc rejects, we accept: {len(r_rej_we_acc)} (goal 0)")
        for x in r_rej_we_acc:
            print("  " + x)
        print(f"we reject, rustc compiles: {len(we_rej_r_acc)}")
        for x in we_rej_r_acc:
            print("  " + x)
    return 0


if __name__ == "__main__":
    sys.exit(main())
