"""Import the VERINA benchmark (sunblaze-ucb/verina, Apache-2.0) as Verus tasks."""
