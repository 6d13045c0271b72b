"""``adequacy check`` and ``adequacy submit`` from inside the gym shell, run outside it.

A gym folder's instructions tell the agent to run ``adequacy check``. Inside the sandboxed shell
that cannot work as such: the interpreter and the package are outside the sandbox, the engines
need sandboxes of their own (no nesting), and ``check`` reads ``.gym/`` (hidden there). Binding
all that in would also bind what the shell must not see. So the shell gets a stand-in: a small
client (``adequacy`` on its PATH, run by the system Python) that sends its arguments over a Unix
socket to this broker, which runs in the process that started the shell. The broker runs the
real ``check`` or ``submit`` on the gym folder, reading the spec from the shell's working copy
(what the agent just edited), and sends back the text and exit code.

What the broker accepts is the agent's: only ``check``, ``submit`` and ``verify``, with ``--spec FILE``
(inside the working copy, by the gym's rule of what is private: no link out, nothing of the
gym's own) and ``check``'s ``--case-timeout``; never ``--again`` or ``--source`` (a human's
options), never another folder. A request must carry the shell's random token (other users of
the machine can reach the socket's folder), is at most 64 KiB and must arrive within 10 s.
One request is served at a time; ``submit`` keeps its rule of one graded submission.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import math
import os
import secrets
import shutil
import socket
import stat
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adequacy.errors import AdequacyError, PrivatePath, ShellRequestRefused
from adequacy.extensions.backend import Limits
from adequacy.gym.manifest import read_manifest
from adequacy.gym.private import agent_path, is_private

MAX_REQUEST = 64 * 1024
READ_SECONDS = 10.0
MAX_CASE_SECONDS = 60.0
SOCKET_ENV = "ADEQUACY_GYM_SOCKET"
TOKEN_ENV = "ADEQUACY_GYM_TOKEN"

CLIENT = '''\
"""The gym shell's `adequacy`: asks the gym, outside the sandbox, to run check or submit."""
import json, os, socket, sys


def main():
    path, token = os.environ.get("{socket_env}"), os.environ.get("{token_env}")
    if not path or not token:
        sys.stderr.write("adequacy: the gym's connection is missing from this shell's "
                         "environment ({socket_env}, {token_env})\\n")
        return 2
    req = json.dumps({{"token": token, "argv": sys.argv[1:], "cwd": os.getcwd()}})
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(path)
        s.sendall(req.encode() + b"\\n")
        s.shutdown(socket.SHUT_WR)
        chunks = []
        while True:
            b = s.recv(65536)
            if not b:
                break
            chunks.append(b)
    except OSError as e:
        sys.stderr.write("adequacy: cannot reach the gym: %s\\n" % e)
        return 2
    try:
        ans = json.loads(b"".join(chunks).decode("utf-8", "replace"))
    except ValueError:
        sys.stderr.write("adequacy: the gym gave no answer\\n")
        return 2
    sys.stdout.write(ans.get("stdout", ""))
    sys.stdout.flush()
    sys.stderr.write(ans.get("stderr", ""))
    return int(ans.get("code", 2))


