"""``adequacy import harbor-job`` and ``adequacy import hf``: the importers that are not dataset
converters (``adequacy import NAME SRC DEST`` dispatches here for these two names).

``harbor-job JOB_DIR -o results.jsonl`` reads runs into our results log; ``hf DIR_OR_NAME DEST``
writes task folders back from a dataset ``adequacy export hf`` wrote.
"""

from __future__ import annotations

from pathlib import Path

from adequacy.cli.common import fail, out, say_error

NAMES = ("harbor-job", "hf")


def run(name: str, paths: list[Path], output: Path | None, language: str | None) -> None:
    if name == "harbor-job":
        _harbor_job(paths, output, language or "")
    else:
        if language is not None:
            raise fail("--language is for `import harbor-job`")
        _hf(paths, output)


def _harbor_job(paths: list[Path], output: Path | None, language: str) -> None:
    from adequacy.ecosystem.harbor_jobs import import_job
    from adequacy.errors import AdequacyError

    if len(paths) != 1:
        raise fail("give one JOB_DIR (import harbor-job JOB_DIR -o results.jsonl)")
    results = output or Path("results.jsonl")
    if results.exists() and not results.is_file():
        raise fail(f"{results}: is not a file")
    try:
        done = import_job(paths[0], results, language)
    except AdequacyError as e:
        raise fail(str(e)) from None
    except OSError as e:
        raise fail(f"{e.filename or paths[0]}: {e.strerror or e}") from None
    for t in done.trials:
        if t.status in ("error", "unreadable"):
            say_error(f"{t.trial}: {t.reason}", prefix=f"{t.status}: ")
    out.print(done.summary(), highlight=False, soft_wrap=True)
    if done.unreadable:
        raise fail(f"{len(done.unreadable)} trial(s) could not be read (listed above)")


def _hf(paths: list[Path], output: Path | None) -> None:
    from adequacy.ecosystem.hf_dataset import import_hf
    from adequacy.errors import AdequacyError

    if output is not None:
        raise fail("import hf takes DIR_OR_NAME DEST, not -o")
    if len(paths) != 2:
        raise fail("give the dataset (a folder or a Hub name) and DEST (import hf DIR_OR_NAME "
                   "DEST)")
    src, dest = paths
    if dest.exists() and not dest.is_dir():
        raise fail(f"{dest}: is a file, expected a folder to write task folders into")
    try:
        report = import_hf(str(src), dest)
    except AdequacyError as e:
        raise fail(str(e)) from None
    out.print(report.summary(), highlight=False, markup=False)
    if report.failed:
        raise fail(f"{len(report.failed)} task(s) not written: {report.first_reason()}")
