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
- ``generate_task(task_dir, valid, seed) -> GenerateReport``: valid pairs from the reference,
  oracle-labelled invalid inputs, and the ``every_input_valid`` inference (docs/cases.md);
- ``program_mutants_task(task_dir, per_mutant, write) -> ProgramsReport``: mutants of the
  task's reference program run in the sandbox, their wrong outputs as post_sound cases named
  after the mutant (``Case.made_by``), and the task's program-mutant strength;
- ``pre_reason(task, report)`` / ``valid_reason(task, report)``: why a task falls short of
  the case goals (docs/cases.md), in a few words (None when it meets them).

``value_key`` is the identity used everywhere ("equal to the original" means equal keys).
"""

from adequacy.model.identity import params_key, strictly_valid, value_key

from ._constraints import Constraint, Constraints, parse_constraints
from ._generate import GenerateReport, generate_task
from ._inputs import InputCandidate, invalid_candidates
from ._operators import Operator, all_operator_names, mutate_once, operators_for
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

__all__ = [
    "CheckerOracle", "Constraint", "ConstraintOracle", "Constraints", "GenerateReport",
    "InputCandidate",
    "InputOracle", "Judgement", "MutateReport", "Mutant", "Operator", "OutputOracle",
    "RecordedOracle", "ReferenceOracle", "ValidatorOracle", "all_operator_names", "combine",
    "generate_task",
    "invalid_candidates", "mutants", "mutate_once", "mutate_task", "operators_for",
    "output_mutants", "params_key", "parse_constraints", "pre_reason", "ProgramMutantResult",
    "ProgramsReport", "program_mutants_task", "programs_renderable", "report_renderable",
    "strictly_valid", "valid_reason",
    "value_key",
]
