"""``adequacy export harbor|hf``: task folders for other ecosystems (``adequacy.ecosystem``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from adequacy.cli.checks import at_least, positive
from adequacy.cli.common import err, fail, out

export_app = typer.Typer(no_args_is_help=True,
                         help="Write tasks in another ecosystem's format (Harbor, Hugging Face).")


def _split(paths: list[Path]) -> tuple[list[Path], Path]:
    if len(paths) < 2:
        raise fail("give TASKS... and OUT (the folder to write)")
    return paths[:-1], paths[-1]


@export_app.command("harbor")
def export_harbor_cmd(
    paths: Annotated[list[Path], typer.Argument(
        help="TASKS... OUT: task folders or folders of tasks, then the folder to write (one "
             "Harbor task folder per task, plus dataset.toml and metric.py).",
        metavar="TASKS... OUT")],
    org: Annotated[str, typer.Option(help="The org of each task's Harbor name "
                                     "(ORG/<task id>).")] = "spec-adequacy",
    visible: Annotated[int, typer.Option(callback=at_least(0), help="Visible cases in the "
                                         "agent's folder (completeness buckets).")] = 3,
    seed: Annotated[int, typer.Option(help="Seed of the visible cases' draw.")] = 0,
    base_image: Annotated[str, typer.Option(help="The image the environment builds FROM; pin "
                                            "it by digest (IMAGE@sha256:...) for builds that "
                                            "do not drift.")] = "python:3.12-slim",
    wheel: Annotated[Path | None, typer.Option(help="A spec-adequacy wheel to install in the "
                                               "images (default: build one from this "
                                               "checkout).")] = None,
    agent_timeout: Annotated[float, typer.Option(callback=positive, help="Seconds the agent "
                                                 "gets.")] = 1800.0,
    verifier_timeout: Annotated[float, typer.Option(callback=positive, help="Seconds the "
                                                    "grader gets.")] = 900.0,
    cpus: Annotated[int, typer.Option(callback=at_least(1), help="CPUs per container.")] = 2,
    memory_mb: Annotated[int, typer.Option("--memory-mb", callback=at_least(512),
                                           help="Memory per container.")] = 4096,
    force: Annotated[bool, typer.Option(help="Replace task folders this command wrote "
                                        "before.")] = False,
) -> None:
    """Harbor task folders: run any agent on our tasks with `harbor run -p OUT -a AGENT`."""
    from pydantic import ValidationError

    from adequacy.ecosystem.harbor_export import HarborOptions, export_harbor
    from adequacy.errors import AdequacyError, validation_message

    tasks, dest = _split(paths)
    try:
        opts = HarborOptions(org=org, visible=visible, seed=seed, base_image=base_image,
                             wheel=wheel, agent_timeout=agent_timeout,
                             verifier_timeout=verifier_timeout, cpus=cpus,
                             memory_mb=memory_mb, force=force)
    except ValidationError as e:
        raise fail(validation_message(e)) from None
    def progress(msg: str) -> None:
        if msg.startswith("building") or err.is_terminal:
            err.print(msg, highlight=False, end="\n" if msg.startswith("building") else "\r")

    try:
        done = export_harbor(tasks, dest, opts, progress)
    except AdequacyError as e:
        raise fail(str(e)) from None
    except OSError as e:
        raise fail(f"{e.filename or dest}: {e.strerror or e}") from None
    for t in done.tasks:
        out.print(f"{t.name}: {t.folder} ({t.visible} visible cases"
                  f"{'' if t.has_solution else ', no gold spec: no solution/'})",
                  highlight=False, soft_wrap=True)
    out.print(f"wrote {len(done.tasks)} Harbor tasks and {dest / 'dataset.toml'} (wheel "
              f"{done.wheel}); run them with `harbor run -p {dest} -a oracle` or "
              "`-a claude-code -m MODEL` (docs/ecosystem.md)", highlight=False, soft_wrap=True)


@export_app.command("hf")
def export_hf_cmd(
    paths: Annotated[list[Path], typer.Argument(
        help="TASKS... OUT: task folders or folders of tasks, then the dataset folder to "
             "write (README.md and data/*.parquet; `datasets.load_dataset(OUT)` reads it).",
        metavar="TASKS... OUT")],
    license_id: Annotated[str, typer.Option("--license", help="The licence of the export, "
                                            "for the dataset card (an SPDX id such as mit, "
                                            "apache-2.0, gpl-3.0, or other).")] = "other",
    name: Annotated[str | None, typer.Option(help="The dataset's pretty name (default: OUT's "
                                             "name).")] = None,
    force: Annotated[bool, typer.Option(help="Replace a dataset folder this command wrote "
                                        "before.")] = False,
) -> None:
    """A Hugging Face dataset folder: one row per task (push it with `huggingface-cli
    upload`)."""
    from adequacy.ecosystem.hf_dataset import export_hf
    from adequacy.errors import AdequacyError

    tasks, dest = _split(paths)
    try:
        ids = export_hf(tasks, dest, license_id=license_id, name=name, force=force)
    except AdequacyError as e:
        raise fail(str(e)) from None
    except OSError as e:
        raise fail(f"{e.filename or dest}: {e.strerror or e}") from None
    out.print(f"wrote {len(ids)} tasks to {dest} (README.md, data/); read it with "
              f"datasets.load_dataset({str(dest)!r})", highlight=False, soft_wrap=True)


def register(app: typer.Typer) -> None:
    app.add_typer(export_app, name="export")
