"""``adequacy backends``, ``plugins``, ``setup`` and ``cache clear``: what is installed, built,
cached."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from adequacy.cli.common import default_cache, err, fail, out
from adequacy.console.tables import FORMAT_HELP, OutputFormat, key_columns, resolve, show
from adequacy.errors import AdequacyError

cache_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                        context_settings={"help_option_names": ["-h", "--help"]},
                        help="The verdict cache.")


def backends(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON (--format json).")] = False,
    fmt: Annotated[OutputFormat, typer.Option("--format", metavar="FORMAT", help=FORMAT_HELP)
                   ] = OutputFormat.auto,
) -> None:
    """List installed backends and their engines, with why an engine is unavailable."""
    from rich.table import Table

    from adequacy.extensions import registry
    try:
        found = registry.registry().backends
    except AdequacyError as e:
        raise fail(str(e)) from None
    from adequacy.extensions.backend import verifiers_of
    rows = []
    for b in found.values():
        for kind, things in (("engine", b.engines()), ("verifier", verifiers_of(b))):
            for thing in things:
                info = thing.info()
                rows.append({"backend": b.name, "language": b.language, "engine": info.name,
                             "kind": kind, "available": info.available,
                             "default": info.default, "version": info.version,
                             "reason": info.reason, "decides": info.decides})
    broken = [{"plugin": p.name, "target": p.target, "error": p.error} for p in registry.BROKEN]
    from adequacy import sandbox
    fmt = resolve(fmt, as_json)
    if fmt is OutputFormat.json:
        print(json.dumps({"engines": rows, "broken_plugins": broken, "sandbox": [
            vars(p) for p in sandbox.protections()]}, indent=2))
        return
    t = Table(title="backends and engines", title_justify="left")
    for c in ("backend", "language", "engine", "kind", "available", "default", "version"):
        t.add_column(c)
    for r in rows:
        t.add_row(str(r["backend"]), str(r["language"]), str(r["engine"]), str(r["kind"]),
                  "[green]yes[/]" if r["available"] else "[red]no[/]",
                  "yes" if r["default"] else "", str(r["version"]))
    show(out, key_columns(t, 4), fmt)
    for r in rows:
        if r["reason"]:
            out.print(f"[bold]{r['backend']}/{r['engine']}[/]: {r['reason']}", highlight=False)
    for p in broken:
        err.print(f"[yellow]plugin {p['plugin']} ({p['target']}) failed to load:[/] {p['error']}")
    for line in sandbox.report_lines():
        out.print(line, highlight=False)


def plugins(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON (--format json).")] = False,
    fmt: Annotated[OutputFormat, typer.Option("--format", metavar="FORMAT", help=FORMAT_HELP)
                   ] = OutputFormat.auto,
) -> None:
    """List every registered extension (backends, importers, writers, metrics, objectives,
    mutation operators, judges) with the plugin and distribution that provide it."""
    from rich.table import Table

    from adequacy.extensions.registry import BROKEN, registry
    try:
        reg = registry()
        kinds: list[tuple[str, dict[str, object]]] = [
            ("backend", dict(reg.backends)), ("importer", dict(reg.importers)),
            ("writer", dict(reg.writers)), ("metric", dict(reg.metrics)),
            ("objective", dict(reg.objectives)), ("mutation operator", dict(reg.operators)),
            ("judge", dict(reg.judges))]
    except AdequacyError as e:
        raise fail(str(e)) from None
    rows = []
    for what, found in kinds:
        for name, item in found.items():
            c = reg.component(what, name)
            rows.append({"kind": what, "name": name, "plugin": reg.provider(what, name),
                         "distribution": c.distribution, "version": c.version,
                         "description": _description(item)})
    fmt = resolve(fmt, as_json)
    if fmt is OutputFormat.json:
        print(json.dumps({"extensions": rows, "plugins": [p.model_dump() for p in
                                                          reg.plugins()],
                          "broken_plugins": [vars(p) for p in BROKEN]}, indent=2))
        return
    t = Table(title="registered extensions", title_justify="left")
    for col in ("kind", "name", "plugin", "distribution"):
        t.add_column(col)
    t.add_column("description", overflow="fold")
    for r in rows:
        dist = f"{r['distribution']} {r['version']}" if r["distribution"] else "-"
        t.add_row(str(r["kind"]), str(r["name"]), str(r["plugin"]), dist, str(r["description"]))
    show(out, key_columns(t, 2), fmt)
    for p in BROKEN:
        err.print(f"[yellow]plugin {p.name} ({p.target}) failed to load:[/] {p.error}")


def _description(item: object) -> str:
    """An extension's one-line description (a backend's: its language)."""
    text = getattr(item, "description", None)
    if isinstance(text, str) and text:
        return text.splitlines()[0]
    language = getattr(item, "language", None)
    return f"language {language}" if isinstance(language, str) else ""


def setup(
    only: Annotated[list[str] | None, typer.Option("--backend", help="Only these backends.")]
    = None,
) -> None:
    """Build what the engines need ahead of time (vstd via cargo, Java workers via javac/Maven)."""
    from adequacy.console import progress
    from adequacy.extensions import registry

    failed = 0
    for b in registry.registry().backends.values():
        if only and b.name not in only:
            continue
        err.print(f"preparing {b.name} ...", highlight=False)
        try:
            with progress.terminal(), progress.phase(f"preparing {b.name}"):
                summary = b.prepare()
            out.print(f"{b.name}: {summary or 'nothing to prepare'}", highlight=False)
        except AdequacyError as e:
            failed += 1
            err.print(Text(f"{b.name}: {e}", style="bold red"), soft_wrap=True, highlight=False)
    from adequacy.sandbox.run import describe
    out.print(describe(), highlight=False)
    if failed:
        raise typer.Exit(2)


def cache_clear(cache: Annotated[Path | None, typer.Option(help="Verdict cache file.")] = None
                ) -> None:
    """Forget every cached verdict (removes the file and creates it anew, even a broken one)."""
    from adequacy.scoring.cache import clear_cache
    path = default_cache(False, cache)
    assert path is not None
    if Path(path).is_dir():
        raise fail(f"{path}: is a folder, expected the cache file")
    try:
        clear_cache(path)
    except OSError as e:
        raise fail(f"{path}: cannot recreate the cache ({e.strerror or e})") from None
    out.print(f"cleared {path}", highlight=False, soft_wrap=True)


def examples(
    dest: Annotated[Path, typer.Argument(help="Folder to copy the examples into (made if "
                                         "missing).")],
    force: Annotated[bool, typer.Option("--force", help="Replace folders in DEST that differ "
                                        "from the bundled ones (your edits there are lost).")
                     ] = False,
) -> None:
    """Copy the bundled examples out: each language's tasks with gold and flawed specs, gold
    specs of imported datasets, problem packages and studies (DEST/verus, DEST/jml, ...)."""
    from adequacy.examples import copy_examples

    try:
        done = copy_examples(dest, force=force)
    except AdequacyError as e:
        raise fail(str(e)) from None
    for f, target, what in done:
        out.print(f"{target}  {f.what} ({what})", highlight=False, soft_wrap=True)


def register(app: typer.Typer) -> None:
    app.command()(backends)
    app.command()(plugins)
    app.command()(examples)
    app.command()(setup)
    cache_app.command("clear")(cache_clear)
