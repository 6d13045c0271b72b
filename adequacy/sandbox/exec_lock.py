"""No executing other programs: a Landlock rule set applied inside the bubblewrap sandbox.

The empty root already hides every other program, but a native child could write one into its
private ``/tmp`` and run it, and a JVM sees its JDK's launchers. Landlock (Linux 5.13+, an
unprivileged kernel feature) closes that: once applied, ``execve`` is refused for every file
except the child's own program and the dynamic loader. It cannot be applied before bubblewrap
(a Landlock-restricted process may not mount), so a tiny launcher does it inside the sandbox
and then executes the child: the system Python run with ``-I -S`` and the code below (no file
of ours is needed in the sandbox, only the interpreter and its standard library, read-only).

Landlock must allow the loader of a dynamically linked child (the kernel opens it for
execution), and the loader runs any file it can map (``ld.so /tmp/x``). So exec_spec harnesses
are linked statically (no loader allowed), and last the launcher installs a seccomp filter that
refuses every ``execve``/``execveat`` but its own one, known by three pointers at random
addresses: once the child runs, nothing can be executed at all, JVMs included.

Where the kernel's Landlock ABI allows it the same rule set also refuses every TCP bind and
connect (ABI 4) and signals or abstract UNIX sockets reaching outside the sandbox (ABI 6):
defence in depth behind the network and PID namespaces.
"""

from __future__ import annotations

import ctypes
import functools
import os
import shutil
import subprocess
import sys

from adequacy.sandbox import views

LANDLOCK_CREATE_RULESET_VERSION = 1

#: Runs as ``python -I -S -c LAUNCHER <nproc|-> <may-exec>... -- <program> <args>...``; any failure
#: ends with status 126 before the child runs (fail closed).
LAUNCHER = r"""
import ctypes, os, sys
def die(m):
    sys.stderr.write("sandbox launcher: " + m + "\n"); os._exit(126)
a = sys.argv[1:]
cut = a.index("--")
nproc, allowed, target = a[0], a[1:cut], a[cut + 1:]
if nproc != "-":
    # set inside the user namespace, the process limit counts only this sandbox's processes
    import resource
    resource.setrlimit(resource.RLIMIT_NPROC, (int(nproc), int(nproc)))
libc = ctypes.CDLL(None, use_errno=True)
sc = libc.syscall
sc.restype = ctypes.c_long
abi = sc(444, None, 0, 1)
if abi < 1:
    die("landlock unavailable")
class Attr(ctypes.Structure):
    _fields_ = [("fs", ctypes.c_uint64), ("net", ctypes.c_uint64), ("scoped", ctypes.c_uint64)]
class Beneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed", ctypes.c_uint64), ("fd", ctypes.c_int32)]
attr = Attr(1, 3 if abi >= 4 else 0, 3 if abi >= 6 else 0)
size = 24 if abi >= 6 else 16 if abi >= 4 else 8
rs = sc(444, ctypes.byref(attr), ctypes.c_size_t(size), 0)
if rs < 0:
    die("landlock_create_ruleset failed: errno %d" % ctypes.get_errno())
for p in allowed:
    try:
        fd = os.open(p, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        continue
    if sc(445, rs, 1, ctypes.byref(Beneath(1, fd)), 0) != 0:
        die("landlock_add_rule %s failed: errno %d" % (p, ctypes.get_errno()))
    os.close(fd)
if libc.prctl(38, 1, 0, 0, 0) != 0:
    die("no_new_privs failed")
if sc(446, rs, 0) != 0:
    die("landlock_restrict_self failed: errno %d" % ctypes.get_errno())
os.close(rs)
# Last: a seccomp filter that refuses execve and execveat from now on, except the one execve
# below, which it knows by its three pointers (random addresses, about 130 bits: the program
# after it cannot find them, and the filter cannot be read back without CAP_SYS_ADMIN).
import mmap, random, struct
rnd = random.SystemRandom()
MAP_FIXED_NOREPLACE = 0x100000
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
def place(data, align):
    size = (len(data) + 2 * 4096 - 1) // 4096 * 4096  # room for a random offset in page one
    for _ in range(64):
        page = rnd.randrange(1 << 20, 1 << 34) << 12
        got = libc.mmap(page, size, 3, mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0)
        if got == page:
            at = page + rnd.randrange(0, 4096 // align) * align
            ctypes.memmove(at, data, len(data))
            return at
    die("no free address for the exec arguments")
strs = [place(os.fsencode(x) + b"\0", 1) for x in target]
envs = [place(k + b"=" + v + b"\0", 1) for k, v in os.environb.items()]
path = place(os.fsencode(target[0]) + b"\0", 1)
argv = place(struct.pack("<%dQ" % (len(strs) + 1), *strs, 0), 8)
envp = place(struct.pack("<%dQ" % (len(envs) + 1), *envs, 0), 8)
def st(code, k):
    return struct.pack("<HBBI", code, 0, 0, k & 0xFFFFFFFF)
def jeq(k, t, f):
    return struct.pack("<HBBI", 0x15, t, f, k & 0xFFFFFFFF)
LD, RET, JGE = 0x20, 0x06, 0x35
ALLOW, EPERM = 0x7FFF0000, 0x00050001
prog = [st(LD, 4), jeq(0xC000003E, 1, 0), st(RET, EPERM),  # x86-64 only (no int 0x80)
        st(LD, 0), struct.pack("<HBBI", JGE, 0, 1, 0x40000000), st(RET, EPERM),  # no x32
        jeq(322, 0, 1), st(RET, EPERM), jeq(59, 1, 0), st(RET, ALLOW)]
for i, v in enumerate((path, argv, envp)):
    prog += [st(LD, 16 + 8 * i), jeq(v & 0xFFFFFFFF, 1, 0), st(RET, EPERM),
             st(LD, 20 + 8 * i), jeq(v >> 32, 1, 0), st(RET, EPERM)]
prog.append(st(RET, ALLOW))
if os.uname().machine != "x86_64":
    die("the exec filter is written for x86-64")
code = b"".join(prog)
buf = ctypes.create_string_buffer(code)
class Fprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]
fp = Fprog(len(prog), ctypes.addressof(buf))
if libc.prctl(22, 2, ctypes.byref(fp), 0, 0) != 0:
    die("seccomp filter refused: errno %d" % ctypes.get_errno())
sc(59, ctypes.c_void_p(path), ctypes.c_void_p(argv), ctypes.c_void_p(envp))
die("cannot execute %s: errno %d" % (target[0], ctypes.get_errno()))
"""


