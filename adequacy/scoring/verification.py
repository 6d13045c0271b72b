"""Verification rate beside adequacy: prove a spec against the method body through whichever
``Verifier`` the language's backend offers (KeY for JML, the ``verus`` binary for Verus).

The Spec-Harness paper shows that verification alone is misleading (a weak spec verifies
easily), so ``adequacy verify`` always prints the four adequacy metrics next to it. Provers are
incomplete: "not verified" means open goals (a wrong spec, a missing loop invariant, or the
prover giving up), never a refutation. Callers (CLI, gym, optimizers) reach provers only here,
through the plugin manager, never by importing a backend.
"""

from __future__ import annotations

from pydantic import BaseModel

from adequacy.errors import AdequacyError, BackendError, SpecInvalid
from adequacy.extensions import registry
from adequacy.extensions.backend import Backend, Limits, Verifier, verifiers_of
from adequacy.model.proofs import VerifyResult
from adequacy.model.task import Task


class VerifyReport(BaseModel):
    """Verification next to adequacy: a spec can verify and still say little (or the wrong
    thing); the four metrics from the default engines show how much it says."""

    task_id: str
    spec_path: str | None
    verification: VerifyResult
    adequacy_engine: str = ""
    adequacy_status: str = ""
    metrics: dict[str, float | None] = {}


def provers(language: str, name: str | None = None,
            available_only: bool = True) -> list[tuple[Backend, Verifier]]:
    """(backend, verifier) pairs for ``language`` (only ``name`` when given), most faithful
    first."""
    found: list[tuple[int, Backend, Verifier]] = []
    for b in registry.registry().of_language(language):
        for v in verifiers_of(b):
            if name is not None and v.name != name:
                continue
            info = v.info()  # an availability check may start a JVM: once per verifier
            if not available_only or info.available:
                found.append((-info.fidelity, b, v))
    found.sort(key=lambda f: f[0])
    return [(b, v) for _, b, v in found]


def why_no_prover(language: str, name: str | None = None) -> str:
    """What to install (or which names exist) when ``provers`` comes back empty."""
    known = provers(language, None, available_only=False)
    if not known:
        return (f"no installed backend can prove {language} specs against a body (score the "
                "spec with `adequacy score` instead)")
    if name is not None and not any(v.name == name for _, v in known):
        return (f"no prover {name!r} for {language} specs (known: "
                f"{', '.join(v.name for _, v in known)})")
    return (f"no {language} prover can run here: "
            + "; ".join(f"{v.name}: {v.info().reason}" for _, v in known
                        if name is None or v.name == name))


def check_front_end(task: Task, spec_text: str, spec_path: str | None) -> None:
    """Raise ``SpecInvalid`` when the language's front end rejects the spec. Asked before
    any prover, so an invalid spec is the spec's fault (exit 3) on every machine, with or
    without a prover installed, and no prover ever reads it."""
    backends = registry.registry().of_language(task.language)
    if backends:
        backends[0].load_spec(task, spec_text, spec_path)


def prove(task: Task, spec_text: str, spec_path: str | None, limits: Limits,
          name: str | None = None) -> VerifyResult:
    """Run the task language's best available prover. Raises ``SpecInvalid`` when the front
    end rejects the spec and ``BackendError`` when no prover can run."""
    found = provers(task.language, name)
    if not found:
        check_front_end(task, spec_text, spec_path)
        raise BackendError(why_no_prover(task.language, name))
    backend, verifier = found[0]
    loaded = backend.load_spec(task, spec_text, spec_path)
    return verifier.verify(loaded, task, limits)


def verify_with_metrics(task: Task, spec_text: str, spec_path: str | None, limits: Limits,
                        name: str | None = None) -> VerifyReport:
    """Prove the spec, then score it with the language's default engines."""
    from adequacy.scoring.runner import score_spec

    result = prove(task, spec_text, spec_path, limits, name)
    rep = score_spec(task, spec_text, spec_path, limits=limits, cache=None)
    metrics = ({m.name: m.value(rep.buckets, rep.strict)
                for m in registry.registry().metrics.values()} if rep.metrics else {})
    engines = ",".join(e.name for e in rep.engines if not e.skipped)
    return VerifyReport(task_id=task.id, spec_path=spec_path, verification=result,
                        adequacy_engine=engines, adequacy_status=rep.status, metrics=metrics)


def prove_quietly(task: Task, spec_text: str, limits: Limits) -> VerifyResult | str:
    """For callers that must not stop (gym, optimizers): the result, or one line saying why
    there is none (``INVALID SPEC: ...`` for the spec's own fault)."""
    try:
        return prove(task, spec_text, None, limits)
    except SpecInvalid as e:
        return f"INVALID SPEC: {e.render()}"
    except AdequacyError as e:
        return str(e).splitlines()[0][:300] if str(e) else type(e).__name__


def render_text(rep: VerifyReport) -> str:
    v = rep.verification
    lines = [f"{rep.task_id}: {v.result} by {v.engine}"
             + (f" ({v.method})" if v.method else "") + f" - {v.summary}"]
    for c in v.contracts:
        lines.append(f"  {c.contract}: {c.status}, {c.steps} steps, {c.seconds:.1f}s"
                     + (f", {c.open_goals} open goal(s)" if c.open_goals else ""))
        for g in c.goals:
            lines.append(f"    open at {' / '.join(g.branch) or '(root)'}: {g.sequent[:300]}")
    names = {m.name: m.label for m in registry.registry().metrics.values()}
    if rep.metrics:
        lines.append(f"adequacy ({rep.adequacy_engine}): " + "  ".join(
            f"{names[k]} {'N/A' if val is None else f'{val:.2f}'}"
            for k, val in rep.metrics.items() if k in names))
    else:
        lines.append(f"adequacy: {rep.adequacy_status}")
    return "\n".join(lines)


__all__ = ["VerifyReport", "VerifyResult", "check_front_end", "provers",
           "prove", "prove_quietly", "render_text", "verify_with_metrics", "why_no_prover"]
