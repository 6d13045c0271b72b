"""The ``adequacy`` command: thin wrappers that parse arguments and call the library.

Exit codes: 0 the spec passed every case, 1 it failed some case, 2 usage or input error (or our
own failure), 3 the spec is invalid. Errors a user can fix print one line without a traceback;
``main`` turns anything unexpected into one "internal error" line (``ADEQUACY_DEBUG=1`` shows the
traceback), so bad input never ends in a traceback and exit 1 (which means "the spec failed").

One module per group of commands (``admin``, ``tasks``, ``scoring``, ``data``, ``report``,
``optimize``, ``gym``), the app that registers them (``root``), what they share (``common``,
``options``: the scoring option group of ``score`` and ``run``, ``checks``: range checks).

Start-up is paid on every call an optimizer or agent makes: importing this package imports
nothing else, ``adequacy --version`` answers before typer is imported, the app is built only
when a command is run (``app`` is a lazy attribute), and a run builds only its own command.
"""

from __future__ import annotations

import gc
import os
import sys
from typing import Any

from adequacy.version import __version__


def main() -> None:  # pragma: no cover - console entry (tested through subprocess)
    if sys.argv[1:] == ["--version"]:  # the one call that needs no app
        print(f"adequacy {__version__}")
        return
    from adequacy.cli.common import err, say_error
    from adequacy.cli.root import app_for
    from adequacy.errors import AdequacyError

    # What importing the command modules allocated lives as long as the process; left to the
    # collector, a full collection fell in every score, walked it again, found nothing, and
    # cost 15 ms of the 0.35 s.
    gc.freeze()
    try:
        app_for(sys.argv[1:])(prog_name="adequacy")
    except AdequacyError as e:
        say_error(str(e))
        sys.exit(2)
    except ImportError as e:  # an optional extra's module, wherever a command reached it
        if os.environ.get("ADEQUACY_DEBUG") == "1":
            raise
        from adequacy.errors import missing_extra

        known = missing_extra(e, "this command")
        if known is None:
            _internal(e)
        say_error(str(known))
        sys.exit(2)
    except KeyboardInterrupt:
        err.print("interrupted", highlight=False)
        sys.exit(130)
    except Exception as e:  # noqa: BLE001 - the last resort: one line, never a traceback
        if os.environ.get("ADEQUACY_DEBUG") == "1":
            raise
        _internal(e)


def _internal(e: BaseException) -> None:
    from adequacy.cli.common import say_error

    msg = str(e).splitlines()[0] if str(e) else ""
    say_error(f"{type(e).__name__}: {msg} (please report; ADEQUACY_DEBUG=1 shows the "
              "traceback)", prefix="internal error: ")
    sys.exit(2)


def __getattr__(name: str) -> Any:
    if name == "app":
        from adequacy.cli.root import app

        return app
    raise AttributeError(f"module 'adequacy.cli' has no attribute {name!r}")
