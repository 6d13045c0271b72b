"""What an agent waits for: one gym ``check`` called directly and over MCP (stdio), and a
``submit``, on a bundled Verus and a bundled JML task, measured in one run.

Usage: python benchmarks/gym_tools.py [--repeat 7]
Prints medians and two ratios: MCP round trip / direct call (the protocol's overhead) and
submit / check (grading every case vs the visible ones). Warm engines, verdict cache off.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

import adequacy.gym.session as session
from adequacy.gym import GymTools, make_gym

REPO = Path(__file__).resolve().parents[1]
TASKS = {"binary_search_first": (REPO / "examples/verus/binary_search_first",
                                 "specs/gold.rs"),
         "jml_abs_value": (REPO / "examples/jml/abs_value", "specs/gold.java")}


def _median(f: Any, n: int) -> float:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


async def _mcp_times(gym: Path, calls: list[tuple[str, str]], n: int) -> dict[str, float]:
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "adequacy", "mcp", "--gym", str(gym)])
    out: dict[str, float] = {}
    async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
        await s.initialize()
        for tid, spec in calls:
            await s.call_tool("check", {"task_id": tid, "spec": spec})  # warm the engines
            times = []
            for _ in range(n):
                t = time.perf_counter()
                await s.call_tool("check", {"task_id": tid, "spec": spec})
                times.append(time.perf_counter() - t)
            out[tid] = statistics.median(times)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    session._cache = lambda: None  # measure engines, not the cache
    with tempfile.TemporaryDirectory() as tmp:
        gym = Path(tmp) / "gym"
        make_gym([p for p, _ in TASKS.values()], gym)
        tools = GymTools(gym, allow_again=True)
        specs = {tid: (p / g).read_text() for tid, (p, g) in TASKS.items()}
        direct, submit = {}, {}
        for tid, spec in specs.items():
            tools.check(tid, spec)
            direct[tid] = _median(lambda tid=tid, spec=spec: tools.check(tid, spec), args.repeat)
            submit[tid] = _median(lambda tid=tid, spec=spec: tools.submit(tid, spec), args.repeat)
        over_mcp = anyio.run(_mcp_times, gym, list(specs.items()), args.repeat)
    print(f"{'task':22} {'check':>9} {'check/MCP':>10} {'MCP/direct':>11} {'submit':>9} "
          f"{'submit/check':>13}")
    for tid in specs:
        print(f"{tid:22} {direct[tid] * 1000:8.1f}ms {over_mcp[tid] * 1000:9.1f}ms "
              f"{over_mcp[tid] / direct[tid]:10.2f}x {submit[tid] * 1000:8.1f}ms "
              f"{submit[tid] / direct[tid]:12.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
