"""CPU and wall time of one fresh rac eval JVM: start, ping, the spare's warm-up, exit.

Back to back, an optimizer's metric calls use up the spares, so each call then costs one such
start in CPU (``docs/scale.md``). CPU (user+sys of the JVM and its sandbox, from the reaped
children's rusage) does not depend on the machine's load; wall times do. Variants of the
launch command alternate round by round in one run so that they share the load.

Run:  python benchmarks/jvm_start.py [--rounds 10] [--variants current,no-archive,...]
      python benchmarks/jvm_start.py --jdks [--rounds 10] [--jdk25 DIR]
``--jdks`` compares builds of the worker instead (outside the sandbox, whose cost is the same
for all: the ``no-sandbox`` variant): JDK 17 with its AppCDS archive, the worker compiled with
``invokedynamic`` string concatenation (javac's default) and inline (``-XDstringConcat=inline``,
the engine's build); and JDK 25 with and without its AOT cache (JEP 483/514,
``-XX:AOTCacheOutput`` from the same warm-up requests as the AppCDS dump). JDK 24+ refuses to
start with a SecurityManager, so the JDK 25 runs use a copy of the worker that skips installing
it, and a JDK 17 run of that copy gives the like-for-like figure.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

from adequacy.sandbox.run import make_workdir, popen_limited, remove_tree
from adequacy_openjml.engines.rac import worker as W

Cmd = Callable[[list[str]], list[str]]


def _drop(cmd: list[str], *prefixes: str) -> list[str]:
    return [a for a in cmd if not a.startswith(prefixes)]


def _with(cmd: list[str], *flags: str) -> list[str]:
    i = cmd.index(W.MAIN)
    return [*cmd[:i], *flags, *cmd[i:]]


VARIANTS: dict[str, tuple[Cmd, bool, bool]] = {
    # name: (command edit, sandboxed, warm-up request sent)
    "current": (lambda c: c, True, True),
    "no-warm": (lambda c: c, True, False),
    "no-sandbox": (lambda c: c, False, True),
    "no-archive": (lambda c: _drop(c, "-XX:SharedArchiveFile"), True, True),
    "xshare-off": (lambda c: _with(_drop(c, "-XX:SharedArchiveFile", "-Xshare"),
                                   "-Xshare:off"), True, True),
    "c1-1thread": (lambda c: _with(_drop(c, "-XX:CICompilerCount"), "-XX:CICompilerCount=1"),
                   True, True),
    "tiered-full": (lambda c: _drop(c, "-XX:TieredStopAtLevel"), True, True),
    "xint": (lambda c: _with(_drop(c, "-XX:TieredStopAtLevel", "-XX:CICompilerCount"),
                             "-Xint"), True, True),
    "g1": (lambda c: _with(_drop(c, "-XX:+UseSerialGC"), "-XX:+UseG1GC"), True, True),
    "small-heap": (lambda c: _with(c, "-Xms8m", "-XX:MetaspaceSize=16m"), True, True),
}


def _tree_cpu(root: int) -> float:
    """User+sys seconds of ``root`` and its live descendants (with their reaped children),
    from /proc: a JVM in the bubblewrap sandbox is reaped by the sandbox's own init, so its
    time never reaches our ``RUSAGE_CHILDREN``."""
    kids: dict[int, list[int]] = {}
    stats: dict[int, list[str]] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        stats[int(d)] = fields
        kids.setdefault(int(fields[1]), []).append(int(d))
    tick = os.sysconf("SC_CLK_TCK")
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        st = stats.get(pid)
        if st is not None:  # fields after the name: utime 11, stime 12, cutime 13, cstime 14
            total += sum(int(x) for x in st[11:15]) / tick
        todo += kids.get(pid, [])
    return total


def one(name: str) -> tuple[float, float, float]:
    """CPU seconds, wall seconds to the ping's answer, wall seconds to the warm-up's answer."""
    edit, sandboxed, warm = VARIANTS[name]
    w = W.Worker(512)
    cmd, limits, view = w._launch()
    cmd = edit(list(cmd))
    reqs: list[dict[str, object]] = [{"op": "ping"}]
    if warm:
        wr = W.warm_up_request(W.build_dir())
        assert wr is not None
        reqs.append(wr)
    work = make_workdir("adequacy-rac-bench-")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    if sandboxed:
        p = popen_limited(cmd, cwd=work, limits=limits, view=view)
    else:
        p = subprocess.Popen(cmd, cwd=work, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    assert p.stdin is not None and p.stdout is not None
    marks = []
    for i, r in enumerate(reqs):
        p.stdin.write((json.dumps({"id": str(i), **r}) + "\n").encode())
        p.stdin.flush()
        line = p.stdout.readline()
        if not line:
            p.kill()
            raise SystemExit(f"{name}: no answer: {p.stderr.read().decode()[-1500:]}"
                             if p.stderr else f"{name}: no answer")
        reply = json.loads(line)
        assert "error" not in reply, (name, reply)
        marks.append(time.perf_counter() - t0)
    tree = _tree_cpu(p.pid)  # the sandbox's processes are not all reaped by us
    p.stdin.close()
    p.wait()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    remove_tree(work)
    cpu = max(tree, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return cpu, marks[0], marks[-1]


JDK17 = "/usr/lib/jvm/java-17-openjdk-amd64"
JDK25 = "/usr/lib/jvm/temurin-25-jdk-amd64"
NO_SM = 'if (System.getProperty("adq.nosm") != null) return;\n        '


def _jar(tmp: Path, name: str, flags: list[str], no_sm: bool) -> Path:
    """The worker's sources built into ``tmp/name.jar`` (with JDK 17's javac, as the engine)."""
    src = tmp / f"{name}-src"
    shutil.copytree(W.JAVA_DIR, src)
    if no_sm:
        f = src / "adequacy" / "rac" / "Worker.java"
        text = f.read_text()
        assert "Policy.setPolicy(" in text
        f.write_text(text.replace("Policy.setPolicy(", NO_SM + "Policy.setPolicy(", 1))
    classes = tmp / f"{name}-classes"
    subprocess.run([f"{JDK17}/bin/javac", "-nowarn", "-Xlint:none", *flags, "--add-exports",
                    W.POOL_EXPORT, "-d", str(classes), *map(str, src.rglob("*.java"))],
                   check=True, capture_output=True)
    jar = tmp / f"{name}.jar"
    with zipfile.ZipFile(jar, "w", zipfile.ZIP_STORED) as z:
        for c in sorted(classes.rglob("*.class")):
            z.write(c, str(c.relative_to(classes)))
    return jar


def jdks(rounds: int, jdk25: str) -> None:
    out = W.build_dir()
    spare = "".join(json.dumps({"id": str(i), **r}) + "\n" for i, r in
                    enumerate([{"op": "ping"}, *filter(None, [W.warm_up_request(out)])])).encode()
    dump = "".join(json.dumps({"id": str(i), **r}) + "\n" for i, r in
                   enumerate(W._warm_up_requests("eval", out))).encode()
    common = ["-Xmx512m", "-Xss16m", "-XX:+UseSerialGC", "-XX:CICompilerCount=2",
              "-XX:-UsePerfData", "-Xlog:disable", "-Djava.awt.headless=true",
              "-Dsun.reflect.inflationThreshold=1000000", "-XX:TieredStopAtLevel=1"]
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        indy = _jar(tmp, "indy", [], no_sm=False)
        inline = _jar(tmp, "inline", list(W.JAVAC_FLAGS), no_sm=False)
        nosm = _jar(tmp, "nosm", list(W.JAVAC_FLAGS), no_sm=True)
        sm = ["-Djava.security.manager=allow"]
        free = ["-Dadq.nosm=1"]
        j17, j25 = f"{JDK17}/bin/java", f"{jdk25}/bin/java"
        # name: (java, flags, jar, archive flag at dump, archive flag at run)
        configs = {
            "17, SecurityManager, AppCDS, indy concat": (j17, sm, indy, "appcds"),
            "17, SecurityManager, AppCDS, inline concat (engine)": (j17, sm, inline, "appcds"),
            "17, no SecurityManager, AppCDS": (j17, free, nosm, "appcds"),
            "17, no SecurityManager, no archive": (j17, free, nosm, None),
            "25, no SecurityManager, no archive": (j25, free, nosm, None),
            "25, no SecurityManager, AppCDS": (j25, free, nosm, "appcds"),
            "25, no SecurityManager, AOT cache": (j25, free, nosm, "aot"),
        }
        hello = tmp / "hello"
        hello.mkdir()
        (hello / "H.java").write_text('public class H { public static void main(String[] a) { '
                                      'System.out.println("{\\"ok\\":true}"); } }')
        subprocess.run([f"{JDK17}/bin/javac", "-d", str(hello), str(hello / "H.java")],
                       check=True)
        cmds: dict[str, list[str]] = {}
        for i, (name, (java, flags, jar, kind)) in enumerate(configs.items()):
            base = [java, *common, *flags, "-cp", str(jar)]
            arch = tmp / f"a{i}"
            run: list[str] = ["-Xshare:auto"]
            if kind == "appcds":
                subprocess.run([*base, f"-XX:ArchiveClassesAtExit={arch}", W.MAIN, "eval"],
                               input=dump, capture_output=True, check=True)
                run = ["-Xshare:auto", f"-XX:SharedArchiveFile={arch}"]
            elif kind == "aot":
                subprocess.run([*base, f"-XX:AOTCacheOutput={arch}", W.MAIN, "eval"],
                               input=dump, capture_output=True, check=True)
                run = [f"-XX:AOTCache={arch}"]  # -Xshare:* is refused with it
            cmds[name] = [*base, *run, W.MAIN, "eval"]
        # the floor: the same JVM flags on a class that prints one line
        cmds["17, a class printing one line (the JVM's floor)"] = [
            j17, *common, *sm, "-Xshare:auto", "-cp", str(hello), "H"]
        got: dict[str, list[tuple[float, float]]] = {n: [] for n in cmds}
        for r in range(rounds + 1):
            for name, cmd in cmds.items():
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                t0 = time.perf_counter()
                p = subprocess.run(cmd, input=spare, capture_output=True)
                wall = time.perf_counter() - t0
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                if p.stdout.count(b'"ok":true') != (1 if name.endswith("floor)") else 2):
                    raise SystemExit(f"{name}: {p.stdout[-500:]!r} {p.stderr[-1500:]!r}")
                if r:  # round 0 fills the page cache
                    got[name].append((after.ru_utime - before.ru_utime + after.ru_stime
                                      - before.ru_stime, wall))
    first = statistics.median(c for c, _ in got[next(iter(got))])
    print(f"load: {os.getloadavg()[0]:.2f} (1 min), {rounds} rounds, alternating; one eval JVM: "
          "start, ping, the spare's warm-up, exit (unsandboxed)")
    print("| JDK, build | CPU ms (user+sys) median | CPU / first | wall ms median |")
    print("|---|---|---|---|")
    for name, xs in got.items():
        cpu = statistics.median(c for c, _ in xs)
        print(f"| {name} | {cpu * 1000:.0f} | {cpu / first:.2f} | "
              f"{statistics.median(w for _, w in xs) * 1000:.0f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--jdks", action="store_true", help="compare JDKs and builds (see above)")
    ap.add_argument("--jdk25", default=JDK25, help="a JDK 24+ home")
    a = ap.parse_args()
    if a.jdks:
        jdks(a.rounds, a.jdk25)
        return
    names = a.variants.split(",")
    W.build_dir()
    one("current")  # page cache, archives
    res: dict[str, list[tuple[float, float, float]]] = {n: [] for n in names}
    for _ in range(a.rounds):
        for n in names:
            res[n].append(one(n))
    base = statistics.median(c for c, _, _ in res[names[0]])
    print(f"load: {os.getloadavg()[0]:.2f} (1 min), {a.rounds} rounds, alternating")
    print("| variant | CPU ms (user+sys) median | CPU / first | ping answered ms | warm-up done ms |")
    print("|---|---|---|---|---|")
    for n in names:
        cpu = statistics.median(c for c, _, _ in res[n])
        print(f"| {n} | {cpu * 1000:.0f} | {cpu / base:.2f} | "
              f"{statistics.median(p for _, p, _ in res[n]) * 1000:.0f} | "
              f"{statistics.median(w for _, _, w in res[n]) * 1000:.0f} |")


if __name__ == "__main__":
    main()
