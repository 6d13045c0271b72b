"""Stubs per second of the rac engine: one persistent JVM worker vs one JVM per stub.

Data: SpecGenBench methods from ../shared/datasets (those whose parameters and result are
int/long/boolean, read one value per line as the records' Test.java does), each with the spec
``ensures \\result == \\result; ensures (\\forall int k; 0 <= k < 3; k >= 0);`` and its official
test pairs as post_complete cases; without the datasets, the bundled examples/jml tasks.
Run:  python benchmarks/jml_rac.py [--one-jvm-samples N]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path

from adequacy.backends.openjml.plugin import OpenJmlBackend
from adequacy.backends.openjml.rac import worker as W

from adequacy.backend import Limits
from adequacy.tasks import Case, Task, load_task

REPO = Path(__file__).resolve().parents[1]
SCALAR = {"int": "i32", "long": "i64", "boolean": "bool"}
SPEC = ("    //@ ensures \\result == \\result;\n"
        "    //@ ensures (\\forall int k; 0 <= k < 3; k >= 0);\n")


def _value(text: str, jt: str) -> object:
    if jt == "boolean":
        if text not in ("true", "false"):
            raise ValueError(text)
        return text == "true"
    return int(text)


def sgb_tasks(root: Path, out: Path) -> list[tuple[Task, str]]:
    path = root / "specgenbench" / "sgb.jsonl"
    tasks: list[tuple[Task, str]] = []
    for line in path.read_text().splitlines():
        r = json.loads(line)
        m = re.search(r"public static (\w+) solve\(([^)]*)\)", r["code"])
        if not m or m.group(1) not in SCALAR:
            continue
        params = [p.strip().split() for p in m.group(2).split(",") if p.strip()]
        if not params or any(len(p) != 2 or p[0] not in SCALAR for p in params):
            continue
        pairs = []
        try:
            for t in r["test_inputs"]:
                vals = t["input"].strip().splitlines()
                if len(vals) != len(params):
                    raise ValueError("arity")
                inp = {n: _value(v.strip(), jt) for (jt, n), v in zip(params, vals, strict=True)}
                pairs.append((inp, {"result": _value(t["output"].strip(), m.group(1))}))
        except (ValueError, KeyError):
            continue
        d = out / r["task_id"]
        (d / "tests").mkdir(parents=True)
        sig = "\n".join(f'{n} = "{SCALAR[jt]}"' for jt, n in params)
        (d / "task.toml").write_text(
            f'id = "{r["task_id"]}"\nlanguage = "jml"\n[signature.input]\n{sig}\n'
            f'[signature.output]\nresult = "{SCALAR[m.group(1)]}"\n')
        (d / "Solution.java").write_text(r["code"])
        with (d / "tests" / "post_complete.jsonl").open("w") as f:
            for k, (i, o) in enumerate(pairs):
                f.write(json.dumps({"id": str(k), "input": i, "output": o}) + "\n")
        spec = re.sub(r"(\n\s*public static \w+ solve\()", lambda mm: "\n" + SPEC + mm.group(1),
                      r["code"], count=1)
        tasks.append((load_task(d), spec))
    return tasks


def example_tasks() -> list[tuple[Task, str]]:
    out = []
    for d in sorted((REPO / "examples" / "jml").iterdir()):
        if (d / "specs" / "gold.java").exists():
            out.append((load_task(d), (d / "specs" / "gold.java").read_text()))
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--one-jvm-samples", type=int, default=8)
    ap.add_argument("--datasets", type=Path, default=REPO.parent / "shared" / "datasets")
    args = ap.parse_args()
    b = OpenJmlBackend()
    tmp = Path(tempfile.mkdtemp(prefix="jml-bench-"))
    if (args.datasets / "specgenbench" / "sgb.jsonl").exists():
        data, source = sgb_tasks(args.datasets, tmp), "SpecGenBench (scalar signatures)"
    else:
        data, source = example_tasks(), "examples/jml (datasets missing)"
    limits = Limits()
    W.build_dir()
    # warm-up: JVM start and javac's first compile are paid once per worker lifetime
    warm_task, warm_spec = data[0]
    b.check(b.load_spec(warm_task, warm_spec), warm_task, warm_task.all_cases()[:1], "rac", limits)

    t0 = time.monotonic()
    n_stubs = n_specs = 0
    undecided = 0
    for task, spec in data:
        loaded = b.load_spec(task, spec)
        cases = task.all_cases()
        vs = b.check(loaded, task, cases, "rac", limits)
        undecided += sum(1 for v in vs if not v.decided)
        n_stubs += len(cases)
        n_specs += 1
    persistent = time.monotonic() - t0
    rate = n_stubs / persistent

    # one JVM per stub: start a fresh worker, compile the spec, evaluate one case, stop
    samples: list[float] = []
    for task, spec in data[: args.one_jvm_samples]:
        loaded = b.load_spec(task, spec)
        case: Case = task.all_cases()[0]
        w = W.Worker()
        t1 = time.monotonic()
        w.start()
        from adequacy.backends.openjml.rac.engine import _ensure, ordered_args, unit_key
        unit = loaded.data.unit
        _ensure(w, unit, unit_key(unit), None, limits)
        w.request({"op": "eval", "key": unit_key(unit), "pred": "post",
                   "input": ordered_args(task, unit, case.input), "output": case.output,
                   "timeout_ms": 10000}, timeout=60)
        w.stop()
        samples.append(time.monotonic() - t1)
    per_stub_cold = sum(samples) / len(samples)
    cold_rate = 1 / per_stub_cold
    print(f"data: {source}: {n_specs} specs, {n_stubs} stubs (cases), {undecided} undecided")
    print(f"persistent worker: {persistent:.2f}s total, {rate:.1f} stubs/s "
          f"({persistent / n_specs * 1000:.0f} ms per spec incl. javac)")
    print(f"one JVM per stub:  {per_stub_cold:.2f}s per stub over {len(samples)} samples, "
          f"{cold_rate:.2f} stubs/s")
    print(f"ratio: {rate / cold_rate:.1f}x (target >= 20x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
