"""The words of Java member declarations and JML annotations that the source reader sorts by.

One table per role (behaviors, clauses recorded or skipped, modifiers), so the reader, the
annotation parser and the declaration helpers agree on what a word means without importing
each other.
"""

BEHAVIORS = {
    "behavior": "behavior", "behaviour": "behavior",
    "normal_behavior": "normal", "normal_behaviour": "normal",
    "exceptional_behavior": "exceptional", "exceptional_behaviour": "exceptional",
}
RECORDED_CLAUSES = {
    "requires": "requires", "pre": "requires", "requires_redundantly": "requires",
    "pre_redundantly": "requires",
    "ensures": "ensures", "post": "ensures", "ensures_redundantly": "ensures",
    "post_redundantly": "ensures",
    "signals": "signals", "exsures": "signals", "signals_redundantly": "signals",
    "signals_only": "signals_only",
    "assignable": "assignable", "modifiable": "assignable", "modifies": "assignable",
    "assigns": "assignable", "assignable_redundantly": "assignable",
    "modifiable_redundantly": "assignable", "modifies_redundantly": "assignable",
    "old": "old",
}
IGNORED_CLAUSES = {
    "accessible", "accessible_redundantly",
    "callable", "callable_redundantly", "diverges", "diverges_redundantly", "when",
    "when_redundantly", "measured_by", "measured_by_redundantly", "duration",
    "duration_redundantly", "working_space", "working_space_redundantly", "captures",
    "captures_redundantly", "forall", "reads", "writes", "decreases", "decreasing",
}
CLASS_LEVEL_SKIPPED = {
    "invariant", "invariant_redundantly", "initially", "constraint", "constraint_redundantly",
    "axiom", "represents", "represents_redundantly", "readable", "writable", "monitors_for",
    "in", "maps", "static_initializer", "initializer",
}
JML_MODIFIERS = {
    "pure", "helper", "spec_public", "spec_protected", "nullable", "non_null",
    "nullable_by_default", "non_null_by_default", "spec_pure", "query", "function",
    "code_java_math", "code_safe_math", "code_bigint_math", "spec_java_math", "spec_safe_math",
    "spec_bigint_math", "instance", "uninitialized", "monitored", "extract", "strictly_pure",
    "inline", "immutable", "options", "skip_esc", "skip_rac", "code", "peer", "rep", "readonly",
}
JAVA_MODIFIERS = {
    "public", "private", "protected", "static", "final", "abstract", "native", "synchronized",
    "transient", "volatile", "strictfp", "default", "sealed", "non-sealed",
}
TYPE_KEYWORDS = {"class", "interface", "enum", "record"}
