"""The data every layer passes: the type language, JSON values, tasks and cases, verdicts,
metrics, template clauses, proof results, and reading them from untrusted text. No I/O beyond
reading one file, no registry, no engine."""
