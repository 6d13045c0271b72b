"""Running an exported task's ``tests/test.sh`` as Harbor's verifier would, without Docker.

The script sees the container's paths: ``/tests`` (the task's ``tests/``), ``/logs/verifier``
(where it writes), ``/app`` (the agent's workspace with the spec), inside bubblewrap with no
network and nothing of the host but the system, this interpreter and the checkout (the image
has the project installed; here the checkout's virtual environment stands in for it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def bwrap() -> str | None:
    return shutil.which("bwrap")


def run_test_sh(task_folder: Path, workspace: Path, logs: Path, timeout: float = 600
                ) -> subprocess.CompletedProcess[str]:
    """Run ``task_folder/tests/test.sh`` with the container paths bound; ``workspace`` is
    bound at ``/app``, ``logs`` at ``/logs/verifier``."""
    exe = bwrap()
    assert exe is not None
    logs.mkdir(parents=True, exist_ok=True)
    args = [exe, "--unshare-all", "--die-with-parent", "--new-session",
            "--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc",
            "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    for link in ("/bin", "/sbin", "/lib", "/lib32", "/lib64"):
        if os.path.islink(link):
            args += ["--symlink", os.readlink(link), link]
        elif os.path.isdir(link):
            args += ["--ro-bind", link, link]
    host = {os.path.realpath(sys.base_prefix), os.path.realpath(sys.prefix), str(REPO)}
    for p in sorted(host):
        args += ["--ro-bind", p, p]
    env = {"PATH": f"{Path(sys.prefix) / 'bin'}:/usr/bin:/bin", "HOME": "/tmp",
           "LANG": "C.UTF-8"}
    cache = os.environ.get("ADEQUACY_CACHE")
    if cache:  # the engines' built workers (the image builds them with `adequacy setup`)
        Path(cache).mkdir(parents=True, exist_ok=True)
        args += ["--bind", cache, cache]
        env["ADEQUACY_CACHE"] = cache
    args += ["--ro-bind", str(task_folder / "tests"), "/tests",
             "--bind", str(logs), "/logs/verifier",
             "--ro-bind", str(workspace), "/app", "--chdir", "/app"]
    for k, v in env.items():
        args += ["--setenv", k, v]
    args += ["bash", "/tests/test.sh"]
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=env)
