"""Command-line options generated from an options model.

A field of ``ScoreOptions`` (and of its ``Limits``) is declared once, in the model: its name,
default, help (the field's docstring, read from the model's source when help is printed:
pydantic's ``use_attribute_docstrings`` parses the module at class creation, ~3 ms a model on
every run), constraints and, where the command line spells it
otherwise, its flag (``json_schema_extra={"cli": "--case-timeout"}``; ``"env"`` names another
environment variable, or none). This module turns the
fields into typer options and the parsed values back into the model, which validates them, so a
new field reaches every command that takes the group with no edit here and no default is
written twice. Every option also reads an environment variable (``ADEQUACY_`` and the field's
name in capitals; the flag wins).

A command takes a group through its command class (``app.command(cls=with_groups(...))``): the
options are added to the click command when click first asks for its parameters (so building
the app for ``--help`` of another command imports no model), and the built value is handed to
the command in ``ctx.meta`` before it runs (``group_value(ctx, group)``). No command's
signature is rebuilt.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any

import typer
import typer.main
from typer.core import TyperCommand, TyperOption

from adequacy.cli.checks import at_least, positive

ENV_PREFIX = "ADEQUACY_"


@dataclass(frozen=True)
class Flag:
    """One field as an option: where its value goes (``path`` through nested models)."""

    path: tuple[str, ...]
    param: str
    """The click parameter's name (unique in the command)."""
    owner: type[Any]
    """The model that declares the field (its docstring is the option's help)."""


@dataclass(frozen=True)
class Group:
    """A set of options a command takes, built into one value when the command runs."""

    name: str
    """Key of the built value in ``ctx.meta``."""
    params: Callable[[], tuple[list[inspect.Parameter], list[Flag]]]
    build: Callable[[dict[str, Any]], Any]
    """The parsed values by parameter name -> the command's value (validated)."""
    defaults: Mapping[str, Any] = field(default_factory=dict)


def _help(text: str | None) -> str:
    """A field's docstring as help: its first paragraph, without reStructuredText quotes (the
    rest of the docstring is for readers of the code)."""
    return " ".join((text or "").strip().split("\n\n")[0].split()).replace("``", "")


def field_docs(model: type[Any]) -> dict[str, str]:
    """The docstrings written under a model's fields (a string literal right after the
    annotated assignment), the model's own over its bases'."""
    import ast
    import textwrap

    from pydantic import BaseModel

    docs: dict[str, str] = {}
    for cls in reversed(model.__mro__):
        if not issubclass(cls, BaseModel) or cls is BaseModel:
            continue
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
        except (OSError, TypeError, SyntaxError):
            continue
        body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
        for stmt, after in zip(body, body[1:], strict=False):
            if (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
                    and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                    and isinstance(after.value.value, str)):
                docs[stmt.target.id] = inspect.cleandoc(after.value.value)
    return docs


def _constraint(meta: Sequence[Any]) -> Callable[..., Any] | None:
    """The one-line range check for a field's ``gt``/``ge`` constraint."""
    for m in meta:
        gt, ge = getattr(m, "gt", None), getattr(m, "ge", None)
        if gt is not None and gt == 0:
            return positive
        if ge is not None:
            return at_least(ge)
    return None


def _option_type(annotation: Any) -> Any:
    """The typer type of a field: plain scalars, ``X | None``, and lists of scalars."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return _option_type(args[0]) | None
    if origin is list:
        return list[typing.get_args(annotation)[0]] | None  # type: ignore[misc]
    return annotation


def model_params(model: type[Any], only: Sequence[str] | None = None,
                 defaults: Mapping[str, Any] | None = None, prefix: tuple[str, ...] = ()
                 ) -> tuple[list[inspect.Parameter], list[Flag]]:
    """Typer parameters for the fields of a pydantic ``model`` (nested models flattened);
    ``only``: field names to keep (nested ones by their own name); ``defaults``: a command's
    own defaults, by field name, where it differs from the model's on purpose."""
    from pydantic import BaseModel

    out: list[inspect.Parameter] = []
    flags: list[Flag] = []
    for name, info in model.model_fields.items():
        ann = info.annotation
        if isinstance(ann, type) and issubclass(ann, BaseModel):
            p, f = model_params(ann, only, defaults, (*prefix, name))
            out += p
            flags += f
            continue
        if only is not None and name not in only:
            continue
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        decls = [str(d) for d in (extra.get("cli") or f"--{name.replace('_', '-')}").split()]
        default = (defaults or {}).get(name, info.get_default(call_default_factory=True))
        env = extra.get("env", ENV_PREFIX + name.upper())
        option = typer.Option(*decls, help=_help(info.description) if info.description else None,
                              envvar=str(env) if env else None, show_envvar=bool(env),
                              callback=_constraint(info.metadata),
                              metavar=extra.get("metavar"))
        if isinstance(default, list):
            default = None  # an empty list: the option not given
        param = name if not prefix else name
        out.append(inspect.Parameter(param, inspect.Parameter.KEYWORD_ONLY,
                                     annotation=Annotated[_option_type(ann), option],
                                     default=default))
        flags.append(Flag(path=(*prefix, name), param=param, owner=model))
    return out, flags


