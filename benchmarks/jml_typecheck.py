"""How many valid JML specs the front end accepts without and with the type checker.

Usage: python benchmarks/jml_typecheck.py [--sgb DIR]
Corpora: every bundled example spec (examples/jml, the gym's examples), the JML semantics
probes not marked invalid (tests/semantics/jml_probes.py), and examples/sgb-gold on SpecGenBench
tasks imported from ../shared/datasets (skipped when absent). Each spec is loaded twice in one
run, with ``check_types`` and ``check_assignable`` switched off and on: the type checker must not reject a spec the rest
of the front end accepted. Prints accepted counts (before, after) per corpus, every spec that
changed, and the per-load time ratio.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "semantics"))

from adequacy.errors import SpecInvalid  # noqa: E402
from adequacy.examples import bundled_folder, gym_examples  # noqa: E402
from adequacy.model.task import Task  # noqa: E402
from adequacy.taskdirs.load import load_task  # noqa: E402
from adequacy_openjml.jml import load as L  # noqa: E402


def accepted(task: Task, text: str, path: str) -> str | None:
    """None when the front end accepts the spec, else its message."""
    try:
        L.load(task, text, path)
    except SpecInvalid as e:
        return f"{e.line}: {e.message}"
    return None


def corpora(sgb: Path | None) -> dict[str, list[tuple[Task, str, str]]]:
    out: dict[str, list[tuple[Task, str, str]]] = {}
    for name, root in (("examples/jml", bundled_folder("jml")),
                       ("gym examples", gym_examples("jml"))):
        items = []
        for d in sorted(p for p in root.iterdir() if (p / "task.toml").exists()):
            task = load_task(d)
            items += [(task, s.read_text(), str(s)) for s in sorted((d / "specs").glob("*.java"))]
        out[name] = items
    from jml_probes import PROBES, spec_text, write_task
    tmp = Path(tempfile.mkdtemp(prefix="jml-probes-"))
    out["probes (valid)"] = [(load_task(write_task(tmp / p.id, p.method)), spec_text(p),
                              f"{p.id}.java") for p in PROBES if not p.invalid]
    if sgb is not None:
        gold = bundled_folder("sgb-gold")
        out["sgb-gold"] = [(load_task(sgb / s.stem), s.read_text(), str(s))
                           for s in sorted(gold.glob("*.java"))
                           if (sgb / s.stem / "task.toml").exists()]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sgb", type=Path, default=None, help="imported SpecGenBench tasks")
    args = ap.parse_args()
    sgb = args.sgb
    data = REPO.parent / "shared" / "datasets" / "specgenbench" / "sgb.jsonl"
    if sgb is None and data.exists():
        from adequacy_openjml.importers.spec_harness import import_specgenbench
        sgb = Path(tempfile.mkdtemp(prefix="sgb-"))
        import_specgenbench(data, sgb)
    real, real_frame = L.check_types, L.check_assignable
    t_off = t_on = 0.0
    changed = 0
    for name, items in corpora(sgb).items():
        before = after = 0
        for task, text, path in items:
            accepted(task, text, path)  # warm the task's caches before timing either way
            for name in ("check_types", "check_assignable"):  # the checks off
                setattr(L, name, lambda *a, **k: None)
            t0 = time.perf_counter()
            b = accepted(task, text, path)
            t_off += time.perf_counter() - t0
            setattr(L, "check_types", real)  # noqa: B010 - the checks back on
            setattr(L, "check_assignable", real_frame)  # noqa: B010
            t0 = time.perf_counter()
            a = accepted(task, text, path)
            t_on += time.perf_counter() - t0
            before += b is None
            after += a is None
            if (a is None) != (b is None):
                changed += 1
                print(f"  CHANGED {path}: {a}")
        print(f"{name}: {len(items)} specs, accepted before {before}, after {after}")
    print(f"load time with/without the type checker: {t_on / max(t_off, 1e-9):.2f}x")
    return 1 if changed else 0


if __name__ == "__main__":
    raise SystemExit(main())
