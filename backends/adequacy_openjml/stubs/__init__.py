"""Spec-Harness Hoare-triple stubs for static checkers (OpenJML here; KeY reuses them).

Public API: ``render_stubs(spec, task, cases) -> StubFile``.
"""

from .render import (
    Stub,
    StubFile,
    java_literal,
    render_jml,
    render_stubs,
)

__all__ = ["Stub", "StubFile", "java_literal", "render_jml", "render_stubs"]
