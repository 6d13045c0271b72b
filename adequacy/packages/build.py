"""Import problem packages into task folders: read, convert, judge, route, filter, write.

Per package: the layout is read (``layout``), every test and hack text goes through the task's
``io.py`` with the round trip enforced (``convert``), the package's validator, checker and
main solution judge the cases in the sandbox (``judges``), the routing table and the filters
place or drop each case (``routing``), and the task is written with the skeleton its language's
backend makes from the declared types (``Backend.new_skeleton``, which refuses types outside
the language's fragment). Nothing is written for a package that fails; the report says why,
and counts every dropped case by reason.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adequacy.errors import (
    AdequacyError,
    ConvertError,
    InputError,
    JudgeError,
    PackageRefused,
    TaskError,
)
from adequacy.extensions import registry
from adequacy.extensions.importer import ImportReport, Problem, TaskOutcome
from adequacy.model.task import Param
from adequacy.model.verdicts import Bucket
from adequacy.packages.convert import ConvertedValue, Request, convert_all
from adequacy.packages.layout import Package, read_bytes, read_package
from adequacy.packages.programs import JudgeRun, judge_cache, run_judge
from adequacy.packages.routing import Routed, case, deduplicate, sample, too_few
from adequacy.sandbox import toolchain
from adequacy.taskdirs.load import _parse_signature, _read_header, load_task, write_cases

_ID = re.compile(r"^[A-Za-z0-9_.-]{1,128}$")
_FLOAT = re.compile(r"\bf(32|64)\b")
#: Polygon's standard checkers that compare floating-point numbers.
_FLOAT_CHECKERS = re.compile(r"std::(rcmp|dcmp|fcmp?\w*double|rncmp|acmp\w*real)", re.I)


@dataclass
class Options:
    min_per_bucket: int = 5
    max_per_bucket: int = 200
    seed: int = 0
    case_seconds: float | None = None
    """Per-case limit for judges; None: twice the problem's time limit (at least 2 s)."""
    strict_conversion: bool = True
    """A problem whose io.py fails on an official test (input or answer) is dropped, as in
    Verus-SpecGym; False drops only those tests. Hacks that do not convert are always only
    filtered (hacks are often malformed on purpose)."""


@dataclass
class Raw:
    """One case's texts before conversion."""

    name: str
    origin: str
    input: bytes
    output: bytes | None
    answer: bytes | None
    visible: bool = False
    record_valid: bool | None = None
    record_accepted: bool | None = None


def _truncated(b: bytes | None) -> bool:
    return b is not None and b.rstrip().endswith(b"...")


def declared_types(pkg: Package, stage: Path, need_io: bool = True,
                   ) -> tuple[dict[str, Any], list[Param], list[Param]]:
    """The declared task.toml (``adequacy/task.toml``) made into the task's in ``stage``, with
    its types."""
    if pkg.task_toml is None:
        raise PackageRefused("no declared types", f"{pkg.root}: no adequacy/task.toml (the task's "
                      "language and signature; docs/packages.md)")
    if pkg.io_py is None and need_io:
        raise PackageRefused("no conversion", f"{pkg.root}: no adequacy/io.py (write it, or run "
                      "`adequacy package convert --lm MODEL`)")
    text = read_bytes(pkg.task_toml, "task.toml").decode("utf-8", "replace")
    head_lines = []
    tid = pkg.name
    if not re.search(r"(?m)^id\s*=", text):
        tid = re.sub(r"[^A-Za-z0-9_.-]", "_", pkg.name)[:128] or "problem"
        head_lines.append(f'id = "{tid}"')
    if not re.search(r"(?m)^title\s*=", text) and pkg.title:
        head_lines.append("title = " + _toml_str(pkg.title))
    if not re.search(r"(?m)^provenance\s*=", text):
        head_lines.append("provenance = " + _toml_str(
            f"problem package {pkg.name} (Polygon layout), imported by adequacy import package"))
    stage.mkdir(parents=True)
    (stage / "task.toml").write_text("\n".join(head_lines) + ("\n" if head_lines else "") + text,
                                     encoding="utf-8")
    errors: list[Any] = []
    head = _read_header(stage, errors)
    if head is None or errors:
        raise PackageRefused("bad declared types", _where(pkg, errors[0]) if errors else "task.toml")
    if not isinstance(head.get("id"), str) or not _ID.match(head["id"]):
        raise PackageRefused("bad declared types", f"{pkg.task_toml}: id must be a name "
                      "([A-Za-z0-9_.-], at most 128 characters)")
    if not isinstance(head.get("language"), str):
        raise PackageRefused("bad declared types", f"{pkg.task_toml}: language is missing")
    inputs, outputs, structs = _parse_signature(stage, head, errors)
    if errors:
        raise PackageRefused("bad declared types", _where(pkg, errors[0]))
    texts = [p.type_text for p in inputs + outputs] + [t for f in structs.values()
                                                         for t in f.values()]
    if any(_FLOAT.search(t) for t in texts):
        raise PackageRefused("floating-point I/O unsupported", f"{pkg.task_toml}: a declared type is "
                      "a float (f32/f64); floating-point text does not round-trip exactly")
    return head, inputs, outputs


