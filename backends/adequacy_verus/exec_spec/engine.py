"""The ``exec_spec`` engine: the real vstd macro, compiled by cargo, run as an untrusted child.

One crate per spec (the spec file verbatim, then a generated harness module), one shared cargo
target directory (vstd compiles once per machine), one process evaluating every case. The
compiled harness is cached by content hash, so a spec seen before costs no compilation, and it
reads its cases from stdin, so the same binary serves any case set.

Containment: the harness runs under ``adequacy.sandbox.run_limited`` (bubblewrap: an empty root
with only the harness and its libraries, private /tmp, PID and network namespaces; inside it
rlimits, own process group, unprivileged uid). Inside, each case runs under ``catch_unwind`` on a
worker thread; a panic becomes that case's ``unknown``. What cannot be caught in-process (a
runaway loop past the per-case limit, a stack overflow, an allocation failure, a kill by an
rlimit) ends the process; the driver then marks the case in flight ``unknown`` and restarts the
harness on the cases after it, so the batch always continues.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import stat
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import jinja2

from adequacy.plugin import (
    BackendError,
    Case,
    EngineInfo,
    EngineUnavailable,
    FailureStreak,
    Limits,
    LoadedSpec,
    SandboxLimits,
    SpecInvalid,
    Task,
    Truth,
    Verdict,
    cache_dir,
    content_hash,
    engine_version,
    make_workdir,
    progress,
    remove_tree,
    run_limited,
    tool_version,
    views,
)

from ..render import encode_tokens, struct_decoder
from ..syntax.ast import SpecModule
from . import cargo
from .diagnostics import classify, parse_cargo_messages, toolchain_fault
from .divergence import divergences
from .rewrite import rewrite
from .split import only

ENGINE = "exec_spec"
#: The exact vstd release every harness depends on (crates.io, newest when this was written).
VSTD_VERSION = "0.0.0-2026-11-01-0251"
#: Bump when the harness template or its protocol changes: cached binaries are keyed on it.
HARNESS_VERSION = "4"
#: Bump when what the engine decides changes without the binary changing (fidelity rules):
#: goes into the engine version, hence into verdict cache keys.
RULES_VERSION = "3"
STACK_BYTES = 256 * 1024 * 1024
#: Processes and threads of one harness sandbox. The sandbox counts only its own (the limit is
#: set inside its user namespace, and under root each child has its own uid); before, the
#: count was per uid machine-wide and JVM workers' threads made 64 fail, hence 4096 then.
HARNESS_PROCESSES = 64

_TEMPLATES = jinja2.Environment(
    loader=jinja2.PackageLoader("adequacy_verus.exec_spec", "templates"),
    autoescape=False, keep_trailing_newline=True, undefined=jinja2.StrictUndefined,
)


def target_dir() -> Path:
    """The cargo target folder every harness shares (vstd compiles once per machine)."""
    return cache_dir() / "cargo-target"


def _tool_version(cmd: str) -> str:
    """``cmd --version``, asked once per installed binary (``toolchain.tool_version``): a
    rustup proxy answers for the toolchain rustup selects, so its settings, its toolchains
    folder and ``RUSTUP_TOOLCHAIN`` are part of what the answer depends on."""
    home = Path(os.environ.get("RUSTUP_HOME") or Path.home() / ".rustup")
    return tool_version(cmd, depends_on=(home / "settings.toml", home / "toolchains"),
                        env=("RUSTUP_TOOLCHAIN", "RUSTUP_HOME"))


def availability() -> tuple[bool, str, str]:
    """(available, version, reason)."""
    missing = [t for t in ("cargo", "rustc") if shutil.which(t) is None]
    if missing:
        return (False, "", f"needs {' and '.join(missing)} on PATH (install Rust with rustup); "
                "vstd is then fetched from crates.io on first use")
    rustc = _tool_version("rustc")
    version = (f"vstd {VSTD_VERSION}; {rustc}; harness {HARNESS_VERSION}; "
               f"rules {RULES_VERSION}")
    return True, version, f"real vstd exec_spec_unverified! macro compiled by cargo ({rustc})"


def forbidden(spec_text: str, task: Task, path: str | None) -> str | None:
    """Why this engine refuses to compile ``spec_text``, or None.

    Defence in depth: the front end's policy runs again on the exact text about to be
    compiled, so no path into this engine (a caller skipping ``load_spec``, a cached spec from
    an older policy) hands rustc a spec the front end would refuse. By the fidelity rules an
    engine's refusal makes the cases ``unknown``; only ``load_spec`` calls a spec invalid."""
    from ..frontend import check_source

    try:
        check_source(spec_text, task.skeleton, path, str(task.skeleton_path))
    except SpecInvalid as e:
        where = f" (spec line {e.line})" if e.line else ""
        return (f"outside exec_spec's fragment: the front end refuses this text, which the "
                f"engine would compile to native code: {e.message}{where}")
    return None


