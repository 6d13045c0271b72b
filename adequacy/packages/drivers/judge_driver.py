"""Runs a package's judge written in Python on many cases in one sandboxed process.

Started as ``python -I -S judge_driver.py JUDGE MODE N CPU WALL`` inside the sandbox. For each
case I it forks; the child points stdin, stdout and stderr at ``I.in``, ``I.stdout`` and
``I.stderr`` (a checker gets ``I.in I.out I.ans`` as arguments), sets its CPU
limit and an alarm, and runs the judge as ``__main__`` (``runpy``). Each case starts from the
same fresh interpreter state, so nothing crosses cases, and no program is executed. An
uncaught exception is reported as ``crash`` (a validator that asserts rejects its input; a
checker that crashes failed). Prints one line per case: ``I exit CODE``, ``I crash``,
``I signal NUM`` or ``I timeout``.
"""

import os
import resource
import runpy
import signal
import sys
import traceback


def child(judge: str, mode: str, stem: str, cpu: int, wall: int) -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    signal.alarm(wall)
    for path, fd, flags in ((stem + ".in", 0, os.O_RDONLY),
                            (stem + ".stdout", 1, os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                            (stem + ".stderr", 2, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):
        f = os.open(path, flags, 0o600)
        os.dup2(f, fd)
        os.close(f)
    sys.argv = [judge, stem + ".in", stem + ".out", stem + ".ans"] if mode == "checker" \
        else [judge]
    code = 0
    try:
        runpy.run_path(judge, run_name="__main__")
    except SystemExit as e:
        c = e.code
        code = c if isinstance(c, int) else (0 if c is None else 1)
        if not isinstance(c, int) and c is not None:
            print(c, file=sys.stderr)
    except BaseException:  # noqa: BLE001 - the judge's own crash is its verdict
        traceback.print_exc()
        code = 120
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code & 0xFF)


def main() -> None:
    judge, mode, n, cpu, wall = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
    for i in range(n):
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            child(judge, mode, str(i), cpu, wall)
        _, status = os.waitpid(pid, 0)
        if os.WIFEXITED(status):
            code = os.WEXITSTATUS(status)
            print(f"{i} crash" if code == 120 else f"{i} exit {code}")
        else:
            s = os.WTERMSIG(status)
            timeout = s in (signal.SIGALRM, signal.SIGXCPU, signal.SIGKILL)
            print(f"{i} timeout" if timeout else f"{i} signal {s}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
