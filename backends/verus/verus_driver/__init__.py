"""The ``verus`` engine: the real Verus verifier, one proof fn per case and polarity."""

from adequacy.backends.verus.verus_driver.driver import attribute, availability, build_file, check

__all__ = ["availability", "attribute", "build_file", "check"]
