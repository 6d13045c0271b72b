"""One error hierarchy for everything a user (or a language model) can get wrong.

Every message says what was expected, what was found and where (``file:line: field: ...``), so
the CLI can print it without a traceback and a batch can store it as data.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path


class AdequacyError(Exception):
    """Base of every error this package raises on purpose."""


class Located(AdequacyError):
    """An error that points at a place in a file."""

    def __init__(
        self,
        message: str,
        file: str | None = None,
        line: int | None = None,
        field: str | None = None,
    ) -> None:
        self.message = message
        self.file = file
        self.line = line
        self.field = field
        super().__init__(self.render())

    def render(self) -> str:
        where = ""
        if self.file:
            where = self.file + (f":{self.line}" if self.line else "") + ": "
        elif self.line:
            where = f"line {self.line}: "
        fld = f"{self.field}: " if self.field else ""
        return f"{where}{fld}{self.message}"


class TypeSyntaxError(Located):
    """A type in the type language does not parse."""


class ValueTypeError(Located):
    """A JSON value does not fit its type (the field is the path, e.g. ``output.result[3]``)."""


class TaskError(Located):
    """A task folder or one of its files is malformed."""


class SpecInvalid(Located):
    """A spec does not parse, type-check or compile, or breaks the untrusted-spec rules.

    ``engine`` names the engine that found the problem (``None``: the backend's front end).
    """

    def __init__(
        self,
        message: str,
        file: str | None = None,
        line: int | None = None,
        field: str | None = None,
        engine: str | None = None,
    ) -> None:
        self.engine = engine
        super().__init__(message, file, line, field)


class BackendError(AdequacyError):
    """A backend or engine is misconfigured, missing or misbehaving (not the spec's fault)."""


class EngineUnavailable(BackendError):
    """The engine cannot run here; the message says what to install or configure."""


class InputError(Located):
    """A file the user named cannot be read as what it should be (missing, a folder, not UTF-8,
    too large, JSON too deep): the user's input is at fault, never a spec's verdict."""


class DatasetError(InputError):
    """A dataset file (or one record of it) does not have the shape its importer reads. Never a
    bare ``ValueError``: the CLI reports this as the dataset's fault and lets any other exception
    surface as an internal error, so our own bugs are not passed off as bad data."""



class ExtractionError(AdequacyError):
    """The answer holds no usable spec; the message says what was missing."""


class JsonError(AdequacyError, ValueError):
    """A JSON text that does not parse or breaks a limit; the message is one line."""


class WorkerDied(BackendError):
    """The child exited or did not answer in time; it has been killed and will be restarted."""


class JudgeError(BackendError):
    """A judge cannot be built or run (its language, a compile error, the sandbox)."""


class ConvertError(AdequacyError):
    """The conversion program cannot run at all (it does not load, the sandbox)."""


class ResultsLocked(AdequacyError):
    """Another process is writing the same results file."""


class ResultsError(AdequacyError):
    """A results file that cannot be read as one; the message starts with ``file:line``."""


class ShellError(AdequacyError):
    """The shell cannot run here or on this folder (no bubblewrap, not a gym folder...)."""


class GymError(AdequacyError):
    """A gym folder cannot do what was asked (already submitted, hash mismatch, ...)."""


class ToolFailed(AdequacyError):
    """A tool call that did not do its job (bad arguments, no prover, a bug of ours); its message
    is safe to show the model."""


class BatchInterrupted(AdequacyError):
    """Ctrl-C: the pool was stopped; what finished is in the results file."""

    def __init__(self, results: Path, finished: int, total: int) -> None:
        self.results, self.finished, self.total = results, finished, total
        super().__init__(f"interrupted: {finished} of {total} pairs are done and kept in "
                         f"{results}; run the same command again to resume")


class RayUnavailable(AdequacyError):
    """Ray is not installed or the cluster cannot be reached."""


class HeldOutTask(AdequacyError):
    """A metric was asked to score a task outside its training split."""


class MetricUnavailable(AdequacyError):
    """The metric needs a tool this machine lacks (a prover for ``vr``)."""


class PackageRefused(AdequacyError):
    """A problem package that cannot become a task; ``kind`` groups such refusals in the
    import report."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail


class TrustError(AdequacyError):
    """The grader's private folder or key cannot be used safely (wrong owner, open to others)."""


class LenientReward(AdequacyError):
    """Lenient scoring asked for as a reward without saying it is meant."""


class ShellRequestRefused(AdequacyError):
    """A request the broker does not run; its message is for the agent."""


class PrivatePath(AdequacyError):
    """A path that names the gym's own files, or leads out of the folder."""


class ViewRefused(AdequacyError):
    """A folder the shell would bind holds (or lies in) something the agent must not read."""


EXTRAS = {"dspy": "optimize", "gepa": "optimize", "litellm": "optimize", "mcp": "gym",
          "ray": "ray"}
"""The optional extra (``pip install 'spec-adequacy[EXTRA]'``) that brings each module."""


class MissingExtra(AdequacyError):
    """A feature needs an optional extra that is not installed: one line naming it.

    Exit 2 like every input error: the core install is complete, the user asked for more."""

    def __init__(self, extra: str, what: str, cause: BaseException | None = None) -> None:
        self.extra = extra
        missing = getattr(cause, "name", None)
        why = f" (no module {missing})" if missing else ""
        super().__init__(f"{what} needs the {extra} extra{why}: "
                         f"pip install 'spec-adequacy[{extra}]'")


def missing_extra(e: ImportError, what: str) -> MissingExtra | None:
    """``e`` as a ``MissingExtra`` when the module it could not import comes with an extra."""
    name = (getattr(e, "name", None) or "").split(".")[0]
    return MissingExtra(EXTRAS[name], what, e) if name in EXTRAS else None


def validation_message(e: Exception) -> str:
    """One clean line for a pydantic ``ValidationError`` (its ``str`` spans lines and ends with a
    documentation URL, which is noise in a one-line error)."""
    errors = getattr(e, "errors", None)
    if not callable(errors):
        return str(e).splitlines()[0]
    parts = []
    for err in errors():
        loc = ".".join(str(x) for x in err.get("loc", ()))
        parts.append(f"{loc}: {err.get('msg', '')}" if loc else str(err.get("msg", "")))
    return "; ".join(parts) or str(e).splitlines()[0]