def render_crate(spec_text: str, task: Task) -> tuple[str, str]:
    """(main.rs, key); the key names the cached binary."""
    in_fields = tuple((p.name, p.type) for p in task.inputs)
    out_fields = tuple((p.name, p.type) for p in task.outputs)
    main_rs = _TEMPLATES.get_template("harness.rs.j2").render(
        spec_text=spec_text.rstrip("\n"),
        input_decoder=struct_decoder("ExecInput", in_fields),
        output_decoder=struct_decoder("ExecOutput", out_fields),
        stack_bytes=STACK_BYTES,
    )
    key = content_hash(ENGINE, VSTD_VERSION, HARNESS_VERSION, main_rs)[:24]
    return main_rs, key


def _outside(kind: str, message: str, line: int | None) -> str:
    if kind == "invalid":
        first = message.strip().splitlines()[0] if message.strip() else "compile error"
        where = f" (spec line {line})" if line else ""
        return (f"outside exec_spec's fragment: the macro's output does not compile: "
                f"{first[:300]}{where}")
    # records written before the fidelity rules say "exec_spec fragment"
    return message.replace("outside exec_spec fragment:", "outside exec_spec's fragment:")


@dataclass(frozen=True)
class Build:
    """A usable harness binary, or the reason every case is unknown."""

    binary: Path | None
    outside: str | None = None
    seconds: float = 0.0
    cached: bool = False


def cargo_sandbox(crate: Path, offline: bool) -> tuple[views.View, dict[str, str]]:
    """What cargo may see for one harness crate (``cargo.sandbox``; its folders are made)."""
    return cargo.sandbox(crate, target_dir(), offline)


