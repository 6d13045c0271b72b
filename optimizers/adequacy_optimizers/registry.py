"""Writers by name, as ``adequacy synthesize --writer`` and studies spell them: the registry's
(``adequacy_writers``: the built-in ones and any plugin's), made with their options and named in
provenance with the options that shaped their specs."""

from __future__ import annotations

import hashlib

from adequacy.errors import AdequacyError
from adequacy.extensions.component import ParamValue
from adequacy.extensions.registry import registry
from adequacy.extensions.writers import Writer, WriterKind, WriterOptions
from adequacy.scoring.spec_report import Provenance


def writer_kind(name: str) -> WriterKind:
    found = registry().writers
    if name not in found:
        raise AdequacyError(f"--writer {name!r}: expected one of {', '.join(found)}")
    return found[name]


def make_writer(name: str, options: WriterOptions) -> Writer:
    """The writer ``name`` made with ``options`` (one that needs a model, only with one)."""
    kind = writer_kind(name)
    if kind.needs_model and options.lm is None:
        raise AdequacyError(f"--writer {name} needs --lm MODEL (a litellm model string)")
    return kind.make(options)


def program_sha(options: WriterOptions) -> str | None:
    """The SHA-256 of the program file, as ``sha256sum`` prints it."""
    return hashlib.sha256(options.program.read_bytes()).hexdigest() if options.program else None


def writer_provenance(name: str, options: WriterOptions, samples: int) -> Provenance:
    """Who writes the specs, for the jobs file: the flat fields reports group by (the family
    for writers whose parameters include it, the program's hash), and ``made_by``: the
    writer's registered parameters, the samples asked for and its distribution's version."""
    kind = writer_kind(name)
    sha = program_sha(options)
    params: dict[str, ParamValue] = {}
    for p in kind.params:
        params[p] = sha if p == "program" else getattr(options, p)
    params["samples"] = samples
    return Provenance(writer=name, family=options.family if "family" in kind.params else None,
                      program=sha, made_by=registry().component("writer", name, params))
