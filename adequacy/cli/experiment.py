"""``adequacy experiment run STUDY.toml``: a study's writers and scoring from one file.

Thin over ``adequacy_optimizers.experiment``; registered on the main app by ``register``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from adequacy.cli.checks import at_least
from adequacy.cli.common import err, fail, out

experiment_app = typer.Typer(no_args_is_help=True, help="Studies kept in a file: tasks, spec "
                             "sources, engines, limits, outputs.")


@experiment_app.command("run")
def experiment_run(
    study: Annotated[Path, typer.Argument(help="The study file (TOML; see docs/experiments.md)."
                                          )],
    workers: Annotated[int | None, typer.Option(callback=at_least(1),
        help="Processes (default: the study's, else cores).")] = None,
    progress: Annotated[bool, typer.Option("--progress/--no-progress",
                        help="A progress bar on stderr.")] = True,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Score without the verdict "
                                           "cache, whatever the study says.")] = False,
) -> None:
    """Write the specs of every writer source (once), score every (task, spec) pair the
    results file lacks, and record the study file's SHA-256 in every record. Rerunning scores
    only what is new. Exit 2 on a bad study file or when some pair ended as an error."""
    from adequacy.cli.common import default_cache, open_cache
    from adequacy.console.progress import terminal as shown
    from adequacy.errors import AdequacyError, BatchInterrupted, ResultsError, ResultsLocked
    from adequacy_optimizers.experiment import load_study, run_study
    from adequacy_optimizers.lm_errors import LmUnavailable
    try:
        loaded = load_study(study)
        setting = loaded.study.cache
        if no_cache or setting is False:
            cache_path = None
        else:
            cache_path = default_cache(False, loaded.resolve(setting)
                                       if isinstance(setting, str) else None)
        _, cache_path = open_cache(cache_path)
        with shown(progress):
            summary = run_study(loaded, workers=workers, progress=progress,
                                cache_path=cache_path, say=_say)
    except LmUnavailable as e:
        raise fail(f"{e}; nothing was scored as the model's answer") from None
    except BatchInterrupted as e:
        raise fail(str(e), 130) from None
    except (ResultsLocked, ResultsError) as e:
        raise fail(str(e)) from None
    except AdequacyError as e:
        raise fail(str(e)) from None
    except OSError as e:
        raise fail(f"{e.filename or study}: {e.strerror or e}") from None
    width = max([len(s.name) for s in summary.sources] + [6])
    out.print(f"study {summary.name} (sha256 {summary.sha256[:12]}), {summary.tasks} tasks",
              highlight=False, soft_wrap=True)
    out.print(f"{'source':<{width}}  specs  scored  passed all  written", highlight=False)
    for s in summary.sources:
        out.print(f"{s.name:<{width}}  {s.specs:>5}  {s.scored:>6}  {s.passed_all:>10}  "
                  f"{'-' if s.writer is None else 'now' if s.written_now else 'reused'}",
                  highlight=False)
    out.print(summary.batch.footer(summary.results), highlight=False, soft_wrap=True)
    raise typer.Exit(2 if summary.batch.errors else 0)


def _say(m: str) -> None:
    from adequacy.console import progress

    if not progress.say(m):
        err.print(m, highlight=False, markup=False, soft_wrap=True)


def register(app: typer.Typer) -> None:
    app.add_typer(experiment_app, name="experiment")
