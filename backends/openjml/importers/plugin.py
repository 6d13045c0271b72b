"""Registers the Spec-Harness importers (``adequacy import specgenbench|formalbench``)."""

from __future__ import annotations

from typing import Any

from adequacy.hookspecs import hookimpl


@hookimpl
def adequacy_importers() -> dict[str, Any]:
    from adequacy.backends.openjml.importers.spec_harness import (
        import_formalbench,
        import_specgenbench,
    )

    return {"specgenbench": import_specgenbench, "formalbench": import_formalbench}