def build(spec_text: str, task: Task, path: str | None, limits: Limits) -> Build:
    """Compile (or fetch from cache) the harness of one spec.

    A compile failure of a spec the front end accepted leaves every case ``unknown`` (fidelity
    rule 1: only the front end calls a spec invalid), with the rustc message and spec line.
    """
    refused = forbidden(spec_text, task, path)
    if refused:
        return Build(None, outside=refused)
    main_rs, key = render_crate(spec_text, task)
    spec_lines = spec_text.rstrip("\n").count("\n") + 1
    bins = cache_dir() / "exec_spec" / "bin"
    bins.mkdir(parents=True, exist_ok=True)
    binary = bins / key
    record = bins / f"{key}.json"
    if record.is_file():
        rec = json.loads(record.read_text())
        return Build(None, outside=_outside(rec["kind"], rec["message"], rec.get("line")),
                     cached=True)
    if binary.is_file():
        return Build(binary, cached=True)

    start = time.monotonic()
    crate = cache_dir() / "exec_spec" / "crates" / key
    remove_tree(crate)
    (crate / "src").mkdir(parents=True)
    name = f"spec_{key[:16]}"
    (crate / "Cargo.toml").write_text(_TEMPLATES.get_template("Cargo.toml.j2").render(
        crate_name=name, vstd_version=VSTD_VERSION))
    (crate / "src" / "main.rs").write_text(main_rs, encoding="utf-8")  # what the lexer read
    lock = cache_dir() / "exec_spec" / f"Cargo.lock.{VSTD_VERSION}"
    triple = cargo.host_triple()
    cmd = ["cargo", "build", "--release", "--message-format=json", "--target", triple]
    home = Path(cargo.env(target_dir())["CARGO_HOME"])
    offline = lock.is_file() and cargo.has_vstd(home, VSTD_VERSION)
    if offline:
        shutil.copy(lock, crate / "Cargo.lock")
        cmd.append("--offline")
    # The compiler is trusted (vstd's proc macros, rustc); the spec text cannot run code at
    # build time (no build.rs, no proc-macro crate, include!/env! refused above), so the build
    # keeps our uid (the target dir is ours), but in case a front-end gap lets build-time code
    # through it is still contained: no network once vstd is fetched, a private /tmp, writes
    # only to the crate and the target folder, a wall clock and no stray children.
    view, env = cargo_sandbox(crate, offline=offline)
    has_vstd = any((target_dir() / triple / "release" / "deps").glob("libvstd-*.rlib"))
    what = ("exec_spec: cargo builds the spec's harness" if offline and has_vstd else
            "exec_spec: cargo " + ("builds" if offline else "fetches and builds") +
            " vstd, then the spec's harness (first use: about a minute)")
    with contextlib.nullcontext() if offline else cargo.online_lock(cache_dir() / "exec_spec"), \
            progress.phase(what):
        res = run_limited(cmd, cwd=crate, timeout=max(0.05, limits.spec_seconds), env=env,
                          limits=SandboxLimits(memory_mb=None, cpu_seconds=1800,
                                               file_size_mb=2048, open_files=4096,
                                               processes=None, network=not offline,
                                               drop_privileges=False, tmp_mb=512),
                          view=view)
    seconds = time.monotonic() - start
    stdout = res.stdout.decode("utf-8", "replace")
    if res.timed_out:
        # the spec's time (a search's deadline included) ran out while compiling: its cases
        # are unknown, and nothing is recorded, so a later run with more time builds it
        remove_tree(crate)
        return Build(None, outside=f"the cargo build did not finish within the spec's time "
                     f"({limits.spec_seconds:.0f}s, compile included)", seconds=seconds)
    if res.returncode != 0:
        diags = parse_cargo_messages(stdout)
        fault = toolchain_fault(diags, name)
        if fault is not None:
            remove_tree(crate)
            raise BackendError(f"cargo build of the exec_spec harness failed: {fault}")
        outcome = classify(diags, spec_lines)
        if outcome is None:
            remove_tree(crate)
            raise cargo.failure(res.stderr.decode("utf-8", "replace"),
                                registry=home / "registry", lock=lock if offline else None)
        record.write_text(json.dumps({"kind": outcome.kind, "message": outcome.message,
                                      "line": outcome.line}))
        remove_tree(crate)
        return Build(None, outside=_outside(outcome.kind, outcome.message, outcome.line),
                     seconds=seconds)
    if not lock.is_file() and (crate / "Cargo.lock").is_file():
        shutil.copy(crate / "Cargo.lock", lock)
    built = target_dir() / triple / "release" / name
    tmp = binary.with_suffix(".tmp")
    shutil.copy(built, tmp)
    tmp.chmod(0o755)
    tmp.replace(binary)
    # Keep the shared target dir from growing by one binary per spec ever seen.
    for junk in [built, *(target_dir() / triple / "release" / "deps").glob(f"{name}-*")]:
        junk.unlink(missing_ok=True)
    remove_tree(crate)
    return Build(binary, seconds=seconds)


# ------------------------------------------------------------------------------ running

def encode_cases(task: Task, cases: Sequence[Case]) -> bytes:
    toks: list[str] = [str(len(cases))]
    for c in cases:
        toks.append("0" if c.bucket.predicate == "pre" else "1")
        for p in task.inputs:
            encode_tokens(c.input[p.name], p.type, toks)
        if c.bucket.predicate == "post":
            assert c.output is not None
            for p in task.outputs:
                encode_tokens(c.output[p.name], p.type, toks)
    return (" ".join(toks) + "\n").encode()


def _panic_reason(msg: str, spec_lines: int) -> str:
    m = re.match(r"(?s)(.*)@(\d+)$", msg)
    if m:
        text, line = m.group(1), int(m.group(2))
        where = f" (spec line {line})" if line <= spec_lines else ""
        msg = f"{text}{where}"
    return "panic: " + msg.strip().splitlines()[0][:300]


def _crash_reason(stderr: bytes, sig: str | None, timed_out: bool, seconds: float) -> str:
    text = stderr.decode("utf-8", "replace")
    if timed_out:
        return f"timeout after {seconds:.1f}s (harness killed)"
    if "overflowed its stack" in text:
        return "stack overflow (unbounded recursion?)"
    if "memory allocation of" in text or "capacity overflow" in text:
        return "out of memory"
    if sig == "SIGXCPU":
        return "cpu limit exceeded"
    if sig:
        return f"harness died ({sig})"
    tail = [ln for ln in text.strip().splitlines() if ln.strip()][-1:]
    return "harness died" + (f": {tail[0][:200]}" if tail else "")


HARNESS_ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "RUST_BACKTRACE": "0"}


def harness_limits(limits: Limits, left: float) -> SandboxLimits:
    """The harness's limits: the spec's memory plus the evaluation thread's stack."""
    return SandboxLimits(memory_mb=limits.memory_mb + STACK_BYTES // 2**20,
                         cpu_seconds=int(min(left, 3600)) + 1, file_size_mb=16,
                         processes=HARNESS_PROCESSES)