def _where(pkg: Package, e: Any) -> str:
    msg = str(e)
    return f"{pkg.task_toml}: {msg.split(': ', 1)[1] if msg.startswith('task.toml') else msg}"


def _toml_str(s: str) -> str:
    import json
    return json.dumps(s, ensure_ascii=True)


def _raw_cases(pkg: Package, routed: Routed) -> list[Raw]:
    raws: list[Raw] = []
    for t in pkg.tests:
        name = f"official-{t.number:02d}"
        inp = read_bytes(t.input, f"test {t.number}")
        ans = read_bytes(t.answer, f"test {t.number} answer") if t.answer else None
        if _truncated(inp) or _truncated(ans):
            routed.drop(name, "input", "truncated test", f"test {t.number}: its text ends in "
                        "'...' (a test shown cut short)")
            continue
        if ans is None:
            routed.drop(name, "output", "no answer file", f"test {t.number}: no answer file")
        raws.append(Raw(name, "official", inp, None, ans, visible=t.sample))
    for h in pkg.hacks:
        name = f"hack-{h.name}"
        inp = read_bytes(h.input, f"hack {h.name}")
        out = read_bytes(h.output, f"hack {h.name} output") if h.output else None
        if h.truncated or _truncated(inp) or _truncated(out):
            routed.drop(name, "input", "truncated test", f"hack {h.name}: recorded truncated")
            continue
        ans_path = h.input.parent / f"{h.name}.a"
        ans = read_bytes(ans_path, f"hack {h.name} answer") if ans_path.is_file() else None
        raws.append(Raw(name, "hack", inp, out, ans, record_valid=h.valid,
                        record_accepted=h.accepted))
    return raws


def _convert(pkg: Package, raws: list[Raw], inputs: list[Param], outputs: list[Param],
             ) -> tuple[list[ConvertedValue], dict[int, ConvertedValue]]:
    assert pkg.io_py is not None
    params = {"input": inputs, "output": outputs}
    conv_in = convert_all(pkg.io_py, [Request(r.name, "input", r.input) for r in raws], params)
    out_reqs: list[tuple[int, Request]] = []
    for i, (r, c) in enumerate(zip(raws, conv_in, strict=True)):
        text = r.answer if r.origin == "official" else r.output
        if c.value is not None and text is not None:
            out_reqs.append((i, Request(r.name, "output", text, c.value)))
    conv_out = convert_all(pkg.io_py, [q for _, q in out_reqs], params)
    return conv_in, {i: c for (i, _), c in zip(out_reqs, conv_out, strict=True)}


def _judge_limits(pkg: Package, opts: Options) -> float:
    return opts.case_seconds or max(2.0, 2 * pkg.time_limit_ms / 1000)


