"""Built-in backends; each registers through the `adequacy.backends` entry-point group."""
