"""The ``exec_spec`` engine: specs compiled with vstd's real ``exec_spec_unverified!`` macro."""

from adequacy.backends.verus.exec_spec.engine import VSTD_VERSION, availability, check

__all__ = ["VSTD_VERSION", "availability", "check"]