def _answers(pkg: Package, raws: list[Raw], keep: list[int], opts: Options, cache: Path,
             routed: Routed) -> None:
    """Jury answers for hacks without one: the main solution's output (as Codeforces does)."""
    need = [i for i in keep if raws[i].origin == "hack" and raws[i].answer is None
            and raws[i].output is not None]
    if not need:
        return
    if pkg.solution is None:
        for i in need:
            routed.drop(raws[i].name, "output", "no jury answer",
                        f"hack {raws[i].name}: no .a file and no main solution to make one")
        return
    outs = run_judge(pkg.solution, "solution", [(raws[i].input, b"", b"") for i in need],
                     cache=cache, case_seconds=_judge_limits(pkg, opts),
                     memory_mb=pkg.memory_limit_mb)
    for i, o in zip(need, outs, strict=True):
        if o.status == "exit" and o.code == 0:
            raws[i].answer = o.stdout
        else:
            routed.drop(raws[i].name, "output", "main solution failed",
                        f"{raws[i].name}: the main solution gave {o.describe()}")


def route(pkg: Package, inputs: list[Param], outputs: list[Param], opts: Options,
          routed: Routed) -> None:
    """Convert, judge and route every case of ``pkg`` into ``routed``."""
    raws = _raw_cases(pkg, routed)
    conv_in, conv_out = _convert(pkg, raws, inputs, outputs)
    if opts.strict_conversion:
        lost = [c.error for r, c in zip(raws, conv_in, strict=True)
                if r.origin == "official" and c.value is None]
        lost += [conv_out[i].error for i, r in enumerate(raws)
                 if r.origin == "official" and i in conv_out and conv_out[i].value is None]
        if lost:
            raise PackageRefused("conversion fails on official tests",
                          f"{len(lost)} official text(s) do not convert; first: {lost[0]}")
    cache = judge_cache(toolchain.cache_dir(shared_with_sandbox=True))
    limit = _judge_limits(pkg, opts)
    memory = max(256, min(pkg.memory_limit_mb, 2048))
    keep = []
    for i, (r, c) in enumerate(zip(raws, conv_in, strict=True)):
        if c.value is None:
            reason = ("syntactically invalid hack" if r.origin == "hack"
                      else "official test does not convert")
            if c.kind == "round trip":
                reason = "input does not round-trip"
            routed.drop(r.name, "input", reason, c.error)
            continue
        keep.append(i)
    validity: dict[int, bool | None] = {}
    if pkg.validator is not None:
        outs = run_judge(pkg.validator, "validator", [(raws[i].input, b"", b"") for i in keep],
                         cache=cache, case_seconds=limit, memory_mb=memory)
        for i, o in zip(keep, outs, strict=True):
            validity[i] = o.valid
            if o.valid is None:
                routed.drop(raws[i].name, "judge", "validator gave no verdict",
                            f"{raws[i].name}: the validator gave {o.describe()}")
    # the jury answers only valid inputs (a solution may crash on an invalid one, and the
    # output of an invalid hack is never judged)
    _answers(pkg, raws, [i for i in keep if validity.get(i, True) is True], opts, cache,
             routed)
    to_check = [i for i in keep if i in conv_out and conv_out[i].value is not None
                and raws[i].answer is not None and validity.get(i, True) is not False]
    verdicts: dict[int, JudgeRun] = {}
    if pkg.checker is not None and to_check:
        cases = [(raws[i].input, (raws[i].answer if raws[i].origin == "official"
                                  else raws[i].output) or b"", raws[i].answer or b"")
                 for i in to_check]
        outs = run_judge(pkg.checker, "checker", cases, cache=cache, case_seconds=limit,
                         memory_mb=memory)
        verdicts = dict(zip(to_check, outs, strict=True))
    for i in keep:
        r = raws[i]
        inp = conv_in[i].value
        assert inp is not None
        valid = validity.get(i) if pkg.validator is not None else True
        if r.origin == "hack" and pkg.validator is None:
            routed.drop(r.name, "judge", "no validator", f"{r.name}: the package has no "
                        "validator to route hacks")
            continue
        if valid is None:
            continue
        if r.record_valid is not None and r.record_valid != valid:
            routed.drop(r.name, "judge", "recorded verdict disagrees with the validator",
                        f"{r.name}: the record says {'valid' if r.record_valid else 'invalid'}, "
                        f"the validator says {'valid' if valid else 'invalid'}")
            continue
        if not valid:
            if r.origin == "official":
                routed.drop(r.name, "judge", "official test rejected by the validator",
                            f"{r.name}: the validator rejects an official test")
                continue
            routed.add(Bucket.pre_sound, case(Bucket.pre_sound, r.name, inp, None, r.origin,
                                              r.visible))
            continue
        routed.add(Bucket.pre_complete, case(Bucket.pre_complete, r.name, inp, None, r.origin,
                                             r.visible))
        _route_output(pkg, r, i, inp, conv_out, verdicts, routed)


