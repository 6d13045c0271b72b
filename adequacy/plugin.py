"""The public plugin API: everything a language backend needs, from one module.

A backend for a new language is one package plus one entry point (group ``adequacy.backends``)
that imports from here only: subclass ``Backend``, give it ``Engine`` objects, register it with
``hookimpl``. The built-in Verus and JML backends import nothing else from core either (CI
checks it), so whatever they can do, a third-party language can. The names live in the rooms
that use them (core imports them from there); this module is the one a plugin author reads and
the one whose names stay stable. docs/plugins.md describes each group.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

# -- the contract: a backend, its engines and provers, the limits they run under
from adequacy.console import progress
from adequacy.errors import (
    AdequacyError,
    BackendError,
    DatasetError,
    EngineUnavailable,
    ExtractionError,
    InputError,
    Located,
    SpecInvalid,
    TaskError,
    TypeSyntaxError,
    ValueTypeError,
    WorkerDied,
)
from adequacy.extensions.answers import code_blocks, matching_brace, pick_block, whole_file
from adequacy.extensions.backend import (
    CAPABILITIES,
    FAILURE_KINDS,
    FORBIDDEN,
    OUT_OF_MEMORY,
    OVERFLOW_REASON,
    STACK_OVERFLOW,
    TIMEOUT,
    WORKER_DIED,
    Backend,
    ContainerRecipe,
    Engine,
    EngineInfo,
    FailureStreak,
    Limits,
    LoadedSpec,
    ReferenceOutcome,
    ReferenceSession,
    Verifier,
)
from adequacy.extensions.component import Component
from adequacy.extensions.engine_version import engine_version
from adequacy.extensions.hookspecs import hookimpl
from adequacy.extensions.importer import Importer, ImportReport, Problem, TaskOutcome, reason_kind
from adequacy.extensions.judges import Judge, JudgeCapabilities, JudgeKind, Pair, Word
from adequacy.extensions.lazy_engines import EngineRow, load_engines
from adequacy.extensions.mutants import (
    COMPARISONS,
    PROGRAM_OPERATORS,
    SPEC_OPERATORS,
    STRONGER_COMPARISONS,
    WEAKER_COMPARISONS,
    ProgramMutant,
    SpecMutant,
    apply_python_edit,
    check_operators,
    numbered,
    python_program_mutants,
)
from adequacy.extensions.objectives import Objective
from adequacy.extensions.operators import SKIP, MutationOperator, OperatorFn
from adequacy.extensions.symbolic import (
    Answer,
    Decision,
    Null,
    Opt,
    Pred,
    Question,
    Rec,
    Scalar,
    SmtEncoder,
    SolverLimits,
    SpecTerms,
    Sym,
    Symbolic,
    Unsupported,
)
from adequacy.extensions.texts import GymTexts, WriterTexts
from adequacy.extensions.writers import (
    Usage,
    Writer,
    WriterKind,
    WriterOptions,
    WrittenSpec,
    visible_cases,
)
from adequacy.model import types
from adequacy.model.clauses import (
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
from adequacy.model.metrics import BucketStats, Metric
from adequacy.model.proofs import ContractResult, OpenGoal, ProofOutcome, VerifyResult
from adequacy.model.random_values import CHAR_POOL, random_value
from adequacy.model.task import Case, Param, Task, TaskFiles
from adequacy.model.toml_lines import key_line
from adequacy.model.types import (
    INT_WIDTHS,
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
    TypeVisitor,
    method_for,
    parse_type,
    parts,
    visit,
)
from adequacy.model.values import canonical, content_hash, encode, validate
from adequacy.model.verdicts import BUCKETS, Bucket, Truth, Verdict
from adequacy.sandbox import lanes, views
from adequacy.sandbox.mounts import View
from adequacy.sandbox.run import (
    RunResult,
    SandboxLimits,
    clean_env,
    make_workdir,
    popen_limited,
    remove_tree,
    run_limited,
)
from adequacy.sandbox.toolchain import cache_dir, source_version, tool_version
from adequacy.sandbox.worker import JsonLineWorker, Launch, renew_after_fork
from adequacy.symbolic import UNFOLD_DEPTH, SmtEngine, symbolic_of, z3_symbolic
from adequacy.taskdirs.load import load_task, read_signature, write_cases

if TYPE_CHECKING:
    from adequacy.symbolic import terms as smt_terms
    from adequacy.symbolic.unfolding import Unfolder

__all__ = [
    # errors (every one an AdequacyError: the CLI prints it as one line)
    "AdequacyError", "BackendError", "DatasetError", "EngineUnavailable", "InputError",
    "Located", "SpecInvalid", "TaskError", "TypeSyntaxError", "ValueTypeError",
    # the contract
    "Backend", "CAPABILITIES", "ContainerRecipe", "Engine", "EngineInfo", "EngineRow", "FAILURE_KINDS", "FORBIDDEN",
    "FailureStreak", "Limits", "LoadedSpec", "OUT_OF_MEMORY", "OVERFLOW_REASON",
    "ReferenceOutcome", "ReferenceSession", "STACK_OVERFLOW", "TIMEOUT", "Verifier", "WORKER_DIED", "engine_version",
    "hookimpl", "load_engines",
    # mutants of specs and of reference programs (task strength, mutate --programs)
    "COMPARISONS", "PROGRAM_OPERATORS", "ProgramMutant", "SPEC_OPERATORS", "STRONGER_COMPARISONS",
    "SpecMutant", "WEAKER_COMPARISONS", "apply_python_edit",
    "check_operators", "numbered", "python_program_mutants",
    # what writers and agents are told, and reading their answers
    "ExtractionError", "GymTexts", "WriterTexts", "code_blocks", "matching_brace", "pick_block",
    "whole_file",
    # importers
    "ImportReport", "Importer", "Problem", "TaskOutcome", "reason_kind",
    # the other extension kinds: writers, metrics, objectives, mutation operators, judges
    "Component", "Judge", "JudgeCapabilities", "JudgeKind", "Metric", "BucketStats",
    "MutationOperator", "Objective", "OperatorFn", "Pair", "SKIP", "Usage", "Word", "Writer",
    "WriterKind", "WriterOptions", "WrittenSpec", "visible_cases",
    # the data: types, values, tasks, verdicts, template clauses, proofs
    "BUCKETS", "Bucket", "BoolType", "CHAR_POOL", "Case", "CharType", "FloatType", "INT_WIDTHS",
    "IntType", "MapType", "MultisetType", "NullableType", "OptionType", "Param", "SeqType",
    "SetType", "StringType", "StructType", "Task", "TaskFiles", "Truth", "TupleType", "Type",
    "TypeVisitor", "Verdict", "canonical", "content_hash", "encode", "method_for",
    "parse_type", "parts",
    "random_value", "types", "validate", "visit",
    "AllElems", "AllIn", "Atom", "Clause", "Cmp", "Const", "Iff", "IndexIn", "Len", "Member",
    "NonNull", "Pointwise", "Sorted", "Term", "Var", "atom_vars",
    "ContractResult", "OpenGoal", "ProofOutcome", "VerifyResult",
    # symbolic questions: the contract, Z3 terms of a task's values (``smt_terms``, imported
    # on first use: it loads z3), core's Z3 driver over an encoder, the per-case smt engine
    "Answer", "Decision", "Null", "Opt", "Pred", "Question", "Rec", "Scalar", "SmtEncoder",
    "SmtEngine", "SolverLimits", "SpecTerms", "Sym", "Symbolic", "UNFOLD_DEPTH", "Unfolder",
    "Unsupported", "smt_terms", "symbolic_of", "z3_symbolic",
    # task folders
    "key_line", "load_task", "read_signature", "write_cases",
    # the sandbox, persistent workers, the tool cache
    "JsonLineWorker", "Launch", "RunResult", "SandboxLimits", "View", "WorkerDied", "cache_dir",
    "clean_env", "make_workdir", "popen_limited", "remove_tree", "renew_after_fork",
    "run_limited", "source_version", "tool_version", "views",
    # progress of long work on stderr; how many CPU-bound lanes a command keeps busy
    "lanes", "progress",
]


def __getattr__(name: str) -> Any:
    """``smt_terms`` and ``Unfolder`` on first use (they import z3, which a run without
    symbolic questions never pays for)."""
    if name == "smt_terms":
        from adequacy.symbolic import terms
        return terms
    if name == "Unfolder":
        from adequacy.symbolic.unfolding import Unfolder
        return Unfolder
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
