"""What authenticating the grader's own writing costs, as ratios measured in one run.

    python benchmarks/trust_costs.py [--rows 20000] [--records 2000] [--repeat 5]

1. verdict cache rows: ``put_many`` and ``get_many`` (all hits) through ``VerdictCache`` (every
   row tagged, every hit checked) vs the same SQL on the same schema without tags;
2. a real cache hit: ``score_spec`` of euclid_mod's gold spec with every verdict cached, and the
   part of it spent checking tags;
3. results records: writing (``record_line``: sealed vs plain JSON) and reading (``read_results``
   with seal checks vs the same lines unsealed);
4. the gym's ledger: ``count_check`` in the grader's folder.

Medians of ``--repeat`` runs; the load average is printed beside them (a shared machine).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from adequacy.examples import bundled_folder

REPO = Path(__file__).resolve().parents[1]
EUCLID = bundled_folder("verus") / "euclid_mod"


def _median(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def cache_rows(tmp: Path, n: int, repeat: int) -> None:
    from adequacy.model.verdicts import Truth
    from adequacy.scoring.cache import TABLE, VerdictCache

    rows = [(hashlib.sha256(str(i).encode()).hexdigest(), Truth.true if i % 2 else Truth.false,
             "", "interp") for i in range(n)]
    keys = [k for k, *_ in rows]
    sealed = VerdictCache(tmp / "sealed.sqlite")
    plain_path = tmp / "plain.sqlite"
    VerdictCache(plain_path).close()
    plain = sqlite3.connect(plain_path)
    plain.execute("PRAGMA journal_mode=WAL")
    plain.execute("PRAGMA synchronous=NORMAL")

    def put_plain() -> None:
        with plain:
            plain.executemany(f"INSERT OR REPLACE INTO {TABLE} (key, value, reason, engine, tag)"
                              " VALUES (?,?,?,?,'')", [(k, v.value, r, e) for k, v, r, e in rows])

    def get_plain() -> None:
        for i in range(0, len(keys), 500):
            chunk = keys[i:i + 500]
            q = (f"SELECT key, value, reason, engine, tag FROM {TABLE} WHERE key IN "
                 f"({','.join('?' * len(chunk))})")
            {k: (Truth(v), r, e) for k, v, r, e, _ in plain.execute(q, chunk)}

    put_s = _median(lambda: sealed.put_many(rows), repeat)
    put_p = _median(put_plain, repeat)
    got = sealed.get_many(keys)
    assert len(got) == n and sealed.forged == 0
    get_s = _median(lambda: sealed.get_many(keys), repeat)
    get_p = _median(get_plain, repeat)
    print(f"cache put_many {n} rows: tagged {put_s * 1000:7.1f} ms, untagged "
          f"{put_p * 1000:7.1f} ms, ratio {put_s / put_p:4.2f}x "
          f"({(put_s - put_p) / n * 1e6:5.2f} us/row)")
    print(f"cache get_many {n} hits: checked {get_s * 1000:7.1f} ms, unchecked "
          f"{get_p * 1000:7.1f} ms, ratio {get_s / get_p:4.2f}x "
          f"({(get_s - get_p) / n * 1e6:5.2f} us/row)")


def real_hit(tmp: Path, repeat: int) -> None:
    from adequacy.scoring import cache as cache_mod
    from adequacy.scoring.cache import VerdictCache
    from adequacy.scoring.runner import score_spec
    from adequacy.taskdirs.load import load_task

    task = load_task(EUCLID)
    text = (EUCLID / "specs" / "gold.rs").read_text()
    vc = VerdictCache(tmp / "hit.sqlite")
    score_spec(task, text, cache=vc)
    checked = {"s": 0.0, "rows": 0}
    real = vc._tag

    def timed(*a: str) -> str:
        t = time.perf_counter()
        try:
            return real(*a)
        finally:
            checked["s"] += time.perf_counter() - t
            checked["rows"] += 1

    vc._tag = timed  # type: ignore[method-assign,assignment]
    hit = _median(lambda: score_spec(task, text, cache=vc), repeat)
    per = checked["s"] / repeat
    assert cache_mod.TABLE
    print(f"score_spec euclid_mod gold, all {checked['rows'] // repeat} verdicts cached: "
          f"{hit * 1000:6.1f} ms, of which tag checks {per * 1000:5.2f} ms "
          f"({per / hit * 100:4.1f}%)")


def records(tmp: Path, n: int, repeat: int) -> None:
    from adequacy.records import log
    from adequacy.records.log import make_record, producer, read_results, record_line
    from adequacy.scoring.runner import score_spec
    from adequacy.taskdirs.load import load_task

    rep = score_spec(load_task(EUCLID), (EUCLID / "specs" / "gold.rs").read_text())
    rec = make_record(rep, producer("run"))
    plain_line = rec.model_dump_json(by_alias=True) + "\n"
    w_s = _median(lambda: [record_line(rec) for _ in range(n)], repeat)
    w_p = _median(lambda: [rec.model_dump_json(by_alias=True) + "\n" for _ in range(n)], repeat)
    sealed_f, plain_f = tmp / "sealed.jsonl", tmp / "plain.jsonl"
    sealed_f.write_text(record_line(rec) * n)
    plain_f.write_text(plain_line * n)
    assert all(r.sealed for r in read_results(sealed_f))
    r_s = _median(lambda: read_results(sealed_f), repeat)
    r_p = _median(lambda: read_results(plain_f), repeat)
    seal_check = _median(lambda: [log.line_sealed(ln) for ln in
                                  sealed_f.read_text().splitlines()], repeat)
    print(f"results: write {n} records sealed {w_s * 1000:7.1f} ms vs plain {w_p * 1000:7.1f} ms"
          f" ({w_s / w_p:4.2f}x); read sealed {r_s * 1000:7.1f} ms vs unsealed "
          f"{r_p * 1000:7.1f} ms ({r_s / r_p:4.2f}x; seal checks alone "
          f"{seal_check * 1000:5.1f} ms, {len(plain_line)} bytes a record)")


def ledger(tmp: Path, repeat: int) -> None:
    from adequacy.gym import make_gym
    from adequacy.gym.state import count_check

    make_gym([EUCLID], tmp / "gym", visible=3, seed=0)
    folder = tmp / "gym" / "euclid_mod"
    one = _median(lambda: count_check(folder), max(repeat, 20))
    print(f"gym ledger: count_check {one * 1000:5.2f} ms (in the grader's folder)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=20_000)
    ap.add_argument("--records", type=int, default=2_000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}  "
          f"(cores: {os.cpu_count()})")
    with tempfile.TemporaryDirectory() as d:
        os.environ["ADEQUACY_GRADER_HOME"] = str(Path(d) / "grader")
        cache_rows(Path(d), args.rows, args.repeat)
        real_hit(Path(d), args.repeat)
        records(Path(d), args.records, args.repeat)
        ledger(Path(d), args.repeat)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
