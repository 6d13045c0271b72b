"""The option groups ``score`` and ``run`` share, declared once.

Each command used to declare ``--engine``, ``--cross-check``, ``--strict``, the four limits and
the cache flags on its own, with its own defaults and help; a new limit then reached one
command and not the other. A group is a list of click parameters that ``option_group``
splices into a command's signature in place of one parameter, which the command receives
already built: ``options: ScoreOptions`` (validated by the model, not by each command) or the
cache path.

Nothing here imports pydantic: the model is built when the command runs, so building the app
(``adequacy --help``) stays cheap.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from adequacy.cli.checks import at_least, positive
from adequacy.cli.common import default_cache

if TYPE_CHECKING:
    from adequacy.scoring.options import ScoreOptions

F = TypeVar("F", bound=Callable[..., Any])

_KW = inspect.Parameter.KEYWORD_ONLY


def _p(name: str, annotation: Any, default: Any) -> inspect.Parameter:
    return inspect.Parameter(name, _KW, annotation=annotation, default=default)


SCORE_OPTIONS = [
    _p("backend", Annotated[str | None, typer.Option(
        help="Backend name (default: by language).")], None),
    _p("engine", Annotated[list[str] | None, typer.Option(
        "--engine", "-e", metavar="ENGINE",
        help="Engine(s) to chain, in order (default: the backend's default).")], None),
    _p("cross_check", Annotated[bool, typer.Option(
        "--cross-check",
        help="Run every available engine on every case; report disagreements.")], False),
    _p("strict", Annotated[bool, typer.Option(
        "--strict/--lenient",
        help="Strict: unknown counts as failed. Lenient: unknown left out.")], True),
    _p("case_timeout", Annotated[float, typer.Option(
        callback=positive, help="Seconds per case.")], 10.0),
    _p("spec_timeout", Annotated[float, typer.Option(
        callback=positive, help="Seconds per spec and engine.")], 600.0),
    _p("timeout_streak", Annotated[int, typer.Option(
        callback=at_least(0),
        help="Give up a predicate after this many failed cases in a row (timeouts, out of "
             "memory...: its other cases unknown); 0: never.")], 3),
    _p("memory_mb", Annotated[int, typer.Option(
        "--memory-mb", callback=at_least(16),
        help="Memory per spec evaluation (MiB): engines' processes, JVM heaps (half), "
             "interp's growth per case; past it: unknown, out of memory.")], 2048),
]
"""``--backend``, ``--engine``, ``--cross-check``, ``--strict/--lenient`` and the limits: every
field of ``ScoreOptions``."""

CACHE_OPTIONS = [
    _p("no_cache", Annotated[bool, typer.Option(
        "--no-cache", help="Do not read or write the verdict cache.")], False),
    _p("cache", Annotated[Path | None, typer.Option(help="Verdict cache file.")], None),
]


def build_score_options(backend: str | None, engine: list[str] | None, cross_check: bool,
                        strict: bool, case_timeout: float, spec_timeout: float,
                        timeout_streak: int, memory_mb: int) -> ScoreOptions:
    from adequacy.extensions.backend import Limits
    from adequacy.scoring.options import ScoreOptions

    return ScoreOptions(backend=backend, engines=list(engine or []), cross_check=cross_check,
                        strict=strict,
                        limits=Limits(case_seconds=case_timeout, spec_seconds=spec_timeout,
                                      timeout_streak=timeout_streak, memory_mb=memory_mb))


def option_group(params: list[inspect.Parameter], target: str,
                 build: Callable[..., Any]) -> Callable[[F], F]:
    """Replace the command's parameter ``target`` by ``params`` (same place in ``--help``);
    the command is called with ``target=build(**those values)``.

    typer reads a command's parameters from its signature and their types from its
    annotations, so the wrapper carries both; annotations of the command's own parameters are
    evaluated here, since ``from __future__ import annotations`` leaves them strings."""
    names = [p.name for p in params]

    def decorate(func: F) -> F:
        sig = inspect.signature(func)
        if target not in sig.parameters:
            raise TypeError(f"{func.__name__} has no parameter {target!r} to fill")
        glob = getattr(func, "__globals__", {})
        own: list[inspect.Parameter] = []
        for p in sig.parameters.values():
            if p.name == target:
                own += params
                continue
            ann = p.annotation
            if isinstance(ann, str):
                # another group's parameter may name a type imported only for type checking:
                # it stays a string until that group replaces it
                with contextlib.suppress(NameError):
                    ann = eval(ann, glob)  # noqa: S307 - our own source's annotations
            own.append(p.replace(annotation=ann, kind=_KW))

        @functools.wraps(func)
        def wrapper(**kwargs: Any) -> Any:
            group = {n: kwargs.pop(n) for n in names}
            return func(**kwargs, **{target: build(**group)})

        wrapper.__signature__ = sig.replace(parameters=own)  # type: ignore[attr-defined]
        wrapper.__annotations__ = {p.name: p.annotation for p in own}
        del wrapper.__wrapped__  # typer must read the new signature, not the old one
        return wrapper  # type: ignore[return-value]

    return decorate


score_option_group = option_group(SCORE_OPTIONS, "options", build_score_options)
"""The ``ScoreOptions`` of ``score`` and ``run``."""

cache_option_group = option_group(CACHE_OPTIONS, "cache_path",
                                  lambda no_cache, cache: default_cache(no_cache, cache))
"""``--no-cache`` and ``--cache``: the command gets the cache file's path, or None."""
