"""The ``exec_spec`` engine: specs compiled with vstd's real ``exec_spec_unverified!`` macro."""

from .engine import VSTD_VERSION, ExecSpecEngine, availability, check

__all__ = ["VSTD_VERSION", "ExecSpecEngine", "availability", "check"]
