"""``generate_task``: valid input/output pairs from a task's reference, and invalid inputs.

Spec-Harness's recipe, with every case labelled by an oracle rather than assumed:

- valid inputs are drawn to look like the task's own (``_profile``); one is kept when no input
  oracle calls it invalid (validator, ``[constraints]``, the language's implicit precondition)
  and the reference returns normally; the reference's output makes the ``post_complete`` case
  and the input the ``pre_complete`` one. A checker, when the task has one, must accept it.
- invalid inputs come from boundary perturbation and schema extremes of valid inputs
  (``invalid_candidates``: null, empty, a single element, 0, -1, the type's extremes, each
  stated constraint broken) and from drawn inputs the reference threw on; one is kept when an
  oracle says invalid (the reference threw an exception, the validator rejects it, a constraint
  is broken, the language's implicit precondition) and none says valid (``combine``).
- a reference that returned on every candidate, in a task with no validator, no constraints
  and no pre_sound case, while no oracle found any invalid input, makes the task
  ``every_input_valid`` with the evidence as its reason.

A reference that times out or crashes proves nothing: such inputs are dropped both ways (a
slow reference on a big valid input is not a precondition), and their presence prevents the
``every_input_valid`` inference. Everything is seeded: the same seed gives the same cases.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from adequacy.errors import AdequacyError
from adequacy.extensions.backend import Limits, ReferenceOutcome
from adequacy.model.identity import params_key, strictly_valid
from adequacy.model.task import Case, Task
from adequacy.model.verdicts import Bucket
from adequacy.sandbox.pycode import TaskFunction
from adequacy.taskdirs.load import load_task, write_cases

from ._constraints import Constraints, parse_constraints
from ._ids import new_case_id
from ._inputs import invalid_candidates
from ._oracles import load_module_function
from ._profile import input_space_size, profile_inputs
from ._reference import SharedReference

__all__ = ["GenerateReport", "generate_task"]

#: fewest reference runs that may support an ``every_input_valid`` inference.
MIN_TOTAL_EVIDENCE = 20

#: invalid inputs kept per (operator, argument): ten nulls of one argument beside different
#: other values test the same clause ten times and would outweigh every other invalid input.
PER_OPERATOR = 3
#: drawn inputs the reference threw on, kept per task (each may hit a different relation).
DRAWN = 10

#: the task's own pairs run through the reference before its outputs are trusted.
PROBES = 10

#: a task with fewer invalid inputs than this, all of a kind that is few by nature, may be
#: recorded ``thin_invalid_domain`` (the usual goal is this many pre_sound cases).
THIN_BELOW = 3

#: drawn inputs a lazy run sends at once (at least: as many as pairs are still wanted).
LAZY_CHUNK = 8

#: seconds a Python reference may take on one input (its sandboxed call is killed after).
PY_SECONDS = 5.0

Outcomes = Callable[[list[dict[str, Any]]], list[ReferenceOutcome]]


class GenerateReport(BaseModel):
    """What one ``generate_task`` run made, kept and dropped (and why)."""

    model_config = ConfigDict(extra="forbid")

    task: str
    seed: int
    valid_wanted: int
    reference: str = ""
    """What ran the reference (``reference.py``, ``backend <name>``), empty when none."""
    input_oracles: list[str] = []
    notes: list[str] = []
    valid_added: int = 0
    valid_total: int = 0
    """post_complete cases after the run."""
    pre_sound_added: int = 0
    pre_sound_total: int = 0
    pre_operators: dict[str, int] = Field(default_factory=dict)
    """Operator (``schema.null``, ``drawn``, ...) -> invalid inputs added."""
    dropped: dict[str, int] = Field(default_factory=dict)
    reference_runs: int = 0
    reference_kinds: dict[str, int] = Field(default_factory=dict)
    """Outcome kind (returned, threw, timeout, failed) -> reference runs."""
    every_input_valid: bool = False
    every_input_valid_reason: str = ""
    inferred_every_input_valid: bool = False
    """This run marked the task ``every_input_valid``."""
    moved_to_invalid: list[str] = []
    """Recorded valid cases the reference overflows on, moved to pre_sound (``bucket/id``)."""
    moved_inputs: int = 0
    """The distinct inputs of those cases (each one pre_sound case now)."""
    thin_invalid_domain: bool = False
    thin_invalid_domain_reason: str = ""
    inferred_thin_invalid_domain: bool = False
    """This run marked the task ``thin_invalid_domain``."""
    written: bool = False


# -- the reference -------------------------------------------------------------------------


def _python_outcomes(fn: TaskFunction) -> Outcomes:
    """A ``reference.py`` run in the sandbox (``adequacy.sandbox.pycode``), ``PY_SECONDS``
    per input: its own exception is ``threw``; a timeout, a crash, a deep recursion, an
    ``exit()`` or a value that is not an output dict prove nothing about the input."""
    def run(inputs: list[dict[str, Any]]) -> list[ReferenceOutcome]:
        out: list[ReferenceOutcome] = []
        for o in fn.call_many([(inp,) for inp in inputs], PY_SECONDS):
            if o.kind == "timeout":
                out.append(ReferenceOutcome(kind="timeout", reason="reference.py timed out"))
            elif o.kind == "threw":
                if o.type_name in ("RecursionError", "MemoryError"):
                    out.append(ReferenceOutcome(kind="failed", reason=o.type_name))
                else:
                    out.append(ReferenceOutcome(kind="threw", reason=o.type_name or o.reason))
            elif o.kind == "failed":
                out.append(ReferenceOutcome(kind="failed", reason=o.reason))
            elif isinstance(o.value, dict):
                out.append(ReferenceOutcome(kind="returned", output=o.value))
            else:
                out.append(ReferenceOutcome(kind="failed", reason=f"reference returned "
                                            f"{type(o.value).__name__}"))
        return out

    return run


def _reference(task: Task, notes: list[str], shared: SharedReference | None
               ) -> tuple[str, Outcomes | None, bool]:
    """(what runs it, the runner, whether its inputs may run lazily: an input's outcome does
    not depend on its batch, ``SharedReference.stateless``)."""
    path = task.reference_dir / "reference.py"
    if path.is_file():
        return "reference.py", _python_outcomes(load_module_function(path, "reference")), False
    from adequacy.extensions.registry import registry

    try:
        backend = registry().backend_for(task.language)
    except AdequacyError as e:
        notes.append(f"no reference: {e}")
        return "", None, False
    if not backend.runs_references():
        notes.append(f"no reference: no reference/reference.py and backend {backend.name} "
                     "runs none; no valid pair can be generated")
        return "", None, False
    limits = Limits(case_seconds=5.0)
    ref = shared if shared is not None and shared.backend is backend else None

    def run(inputs: list[dict[str, Any]]) -> list[ReferenceOutcome]:
        if ref is not None:
            return ref.outcomes(inputs, limits)
        res = backend.reference_outcomes(task, inputs, limits)
        if res is None or len(res) != len(inputs):
            return [ReferenceOutcome(kind="failed", reason="no reference outcome")] * len(inputs)
        return list(res)

    return f"backend {backend.name}", run, ref is not None and ref.stateless


# -- input oracles -------------------------------------------------------------------------


class _InputJudge:
    """Validator (sandboxed), constraints and the language's implicit precondition."""

    def __init__(self, task: Task, cons: Constraints, notes: list[str]) -> None:
        self.names: list[str] = []
        self._valid: Callable[[dict[str, Any]], Any] | None = None
        path = task.reference_dir / "validator.py"
        if path.is_file():
            self._valid = load_module_function(path, "valid")
            self.names.append("validator")
        self._cons = cons if cons else None
        if self._cons is not None:
            self.names.append("constraints")
        self._implicit: Callable[[Task, dict[str, Any]], str | None] | None = None
        try:
            from adequacy.extensions.registry import registry

            b = registry().backend_for(task.language)
            self._implicit = b.implicit_invalid
            self.names.append(f"{b.name} default")
        except AdequacyError as e:
            notes.append(f"no language default precondition: {e}")
        self._task = task

    @property
    def states_precondition(self) -> bool:
        """A validator or constraints: the task says some inputs are invalid."""
        return self._valid is not None or self._cons is not None

    def implicit(self, inp: dict[str, Any]) -> str | None:
        """Why the language's default precondition excludes ``inp`` (JML: a null argument),
        or None."""
        return self._implicit(self._task, inp) if self._implicit is not None else None

    def judge(self, inp: dict[str, Any]) -> tuple[bool | None, str]:
        """(True: invalid, False: valid, None: no word), with the oracle's reason."""
        import copy

        why: list[str] = []
        if self._valid is not None:
            try:
                r = self._valid(copy.deepcopy(inp))
            except Exception as e:  # noqa: BLE001 - CodeThrew, CodeTimeout, CodeFailed
                return None, f"validator raised {getattr(e, 'type_name', '') or type(e).__name__}"
            if r is True:
                return False, "validator accepts"
            if r is False:
                why.append("validator rejects")
        if self._cons is not None:
            broken = self._cons.violations(inp)
            if broken:
                why.append("breaks " + ", ".join(broken))
        if self._implicit is not None:
            said = self._implicit(self._task, inp)
            if said:
                why.append(said)
        return (True, "; ".join(why)) if why else (None, "")


