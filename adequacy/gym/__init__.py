"""The agent environment (docs/gym.md): task folders with only what an agent may see,
``check`` on visible cases, ``submit`` graded on hidden ones, and the tools both share."""

from adequacy.errors import GymError
from adequacy.gym.make import MadeFolder, make_gym
from adequacy.gym.manifest import GymManifest, read_manifest
from adequacy.gym.session import CheckResult, GymRecord, check, find_folder, grade_text, submit
from adequacy.gym.tools import GymTools
from adequacy.scoring.keys import task_content_hash

__all__ = ["CheckResult", "GymError", "GymManifest", "GymRecord", "GymTools", "MadeFolder",
           "check", "find_folder", "grade_text", "make_gym", "read_manifest", "submit",
           "task_content_hash"]
