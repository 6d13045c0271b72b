"""Python contracts for spec-adequacy: a language backend built on ``adequacy.plugin`` alone."""