# -- the run -------------------------------------------------------------------------------




def _disagrees(pairs: list[Case], outcomes: dict[str, ReferenceOutcome], task: Task,
               unique: bool, check: Callable[[dict[str, Any], dict[str, Any]], Any] | None
               ) -> str:
    """Why the reference is not to be trusted on the task's own pairs, or "" when it agrees
    (the checker accepts, or for unique outputs the output equals the recorded one)."""
    for c in pairs:
        o = outcomes.get(params_key(c.input, task.inputs))
        if o is not None and o.overflowed:
            continue  # the case's recorded output is a wrapped value: the case is wrong
        if o is None or o.kind != "returned" or o.output is None:
            kind = o.kind if o is not None else "no outcome"
            return f"{kind} on the task's own case {c.id}"
        if check is not None:
            try:
                ok = check(c.input, o.output)
            except Exception:  # noqa: BLE001
                ok = None
            if ok is not True:
                return f"the checker rejects its output on case {c.id}"
        elif unique and c.output is not None and params_key(o.output, task.outputs) != \
                params_key(c.output, task.outputs):
            return f"its output differs from the recorded one on case {c.id}"
    return ""


def _fits(task: Task, out: dict[str, Any] | None) -> bool:
    return isinstance(out, dict) and set(out) == {p.name for p in task.outputs} and all(
        strictly_valid(out[p.name], p.type) for p in task.outputs)


