"""A fresh Python spec over 100 cases: the exec engine against plain Python in one process.

The exec engine gives each spec a sandboxed worker of its own (bubblewrap, the Landlock
launcher, an isolated interpreter) and sends one case per request; plain Python runs the same
pre/post functions over the same 100 decoded cases in one fresh ``python3`` process. Both
include their process start: "cold" starts the worker on the caller's path; "warm" takes a
spare the engine started ahead (a worker that has held no spec yet, as the JML engine keeps
spare JVMs), which is what specs scored one after another with a moment between them get. A
spec whose value may depend on the hash seed (it builds a set) is evaluated by two workers.
Beside them: the JML engine (rac) on a fresh spec of a bundled JML example over 100 cases,
when a JDK is here (rac keeps spare JVMs the same way).

Run:  python benchmarks/python_exec.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from adequacy.plugin import Bucket, Case, Limits, load_task

REPO = Path(__file__).resolve().parents[1]

SPEC = """\
def pre(xs, k):
    return 0 <= k <= len(xs)


def post(xs, k, result):
    return (len(result) == k and all(a <= b for a, b in zip(result, result[1:]))
            and all(result.count(v) <= xs.count(v) for v in result)
            and all(x <= min(result) for x in sorted(xs)[:len(xs) - k]) if k else result == [])
"""
DUAL = SPEC.replace("def pre(xs, k):\n    return 0 <= k <= len(xs)",
                    "def pre(xs, k):\n    return 0 <= k <= len(xs) and len(set(xs)) >= 0")

PLAIN = """\
import json, sys, time
t0 = time.perf_counter()
spec, cases = json.loads(sys.stdin.read())
ns = {}
exec(compile(spec, "spec", "exec"), ns)
out = []
for c in cases:
    if c["pred"] == "pre":
        out.append(ns["pre"](**c["input"]))
    else:
        out.append(ns["post"](**c["input"], result=c["output"]["result"]))
