"""A task from a Java class with JML: ``adequacy task from FILE.java --function NAME DEST``.

The class is both the spec's text and the reference: ``Solution.java`` is the file as written
(the method's body is what ``mutate`` runs and KeY proves against) and ``specs/original.java``
is the same file, whose JML is the contract to score. ``NAME`` is a method name or, among
overloads, a full signature (``Absolute(short)``).

Cases: programs of this kind carry no tests, so inputs are drawn from the type schema (seeded,
deterministic) and the class's own method is run on each in the sandboxed JVM; one on which it
throws or runs out of time is left out (an exception may be specified behaviour). Which of the
rest are valid is the program's own precondition's call (OpenJML verified the method against
it, so it is the authority on the method's domain; a method returning normally outside it
proves nothing): inside it, the input and the method's result go to ``pre_complete`` and
``post_complete``; outside it, the input goes to ``pre_sound`` (origin ``generated``). So the
original's precondition passes its pre buckets by construction, while its postcondition is
checked against what the method really returns.

Half the draws take integer parameters from ``-1 .. L + 1`` (``L`` the longest array or string
parameter): integers beside an array are mostly bounds into it, which plain draws almost never
satisfy (``_index_shaped``).

Instance methods run on a receiver made by the class's no-argument constructor (``[jml] static
= false``; Java's implicit one when the class declares none). Out of reach, said plainly:
constructors; instance methods of a class whose constructors all take arguments (the task
model has no place for a receiver's construction); methods whose parameter or result types
the task schema has no word for (objects other than strings and boxed numbers, collections of
them); ``void`` methods that change no array parameter (a result through a field: the task
model's outputs are the result and arrays' post-state, and rac reads a non-final field in a
non-pure method's ``ensures`` as unknown, as no case records the object's post-state); methods
whose precondition rac cannot decide on any drawn input (said with rac's reason).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adequacy.plugin import (
    AdequacyError,
    IntType,
    Limits,
    NullableType,
    SeqType,
    SpecInvalid,
    StringType,
    TaskError,
    Type,
    parse_type,
)

from .jml.load import signature_text
from .jml.source import JavaClass, JavaMethod, read_source
from .signature import JavaSignatureError, java_type_to_schema

DRAWS = 40
"""Inputs drawn per task; those the method handles become the cases."""


@dataclass
class JavaTaskWritten:
    task_dir: Path
    cases: int
    drawn: int
    invalid: int = 0
    """Drawn inputs outside the program's own precondition (written to ``pre_sound``)."""


def _out_of_reach(program: Path, line: int | None, why: str) -> TaskError:
    return TaskError(f"out of reach for `task from`: {why}", file=str(program), line=line)


def _find(program: Path, classes: list[JavaClass], function: str
          ) -> tuple[JavaClass, JavaMethod]:
    want_sig = "(" in function
    found = [(c, m) for c in classes for m in c.methods
             if (signature_text(m).replace(" ", "") == function.replace(" ", "") if want_sig
                 else m.name == function)]
    if not found:
        known = sorted({signature_text(m) for c in classes for m in c.methods
                        if m.has_body and m.return_type is not None})
        raise TaskError(f"no method {function!r} in the program (methods: "
                        f"{', '.join(known) or 'none'})", file=str(program))
    if len(found) > 1:
        sigs = ", ".join(signature_text(m) for _, m in found)
        raise TaskError(f"{function!r} names {len(found)} overloads ({sigs}): give the full "
                        "signature with --function", file=str(program))
    return found[0]


def _schema(program: Path, m: JavaMethod, java: str, what: str) -> str:
    try:
        return java_type_to_schema(java)
    except JavaSignatureError:
        raise _out_of_reach(program, m.line, f"{what} has type `{java}`, which the task "
                            "schema cannot express") from None


_TOP_PUBLIC = re.compile(r"^(\s*)public\s+((?:final\s+|abstract\s+)*(?:class|interface|enum)\b)",
                         re.MULTILINE)