def run(binary: Path, task: Task, cases: Sequence[Case], limits: Limits,
        spec_lines: int) -> list[Verdict]:
    """Evaluate every case with the harness, restarting past anything that kills it."""
    results: dict[int, Verdict] = {}
    pending = list(range(len(cases)))
    deadline = time.monotonic() + limits.spec_seconds
    streak = FailureStreak(limits.timeout_streak)
    case_ms = max(1, int(limits.case_seconds * 1000))
    workdir = make_workdir("adequacy-exec-")
    try:
        exe = workdir / "harness"
        shutil.copy(binary, exe)
        exe.chmod(stat.S_IRWXU | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH)
        while pending:
            # a predicate that timed out on too many cases in a row is given up
            keep = []
            for i in pending:
                skip = streak.skip_reason(cases[i].bucket.predicate)
                if skip is None:
                    keep.append(i)
                else:
                    results[i] = Verdict(case_id=cases[i].id, bucket=cases[i].bucket,
                                         value=Truth.unknown, engine=ENGINE, reason=skip)
            pending = keep
            if not pending:
                break
            left = deadline - time.monotonic()
            if left <= 0:
                for i in pending:
                    results[i] = Verdict(case_id=cases[i].id, bucket=cases[i].bucket,
                                         value=Truth.unknown, engine=ENGINE,
                                         reason="spec time budget exhausted")
                break
            batch = [cases[i] for i in pending]
            res = run_limited(
                [str(exe), str(case_ms)], cwd=workdir, input=encode_cases(task, batch),
                timeout=min(left, limits.case_seconds * len(batch) + 10.0),
                limits=harness_limits(limits, left),
                env=HARNESS_ENV, view=views.libraries(binary),
            )
            done: set[int] = set()
            timed_out_case = False
            lines = res.stdout.decode("utf-8", "replace").splitlines()
            if not any(ln.startswith('{"ready"') for ln in lines):
                why = _crash_reason(res.stderr, res.signal_name, res.timed_out, res.seconds)
                for i in pending:
                    results[i] = Verdict(case_id=cases[i].id, bucket=cases[i].bucket,
                                         value=Truth.unknown, engine=ENGINE,
                                         reason=f"harness could not start: {why}")
                break
            for raw in lines:
                try:
                    obj = json.loads(raw)
                except json.JSONDecodeError:
                    continue
                if "i" not in obj or not isinstance(obj["i"], int) or obj["i"] >= len(batch):
                    continue
                j = obj["i"]
                idx = pending[j]
                c = cases[idx]
                secs = obj.get("us", 0) / 1e6
                streak.note(c.bucket.predicate, "v" not in obj and "panic" not in obj)
                if "v" in obj:
                    v = Verdict(case_id=c.id, bucket=c.bucket, value=Truth.of(bool(obj["v"])),
                                engine=ENGINE, reason="executed", seconds=secs)
                elif "panic" in obj:
                    v = Verdict(case_id=c.id, bucket=c.bucket, value=Truth.unknown,
                                engine=ENGINE, reason=_panic_reason(obj["panic"], spec_lines),
                                seconds=secs)
                else:
                    timed_out_case = True
                    v = Verdict(case_id=c.id, bucket=c.bucket, value=Truth.unknown,
                                engine=ENGINE, seconds=limits.case_seconds,
                                reason=f"timeout after {limits.case_seconds:g}s")
                results[idx] = v
                done.add(j)
                progress.advance()
            rest = [j for j in range(len(batch)) if j not in done]
            if rest and timed_out_case:
                # The harness reported a runaway case and exited on purpose: nothing else was
                # in flight, so resume right after the reported case.
                pending = [pending[k] for k in rest]
            elif rest:
                # The first case without a result was in flight when the process ended.
                j = rest[0]
                idx = pending[j]
                if idx not in results:
                    streak.note(cases[idx].bucket.predicate,
                                res.timed_out or res.signal_name == "SIGXCPU")
                    results[idx] = Verdict(
                        case_id=cases[idx].id, bucket=cases[idx].bucket, value=Truth.unknown,
                        engine=ENGINE,
                        reason=_crash_reason(res.stderr, res.signal_name, res.timed_out,
                                             res.seconds))
                pending = [pending[k] for k in rest[1:]]
            else:
                pending = []
    finally:
        remove_tree(workdir)
    return [results[i] for i in range(len(cases))]