def _route_output(pkg: Package, r: Raw, i: int, inp: dict[str, Any],
                  conv_out: dict[int, ConvertedValue], verdicts: dict[int, JudgeRun],
                  routed: Routed) -> None:
    text = r.answer if r.origin == "official" else r.output
    if text is None:
        return
    c = conv_out.get(i)
    if c is None:
        return
    if c.value is None:
        reason = ("output does not round-trip" if c.kind == "round trip" else
                  "syntactically invalid hack output" if r.origin == "hack"
                  else "official answer does not convert")
        routed.drop(r.name, "output", reason, c.error)
        return
    if r.answer is None:
        return  # dropped already: no jury answer for the checker to compare with
    if pkg.checker is None:
        if r.origin == "official":  # the jury's answer is correct by definition
            routed.add(Bucket.post_complete, case(Bucket.post_complete, r.name, inp, c.value,
                                                  r.origin, r.visible))
            return
        routed.drop(r.name, "output", "no checker", f"{r.name}: the package has no checker")
        return
    o = verdicts.get(i)
    acc = o.accepted if o is not None else None
    if acc is None:
        routed.drop(r.name, "judge", "checker gave no verdict",
                    f"{r.name}: the checker gave {o.describe() if o else 'no report'}")
        return
    if r.origin == "official":
        if not acc:
            routed.drop(r.name, "judge", "checker rejects the jury's answer",
                        f"{r.name}: {o.describe() if o else ''}")
            return
        routed.add(Bucket.post_complete, case(Bucket.post_complete, r.name, inp, c.value,
                                              r.origin, r.visible))
        return
    if r.record_accepted is not None and r.record_accepted != acc:
        routed.drop(r.name, "judge", "recorded verdict disagrees with the checker",
                    f"{r.name}: the record says {'ok' if r.record_accepted else 'rejected'}, "
                    f"the checker says {o.describe() if o else ''}")
        return
    b = Bucket.post_complete if acc else Bucket.post_sound
    routed.add(b, case(b, r.name, inp, c.value, r.origin, r.visible))


def _write(pkg: Package, stage: Path, head: dict[str, Any], routed: Routed, dest: Path) -> Path:
    (stage / "statement.md").write_text(pkg.statement or f"# {pkg.title or pkg.name}\n",
                                        encoding="utf-8")
    for b in Bucket:
        write_cases(stage, b, routed.cases[b])
    ref = stage / "reference"
    (ref / "package").mkdir(parents=True)
    assert pkg.io_py is not None
    shutil.copy(pkg.io_py, ref / "io.py")
    for role, src in (("checker", pkg.checker), ("validator", pkg.validator),
                      ("solution", pkg.solution)):
        if src is not None:
            shutil.copy(src.path, ref / "package" / f"{role}{src.path.suffix}")
    specs = pkg.root / "adequacy" / "specs"
    if specs.is_dir() and not specs.is_symlink():
        (stage / "specs").mkdir()
        for f in sorted(specs.iterdir()):
            if f.is_file() and not f.is_symlink():
                shutil.copy(f, stage / "specs" / f.name)
    backend = registry.registry().owner(head["language"])
    try:
        made = backend.new_skeleton(stage)
    except TaskError as e:
        raise PackageRefused("types outside the language's fragment",
                      f"{pkg.task_toml}: {e.message}" + (f" ({e.field})" if e.field else "")
                      ) from None
    if made is None:
        raise PackageRefused("no skeleton", f"the {backend.name} backend writes no skeleton from "
                      "declared types")
    (stage / made[0]).write_text(made[1], encoding="utf-8")
    task = load_task(stage)  # the written task must load as any task does
    why = backend.type_fragment_problem(task)
    if why:
        raise PackageRefused("types outside the language's fragment", f"{pkg.task_toml}: {why}")
    target = dest / head["id"]
    if target.exists() or target.is_symlink():
        if target.is_symlink() or not (target / "task.toml").is_file():
            raise PackageRefused("destination in the way", f"{target} exists and is not a task folder")
        shutil.rmtree(target)
    stage.rename(target)
    return target


