"""Every hook a plugin can implement, in one module, documented like pytest's hookspecs.

Plugins are modules or objects exposing functions marked with ``adequacy.hookimpl`` and are
found through the entry-point group ``adequacy.backends``. Every built-in extension registers
exactly that way (see ``pyproject.toml``): the languages, core's metrics, judges and package
importer, the mutators' operators, the optimizers' writers and objectives. So a third-party
plugin is a peer, not a special case: whatever a built-in can add, it can.

Each hook is called once per plugin manager with no arguments and returns a list; the registry
(``adequacy.extensions.registry``) concatenates the lists in registration order, checks each
item's type, and refuses two items of one kind with one name, naming both plugins.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from adequacy.extensions.backend import Backend
    from adequacy.extensions.importer import Importer
    from adequacy.extensions.judges import JudgeKind
    from adequacy.extensions.objectives import Objective
    from adequacy.extensions.operators import MutationOperator
    from adequacy.extensions.writers import WriterKind
    from adequacy.model.metrics import Metric

PROJECT = "adequacy"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def adequacy_backends() -> list[Backend]:
    """Return the backend objects this plugin provides (usually one).

    Each backend must be an ``adequacy.plugin.Backend`` (a subclass); two backends with the
    same ``name`` are an error that names both plugins.
    """
    raise NotImplementedError


@hookspec
def adequacy_importers() -> list[Importer]:
    """Return the dataset importers this plugin provides (``adequacy.plugin.Importer``).

    ``adequacy import NAME SRC DEST`` runs the importer named NAME, which writes task folders
    under ``dest`` and returns an ``adequacy.plugin.ImportReport``. Names must be unique.
    """
    raise NotImplementedError


@hookspec
def adequacy_writers() -> list[WriterKind]:
    """Return the spec writers this plugin offers (``adequacy.plugin.WriterKind``).

    ``adequacy synthesize --writer NAME`` and a study's writer sources make one through its
    ``make`` factory with the ``WriterOptions`` given (a writer whose ``needs_model`` is set is
    made only with a language model); every spec it writes is recorded with the writer's name,
    the options in its ``params`` and the plugin's distribution and version. Names must be
    unique.
    """
    raise NotImplementedError


@hookspec
def adequacy_metrics() -> list[Metric]:
    """Return the metrics this plugin adds (``adequacy.plugin.Metric``).

    A metric has a name, the bucket it is the pass fraction of (or a ``compute`` over the
    buckets' counts), a direction, a description and its names in Spec-Harness's and
    Verus-SpecGym's vocabularies. ``score`` and ``run`` print every registered metric; the four
    built-in ones (core's scoring room registers them) are the bucket pass fractions stored in
    every report. Names must be unique.
    """
    raise NotImplementedError


@hookspec
def adequacy_objectives() -> list[Objective]:
    """Return the optimizer objectives this plugin offers (``adequacy.plugin.Objective``).

    ``adequacy optimize --metric NAME`` climbs the objective named NAME; one that needs a
    prover is refused up front for a language whose backend has none. Names must be unique.
    """
    raise NotImplementedError


@hookspec
def adequacy_mutation_operators() -> list[MutationOperator]:
    """Return output mutation operators (``adequacy.plugin.MutationOperator``).

    Each operator names the type constructor it mutates values of (``int``, ``seq``,
    ``string``...); ``adequacy mutate`` and the generators try a type's operators in
    registration order, shuffled by the seed. A backend may add operators that only make sense
    for its language's values. Operator names must be unique: they name the mutants.
    """
    raise NotImplementedError


@hookspec
def adequacy_judges() -> list[JudgeKind]:
    """Return the judges this plugin offers (``adequacy.plugin.JudgeKind``).

    ``adequacy explore SPEC --oracle NAME`` builds the judge named NAME for the task and
    searches for inputs and outputs on which the spec and the judge disagree. A judge declares
    what it can do besides judging (``capabilities``). Names must be unique.
    """
    raise NotImplementedError
