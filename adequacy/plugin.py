"""The public plugin API: everything a language backend needs, from one module.

A backend for a new language is one package plus one entry point (group ``adequacy.backends``)
that imports from here only: subclass ``Backend``, give it ``Engine`` objects, register it with
``hookimpl``. The names live in the modules that use them (so core imports them from there);
this module is the one a plugin author reads and the one whose names stay stable.
"""

from __future__ import annotations

from adequacy.answers import ExtractionError, code_blocks, matching_brace, pick_block, whole_file
from adequacy.backend import (
    CAPABILITIES,
    FAILURE_KINDS,
    FORBIDDEN,
    OUT_OF_MEMORY,
    STACK_OVERFLOW,
    TIMEOUT,
    WORKER_DIED,
    Backend,
    Engine,
    EngineInfo,
    FailureStreak,
    Limits,
    LoadedSpec,
    ReferenceOutcome,
    Verifier,
    WriterTexts,
)
from adequacy.clauses import (
    AllElems,
    AllIn,
    Atom,
    Clause,
    Cmp,
    Const,
    Iff,
    IndexIn,
    Len,
    Member,
    NonNull,
    Pointwise,
    Sorted,
    Term,
    Var,
    atom_vars,
)
from adequacy.engine_version import engine_version
from adequacy.errors import BackendError, EngineUnavailable, SpecInvalid, TaskError
from adequacy.gym.texts import GymTexts
from adequacy.hookspecs import hookimpl
from adequacy.importer import Importer, ImportReport
from adequacy.symbolic.model import (
    Answer,
    Decision,
    Pred,
    Question,
    SmtEncoder,
    SolverLimits,
    SpecTerms,
    Symbolic,
)
from adequacy.task_model import Case, Task, TaskFiles
from adequacy.types import BoolType, IntType, SeqType, StringType, Type
from adequacy.verdicts import Bucket, Truth, Verdict
from adequacy.verify_result import VerifyResult

__all__ = [
    "AllElems", "AllIn", "Answer", "Atom", "Backend", "BackendError", "BoolType", "Bucket", "CAPABILITIES",
    "Case", "Clause", "Cmp", "Const", "Decision", "Engine", "EngineInfo", "EngineUnavailable",
    "ExtractionError", "FAILURE_KINDS", "FORBIDDEN", "FailureStreak", "GymTexts", "Iff",
    "ImportReport", "Importer", "IndexIn", "IntType", "Len", "Limits", "LoadedSpec", "Member",
    "NonNull", "OUT_OF_MEMORY", "Pointwise", "Pred", "Question", "ReferenceOutcome", "STACK_OVERFLOW", "SeqType", "SmtEncoder", "SolverLimits", "Sorted", "SpecTerms",
    "SpecInvalid", "StringType", "Symbolic", "TIMEOUT", "Task", "TaskError", "TaskFiles", "Term", "Truth",
    "Type", "Var", "Verdict", "Verifier", "VerifyResult", "WORKER_DIED", "WriterTexts",
    "atom_vars", "code_blocks", "engine_version", "hookimpl", "matching_brace", "pick_block",
    "whole_file",
]
