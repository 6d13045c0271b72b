"""Dataset importers: one protocol, one report model, found through the plugin manager.

An importer converts a public dataset (VERINA, SpecGenBench, FormalBench, a plugin's own) into
task folders. Every importer answers with the same ``ImportReport`` (task by task: converted or
not, and why; cases written per bucket; dataset-specific counts in ``figures``), so the CLI, a
benchmark or a test reads any importer's outcome the same way.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from adequacy import plugins
from adequacy.errors import BackendError, InputError
from adequacy.importer import Importer, ImportReport, Problem, TaskOutcome, reason_kind  # noqa: F401 - re-exported


def importers() -> dict[str, Importer]:
    """Every installed importer by name; two with one name are an error naming both."""
    from adequacy.packages.plugin import PackageImporter

    # problem packages need no language of their own (the declared types name it), so their
    # importer is core's, always present
    found: dict[str, Importer] = {"package": PackageImporter()}
    for result in plugins.default_manager().hook.adequacy_importers():
        for imp in result or []:
            if not isinstance(imp, Importer):
                raise BackendError(f"an importer plugin returned {imp!r}, which lacks the "
                                   "Importer surface (name, description, run)")
            if imp.name in found:
                raise BackendError(f"importer {imp.name!r} is provided twice")
            found[imp.name] = imp
    return found


def select_tasks(importer: Importer, src: Path, only: Sequence[str] | None = None,
                 limit: int | None = None, **options: Any) -> list[str] | None:
    """The task ids an import of ``src`` should convert: those named in ``only`` (each must
    be one of the source's, else ``InputError`` naming it and what the source holds), then the
    first ``limit`` of them in the source's order; None when neither is given (everything).

    The importer lists its source's ids with ``task_ids(src, **options)`` (an optional method
    of the ``Importer`` protocol: the ids its ``run`` accepts in ``only``); one without it
    cannot select, which is an ``InputError`` too rather than a whole import."""
    if not only and limit is None:
        return None
    lister = getattr(importer, "task_ids", None)
    if not callable(lister):
        raise InputError(f"importer {importer.name!r} cannot select tasks (--only, --limit): "
                         "it does not list its source's task ids")
    ids = [str(i) for i in lister(src, **options)]
    chosen = ids
    if only:
        wanted = [w for item in only for w in str(item).split(",") if w.strip()]
        known = set(ids)
        unknown = [w.strip() for w in wanted if w.strip() not in known]
        if unknown:
            hints = []
            for u in unknown:
                near = difflib.get_close_matches(u, ids, n=3)
                hints.append(f"{u!r}" + (f" (did you mean {', '.join(near)}?)" if near else ""))
            sample = ", ".join(ids[:5]) + (", ..." if len(ids) > 5 else "")
            raise InputError(f"no task {', '.join(hints)} "
                             f"in {src} ({len(ids)} tasks: {sample or 'none'})")
        keep = {w.strip() for w in wanted}
        chosen = [i for i in ids if i in keep]
    if limit is not None:
        chosen = chosen[:limit]
    return chosen
