"""The ``verus`` engine (one proof fn per case and polarity) and the ``verus`` verifier (the
spec's contract proved against the task's reference implementation), both on the real binary."""

from .driver import attribute, availability, build_file, check

__all__ = ["attribute", "availability", "build_file", "check"]