@functools.lru_cache(maxsize=1)
def landlock_abi() -> int:
    """The kernel's Landlock ABI version (0: not available)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.syscall.restype = ctypes.c_long
        v = int(libc.syscall(444, None, ctypes.c_size_t(0), LANDLOCK_CREATE_RULESET_VERSION))
    except (OSError, AttributeError):
        return 0
    return max(v, 0)


@functools.lru_cache(maxsize=1)
def python() -> tuple[str, tuple[str, ...]] | None:
    """(interpreter, paths it needs) for the launcher: the system Python when there is one
    (nothing of a home folder), else the one running us."""
    for cand in ("/usr/bin/python3", shutil.which("python3"), sys.executable):
        if not cand or not os.path.exists(cand):
            continue
        exe = os.path.realpath(cand)
        try:
            r = subprocess.run([exe, "-I", "-S", "-c",
                                "import sys, ctypes, os; print(sys.base_prefix); "
                                "print(os.path.dirname(os.__file__)); "
                                "import _ctypes; print(_ctypes.__file__)"],
                               capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.SubprocessError):
            continue
        if r.returncode != 0:
            continue
        _prefix, stdlib, ctypes_so = r.stdout.split("\n")[:3]
        needs = {exe, stdlib}
        needs |= set(views.libraries(exe).ro) | set(views.libraries(ctypes_so).ro)
        return exe, tuple(sorted(needs))
    return None


def available() -> str | None:
    """None when the launcher can run, else why not."""
    if landlock_abi() < 1:
        return "the kernel has no Landlock (Linux 5.13+ with landlock in its LSM list)"
    if python() is None:
        return "no Python interpreter for the sandbox launcher"
    return None


def launcher(program: str, processes: int | None) -> tuple[list[str], tuple[str, ...]]:
    """(command prefix, paths to bind) that let ``program`` run and nothing else execute, with
    at most ``processes`` processes and threads in the sandbox."""
    found = python()
    assert found is not None
    exe, needs = found
    may = [program, os.path.realpath(program)]
    ld = views.interpreter(program)  # a static program gets no loader to run
    if ld:
        may += [ld, os.path.realpath(ld)]
    nproc = "-" if processes is None else str(processes)
    return [exe, "-I", "-S", "-B", "-c", LAUNCHER, nproc, *dict.fromkeys(may), "--"], needs