def with_classes(text: str, program: Path, extra: Sequence[Path]) -> str:
    """The program's file followed by the classes of ``extra`` files it uses (one compilation
    unit may hold one public class: theirs lose ``public``; their imports move to the top).
    The program's own lines keep their numbers."""
    if not extra:
        return text
    imports: list[str] = []
    bodies: list[str] = []
    for f in extra:
        try:
            other = f.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise TaskError(f"cannot read {f}: {e}", file=str(program)) from None
        kept = []
        for line in other.splitlines():
            if re.match(r"\s*package\s", line):
                raise _out_of_reach(f, None, "a file of another package")
            if re.match(r"\s*import\s", line):
                imports.append(line.strip())
                continue
            kept.append(line)
        bodies.append(f"// from {f.name}\n" + _TOP_PUBLIC.sub(r"\1\2", "\n".join(kept)))
    head = [i for i in dict.fromkeys(imports) if i not in text]
    if head and re.search(r"^\s*package\s", text, re.MULTILINE):
        raise _out_of_reach(program, None, "imports of other files in a file with a package")
    lead = (" ".join(head) + " ") if head else ""  # on line 1, so no line number moves
    return lead + text.rstrip("\n") + "\n\n" + "\n\n".join(bodies) + "\n"


def _post_fields(cls: JavaClass, m: JavaMethod) -> dict[str, str]:
    """Instance fields a non-pure instance method's ``ensures`` clauses name: their value
    after the call becomes an output (``[jml] post_fields``), read from the receiver once the
    reference returns. A name under ``\\old`` only costs an output nobody reads; pure
    methods change nothing, and neither can a final field of a primitive or immutable type
    (a final array's elements can: ``JavaField.may_change``), so those stay out."""
    if m.is_static or m.is_pure:
        return {}
    named = {t.text for c in m.spec for cl in c.ensures for t in cl.tokens}
    return {f.name: f.type for f in cls.fields if f.name in named
            and "static" not in f.modifiers and f.may_change}