print(json.dumps({"verdicts": out, "eval": time.perf_counter() - t0}))
"""


def make_task(root: Path, n: int = 100) -> Any:
    rng = random.Random(0)
    (root / "tests").mkdir(parents=True)
    (root / "task.toml").write_text(
        'id = "bench"\nlanguage = "python"\n[signature.input]\nxs = "list<int>"\nk = "int"\n'
        '[signature.output]\nresult = "list<int>"\n[python]\nfunction = "top_k"\n')
    (root / "skeleton.py").write_text("def top_k(xs, k):\n    \"\"\"The k largest.\"\"\"\n")
    pre, post = [], []
    for i in range(n // 2):
        xs = [rng.randint(-50, 50) for _ in range(rng.randint(1, 30))]
        k = rng.randint(0, len(xs))
        pre.append({"id": f"p{i}", "input": {"xs": xs, "k": k}})
        post.append({"id": f"q{i}", "input": {"xs": xs, "k": k},
                     "output": {"result": sorted(xs)[len(xs) - k:]}})
    for b, rows in ((Bucket.pre_complete, pre), (Bucket.post_complete, post)):
        (root / "tests" / f"{b.value}.jsonl").write_text(
            "".join(json.dumps(r) + "\n" for r in rows))
    for b in (Bucket.pre_sound, Bucket.post_sound):
        (root / "tests" / f"{b.value}.jsonl").write_text("")
    return load_task(root)


def exec_run(task: Any, text: str, tag: int, warm: bool) -> tuple[float, list[str]]:
    from adequacy_python.engine import ExecEngine
    from adequacy_python.plugin import PythonBackend
    from adequacy_python.workers import SPARE_WORKERS

    if warm:
        deadline = time.monotonic() + 30
        while SPARE_WORKERS.count(Limits()) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
    else:
        SPARE_WORKERS.drain()
    spec = PythonBackend().load_spec(task, f"{text}\n# fresh {tag}\n", "spec.py")
    t0 = time.perf_counter()
    vs = ExecEngine().check(spec, task, task.all_cases(), Limits())
    return time.perf_counter() - t0, [v.value.value for v in vs]


def plain_run(task: Any, text: str) -> tuple[float, float, list[bool]]:
    from adequacy_python import sandboxing

    interp = sandboxing.interpreter()
    assert not isinstance(interp, str), interp
    cases = [{"pred": c.bucket.predicate, "input": c.input, "output": c.output}
             for c in task.all_cases()]
    payload = json.dumps([text, cases]).encode()
    t0 = time.perf_counter()
    r = subprocess.run([interp.executable, "-I", "-S", "-c", PLAIN], input=payload,
                       capture_output=True, check=True)
    wall = time.perf_counter() - t0
    out = json.loads(r.stdout)
    return wall, out["eval"], out["verdicts"]


def jml_run(repeat: int) -> float | None:
    """rac on a fresh spec of a bundled JML example, its cases repeated to 100."""
    try:
        from adequacy.extensions.registry import registry
        from adequacy.plugin import LoadedSpec  # noqa: F401 - the plugin API is importable
    except ImportError:
        return None
    backend = registry().owner("jml")
    rac = next(e for e in backend.engines() if e.name == "rac")
    if not rac.info().available:
        return None
    task_dir = next(d for d in sorted(backend.example_tasks())
                    if (d / "specs" / "gold.java").is_file())
    task = load_task(task_dir)
    base = [c for c in task.all_cases()]
    cases = [Case(id=f"{c.id}-{i}", bucket=c.bucket, input=c.input, output=c.output)
             for i in range(100 // len(base) + 1) for c in base][:100]
    gold = (task_dir / "specs" / "gold.java").read_text()
    times = []
    for i in range(repeat):
        spec = backend.load_spec(task, gold.replace("{", f"{{ // fresh {i}\n", 1), "gold.java")
        t0 = time.perf_counter()
        rac.check(spec, task, cases, Limits())
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        task = make_task(Path(d) / "bench")
        times: dict[str, list[float]] = {k: [] for k in ("cold", "warm", "dcold", "dwarm")}
        plain_walls, plain_evals = [], []
        verdicts: list[str] = []
        for i in range(args.repeat):
            for key, text, warm in (("cold", SPEC, False), ("warm", SPEC, True),
                                    ("dcold", DUAL, False), ("dwarm", DUAL, True)):
                t, got = exec_run(task, text, 1000 * len(times[key]) + i, warm)
                times[key].append(t)
                verdicts = verdicts or got
            w, e, plain = plain_run(task, SPEC)
            plain_walls.append(w)
            plain_evals.append(e)
        assert verdicts == ["true" if v else "false" for v in plain], "engines disagree"
    med = {k: statistics.median(v) for k, v in times.items()}
    pw, pe = statistics.median(plain_walls), statistics.median(plain_evals)
    load = Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"
    print(f"fresh spec, 100 cases (median of {args.repeat}; load average {load}):")
    print(f"  plain python3, one process (with start): {pw * 1000:8.1f} ms"
          f"  (of which the spec over the cases: {pe * 1000:.1f} ms)")
    for key, what in (("cold", "exec, worker started on the path"),
                      ("warm", "exec, a spare worker"),
                      ("dcold", "exec, order-sensitive (two), cold"),
                      ("dwarm", "exec, order-sensitive (two), spares")):
        print(f"  {what:40s} {med[key] * 1000:8.1f} ms  {med[key] / pw:6.2f}x plain")
    print("  goal: within 10x of plain python, process start included")
    jml = jml_run(args.repeat)
    if jml is None:
        print("  JML rac fresh spec: not measured (no JDK here)")
    else:
        print(f"  JML rac, fresh spec, 100 cases:          {jml * 1000:8.1f} ms "
              f"({jml / pw:.2f}x plain python)")


if __name__ == "__main__":
    main()
