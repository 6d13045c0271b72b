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
from adequacy.errors import BackendError, DatasetError, EngineUnavailable, SpecInvalid, TaskError
from adequacy.gym.texts import GymTexts
from adequacy.hookspecs import hookimpl
from adequacy.importer import Importer, ImportReport, TaskOutcome
from adequacy.importer import Problem as ImportProblem
from adequacy.sandbox import (
    RunResult,
    SandboxLimits,
    clean_env,
    make_workdir,
    popen_limited,
    remove_tree,
    run_limited,
)
from adequacy.sandbox_mounts import View
from adequacy.sandbox_view import linked_libraries
from adequacy.sandbox_worker import JsonLineWorker, WorkerDied
from adequacy.task_model import Case, Task, TaskFiles
from adequacy.tasks import load_task, write_cases
from adequacy.toolchain import cache_dir
from adequacy.types import (
    BoolType,
    CharType,
    FloatType,
    IntType,
    MapType,
    MultisetType,
    NullableType,
    OptionType,
    SeqType,
    SetType,
    StringType,
    StructType,
    TupleType,
    Type,
    parse_type,
)
from adequacy.verdicts import Bucket, Truth, Verdict
from adequacy.verify_result import VerifyResult

__all__ = [
    "AllElems", "AllIn", "Atom", "Backend", "BackendError", "BoolType", "Bucket",
    "CAPABILITIES", "Case", "CharType", "Clause", "Cmp", "Const", "DatasetError", "Engine",
    "EngineInfo", "EngineUnavailable", "ExtractionError", "FAILURE_KINDS", "FORBIDDEN",
    "FailureStreak", "FloatType", "GymTexts", "Iff", "ImportProblem", "ImportReport",
    "Importer", "IndexIn", "IntType", "JsonLineWorker", "Len", "Limits", "LoadedSpec",
    "MapType", "Member", "MultisetType", "NonNull", "NullableType", "OUT_OF_MEMORY",
    "OptionType", "Pointwise", "ReferenceOutcome", "RunResult", "STACK_OVERFLOW",
    "SandboxLimits", "SeqType", "SetType", "Sorted", "SpecInvalid", "StringType", "StructType",
    "TIMEOUT", "Task", "TaskError", "TaskFiles", "TaskOutcome", "Term", "Truth", "TupleType",
    "Type", "Var", "Verdict", "Verifier", "VerifyResult", "View", "WORKER_DIED", "WorkerDied",
    "WriterTexts", "atom_vars", "cache_dir", "clean_env", "code_blocks", "engine_version",
    "hookimpl", "linked_libraries", "load_task", "make_workdir", "matching_brace",
    "parse_type", "pick_block", "popen_limited", "remove_tree", "run_limited", "whole_file",
    "write_cases",
]