def convert(program: Path, function: str, dest: Path, task_id: str | None = None,
            draws: int = DRAWS, seed: int = 0, extra: Sequence[Path] = ()) -> JavaTaskWritten:
    from adequacy.plugin import load_task, random_value

    from .engines.rac import engine as rac
    try:
        text = program.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise TaskError(f"cannot read the program: {e}", file=str(program)) from None
    text = with_classes(text, program, extra)
    try:
        src = read_source(text, str(program))
    except SpecInvalid as e:
        raise TaskError(f"the program does not read as Java with JML: {e.message}",
                        file=str(program), line=e.line) from None
    cls, m = _find(program, src.classes, function)
    if m.return_type is None:
        raise _out_of_reach(program, m.line, f"`{m.name}` is a constructor")
    if not m.has_body:
        raise _out_of_reach(program, m.line, f"`{m.name}` has no body to run as the reference")
    ctors = [c for c in cls.methods if c.return_type is None and not c.model]
    if not m.is_static and ctors and all(c.params for c in ctors):
        have = ", ".join(f"`{signature_text(c)}`" for c in ctors)
        raise _out_of_reach(program, m.line, f"`{m.name}` is an instance method and every "
                            f"constructor of `{cls.name}` takes arguments ({have}): a task's "
                            "receiver is made by the no-argument constructor")
    inputs = {n: _schema(program, m, t, f"parameter `{n}`") for t, n in m.params}
    outputs: dict[str, str] = {}
    if m.return_type != "void":
        outputs["result"] = _schema(program, m, m.return_type, "the result")
    post_state = [n for t, n in m.params if t.endswith("[]")]
    for n in post_state:
        if n == "result":
            raise _out_of_reach(program, m.line, "an array parameter is named `result`")
        outputs[n] = inputs[n]
    fields = _post_fields(cls, m)
    for n, t in fields.items():
        if n in outputs or n in inputs:
            raise _out_of_reach(program, m.line, f"field `{n}` has the name of a parameter or "
                                "of the result")
        outputs[n] = _schema(program, m, t, f"field `{n}`")
    if not outputs:
        raise _out_of_reach(program, m.line, f"`{m.name}` is void, changes no array "
                            "parameter and its ensures read no field: nothing a task can "
                            "observe")
    overloaded = sum(x.name == m.name for x in cls.methods) > 1
    suffix = "_" + "_".join(t.replace("[]", "Array") for t, _ in m.params) if overloaded else ""
    tid = task_id or f"{cls.name}_{m.name}{suffix}"
    dest.mkdir(parents=True, exist_ok=True)
    toml = [f"id = {json.dumps(tid)}", 'language = "jml"',
            f"title = {json.dumps(f'{cls.name}.{signature_text(m)} from {program.name}')}",
            f"provenance = {json.dumps(f'adequacy task from {program.name} --function {function}')}",
            "", "[signature.input]", *[f"{k} = {json.dumps(v)}" for k, v in inputs.items()],
            "", "[signature.output]", *[f"{k} = {json.dumps(v)}" for k, v in outputs.items()],
            "", "[jml]", f"class = {json.dumps(cls.name)}",
            f"method = {json.dumps(signature_text(m))}",
            f"static = {str('static' in m.modifiers).lower()}",
            f"post_state = {json.dumps(post_state)}",
            *([f"post_fields = {json.dumps(list(fields))}"] if fields else []), ""]
    (dest / "task.toml").write_text("\n".join(toml), encoding="utf-8")
    (dest / "Solution.java").write_text(text, encoding="utf-8")
    (dest / "statement.md").write_text(
        f"The method `{signature_text(m)}` of class `{cls.name}` ({program.name}), as its JML "
        "contract states.\n", encoding="utf-8")
    specs = dest / "specs"
    specs.mkdir(exist_ok=True)
    (specs / "original.java").write_text(text, encoding="utf-8")
    _write_cases(dest, [], [])
    try:
        task = load_task(dest)
    except AdequacyError as e:
        raise TaskError(f"the task written does not load: {e}", file=str(program),
                        line=m.line) from None
    rng = random.Random(f"{seed}\x1f{tid}")
    types = {k: parse_type(v) for k, v in inputs.items()}
    drawn: list[dict[str, Any]] = []
    seen: set[str] = set()
    for k in range(draws * 3):
        if len(drawn) >= draws:
            break
        inp = {n: random_value(t, rng) for n, t in types.items()}
        if k % 2:
            inp = _index_shaped(inp, types, rng)
        key = json.dumps(inp, sort_keys=True)
        if key not in seen:
            seen.add(key)
            drawn.append(inp)
    unit = rac.reference_unit(task)
    outs = rac.run_reference(unit, task, drawn, Limits(case_seconds=5.0))
    # each case stands for a call on a fresh program, but the runs share one JVM: a method
    # whose result depends on state an earlier run left (a static counter) shows it when the
    # inputs run again in the reverse order, and its outputs are not the input's to record
    again = rac.run_reference(unit, task, drawn[::-1], Limits(case_seconds=5.0))[::-1]
    differ = next((i for i, a, b in zip(drawn, outs, again, strict=True)
                   if a is not None and b is not None and a != b), None)
    if differ is not None:
        raise _out_of_reach(program, m.line, f"the method gave two outputs for the input "
                            f"{json.dumps(differ)} as the runs before it changed (state that "
                            "outlives a call, such as a static field, is shared by the "
                            "reference's runs)")
    ran = [(i, o) for i, o in zip(drawn, outs, strict=False) if o is not None]
    if not ran:
        raise _out_of_reach(program, m.line, f"the method returned normally on none of "
                            f"{len(drawn)} drawn inputs (it may need another class of the "
                            "program, or state a constructor does not set)")
    valid, invalid, undecided = _split_by_requires(dest, text, ran)
    if not valid and not invalid and undecided:
        raise _out_of_reach(program, m.line, f"the method ran on {len(ran)} drawn input(s) but "
                            "rac cannot decide its precondition on any of them "
                            f"({undecided})")
    if not valid:
        raise _out_of_reach(program, m.line, f"the method ran on {len(ran)} drawn input(s) but "
                            "its precondition accepts none of them (it may need a receiver "
                            "the no-argument constructor does not make)")
    _write_cases(dest, [i for i, _ in valid], [o for _, o in valid], [i for i, _ in invalid])
    return JavaTaskWritten(task_dir=dest, cases=len(valid), drawn=len(drawn), invalid=len(invalid))


