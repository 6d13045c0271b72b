"""``adequacy package convert``: a model writes a problem package's io.py (docs/packages.md).

``adequacy import package`` itself lives with the other importers (``cli/data.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from adequacy.cli.common import fail, out
from adequacy.cli.optimize import ApiBaseOpt, ApiKeyOpt, LmOpt, RetryWaitOpt, TempOpt, TriesOpt
from adequacy.errors import AdequacyError

package_app = typer.Typer(no_args_is_help=True, help="Problem packages (Polygon's layout).")


@package_app.command("convert")
def convert(
    packages: Annotated[list[Path], typer.Argument(help="Package folders (with "
                                                   "adequacy/task.toml).")],
    lm: LmOpt = None,
    api_base: ApiBaseOpt = None,
    api_key: ApiKeyOpt = None,
    temperature: TempOpt = None,
    attempts: Annotated[int, typer.Option("--attempts", min=1, max=20, help=
                        "Attempts per package; each after the first sees the round-trip "
                        "failures of the one before.")] = 3,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Write no io.py.")] = False,
    no_cache: Annotated[bool, typer.Option("--no-cache")] = False,
    tries: TriesOpt = 3,
    retry_wait: RetryWaitOpt = 1.0,
) -> None:
    """Write each package's adequacy/io.py with a model, looping on round-trip failures."""
    from adequacy.cli.optimize import _lm, _lm_stopped, need_dspy
    need_dspy()
    if lm is None:
        raise fail("--lm MODEL is required (a litellm model string)")
    from adequacy_optimizers.lm_errors import LmUnavailable
    from adequacy_optimizers.package_convert import convert_package
    model = _lm(lm, api_base, temperature, no_cache, tries, retry_wait, api_key=api_key)
    done = 0
    try:
        for p in packages:
            r = convert_package(p, model, attempts=attempts, write=not dry_run)
            model.raise_if_failed()
            last = r.attempts[-1] if r.attempts else None
            if r.converted:
                done += 1
                out.print(f"{r.package}: converted all {r.cases} official tests in attempt "
                          f"{len(r.attempts)}" + (f"; wrote {r.written}" if r.written else ""),
                          highlight=False, markup=False)
            else:
                why = (last.error or f"{len(last.failures)} texts still fail, first: "
                       f"{last.failures[0]}") if last else "no attempt"
                out.print(f"{r.package}: dropped after {len(r.attempts)} attempt(s): {why}",
                          highlight=False, markup=False)
    except LmUnavailable as e:
        raise _lm_stopped(e) from None
    except AdequacyError as e:
        raise fail(str(e)) from None
    if done < len(packages):
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.add_typer(package_app, name="package")
