"""The JML front end and engines on a corpus of real, verified Java+JML programs.

Usage: python benchmarks/jml_corpus.py CORPUS_DIR [--engines rac,key] [--cases 6] [--seed 0]
       [--front-end-only] [--verbose]

CORPUS_DIR holds ``*.java`` files with JML written by others, e.g. SpecGen's 33 OpenJML-verified
programs (the VeriAct artifact's ``baselines/specgen/prompts/oracle``, which the user fetches;
nothing of it is in this repository). For every file the script reports whether the front end
reads it; for every specified method whose types the task schema expresses, it builds a task
in a temporary folder (the file itself as Solution.java, ``[jml] method`` the method's full
signature, ``[jml] post_fields`` the receiver fields its ensures read, as ``adequacy task
from`` writes them), draws ``--cases`` random inputs, runs the file's own method for the outputs, and
scores the file's own spec with ``--cross-check`` over the engines: cases decided per engine,
and every disagreement between two engines (goal 0). Because OpenJML verified these programs,
a postcondition ``false`` on an input whose precondition is ``true`` is listed as suspect (an
engine bug, or an assumption OpenJML made that a single run does not, such as an invariant).

Why random inputs and the program's own outputs: the corpus has specs but no tests; decided
cases and engine agreement are what this measures, not the specs' adequacy.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adequacy.errors import AdequacyError, SpecInvalid
from adequacy.extensions.backend import Limits
from adequacy.model.random_values import random_value
from adequacy.model.types import parse_type
from adequacy.model.verdicts import Truth
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.load import load_task
from adequacy_openjml.jml.load import signature_text
from adequacy_openjml.jml.members import JavaClass, JavaMethod
from adequacy_openjml.jml.reader import read_source
from adequacy_openjml.plugin import OpenJmlBackend
from adequacy_openjml.signature import JavaSignatureError, java_type_to_schema
from adequacy_openjml.task_from import _post_fields


@dataclass
class Totals:
    files: int = 0
    files_read: int = 0
    methods: int = 0
    methods_accepted: int = 0
    methods_scored: int = 0
    cases: int = 0
    decided: collections.Counter[str] = field(default_factory=collections.Counter)
    ran: collections.Counter[str] = field(default_factory=collections.Counter)
    disagreements: list[str] = field(default_factory=list)
    suspects: list[str] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)
    skipped: collections.Counter[str] = field(default_factory=collections.Counter)
    unknown_causes: collections.Counter[str] = field(default_factory=collections.Counter)


def _schema(java: str) -> str | None:
    try:
        return java_type_to_schema(java)
    except JavaSignatureError:
        return None


def _task_toml(cls: JavaClass, m: JavaMethod, inputs: dict[str, str],
               outputs: dict[str, str], post_state: list[str], fields: list[str]) -> str:
    ins = "\n".join(f"{k} = {json.dumps(v)}" for k, v in inputs.items())
    outs = "\n".join(f"{k} = {json.dumps(v)}" for k, v in outputs.items())
    return (f'id = {json.dumps(cls.name + "_" + m.name)}\nlanguage = "jml"\n\n'
            f"[signature.input]\n{ins}\n\n[signature.output]\n{outs}\n\n"
            f'[jml]\nclass = {json.dumps(cls.name)}\nmethod = {json.dumps(signature_text(m))}\n'
            f"static = {str(m.is_static).lower()}\npost_state = {json.dumps(post_state)}\n"
            + (f"post_fields = {json.dumps(fields)}\n" if fields else ""))


def _shape(cls: JavaClass, m: JavaMethod
           ) -> tuple[dict[str, str], dict[str, str], list[str], list[str]] | str:
    """The task's signature for the method, or why the schema cannot express it. Receiver
    fields the ensures clauses of an instance method read become outputs (``post_fields``),
    as ``adequacy task from`` writes them."""
    inputs: dict[str, str] = {}
    for t, n in m.params:
        s = _schema(t)
        if s is None:
            return f"parameter type {t}"
        inputs[n] = s
    outputs: dict[str, str] = {}
    if m.return_type is None:
        return "constructor"
    if m.return_type != "void":
        s = _schema(m.return_type or "")
        if s is None:
            return f"return type {m.return_type}"
        outputs["result"] = s
    post = [n for t, n in m.params if t.endswith("[]")]
    for n in post:
        outputs[n] = inputs[n]
    fields = _post_fields(cls, m)
    for n, t in fields.items():
        s = _schema(t)
        if s is None:
            return f"field type {t}"
        if n in outputs or n in inputs:
            return "field named like a parameter"
        outputs[n] = s
    if not outputs:
        return "void method without array parameters or fields read by ensures"
    return inputs, outputs, post, list(fields)


def _write_cases(root: Path, inputs: list[dict[str, Any]],
                 outputs: list[dict[str, Any] | None]) -> int:
    tests = root / "tests"
    tests.mkdir(parents=True, exist_ok=True)
    pre = [{"id": f"c{k}", "input": i} for k, i in enumerate(inputs)]
    post = [{"id": f"c{k}", "input": i, "output": o}
            for k, (i, o) in enumerate(zip(inputs, outputs, strict=True)) if o is not None]
    (tests / "pre_complete.jsonl").write_text("".join(json.dumps(x) + "\n" for x in pre))
    (tests / "post_complete.jsonl").write_text("".join(json.dumps(x) + "\n" for x in post))
    for b in ("pre_sound", "post_sound"):
        (tests / f"{b}.jsonl").write_text("")
    return len(pre) + len(post)


def score_method(path: Path, text: str, cls: JavaClass, m: JavaMethod, args: argparse.Namespace,
                 tot: Totals, work: Path) -> None:
    where = f"{path.name}:{m.line} {cls.name}.{signature_text(m)}"
    shape = _shape(cls, m)
    post: list[str] = []
    fields: list[str] = []
    if isinstance(shape, str):
        # the front end still reads the spec: a stand-in signature (the schema is not checked
        # against the Java types there), no cases
        inputs_t, outputs_t = {n: "i32" for _t, n in m.params}, {"result": "i32"}
    else:
        inputs_t, outputs_t, post, fields = shape
    root = work / f"{len(list(work.iterdir()))}_{cls.name}_{m.name}"
    root.mkdir(parents=True)
    (root / "task.toml").write_text(_task_toml(cls, m, inputs_t, outputs_t, post, fields))
    (root / "Solution.java").write_text(text)
    _write_cases(root, [], [])
    backend = OpenJmlBackend()
    try:
        task = load_task(root)
        backend.load_spec(task, text, str(path))
    except SpecInvalid as e:
        tot.rejected.append(f"{where}: line {e.line}: {e.message}")
        return
    except AdequacyError as e:
        tot.skipped[f"task not built: {type(e).__name__}"] += 1
        if args.verbose:
            print(f"  skip {where}: {e}")
        return
    tot.methods_accepted += 1
    if isinstance(shape, str):
        tot.skipped[shape.split(" (")[0]] += 1
        if args.verbose:
            print(f"  not scored {where}: {shape}")
        return
    if args.front_end_only:
        return
    rng = random.Random(f"{args.seed}\x1f{where}")
    types = {k: parse_type(v) for k, v in inputs_t.items()}
    inputs = [{k: random_value(t, rng) for k, t in types.items()} for _ in range(args.cases)]
    outputs = backend.run_reference(task, inputs, Limits(case_seconds=5.0))
    n = _write_cases(root, inputs, outputs)
    task = load_task(root)
    rep = score_spec(task, text, str(path), engines=args.engines, cross_check=True,
                     limits=Limits(case_seconds=10.0, spec_seconds=600.0), cache=None)
    if rep.status != "scored":
        tot.rejected.append(f"{where}: {rep.status}: {rep.invalid or rep.error}")
        return
    tot.methods_scored += 1
    tot.cases += n
    for r in rep.engines:
        if not r.skipped:
            tot.ran[r.name] += r.cases
            tot.decided[r.name] += r.decided
    for d in rep.disagreements:
        tot.disagreements.append(f"{where} {d.bucket.value}/{d.case_id}: "
                                 + ", ".join(f"{k}={v.value}" for k, v in d.values.items()))
    pre = {v.case_id: v.value for v in rep.verdicts if v.bucket.value == "pre_complete"}
    for v in rep.verdicts:
        if v.value == Truth.unknown:
            tot.unknown_causes[f"{v.engine}: {_cause(v.reason)}"] += 1
        if v.bucket.value == "post_complete" and v.value == Truth.false \
                and pre.get(v.case_id) == Truth.true:
            tot.suspects.append(f"{where} {v.case_id}: post false by {v.engine} ({v.reason[:80]})")
    if args.verbose:
        dec = ", ".join(f"{r.name} {r.decided}/{r.cases}" for r in rep.engines if not r.skipped)
        print(f"  {where}: {n} cases; decided {dec}")


def _cause(reason: str) -> str:
    import re
    return re.sub(r"\d+", "_", reason)[:240]


def run(corpus: Path, args: argparse.Namespace) -> Totals:
    tot = Totals()
    with tempfile.TemporaryDirectory(prefix="jml-corpus-") as tmp:
        work = Path(tmp)
        for path in sorted(corpus.rglob("*.java")):
            if getattr(args, "only", None) and path.stem not in args.only:
                continue
            tot.files += 1
            text = path.read_text(encoding="utf-8", errors="replace")
            try:
                src = read_source(text, str(path))
            except SpecInvalid as e:
                tot.rejected.append(f"{path.name}: line {e.line}: {e.message}")
                continue
            tot.files_read += 1
            for cls in src.classes:
                for m in cls.methods:
                    if not m.spec or not m.has_body:
                        continue
                    tot.methods += 1
                    score_method(path, text, cls, m, args, tot, work)
    return tot


def report(tot: Totals, args: argparse.Namespace, seconds: float) -> None:
    print(f"files: {tot.files_read}/{tot.files} read by the front end")
    print(f"specified methods: {tot.methods}; spec accepted by the front end "
          f"{tot.methods_accepted}; accepted but not scored {sum(tot.skipped.values())}")
    for why, k in tot.skipped.most_common():
        print(f"  not scored {k}: {why}")
    print(f"refused (a valid, verified spec called invalid: goal 0): {len(tot.rejected)}")
    for r in tot.rejected:
        print(f"  {r}")
    if not args.front_end_only:
        print(f"methods scored: {tot.methods_scored}, cases: {tot.cases}")
        for e in args.engines:
            ran = tot.ran.get(e, 0)
            pct = f" ({100 * tot.decided[e] / ran:.1f}%)" if ran else ""
            print(f"  {e}: decided {tot.decided[e]} of {ran} cases{pct}")
        print(f"disagreements between engines (goal 0): {len(tot.disagreements)}")
        for d in tot.disagreements:
            print(f"  {d}")
        print(f"suspect post false where pre true (verified code): {len(tot.suspects)}")
        for s in tot.suspects:
            print(f"  {s}")
        if args.verbose:
            print("unknown causes (final verdicts):")
            for c, k in tot.unknown_causes.most_common(15):
                print(f"  {k:5d}  {c}")
    print(f"seconds: {seconds:.1f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--engines", default="rac,key",
                    type=lambda s: [x for x in s.split(",") if x])
    ap.add_argument("--cases", type=int, default=6, help="random inputs per method")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--front-end-only", action="store_true")
    ap.add_argument("--only", default=[], type=lambda s: {x for x in s.split(",") if x},
                    help="comma-separated file stems (e.g. GCD,Absolute)")
    ap.add_argument("--verbose", "-v", action="store_true")
    args = ap.parse_args(argv)
    if not args.corpus.is_dir():
        print(f"error: {args.corpus} is not a folder", file=sys.stderr)
        return 2
    start = time.monotonic()
    tot = run(args.corpus, args)
    report(tot, args, time.monotonic() - start)
    return 0


if __name__ == "__main__":
    sys.exit(main())
