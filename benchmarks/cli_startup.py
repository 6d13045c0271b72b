"""Start-up and cache figures, as ratios measured in one run.

    python benchmarks/cli_startup.py [--repeat 7]

1. ``adequacy --version`` vs ``python -c pass`` (goal: <= 3x);
2. ``adequacy score`` on a bundled task with a warm verdict cache (goal: <= 0.5 s), with the
   number of processes it started (goal: none: every verdict comes from the cache);
3. an exec_spec spec scored in this process, verdict cache miss vs hit (goal: >= 50x), with
   the processes the hit started: the in-process memo of engine infos is dropped before the
   hit, so a hit that needed a toolchain probe (``rustc --version``) would show it, and the
   part of the hit spent checking the rows' HMAC tags (``adequacy.scoring.cache``).

Each timing is the median of ``--repeat`` runs. The spec of (3) carries a fresh tautology
(``input.target != N || input.target == N`` for a random N) so that the miss is a real one:
a new normalised text, a new harness crate for cargo to build. Run ``adequacy setup`` first
(vstd built once); without cargo, (3) is skipped and says why. Timings on a shared machine
are noisy: the load average is printed beside them.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from adequacy.examples import bundled_folder

REPO = Path(__file__).resolve().parents[1]
TASK = bundled_folder("verus") / "binary_search_first"
SPEC = TASK / "specs" / "gold.rs"


def _adequacy() -> list[str]:
    exe = Path(sys.executable).with_name("adequacy")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "adequacy"]


def _wall(cmd: list[str], env: dict[str, str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=False)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def _processes_started(cmd: list[str], env: dict[str, str]) -> int | None:
    """execve calls below ``cmd`` (strace), None when strace is missing."""
    if shutil.which("strace") is None:
        return None
    with tempfile.NamedTemporaryFile(suffix=".strace") as log:
        subprocess.run(["strace", "-f", "-qq", "-e", "trace=execve", "-o", log.name, *cmd],
                       env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=False)
        lines = Path(log.name).read_text().splitlines()
    return sum(1 for ln in lines if "execve(" in ln and "= 0" in ln) - 1  # minus cmd itself


def cli_figures(repeat: int, cache: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    adequacy = _adequacy()
    # compiled bytecode present, as in an installed package
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "adequacy"),
                    str(REPO / "backends")], check=False, env=env,
                   stdout=subprocess.DEVNULL)
    base = _wall([sys.executable, "-c", "pass"], env, repeat)
    ver = _wall([*adequacy, "--version"], env, repeat)
    print(f"python -c pass       {base * 1000:7.1f} ms")
    print(f"adequacy --version   {ver * 1000:7.1f} ms   ratio {ver / base:5.2f}x  (goal <= 3x)")
    score = [*adequacy, "score", str(TASK), str(SPEC), "--cache", str(cache)]
    subprocess.run(score, env=env, stdout=subprocess.DEVNULL, check=False)  # fill the cache
    warm = _wall(score, env, repeat)
    procs = _processes_started(score, env)
    print(f"adequacy score, warm {warm * 1000:7.1f} ms   ratio {warm / base:5.1f}x python start "
          f"(goal <= 500 ms); processes started: "
          f"{'strace missing' if procs is None else procs}")


def cache_figures(repeat: int, cache_file: Path) -> None:
    from adequacy.extensions import registry
    from adequacy.scoring.cache import VerdictCache
    from adequacy.scoring.runner import score_spec
    from adequacy.taskdirs.load import load_task

    task = load_task(TASK)
    infos = {i.name: i for b in registry.registry().backends.values() for _, i in registry.registry().engine_infos(b)}
    if not infos.get("exec_spec") or not infos["exec_spec"].available:
        why = infos["exec_spec"].reason if "exec_spec" in infos else "not installed"
        print(f"exec_spec miss vs hit: skipped ({why})")
        return
    nonce = random.randrange(10**9)
    text = SPEC.read_text().replace(
        "spec fn pre_spec(input: Input) -> bool {\n",
        "spec fn pre_spec(input: Input) -> bool {\n"
        f"    (input.target != {nonce} || input.target == {nonce}) &&\n")
    cache = VerdictCache(str(cache_file))
    t = time.perf_counter()
    miss = score_spec(task, text, None, engines=["exec_spec"], cache=cache)
    miss_s = time.perf_counter() - t
    ran = [e for e in miss.engines if e.name == "exec_spec"]
    assert ran and ran[0].cached == 0 and ran[0].decided > 0, miss.engines

    started: list[str] = []

    def audit(event: str, args: tuple[object, ...]) -> None:
        if event in ("subprocess.Popen", "os.posix_spawn", "os.fork", "os.exec"):
            started.append(event)

    sys.addaudithook(audit)
    tagging = {"s": 0.0}
    check_tag = cache._tag

    def timed_tag(*a: str) -> str:  # the cache's check of each row's HMAC, timed
        t0 = time.perf_counter()
        try:
            return check_tag(*a)
        finally:
            tagging["s"] += time.perf_counter() - t0

    cache._tag = timed_tag  # type: ignore[method-assign,assignment]
    hits = []
    for _ in range(repeat):
        registry.registry().refresh()  # what a fresh process knows: nothing but the disk
        t = time.perf_counter()
        hit = score_spec(task, text, None, engines=["exec_spec"], cache=cache)
        hits.append(time.perf_counter() - t)
        run = [e for e in hit.engines if e.name == "exec_spec"][0]
        assert run.cached == run.cases, hit.engines
    hit_s = statistics.median(hits)
    print(f"exec_spec, in process: miss {miss_s * 1000:8.1f} ms, hit {hit_s * 1000:6.1f} ms, "
          f"ratio {miss_s / hit_s:6.1f}x  (goal >= 50x); processes the hits started: "
          f"{len(started)}; row tag checks {tagging['s'] / repeat * 1000:.2f} ms of the hit")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}  "
          f"(cores: {os.cpu_count()})")
    with tempfile.TemporaryDirectory() as d:
        cli_figures(args.repeat, Path(d) / "verdicts.sqlite")
        cache_figures(args.repeat, Path(d) / "exec.sqlite")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
