"""A stand-in ``verus`` binary that replays a recorded output (``verus`` is not installed here)."""

from __future__ import annotations

import stat
from pathlib import Path


def stand_in_verus(folder: Path, recording: Path, *, version: str, to_stderr: bool,
                   exit_code: int) -> Path:
    """Write ``folder/verus``: ``--version`` prints ``version``, any other call prints the
    recording (on stderr when ``to_stderr``) and exits with ``exit_code``. The recording is
    copied beside the script: the sandbox shows verus only its own install folder."""
    folder.mkdir(parents=True, exist_ok=True)
    copy = folder / recording.name
    copy.write_bytes(recording.read_bytes())
    exe = folder / "verus"
    exe.write_text("#!/bin/sh\n"
                   'if [ "$1" = "--version" ]; then echo "Verus"; '
                   f'echo "  Version: {version}"; exit 0; fi\n'
                   f"cat '{copy}'{' >&2' if to_stderr else ''}\nexit {exit_code}\n")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return exe