def _index_shaped(inp: dict[str, Any], types: dict[str, Type], rng: random.Random
                  ) -> dict[str, Any]:
    """The input with its integer parameters drawn again from ``-1 .. L + 1``, where ``L`` is
    the longest array or string among the parameters (unchanged when there is none).

    Why: an integer beside an array is most often an index or a bound into it (``SetZero(a,
    iBegin, iEnd)`` requires ``0 <= iBegin <= iEnd <= a.length``). Drawn from the schema's
    ``-10 .. 10`` against arrays of at most 3 elements, two such bounds fall inside in about one
    draw of fifty, so the program's own precondition accepted none of 40 and the method never
    became a task. The range still reaches one step outside on each side, so the precondition
    keeps deciding (and ``pre_sound`` keeps getting inputs it rejects)."""
    lengths = [len(v) for n, v in inp.items()
               if isinstance(v, (list, str)) and isinstance(_bare(types[n]), (SeqType, StringType))]
    if not lengths:
        return inp
    top = max(lengths) + 1
    out = dict(inp)
    for n, t in types.items():
        bare = _bare(t)
        if isinstance(bare, IntType):
            lo, hi = bare.bounds
            a = -1 if lo is None else max(lo, -1)
            b = top if hi is None else min(hi, top)
            if a <= b:
                out[n] = rng.randint(a, b)
    return out


def _bare(t: Type) -> Type:
    return t.elem if isinstance(t, NullableType) else t


def _split_by_requires(dest: Path, text: str, ran: list[tuple[dict[str, Any], dict[str, Any]]]
                       ) -> tuple[list[tuple[dict[str, Any], dict[str, Any]]],
                                  list[tuple[dict[str, Any], dict[str, Any]]], str]:
    """Which inputs the program promises to handle: its own precondition decides (the program
    was verified against it, so it is the authority on its domain; a method that returns
    normally outside it proves nothing). Inputs it leaves undecided are dropped; the third
    value is rac's reason for the first of them (empty when it decided all), so a method lost
    that way is not reported as one whose precondition rejects every input."""
    from adequacy.plugin import AdequacyError, Bucket, Limits, LoadedSpec, Truth, load_task

    from .engines.rac.engine import RacEngine
    from .jml.load import load

    _write_cases(dest, [i for i, _ in ran], [o for _, o in ran], [])
    task = load_task(dest)
    try:
        path = str(dest / "specs" / "original.java")
        jml = load(task, text, path)
        spec = LoadedSpec(backend="openjml", task_id=task.id, text=text,
                          normalized=jml.source.normalized(), path=path, data=jml)
        verdicts = RacEngine().check(spec, task, task.cases[Bucket.pre_complete], Limits())
    except AdequacyError as e:  # the program's own clauses out of reach, or no JDK
        return [], [], str(e)
    said = {v.case_id: v.value for v in verdicts}
    valid = [c for k, c in enumerate(ran, 1) if said.get(f"gen-{k}") == Truth.true]
    invalid = [c for k, c in enumerate(ran, 1) if said.get(f"gen-{k}") == Truth.false]
    why = next((v.reason for v in verdicts if v.value not in (Truth.true, Truth.false)), "")
    return valid, invalid, why


def _write_cases(root: Path, inputs: list[dict[str, Any]], outputs: list[dict[str, Any]],
                 invalid: list[dict[str, Any]] | None = None) -> None:
    from adequacy.plugin import BUCKETS, Bucket, Case, write_cases
    cases = [Case(id=f"gen-{k}", bucket=b, input=i, origin="generated", visible=k <= 3,
                  output=o if b.predicate == "post" else None)
             for b in (Bucket.pre_complete, Bucket.post_complete)
             for k, (i, o) in enumerate(zip(inputs, outputs, strict=True), 1)]
    cases += [Case(id=f"outside-{k}", bucket=Bucket.pre_sound, input=i, origin="generated")
              for k, i in enumerate(invalid or [], 1)]
    for b in BUCKETS:
        write_cases(root, b, [c for c in cases if c.bucket == b])
