"""Limited child processes for untrusted code: one interface, bubblewrap as its provider.

``run_limited`` / ``popen_limited`` start a command with CPU, memory, process and file-size
limits in a private view of the file system (``views``: what a child may read), with no network
and a kill of the whole tree at the end; ``worker`` keeps such a child alive as a JSON-lines
server; ``toolchain`` says where built artefacts live and which tool versions are installed.
docs/sandbox.md is the whole story.
"""

from adequacy.sandbox.run import (
    Protection,
    RunResult,
    SandboxLimits,
    child_uid,
    clean_env,
    describe,
    make_workdir,
    missing,
    popen_limited,
    protections,
    remove_tree,
    report_lines,
    run_limited,
    wrap,
)

__all__ = ["Protection", "RunResult", "SandboxLimits", "child_uid", "clean_env", "describe",
           "make_workdir", "missing", "popen_limited", "protections", "remove_tree",
           "report_lines", "run_limited", "wrap"]