def import_package(root: Path, dest: Path, opts: Options) -> tuple[TaskOutcome, Routed]:
    """One package into ``dest/<id>`` (nothing written when it fails)."""
    routed = Routed()
    outcome = TaskOutcome(task_id=root.name, converted=False)
    dest.mkdir(parents=True, exist_ok=True)
    # a fresh name: never a folder of the user's that happens to be called so
    stage = Path(tempfile.mkdtemp(prefix=".staging-", dir=dest)) / "task"
    try:
        try:
            pkg = read_package(root)
        except InputError as e:
            raise PackageRefused("bad package", str(e)) from None
        outcome.task_id = pkg.name
        if pkg.interactive:
            raise PackageRefused("interactive problem", f"{root}: interactive problems (an "
                          "interactor) are not supported")
        if not pkg.stdio:
            raise PackageRefused("file I/O", f"{root}: the problem reads or writes named files")
        if pkg.checker and _FLOAT_CHECKERS.search(pkg.checker.name):
            raise PackageRefused("floating-point I/O unsupported",
                          f"{root}: the checker {pkg.checker.name} compares real numbers")
        head, inputs, outputs = declared_types(pkg, stage)
        outcome.task_id = head["id"]
        route(pkg, inputs, outputs, opts, routed)
        deduplicate(routed, inputs, outputs)
        sample(routed, opts.max_per_bucket, opts.seed)
        short = too_few(routed, opts.min_per_bucket, bool(head.get("every_input_valid")))
        if short:
            raise PackageRefused("too few cases", f"{head['id']}: {short}")
        target = _write(pkg, stage, head, routed, dest)
        outcome.converted = True
        outcome.dest = str(target)
        outcome.counts = {b.value: len(cs) for b, cs in routed.cases.items()}
    except PackageRefused as r:
        outcome.problems.append(Problem(kind=r.kind, detail=r.detail))
    except (JudgeError, ConvertError) as e:
        outcome.problems.append(Problem(kind="judge or conversion failed", detail=str(e)))
    except AdequacyError as e:
        outcome.problems.append(Problem(kind="task error", detail=str(e)))
    finally:
        shutil.rmtree(stage.parent, ignore_errors=True)
    outcome.problems += [Problem(kind=d.reason, detail=d.detail, case=d.case, stage=d.stage)
                         for d in routed.drops]
    return outcome, routed


def package_folders(src: Path) -> list[Path]:
    """``src`` itself when it holds problem.xml, else its sub-folders that do."""
    if (src / "problem.xml").is_file():
        return [src]
    if src.is_dir():
        return sorted(p for p in src.iterdir() if (p / "problem.xml").is_file())
    return []


def import_packages(srcs: Sequence[Path], dest: Path, opts: Options | None = None,
                    only: Sequence[str] | None = None) -> ImportReport:
    """``adequacy import package DIR... DEST``: one task per package; figures count the
    dropped cases per reason (``dropped: <reason>``) and the cases kept per origin.
    ``only``: the package folders' names to import (the others are skipped)."""
    opts = opts or Options()
    report = ImportReport(importer="package", src=", ".join(str(s) for s in srcs),
                          dest=str(dest))
    dest.mkdir(parents=True, exist_ok=True)
    for src in srcs:
        folders = package_folders(src)
        if not folders:
            report.outcomes.append(TaskOutcome(task_id=src.name, converted=False, problems=[
                Problem(kind="bad package", detail=f"{src}: no problem.xml here or in its "
                        "sub-folders")]))
            continue
        for folder in folders:
            if only is not None and folder.name not in only:
                continue
            outcome, routed = import_package(folder, dest, opts)
            report.outcomes.append(outcome)
            for reason, n in sorted(routed.reasons().items()):
                report.count(f"dropped: {reason}", n)
            if outcome.converted:
                for cs in routed.cases.values():
                    for c in cs:
                        report.count(f"kept {c.origin}")
    return report