def _checker(task: Task) -> Callable[[dict[str, Any], dict[str, Any]], Any] | None:
    path = task.reference_dir / "checker.py"
    return load_module_function(path, "check") if path.is_file() else None


def _show_input(inp: dict[str, Any]) -> str:
    return ", ".join(f"{k} = {json.dumps(v, ensure_ascii=False)[:40]}" for k, v in inp.items())


LADDER = (2, 4, 16, 256, 65536, 1 << 24)
"""The divisors of the values tried between an overflowing extreme and 0."""


def _ladder(task: Task, inp: dict[str, Any], outcomes: dict[str, ReferenceOutcome]
            ) -> list[dict[str, Any]]:
    """For an input on which the reference overflowed: each integer argument moved toward 0
    (v / 2, v / 4, ... v / 2^24; v -+ 1, v -+ 2 for parity; 3v/4, 7v/8, 15v/16 for the upper
    part), the other arguments as they were."""
    from adequacy.model.types import IntType

    o = outcomes.get(params_key(inp, task.inputs))
    if o is None or not o.overflowed:
        return []
    out: list[dict[str, Any]] = []
    for p in task.inputs:
        v = inp.get(p.name)
        if not isinstance(p.type, IntType) or not isinstance(v, int) or isinstance(v, bool):
            continue
        step = 1 if v > 0 else -1
        near = [v - step, v - 2 * step, v * 3 // 4, v * 7 // 8, v * 15 // 16]
        for w in [int(v / d) for d in LADDER] + near:
            cand = {**inp, p.name: w}
            if w != v and strictly_valid(w, p.type) and cand not in out:
                out.append(cand)
    return out


def _infer_thin(task: Task, rep: GenerateReport, found: list[Case],
                outcomes: dict[str, ReferenceOutcome], kinds: Counter[str], judge: Any,
                seed: int, extremes: int) -> None:
    """Mark ``rep`` ``thin_invalid_domain`` when every invalid input found is of a kind that
    is few by nature (a null argument that the language's default precondition excludes; an
    extreme value on which the reference's checked arithmetic overflows, while the values
    between it and 0 do not: ``_ladder``) and the reference answered every other input tried,
    at least ``MIN_TOTAL_EVIDENCE`` of them: the evidence says the invalid domain is those
    inputs, not that the search fell short."""
    whys: list[str] = []
    for c in found:
        o = outcomes.get(params_key(c.input, task.inputs))
        implicit = judge.implicit(c.input)
        if implicit:
            whys.append(f"{implicit}")
        elif o is not None and o.overflowed:
            whys.append(f"{_show_input(c.input)} (the reference overflows)")
        else:
            return  # another kind of invalid input: nothing says the domain is small
    bad = {k: n for k, n in kinds.items() if k not in ("returned", "threw")}
    total = kinds.get("returned", 0)
    if bad or total < MIN_TOTAL_EVIDENCE:
        return
    rep.thin_invalid_domain = rep.inferred_thin_invalid_domain = True
    rep.thin_invalid_domain_reason = (
        f"inferred: the only invalid inputs any oracle found are {'; '.join(dict.fromkeys(whys))}"
        f"; the reference returned normally on the {total} other inputs tried (drawn like the "
        f"task's own, and {extremes} boundary and extreme candidates; seed {seed})")


def _set_every_input_valid(root: Path, reason: str) -> bool:
    return _set_flag(root, "every_input_valid", reason)


def _set_flag(root: Path, key: str, reason: str) -> bool:
    """Add ``<key> = true`` and ``<key>_reason`` to task.toml's top level (before the first
    table), leaving every other line as it was. Written only when the result parses and says
    exactly that (a multi-line value that looks like a table header must not be cut); False
    when it could not be placed."""
    import tomllib

    path = root / "task.toml"
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    at = next((i for i, ln in enumerate(lines) if re.match(r"\s*\[", ln)), len(lines))
    quoted = json.dumps(reason, ensure_ascii=True)  # a JSON string is a TOML basic string
    add = [f"{key} = true\n", f"{key}_reason = {quoted}\n"]
    if at > 0 and not lines[at - 1].endswith("\n"):
        lines[at - 1] += "\n"
    new = "".join(lines[:at] + add + (["\n"] if at < len(lines) else []) + lines[at:])
    try:
        head = tomllib.loads(new)
        old = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return False
    if head.pop(key, None) is not True or head.pop(f"{key}_reason", None) != reason \
            or head != old:
        return False
    tmp = path.with_suffix(".toml.tmp")
    tmp.write_text(new, encoding="utf-8")
    tmp.replace(path)
    return True


def generate_task(
    task_dir: str | Path,
    valid: int = 50,
    seed: int = 0,
    *,
    invalid_per_source: int = 8,
    sources: int = 12,
    write: bool = True,
    infer_every_input_valid: bool = True,
) -> GenerateReport:
    """Add up to ``valid`` new valid pairs (post_complete + pre_complete) and labelled invalid
    inputs (pre_sound) to a task; maybe mark it ``every_input_valid``.

    Existing cases are kept; new ids are ``gen-<hash8>`` of the content, so a rerun with the
    same seed adds nothing new. ``sources``: how many valid inputs (the task's own first, then
    generated ones) are perturbed into ``invalid_per_source`` invalid candidates each.
    ``write=False`` only reports.
    """
    task = load_task(task_dir)
    with _shared(task) as shared:
        return generate_loaded(task, Path(task_dir), valid, seed,
                               invalid_per_source=invalid_per_source, sources=sources,
                               write=write, infer_every_input_valid=infer_every_input_valid,
                               shared=shared)[0]


def _shared(task: Task) -> contextlib.AbstractContextManager[SharedReference | None]:
    """The task's backend reference for one run (nothing when no backend serves it)."""
    from adequacy.extensions.registry import registry

    try:
        return SharedReference(task, registry().backend_for(task.language))
    except AdequacyError:
        return contextlib.nullcontext()


def generate_loaded(
    task: Task,
    root: Path,
    valid: int = 50,
    seed: int = 0,
    *,
    invalid_per_source: int = 8,
    sources: int = 12,
    write: bool = True,
    infer_every_input_valid: bool = True,
    shared: SharedReference | None = None,
) -> tuple[GenerateReport, Task]:
    """``generate_task`` on a task already loaded from ``root``, its reference run through
    ``shared`` when given; also returns the task as it is afterwards (its new cases and
    ``every_input_valid``), as ``load_task`` would read it back, for the next step."""
    cons = parse_constraints(task.constraints, task.inputs)
    rep = GenerateReport(task=task.id, seed=seed, valid_wanted=valid,
                         every_input_valid=task.every_input_valid,
                         every_input_valid_reason=task.every_input_valid_reason,
                         thin_invalid_domain=task.thin_invalid_domain,
                         thin_invalid_domain_reason=task.thin_invalid_domain_reason)
    dropped: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    rng = random.Random(f"generate\x1f{seed}\x1f{task.id}")
    judge = _InputJudge(task, cons, rep.notes)
    rep.input_oracles = list(judge.names)
    ref_name, ref, lazy = _reference(task, rep.notes, shared)
    rep.reference = ref_name
    if ref is not None:
        rep.input_oracles.append("reference throws")
    check = _checker(task)

    post_c = list(task.cases.get(Bucket.post_complete, []))
    pre_c = list(task.cases.get(Bucket.pre_complete, []))
    pre_s = list(task.cases.get(Bucket.pre_sound, []))
    known_valid: dict[str, dict[str, Any]] = {}
    for c in pre_c + post_c:
        known_valid.setdefault(params_key(c.input, task.inputs), c.input)
    invalid_keys = {params_key(c.input, task.inputs) for c in pre_s}
    ids_post = {c.id for c in post_c}
    ids_pre = {c.id for c in pre_c}
    ids_sound = {c.id for c in pre_s}
    new_post: list[Case] = []
    new_pre: list[Case] = []
    new_sound: list[Case] = []
    sound_ops: Counter[str] = Counter()
    outcomes: dict[str, ReferenceOutcome] = {}

    def run(inputs: list[dict[str, Any]]) -> None:
        todo = [i for i in inputs if params_key(i, task.inputs) not in outcomes]
        if ref is None or not todo:
            return
        for i, o in zip(todo, ref(todo), strict=True):
            outcomes[params_key(i, task.inputs)] = o
            kinds[o.kind] += 1

    # -- recorded valid cases the language contradicts --------------------------------------
    # an input on which the checked reference overflows is outside the code's domain (safe
    # math, docs/cases.md): a recorded valid case there is an invalid input, never a valid
    # pair with a wrapped output
    moved: list[Case] = []
    if ref is not None:
        recorded: dict[str, dict[str, Any]] = {}
        for c in pre_c + post_c:
            if c.seed is None:
                recorded.setdefault(params_key(c.input, task.inputs), c.input)
        run(list(recorded.values()))
        for rk, rin in recorded.items():
            o = outcomes.get(rk)
            if o is None or not o.overflowed or judge.judge(rin)[0] is False:
                continue  # a validator stating the input valid: its code may wrap on purpose
            was = [c for c in pre_c + post_c if params_key(c.input, task.inputs) == rk]
            shown = next((c.output for c in was if c.output is not None), None)
            first = was[0]
            moved.append(Case(
                id=new_case_id(f"ovf-{first.id}", ids_sound, "pre_sound", rk),
                bucket=Bucket.pre_sound, input=rin, origin=first.origin, visible=first.visible,
                note=(f"recorded valid ({', '.join(c.key for c in was)}"
                      + (f", output {json.dumps(shown, ensure_ascii=False)[:200]}"
                         if shown is not None else "")
                      + f"); the reference overflows on it ({o.reason[:160]}): an input "
                        "outside the code's domain, not a valid pair with a wrapped output")))
            rep.moved_to_invalid += [c.key for c in was]
            known_valid.pop(rk, None)
            invalid_keys.add(rk)
        if moved:
            gone = {params_key(c.input, task.inputs) for c in moved}
            pre_c = [c for c in pre_c if params_key(c.input, task.inputs) not in gone]
            post_c = [c for c in post_c if params_key(c.input, task.inputs) not in gone]
            pre_s = pre_s + moved
            rep.moved_inputs = len(moved)
            rep.notes.append(f"{len(rep.moved_to_invalid)} recorded valid case(s) moved to "
                             f"pre_sound: the reference overflows on {len(moved)} input(s)")

    thrown: list[dict[str, Any]] = []
    deferred: list[dict[str, Any]] = []
    """Drawn inputs a lazy run left unrun (they gave no pair: enough were made before)."""
    own_pairs = [c for c in post_c if c.output is not None and c.seed is None]
    probes_out = random.Random(f"probes\x1f{seed}").sample(own_pairs, min(PROBES, len(own_pairs)))
    probes = [c.input for c in probes_out]
    # -- valid pairs ------------------------------------------------------------------------
    if ref is not None and valid > 0:
        if not known_valid:
            rep.notes.append("no valid input to take a shape from: no valid pair generated")
        prof = profile_inputs(task.inputs, list(known_valid.values()))
        seen = set(known_valid) | invalid_keys
        # a rerun with the same seed makes the same cases: those already there count
        made = sum(1 for c in post_c if c.origin == "generated" and c.seed == seed)
        for _round in range(4 if known_valid else 0):
            need = valid - made - len(new_post)
            if need <= 0:
                break
            batch: list[dict[str, Any]] = []
            for _ in range(need * 3):
                inp = prof.draw(rng)
                if inp is None:
                    dropped["valid: breaks an order the examples keep"] += 1
                    continue
                k = params_key(inp, task.inputs)
                if k in seen:
                    dropped["valid: duplicate"] += 1
                    continue
                seen.add(k)
                if not all(strictly_valid(inp[p.name], p.type) for p in task.inputs):
                    dropped["valid: outside the type"] += 1
                    continue
                word, why = judge.judge(inp)
                if word:
                    dropped["valid: an input oracle rejects it"] += 1
                    continue
                batch.append(inp)
            # the first batch ends with the task's own pairs: a reference that does not give
            # their recorded outputs after running on other inputs (state kept across calls,
            # a conversion that differs from the dataset's) cannot make right outputs. A
            # reference whose outcomes do not depend on their batch (``lazy``) runs the pairs
            # first and the drawn inputs as they are needed; those left over run only where
            # they can still change something (the every_input_valid inference, below)
            if lazy:
                run(probes if _round == 0 else [])
            else:
                run(batch + (probes if _round == 0 else []))
            if _round == 0:
                wrapped = [c.id for c in probes_out if (o := outcomes.get(params_key(
                    c.input, task.inputs))) is not None and o.overflowed]
                if wrapped:
                    rep.notes.append(
                        "the reference overflows on the task's own valid case(s) "
                        + ", ".join(wrapped) + ": their recorded outputs are wrapped values "
                        "(`adequacy task audit` lists every such case)")
                wrong = _disagrees(probes_out, outcomes, task, cons.unique_output, check)
                if wrong:
                    rep.notes.append(f"reference distrusted: {wrong}; no valid pair and no "
                                     "invalid input from it")
                    ref = None
                    outcomes.clear()
                    break
            for n, inp in enumerate(batch):
                if made + len(new_post) >= valid:
                    deferred += batch[n:]
                    break
                if params_key(inp, task.inputs) not in outcomes:  # lazy: the next inputs
                    run(batch[n:n + max(LAZY_CHUNK, valid - made - len(new_post))])
                o = outcomes[params_key(inp, task.inputs)]
                if o.kind == "threw":
                    dropped["valid: reference threw (tried as invalid)"] += 1
                    thrown.append(inp)
                    continue
                if o.kind != "returned":
                    dropped[f"valid: reference {o.kind}"] += 1
                    continue
                if not _fits(task, o.output):
                    dropped["valid: reference output does not fit the schema"] += 1
                    continue
                assert o.output is not None
                if check is not None:
                    try:
                        ok = check(inp, o.output)
                    except Exception:  # noqa: BLE001
                        ok = None
                    if ok is not True:
                        dropped["valid: the checker does not accept the reference output"] += 1
                        continue
                ik = params_key(inp, task.inputs)
                known_valid[ik] = inp
                cid = new_case_id("gen", ids_post, "post_complete", ik,
                              params_key(o.output, task.outputs))
                new_post.append(Case(id=cid, bucket=Bucket.post_complete, input=inp,
                                     output=o.output, origin="generated", seed=seed))
                pid = new_case_id("gen", ids_pre, "pre_complete", ik)
                new_pre.append(Case(id=pid, bucket=Bucket.pre_complete, input=inp,
                                    origin="generated", seed=seed))
        if made + len(new_post) < valid:
            rep.notes.append(f"{made + len(new_post)} of {valid} valid pairs: the examples' shape "
                             "admits few other inputs, or the reference refused them")

    # -- invalid inputs ---------------------------------------------------------------------
    src = list(known_valid.values())
    own = src[:len(src) - len(new_post)]
    gen = src[len(own):]
    rng.shuffle(own)
    picked = (own + gen)[:sources]
    cands: list[tuple[dict[str, Any], str, str]] = [(i, "drawn", "") for i in thrown]
    for inp in picked:
        cands += [(c.input, c.operator, c.target) for c in
                  invalid_candidates(inp, task.inputs, cons, invalid_per_source, seed)]
    fresh: list[tuple[dict[str, Any], str]] = []
    taken = set(known_valid) | invalid_keys
    per_op: Counter[str] = Counter()
    for inp, op, target in cands:
        k = params_key(inp, task.inputs)
        if k in taken:
            dropped["invalid: duplicate of a known valid or invalid input"] += 1
            continue
        slot = f"{op}:{target}"
        if per_op[slot] >= (DRAWN if op == "drawn" else PER_OPERATOR):
            dropped["invalid: enough of this operator on this argument"] += 1
            continue
        per_op[slot] += 1
        taken.add(k)
        fresh.append((inp, op))
    run([i for i, _ in fresh])
    found_invalid = False
    for inp, op in fresh:
        k = params_key(inp, task.inputs)
        word, why = judge.judge(inp)
        got = outcomes.get(k)
        if got is not None and got.kind == "threw":
            if word is False:
                dropped["invalid: the reference threw, yet the validator accepts"] += 1
                continue
            word, why = True, "; ".join(x for x in (why, f"reference threw {got.reason}") if x)
        if word is not True:
            said = f"reference {got.kind}" if got is not None else "no reference"
            dropped[f"invalid: no oracle says invalid ({said})"] += 1
            continue
        found_invalid = True
        cid = new_case_id("gen", ids_sound, "pre_sound", k)
        new_sound.append(Case(id=cid, bucket=Bucket.pre_sound, input=inp, origin="generated",
                              seed=seed))
        sound_ops[op] += 1

    # -- a thin invalid domain? ------------------------------------------------------------
    found_sound = pre_s + new_sound
    if (ref is not None and found_sound and len(found_sound) < THIN_BELOW
            and not task.thin_invalid_domain and not judge.states_precondition):
        # an overflow at an extreme value may be the edge of a wide region (x * x overflows
        # for every |x| > 46340): values between it and 0 are tried first, and those that
        # overflow too are invalid inputs like any other
        ladder = [i for c in found_sound for i in _ladder(task, c.input, outcomes)
                  if params_key(i, task.inputs) not in taken]
        run(ladder)
        for inp in ladder:
            k = params_key(inp, task.inputs)
            got = outcomes.get(k)
            if k in taken or got is None or not got.overflowed or judge.judge(inp)[0] is False:
                continue
            taken.add(k)
            cid = new_case_id("gen", ids_sound, "pre_sound", k)
            new_sound.append(Case(id=cid, bucket=Bucket.pre_sound, input=inp,
                                  origin="generated", seed=seed))
            sound_ops["overflow.ladder"] += 1
            found_invalid = True
        found_sound = pre_s + new_sound
        if len(found_sound) < THIN_BELOW:
            _infer_thin(task, rep, found_sound, outcomes, kinds, judge, seed, len(fresh))

    # -- every input valid? -----------------------------------------------------------------
    stated = re.search(r"(?m)^\s*every_input_valid\s*=", (root / "task.toml").read_text(
        encoding="utf-8"))
    if stated and not task.every_input_valid:
        rep.notes.append("not every_input_valid: task.toml says every_input_valid = false")
    space = input_space_size(task.inputs)
    if (infer_every_input_valid and not stated and not pre_s and not found_invalid
            and not judge.states_precondition):
        if not (space is not None and len(known_valid) == space):
            # the evidence is every input tried, the drawn ones a lazy run left unrun too
            run(deferred)
        total = sum(1 for o in outcomes.values() if o.kind == "returned")
        bad = {k: n for k, n in kinds.items() if k != "returned"}
        if space is not None and len(known_valid) == space:
            # not an inference: the valid cases are every input the types admit
            rep.every_input_valid = rep.inferred_every_input_valid = True
            rep.every_input_valid_reason = (
                f"the task's valid cases cover all {space} inputs of the types")
        elif ref is None:
            pass
        elif bad:
            rep.notes.append("not every_input_valid: the reference gave no outcome on some "
                             "inputs (" + ", ".join(f"{k} {n}" for k, n in sorted(bad.items()))
                             + ")")
        elif total < MIN_TOTAL_EVIDENCE:
            rep.notes.append(f"not every_input_valid: the reference ran on only {total} "
                             f"inputs (fewer than {MIN_TOTAL_EVIDENCE})")
        else:
            n_ext = len(fresh)
            rep.every_input_valid = rep.inferred_every_input_valid = True
            rep.every_input_valid_reason = (
                f"inferred: the reference is total on {total} inputs ({total - n_ext} drawn "
                f"like the task's own, {n_ext} boundary and extreme values; seed {seed}) and "
                "no oracle found an invalid input")

    rep.valid_added = len(new_post)
    rep.valid_total = len(post_c) + len(new_post)
    rep.pre_sound_added = len(new_sound)
    rep.pre_sound_total = len(pre_s) + len(new_sound)
    rep.pre_operators = dict(sorted(sound_ops.items()))
    rep.dropped = dict(sorted(dropped.items()))
    rep.reference_runs = sum(kinds.values())
    rep.reference_kinds = dict(sorted(kinds.items()))
    if write:
        if new_post or moved:
            write_cases(root, Bucket.post_complete, post_c + new_post)
            write_cases(root, Bucket.pre_complete, pre_c + new_pre)
        if new_sound or moved:
            write_cases(root, Bucket.pre_sound, pre_s + new_sound)
        if rep.inferred_thin_invalid_domain and not _set_flag(
                root, "thin_invalid_domain", rep.thin_invalid_domain_reason):
            rep.notes.append("thin_invalid_domain inferred but not written: task.toml's layout "
                             "leaves no safe place for it (add it by hand)")
            rep.thin_invalid_domain = rep.inferred_thin_invalid_domain = False
        if rep.inferred_every_input_valid and not _set_every_input_valid(
                root, rep.every_input_valid_reason):
            rep.notes.append("every_input_valid inferred but not written: task.toml's layout "
                             "leaves no safe place for it (add it by hand)")
            rep.every_input_valid = rep.inferred_every_input_valid = False
        rep.written = bool(new_post or new_sound or moved or rep.inferred_every_input_valid
                           or rep.inferred_thin_invalid_domain)
    cases = dict(task.cases)
    if new_post or moved:
        cases[Bucket.post_complete] = post_c + new_post
        cases[Bucket.pre_complete] = pre_c + new_pre
    if new_sound or moved:
        cases[Bucket.pre_sound] = pre_s + new_sound
    after = task.model_copy(update={
        "cases": cases,
        "every_input_valid": rep.every_input_valid,
        "every_input_valid_reason": rep.every_input_valid_reason,
        "thin_invalid_domain": rep.thin_invalid_domain or task.thin_invalid_domain,
        "thin_invalid_domain_reason": (rep.thin_invalid_domain_reason
                                       or task.thin_invalid_domain_reason)})
    return rep, after
