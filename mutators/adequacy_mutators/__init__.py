"""Typed mutators and oracles: wrong outputs and invalid inputs that are known to be wrong.

Public API (see docs/mutators.md):

- ``mutants(value, type, n, seed)`` / ``output_mutants(output, params, n, seed)``: distinct,
  schema-valid mutants that never equal the original, each named by its operator chain;
- ``operators_for(type)``, ``all_operator_names()``: the named operators per type;
- ``parse_constraints(table, inputs)`` and ``Constraints``: the ``[constraints]`` vocabulary;
- ``invalid_candidates(input, params, constraints, n, seed)``: near-valid invalid inputs;
- oracles (``OutputOracle`` / ``InputOracle`` protocols; reference, checker, validator,
  recorded-output and constraint oracles) and ``combine``, the labelling rule;
- ``mutate_task(task_dir, per_case, seed) -> MutateReport``: fill post_sound and pre_sound;
- ``fill_task`` / ``fill_tasks``: generate then mutate in one pass per task (one reference
  session each), several tasks at once;
- ``generate_task(task_dir, valid, seed) -> GenerateReport``: valid pairs from the reference,
  oracle-labelled invalid inputs, and the ``every_input_valid`` inference (docs/cases.md);
- ``program_mutants_task(task_dir, per_mutant, write) -> ProgramsReport``: mutants of the
  task's reference program run in the sandbox, their wrong outputs as post_sound cases named
  after the mutant (``Case.made_by``), and the task's program-mutant strength;
- ``pre_reason(task, report)`` / ``valid_reason(task, report)``: why a task falls short of
  the case goals (docs/cases.md), in a few words (None when it meets them).

``value_key`` is the identity used everywhere ("equal to the original" means equal keys).

Names are resolved on first use (module ``__getattr__``): the registry loads
``adequacy_mutators.plugin`` (the built-in operators) in every process that scores, which
must not pay for the generators and their tables.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

_WHERE = {
    "params_key": "adequacy.model.identity", "strictly_valid": "adequacy.model.identity",
    "value_key": "adequacy.model.identity",
    **dict.fromkeys(("Constraint", "Constraints", "parse_constraints"), "._constraints"),
    **dict.fromkeys(("FillReport", "fill_task", "fill_tasks"), "._fill"),
    **dict.fromkeys(("GenerateReport", "generate_task"), "._generate"),
    **dict.fromkeys(("InputCandidate", "invalid_candidates"), "._inputs"),
    **dict.fromkeys(("all_operator_names", "mutate_once", "operators_for"), "._operators"),
    **dict.fromkeys(("CheckerOracle", "ConstraintOracle", "InputOracle", "Judgement",
                     "OutputOracle", "RecordedOracle", "ReferenceOracle", "ValidatorOracle",
                     "combine"), "._oracles"),
    **dict.fromkeys(("Mutant", "mutants", "output_mutants"), "._outputs"),
    **dict.fromkeys(("ProgramMutantResult", "ProgramsReport", "program_mutants_task"),
                    "._programs"),
    **dict.fromkeys(("programs_renderable", "report_renderable"), "._render"),
    **dict.fromkeys(("pre_reason", "valid_reason"), "._shortfall"),
    **dict.fromkeys(("MutateReport", "mutate_task"), "._task"),
}

if TYPE_CHECKING:
    from adequacy.model.identity import params_key, strictly_valid, value_key

    from ._constraints import Constraint, Constraints, parse_constraints
    from ._fill import FillReport, fill_task, fill_tasks
    from ._generate import GenerateReport, generate_task
    from ._inputs import InputCandidate, invalid_candidates
    from ._operators import all_operator_names, mutate_once, operators_for
    from ._oracles import (
        CheckerOracle,
        ConstraintOracle,
        InputOracle,
        Judgement,
        OutputOracle,
        RecordedOracle,
        ReferenceOracle,
        ValidatorOracle,
        combine,
    )
    from ._outputs import Mutant, mutants, output_mutants
    from ._programs import ProgramMutantResult, ProgramsReport, program_mutants_task
    from ._render import programs_renderable, report_renderable
    from ._shortfall import pre_reason, valid_reason
    from ._task import MutateReport, mutate_task


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'adequacy_mutators' has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "CheckerOracle", "Constraint", "ConstraintOracle", "Constraints", "FillReport",
    "GenerateReport", "fill_task", "fill_tasks",
    "InputCandidate", "InputOracle", "Judgement", "MutateReport", "Mutant", "OutputOracle",
    "RecordedOracle", "ReferenceOracle", "ValidatorOracle", "all_operator_names", "combine",
    "generate_task", "invalid_candidates", "mutants", "mutate_once", "mutate_task",
    "operators_for", "output_mutants", "params_key", "parse_constraints", "pre_reason",
    "ProgramMutantResult", "ProgramsReport", "program_mutants_task", "programs_renderable",
    "report_renderable", "strictly_valid", "valid_reason", "value_key",
]