def model_group(name: str, model: Callable[[], type[Any]], only: Sequence[str] | None = None,
                defaults: Mapping[str, Any] | None = None,
                finish: Callable[[Any], Any] | None = None) -> Group:
    """A group whose value is the model (``model()``: imported when first needed) validated
    from the options; ``finish`` maps the validated model to the command's value."""
    cache: dict[str, tuple[list[inspect.Parameter], list[Flag]]] = {}

    def params() -> tuple[list[inspect.Parameter], list[Flag]]:
        if "p" not in cache:
            cache["p"] = model_params(model(), only, defaults)
        return cache["p"]

    def build(values: dict[str, Any]) -> Any:
        data: dict[str, Any] = {}
        for flag in params()[1]:
            v = values.get(flag.param)
            if v is None:
                continue
            node = data
            for part in flag.path[:-1]:
                node = node.setdefault(part, {})
            node[flag.path[-1]] = list(v) if isinstance(v, tuple) else v
        built = model().model_validate(data)
        return finish(built) if finish else built

    return Group(name=name, params=params, build=build)


def _click_params(group: Group) -> list[Any]:
    """The group's options as click parameters, made by typer from a signature built here."""
    params, _ = group.params()

    def options(**kwargs: Any) -> None:  # pragma: no cover - never called
        return None

    options.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    options.__annotations__ = {p.name: p.annotation for p in params}
    app = typer.Typer(add_completion=False)
    app.command()(options)
    return list(typer.main.get_command(app).params)


def with_groups(*groups: Group) -> type[TyperCommand]:
    """A command class that adds ``groups``' options and builds their values before the
    command runs."""

    class Command(TyperCommand):
        _added = False

        def get_params(self, ctx: Any) -> list[Any]:
            if not self._added:
                self._added = True
                for g in groups:
                    self.params.extend(_click_params(g))
            return list(super().get_params(ctx))

        def format_help(self, ctx: Any, formatter: Any) -> None:
            self.get_params(ctx)
            flags = {f.param: f for g in groups for f in g.params()[1]}
            docs: dict[type[Any], dict[str, str]] = {}
            for p in self.params:
                f = flags.get(p.name)
                if f is not None and isinstance(p, TyperOption) and not p.help:
                    if f.owner not in docs:
                        docs[f.owner] = field_docs(f.owner)
                    p.help = _help(docs[f.owner].get(f.path[-1]))
            super().format_help(ctx, formatter)

        def invoke(self, ctx: Any) -> Any:
            for g in groups:
                names = [p.name for p in g.params()[0]]
                values = {n: ctx.params.pop(n) for n in names if n in ctx.params}
                ctx.meta[g.name] = _build(g, values)
            return super().invoke(ctx)

    return Command


def _build(group: Group, values: dict[str, Any]) -> Any:
    """The group's value; a value the model refuses is one ``error:`` line, exit 2."""
    from pydantic import ValidationError

    from adequacy.cli.common import fail
    from adequacy.errors import AdequacyError, validation_message

    try:
        return group.build(values)
    except ValidationError as e:
        raise fail(validation_message(e)) from None
    except AdequacyError as e:
        raise fail(str(e)) from None


def group_value(ctx: typer.Context, group: Group) -> Any:
    """What ``group`` built for this run of the command."""
    return ctx.meta[group.name]