sys.exit(main())
'''

HELP = """\
usage (inside the gym shell):
  adequacy check [--spec FILE] [--case-timeout SECONDS]
      score your spec on the visible cases, with feedback on each (counted and logged)
  adequacy submit [--spec FILE]
      grade your spec on every case, visible and hidden: once per task
  adequacy verify [.gym/task] [FILE]
      prove your contract against the method body (tasks whose language has a prover)
FILE defaults to the task's spec file; paths are relative to where you run the command.
The gym runs these for you outside the sandbox; no other adequacy command runs here.
"""


@dataclass
class BrokerAnswer:
    stdout: str = ""
    stderr: str = ""
    code: int = 0


class Broker:
    """Serves the shell of one gym folder while a command runs (a context manager)."""

    def __init__(self, folder: Path, work: Path, client_python: str) -> None:
        self.folder = folder.resolve()
        self.work = work.resolve()
        self.python = client_python
        self.token = secrets.token_hex(16)
        self.dir = Path(tempfile.mkdtemp(prefix="adequacy-gym-"))
        self.socket_path = self.dir / "gym.sock"
        self.bin = self.dir / "bin"
        self._stop = threading.Event()
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self.served = 0

    @property
    def env(self) -> dict[str, str]:
        return {SOCKET_ENV: str(self.socket_path), TOKEN_ENV: self.token}

    def __enter__(self) -> Broker:
        # others may pass through (the sandbox's uid under root) but not list the folder
        os.chmod(self.dir, 0o711)
        self.bin.mkdir(mode=0o755)
        client = self.bin / "adequacy"
        client.write_text(f"#!{self.python} -IS\n"
                          + CLIENT.format(socket_env=SOCKET_ENV, token_env=TOKEN_ENV),
                          encoding="utf-8")
        os.chmod(client, 0o755)
        os.chmod(self.bin, 0o755)
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(str(self.socket_path))
        os.chmod(self.socket_path, 0o666)  # the token, not the file mode, keeps others out
        s.listen(8)
        s.settimeout(0.2)
        self._sock = s
        self._thread = threading.Thread(target=self._serve, name="gym-broker", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            # a request in progress finishes (a check is counted and logged either way)
            self._thread.join(timeout=600)
        if self._sock is not None:
            self._sock.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def _serve(self) -> None:
        assert self._sock is not None
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with conn:
                self._one(conn)

    def _one(self, conn: socket.socket) -> None:
        try:
            raw = _read_request(conn)
            ans = self.handle(raw)
        except ShellRequestRefused as e:
            ans = BrokerAnswer(stderr=f"adequacy: {e}\n", code=2)
        self.served += 1
        with contextlib.suppress(OSError):
            conn.settimeout(READ_SECONDS)
            conn.sendall(json.dumps({"stdout": ans.stdout, "stderr": ans.stderr,
                                     "code": ans.code}).encode("utf-8"))

    def handle(self, raw: bytes) -> BrokerAnswer:
        """One request's answer; ``ShellRequestRefused`` for anything but a well-formed check or submit."""
        try:
            req = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise ShellRequestRefused("malformed request") from None
        if not isinstance(req, dict):
            raise ShellRequestRefused("malformed request")
        token = req.get("token")
        if not isinstance(token, str) or not hmac.compare_digest(token, self.token):
            raise ShellRequestRefused("this connection is not the gym shell's")
        argv, cwd = req.get("argv"), req.get("cwd")
        if (not isinstance(argv, list) or len(argv) > 16
                or not all(isinstance(a, str) and len(a) <= 4096 for a in argv)
                or not isinstance(cwd, str)):
            raise ShellRequestRefused("malformed request")
        return self._run(argv, cwd)

    def _run(self, argv: list[str], cwd: str) -> BrokerAnswer:
        if not argv or argv[0] in ("-h", "--help", "help"):
            return BrokerAnswer(stdout=HELP)
        cmd, rest = argv[0], argv[1:]
        if cmd not in ("check", "submit", "verify"):
            raise ShellRequestRefused(f"inside the gym shell only `adequacy check`, `adequacy submit` and "
                          f"`adequacy verify` run, not {cmd[:40]!r} (see `adequacy --help`)")
        opts = _options(cmd, rest)
        if "help" in opts:
            return BrokerAnswer(stdout=HELP)
        here = self._cwd(cwd)
        places = opts.get("positional", [])
        if cmd == "verify":
            # `adequacy verify .gym/task FILE`, as the instructions write it for every surface
            if places and os.path.normpath(places[0]) == os.path.join(".gym", "task"):
                places = places[1:]
            if len(places) > 1 or (places and "spec" in opts):
                raise ShellRequestRefused("verify takes one spec file")
            if places:
                opts["spec"] = places[0]
        elif places and (len(places) > 1 or (here / places[0]).resolve() != self.work):
            raise ShellRequestRefused("inside the gym shell, check and submit work on this task's "
                          "folder only")
        spec = self._spec(here, opts.get("spec"))
        from adequacy.gym.session import check, grade_text, submit, visible_task
        try:
            if cmd == "verify":
                from adequacy.gym.proving import can_verify, verify_text
                m = read_manifest(self.folder)
                if not can_verify(m.language):
                    return BrokerAnswer(stderr=f"error: no prover for {m.language} tasks is "
                                  "installed here\n", code=2)
                return BrokerAnswer(stdout=verify_text(visible_task(self.folder), spec, m.spec_file,
                                                 Limits(spec_seconds=120.0)) + "\n")
            if cmd == "check":
                res = check(self.folder, spec, Limits(case_seconds=opts.get("case_timeout",
                                                                           10.0)))
                return BrokerAnswer(stdout=res.text + "\n(logged by the gym)\n",
                              code=res.report.exit_code)
            rec = submit(self.folder, spec)
            return BrokerAnswer(stdout=grade_text(rec) + "\n", code=rec.exit_code)
        except AdequacyError as e:
            return BrokerAnswer(stderr=f"error: {str(e)[:500]}\n", code=2)
        except Exception:  # noqa: BLE001 - after grading a message can quote a hidden case
            return BrokerAnswer(stderr="error: internal error (details withheld)\n", code=2)

    def _cwd(self, cwd: str) -> Path:
        here = Path(cwd)
        if not here.is_absolute():
            raise ShellRequestRefused("malformed request")
        real = here.resolve()
        if not real.is_relative_to(self.work):
            raise ShellRequestRefused("run check and submit inside the task's folder")
        return real

    def _spec(self, here: Path, given: str | None) -> str:
        """The spec text from the working copy: the given file, else the task's spec file."""
        try:
            if given is None:
                path = agent_path(self.work, read_manifest(self.folder).spec_file)
            else:
                rel = os.path.relpath(os.path.normpath(here / given), self.work)
                path = agent_path(self.work, rel, shown=given)
        except PrivatePath as e:
            raise ShellRequestRefused(f"--spec: {e}") from None
        except AdequacyError as e:
            raise ShellRequestRefused(str(e)[:300]) from None
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
        except OSError as e:
            raise ShellRequestRefused(f"cannot read {given or 'the spec file'}: {e.strerror}") from None
        with os.fdopen(fd, "rb") as f:
            # what was opened, not what was checked: a command running beside this one may
            # have swapped a folder on the way for a link since
            real = Path(os.readlink(f"/proc/self/fd/{f.fileno()}"))
            if not real.is_relative_to(self.work) or is_private(real.relative_to(self.work)):
                raise ShellRequestRefused(f"{given or 'the spec file'} leads outside the task's folder")
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise ShellRequestRefused(f"{given or 'the spec file'} is not a file")
            data = f.read(4 * 200_000 + 4)
        from adequacy.gym.session import MAX_SPEC_CHARS
        text = data.decode("utf-8", errors="replace")
        if len(text) > MAX_SPEC_CHARS:
            raise ShellRequestRefused(f"the spec has more than {MAX_SPEC_CHARS} characters")
        return text


def _read_request(conn: socket.socket) -> bytes:
    conn.settimeout(READ_SECONDS)
    buf = bytearray()
    try:
        while len(buf) <= MAX_REQUEST:
            b = conn.recv(65536)
            if not b:
                break
            buf += b
            if b"\n" in b:
                break
    except (TimeoutError, OSError):
        raise ShellRequestRefused("the request did not arrive in time") from None
    if len(buf) > MAX_REQUEST:
        raise ShellRequestRefused("request too long")
    return bytes(buf).split(b"\n", 1)[0]


def _options(cmd: str, rest: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    i = 0
    while i < len(rest):
        a = rest[i]
        name, eq, val = a.partition("=")
        if a in ("-h", "--help"):
            out["help"] = True
        elif name in ("--again", "--source"):
            raise ShellRequestRefused(f"{name} is not available inside the gym shell")
        elif name == "--spec" or (name == "--case-timeout" and cmd == "check"):
            if not eq:
                i += 1
                if i >= len(rest):
                    raise ShellRequestRefused(f"{name} needs a value")
                val = rest[i]
            if name == "--spec":
                out["spec"] = val
            else:
                try:
                    t = float(val)
                except ValueError:
                    raise ShellRequestRefused(f"--case-timeout {val[:40]!r} is not a number") from None
                if not (t > 0 and math.isfinite(t)):
                    raise ShellRequestRefused("--case-timeout must be a positive number of seconds")
                out["case_timeout"] = min(t, MAX_CASE_SECONDS)
        elif a.startswith("-"):
            raise ShellRequestRefused(f"no option {a[:40]!r} for {cmd} inside the gym shell "
                          "(see `adequacy --help`)")
        else:
            out.setdefault("positional", []).append(a)
        i += 1
    return out
