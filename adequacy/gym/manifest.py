"""The manifest that ties a gym folder to its source task.

The folder holds no hidden case, so the grader must go back to the source task; the manifest
says where it was and what its content hashed to when the folder was made. A source task that
changed since (a case relabelled, added or removed) no longer matches, and the grader refuses
it rather than grading against cases the folder was not made from.

``gym make`` seals the manifest with this installation's grader key (``adequacy.scoring.trust``) and
gives the folder a random ``folder_id``: ``submit`` grades only a sealed manifest (one pointed
at a task of someone's making, or edited, is refused), and the grader's ledger of submissions
is kept under that id, outside the folder (``adequacy.gym.state``), so a copy of the folder is
the same folder.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from adequacy.errors import TaskError
from adequacy.scoring import trust

MANIFEST = "gym.json"
"""At the top of each gym folder (an agent may read it: it holds no case)."""
PRIVATE = ".gym"
"""Folder of the gym's own files: the visible-only task copy, state, logs."""
FORMAT = 1


class GymManifest(BaseModel):
    """What a gym folder is made from; written by ``gym make``, read by check and submit."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format: int = FORMAT
    task_id: str
    language: str
    task_hash: str
    """``task_content_hash`` of the source task when the folder was made."""
    source: str
    """Absolute path of the source task folder (the grader reads hidden cases there)."""
    spec_file: str
    """The file the agent completes, relative to the folder."""
    visible: list[str]
    """``bucket/id`` of the cases copied into the folder."""
    seed: int
    example_task: str | None = None
    """Id of the task the worked example comes from (never this one)."""
    folder_id: str = ""
    """Random id given by ``gym make``: the grader's ledger is kept under it."""
    seal: str = ""
    """This installation's grader tag on every other field (``seal_manifest``)."""


SEAL_DOMAIN = "gym-manifest"


def _sealed_bytes(m: GymManifest) -> bytes:
    return json.dumps(m.model_dump(exclude={"seal"}), sort_keys=True,
                      separators=(",", ":")).encode("utf-8")


def seal_manifest(m: GymManifest) -> GymManifest:
    """``m`` with a fresh ``folder_id`` (unless it has one) and this installation's seal."""
    fresh = m if m.folder_id else m.model_copy(update={"folder_id": secrets.token_hex(16)})
    return fresh.model_copy(update={"seal": trust.tag(SEAL_DOMAIN, _sealed_bytes(fresh))})


def manifest_sealed(m: GymManifest) -> bool:
    """Whether this installation's ``gym make`` wrote the manifest as it reads."""
    return bool(m.folder_id) and trust.genuine(SEAL_DOMAIN, _sealed_bytes(m), m.seal)


def read_manifest(folder: Path) -> GymManifest:
    path = folder / MANIFEST
    if not path.is_file():
        raise TaskError(f"not a gym folder (no {MANIFEST}); make one with `adequacy gym make`",
                        file=str(folder))
    try:
        return GymManifest.model_validate_json(path.read_text(encoding="utf-8"))
    except (ValidationError, ValueError) as e:
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise TaskError(f"malformed gym manifest: {first}", file=str(path)) from None


def write_manifest(folder: Path, m: GymManifest) -> None:
    (folder / MANIFEST).write_text(json.dumps(m.model_dump(), indent=2) + "\n", encoding="utf-8")