def check(spec_text: str, task: Task, cases: Sequence[Case], limits: Limits,
          path: str | None = None, module: SpecModule | None = None) -> list[Verdict]:
    """One verdict per case, never an exception for the spec's sake.

    With the parsed ``module``, cases of a predicate that reaches a construct on which the
    compiled code would diverge from Verus (``fidelity.divergences``) are ``unknown``, and
    only the other cases run; compile failures make every case ``unknown``.
    """
    ok, _, reason = availability()
    if not ok:
        raise EngineUnavailable(f"exec_spec engine: {reason}")
    if not cases:
        return []
    rewritten = None
    if module is not None:
        try:
            rewritten = rewrite(spec_text, module)
        except Exception:  # noqa: BLE001 - a rewrite bug must cost decisions, not the batch
            rewritten = None
    try:
        diverge = (divergences(module, rewritten=rewritten is not None)
                   if module is not None else {})
    except RecursionError:
        why = "outside exec_spec's fragment: expression nested too deeply to check"
        diverge = {"pre": why, "post": why}
    skipped = {i: diverge[c.bucket.predicate] for i, c in enumerate(cases)
               if c.bucket.predicate in diverge}
    out: dict[int, Verdict] = {
        i: Verdict(case_id=cases[i].id, bucket=cases[i].bucket, value=Truth.unknown,
                   engine=ENGINE, reason=why) for i, why in skipped.items()}
    todo = [i for i in range(len(cases)) if i not in skipped]
    # one wall clock for the whole call, the builds included (``Limits.spec_seconds``)
    end = time.monotonic() + limits.spec_seconds
    if todo:
        text = rewritten if rewritten is not None else spec_text
        spec_lines = spec_text.rstrip("\n").count("\n") + 1
        b = build(text, task, path, _left(limits, end))
        if b.binary is None:
            why = b.outside or "outside exec_spec's fragment"
            for name, line in (module.wrappers if module is not None else []):
                # rustc blames the whole macro for errors in code the macro generated
                why = why.replace(f"(spec line {line})",
                                  f"(rustc points at the {name}! block, spec line {line})")
            for i in todo:
                out[i] = Verdict(case_id=cases[i].id, bucket=cases[i].bucket,
                                 value=Truth.unknown, engine=ENGINE, reason=why)
            if module is not None:
                _per_predicate(text, module, task, cases, todo, path, limits, spec_lines, out,
                               end)
        else:
            got = run(b.binary, task, [cases[i] for i in todo], _left(limits, end),
                      spec_lines)
            out.update(zip(todo, got, strict=True))
    return [out[i] for i in range(len(cases))]


def _left(limits: Limits, end: float) -> Limits:
    """``limits`` with the spec's time cut to what is left before ``end``."""
    left = max(0.001, end - time.monotonic())
    return limits.model_copy(update={"spec_seconds": min(limits.spec_seconds, left)})


def _per_predicate(text: str, module: SpecModule, task: Task, cases: Sequence[Case],
                   todo: list[int], path: str | None, limits: Limits, spec_lines: int,
                   out: dict[int, Verdict], end: float) -> None:
    """After a failed build: decide the cases of each predicate whose own part compiles."""
    for pred in ("pre", "post"):
        idx = [i for i in todo if cases[i].bucket.predicate == pred]
        if not idx or time.monotonic() >= end:
            continue
        try:
            part = only(text, module, pred)
        except Exception:  # noqa: BLE001 - our splitting bug: the cases just stay unknown
            part = None
        if part is None:
            continue
        b = build(part, task, path, _left(limits, end))
        if b.binary is not None:
            got = run(b.binary, task, [cases[i] for i in idx], _left(limits, end), spec_lines)
            out.update(zip(idx, got, strict=True))


DECIDES = ("pre/post run as Rust compiled from vstd's exec_spec_unverified! macro; unknown "
           "where machine code would diverge from Verus (int/nat types and casts, / and % on "
           "negatives, choose-based functions), on panics, timeouts and outside the macro's "
           "fragment")


class ExecSpecEngine:
    """The engine object the Verus backend lists: ``check`` above behind the Engine surface."""

    name = ENGINE

    def info(self) -> EngineInfo:
        ok, version, reason = availability()
        here = Path(__file__).resolve().parent
        return EngineInfo(name=self.name, available=ok, reason=reason, decides=DECIDES,
                          version=engine_version(version, here, here.parent / "syntax"))

    def check(self, spec: LoadedSpec, task: Task, cases: Sequence[Case], limits: Limits
              ) -> list[Verdict]:
        return check(spec.text, task, cases, limits, path=spec.path, module=spec.data.module)
