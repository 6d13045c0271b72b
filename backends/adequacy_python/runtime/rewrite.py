"""The forms people write, normalised to one precondition and one postcondition (stdlib only).

Accepted forms, each read from Python's own ``ast``:

- plain functions ``def pre(x, y) -> bool`` and ``def post(x, y, result) -> bool`` (a body that
  asserts instead of returning a value is the assert form: it accepts when no assertion fails);
- the assert block of nl2postcond and its successors: ``assert`` statements at the top level
  over the parameters and ``return_value`` (or ``result``), a postcondition;
- icontract (``@icontract.require(lambda x: ...)``, ``@icontract.ensure(lambda result, x: ...)``)
  and deal (``@deal.pre``, ``@deal.post``, ``@deal.ensure``) decorators on the task's function,
  each condition a lambda or a function of the spec, passed its arguments as those libraries
  pass them (icontract by name, deal by position).

The result is a module (contract imports, decorators, annotations and the assert block taken
out; the conditions hoisted into functions with their own lines) and, per predicate, the parts
whose conjunction it is. Every ``except`` handler is given a first statement that re-raises the
evaluator's limits (out of memory, recursion), so that a spec cannot turn a limit into a
verdict. The same code runs in the front end and in the worker, so both read one meaning.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

try:  # in the package (the front end), and as a plain module in the worker
    from .policy import ANNOTATION_MODULES, CONTRACT_MODULES, Report, contract_of, read_imports
except ImportError:
    from policy import (  # type: ignore[no-redef]
        ANNOTATION_MODULES,
        CONTRACT_MODULES,
        Report,
        contract_of,
        read_imports,
    )

GUARD = "_adq_guard"
RESULT_ALIASES = ("result", "return_value")


def case_names(inputs: list[str], outputs: list[str]) -> frozenset[str]:
    """The names a spec's assert block reads: the inputs, outputs and the result's aliases."""
    return frozenset([*inputs, *outputs, *(RESULT_ALIASES if len(outputs) == 1 else ())])


class FormError(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


@dataclass
class Part:
    """One conjunct: call global ``fn`` with these arguments (keys of the case's values)."""

    fn: str
    pos: list[str] = field(default_factory=list)
    kw: dict[str, str] = field(default_factory=dict)
    asserts: bool = False
    """An assert-form body: returning None means every assertion held."""
    line: int = 0
    what: str = ""

    def as_json(self) -> dict[str, Any]:
        return {"fn": self.fn, "pos": self.pos, "kw": self.kw, "asserts": self.asserts,
                "line": self.line, "what": self.what}


@dataclass
class Normalized:
    module: ast.Module
    pre: list[Part]
    post: list[Part]
    forms: list[str]
    """Which forms the spec used (``functions``, ``assert block``, ``icontract``, ``deal``)."""


def _params(args: ast.arguments, line: int, what: str) -> list[str]:
    if args.vararg or args.kwarg:
        raise FormError(line, f"{what}: *args and **kwargs are not part of a contract; name "
                              "the arguments")
    return [a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]]


def _has_assert(fn: ast.FunctionDef | ast.Lambda) -> bool:
    if isinstance(fn, ast.Lambda):
        return False
    todo: list[ast.AST] = list(fn.body)
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Assert):
            return True
        if isinstance(n, (ast.FunctionDef, ast.Lambda, ast.AsyncFunctionDef)):
            continue
        todo.extend(ast.iter_child_nodes(n))
    return False


def _returns_value(fn: ast.FunctionDef) -> bool:
    todo: list[ast.AST] = list(fn.body)
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Return) and n.value is not None:
            return True
        if isinstance(n, (ast.FunctionDef, ast.Lambda, ast.AsyncFunctionDef)):
            continue
        todo.extend(ast.iter_child_nodes(n))
    return False


def normalize(tree: ast.Module, inputs: list[str], outputs: list[str]) -> Normalized:
    """Read ``tree`` (checked by ``policy.check``) as a precondition and a postcondition over
    ``inputs`` and ``outputs`` (the task's names); ``FormError`` with a line otherwise."""
    imp = read_imports(tree, Report())
    aliases = {a: outputs[0] for a in RESULT_ALIASES
               if len(outputs) == 1 and a not in inputs and a not in outputs}
    sources = set(inputs) | set(outputs)
    defs = {s.name: s for s in tree.body if isinstance(s, ast.FunctionDef)}
    pre: list[Part] = []
    post: list[Part] = []
    forms: list[str] = []
    hoisted: list[ast.stmt] = []

    decorated = [s for s in tree.body if isinstance(s, ast.FunctionDef) and s.decorator_list]
    if len(decorated) > 1:
        raise FormError(decorated[1].lineno, "contracts on two functions "
                        f"({decorated[0].name}, {decorated[1].name}): a task has one function")
    for fn in decorated:
        params = _params(fn.args, fn.lineno, f"function {fn.name}")
        if params != inputs:
            raise FormError(fn.lineno, f"the decorated function's parameters ({', '.join(params)})"
                            f" must be the task's inputs in order ({', '.join(inputs)})")
        for d in fn.decorator_list:
            mod, name = contract_of(d, imp) or ("", "")
            assert isinstance(d, ast.Call)
            part, where = _contract_part(mod, name, d, defs, inputs, outputs, aliases,
                                         len(hoisted), hoisted)
            (pre if where == "pre" else post).append(part)
            if mod not in forms:
                forms.append(mod)
        fn.decorator_list = []

    for which, parts in (("pre", pre), ("post", post)):
        fn_def = defs.get(which)
        if fn_def is None:
            continue
        if parts:
            raise FormError(fn_def.lineno, f"two {which}conditions: both a `def {which}` and "
                            f"contract decorators; keep one")
        allowed = set(inputs) if which == "pre" else sources | set(aliases)
        params = _params(fn_def.args, fn_def.lineno, f"def {which}")
        for p in params:
            if p not in allowed:
                names = ", ".join(sorted(allowed))
                raise FormError(fn_def.lineno, f"def {which}: parameter {p!r} is not one of "
                                f"the case's values ({names})")
        asserts = _has_assert(fn_def)
        if not asserts and not _returns_value(fn_def):
            raise FormError(fn_def.lineno, f"def {which} never returns a value: return a bool, "
                            "or assert the conditions")
        parts.append(Part(fn=which, kw={p: aliases.get(p, p) for p in params}, asserts=asserts,
                          line=fn_def.lineno, what=f"def {which}"))
        if "functions" not in forms:
            forms.append("functions")

    block = [s for s in tree.body if isinstance(s, ast.Assert)]
    if block:
        if post:
            raise FormError(block[0].lineno, "two postconditions: top-level assert statements "
                            "and a `def post` or contract decorators; keep one")
        params = [*inputs, *outputs, *aliases]
        fn = ast.FunctionDef(
            name="_adq_post_block",
            args=ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in params],
                               kwonlyargs=[], kw_defaults=[], defaults=[]),
            body=list(block), decorator_list=[], returns=None)
        if "type_params" in ast.FunctionDef._fields:  # Python 3.12+
            setattr(fn, "type_params", [])  # noqa: B010 - absent from 3.11's stubs
        ast.copy_location(fn, block[0])
        hoisted.append(fn)
        post.append(Part(fn="_adq_post_block", kw={p: aliases.get(p, p) for p in params},
                         asserts=True, line=block[0].lineno, what="the assert block"))
        forms.append("assert block")

    body: list[ast.stmt] = []
    for s in tree.body:
        if isinstance(s, ast.Assert):
            continue
        if isinstance(s, ast.Import):
            s.names = [a for a in s.names
                       if a.name not in (*CONTRACT_MODULES, *ANNOTATION_MODULES)]
            if not s.names:
                continue
        if isinstance(s, ast.ImportFrom) and (s.module in (*CONTRACT_MODULES,
                                                            *ANNOTATION_MODULES)
                                              or s.module == "__future__"):
            continue
        body.append(s)
    module = ast.Module(body=[*body, *hoisted], type_ignores=[])
    _strip_annotations(module)
    _guard_handlers(module)
    fix_locations(module)
    return Normalized(module=module, pre=pre, post=post, forms=forms)


def _contract_part(mod: str, name: str, d: ast.Call, defs: dict[str, ast.FunctionDef],
                   inputs: list[str], outputs: list[str], aliases: dict[str, str], k: int,
                   hoisted: list[ast.stmt]) -> tuple[Part, str]:
    kinds = {("icontract", "require"): "pre", ("icontract", "ensure"): "post",
             ("deal", "pre"): "pre", ("deal", "post"): "post", ("deal", "ensure"): "post"}
    where = kinds.get((mod, name))
    if where is None:
        if mod == "icontract" and name == "snapshot":
            why = "icontract.snapshot: a task's function changes none of its arguments"
        else:
            why = (f"{mod}.{name}: only icontract.require/ensure and deal.pre/post/ensure "
                   "state a precondition or a postcondition (effects and exceptions are "
                   "outside a task's pre and post)")
        raise FormError(d.lineno, why)
    cond_key = "condition" if mod == "icontract" else "validator"
    cond: ast.expr | None = d.args[0] if d.args else None
    for keyword in d.keywords:
        if keyword.arg == cond_key and cond is None:
            cond = keyword.value
        elif keyword.arg == "enabled":
            raise FormError(d.lineno, "enabled= switches a contract at run time; write the "
                            "contract or leave it out")
        elif keyword.arg not in ("description", "a_repr", "error", "message", "exception"):
            raise FormError(d.lineno, f"{mod}.{name}: unknown argument {keyword.arg!r}")
    if cond is None or len(d.args) > 1:
        raise FormError(d.lineno, f"{mod}.{name} takes one condition (a lambda or a function "
                        "of the spec)")
    label = f"{mod}.{name} (line {d.lineno})"
    if isinstance(cond, ast.Lambda):
        params = _params(cond.args, cond.lineno, label)
        if cond.args.defaults or cond.args.kw_defaults and any(cond.args.kw_defaults):
            raise FormError(cond.lineno, f"{label}: the condition's parameters take no "
                            "defaults")
        fn_name = f"_adq_cond{k}"
        assign = ast.Assign(targets=[ast.Name(id=fn_name, ctx=ast.Store())], value=cond)
        ast.copy_location(assign, cond)
        hoisted.append(assign)
        asserts = False
    elif isinstance(cond, ast.Name) and cond.id in defs:
        target = defs[cond.id]
        params = _params(target.args, target.lineno, label)
        fn_name = cond.id
        asserts = _has_assert(target)
    else:
        raise FormError(d.lineno, f"{label}: the condition must be a lambda or the name of a "
                        "function defined in the spec")
    line = cond.lineno
    if mod == "icontract":
        by_name: dict[str, str] = {}
        for p in params:
            if p in inputs:
                by_name[p] = p
            elif p == "result" and where == "post" and len(outputs) == 1:
                by_name[p] = outputs[0]
            elif p in outputs and where == "post":
                by_name[p] = p
            elif p == "OLD":
                raise FormError(line, "icontract's OLD: a task's function changes none of its "
                                "arguments, so OLD.x is x")
            else:
                raise FormError(line, f"{label}: parameter {p!r} is neither an argument of the "
                                "function" + (" nor `result`" if where == "post" else ""))
        return Part(fn=fn_name, kw=by_name, asserts=asserts, line=line, what=label), where
    if name == "pre":
        if len(params) != len(inputs):
            raise FormError(line, f"{label}: deal passes the function's {len(inputs)} "
                            f"argument(s) by position; the condition takes {len(params)}")
        return Part(fn=fn_name, pos=list(inputs), asserts=asserts, line=line, what=label), where
    if len(outputs) != 1:
        raise FormError(line, f"{label}: deal's postconditions see one result; the task has "
                        f"{len(outputs)} outputs")
    if name == "post":
        if len(params) != 1:
            raise FormError(line, f"{label}: deal.post passes only the result; the condition "
                            f"takes {len(params)} parameters")
        return Part(fn=fn_name, pos=[outputs[0]], asserts=asserts, line=line, what=label), where
    if len(params) != len(inputs) + 1 or params[-1] != "result":
        raise FormError(line, f"{label}: deal.ensure passes the {len(inputs)} argument(s) by "
                        "position and then `result`: lambda " + ", ".join([*inputs, "result"]))
    return Part(fn=fn_name, pos=list(inputs), kw={"result": outputs[0]}, asserts=asserts,
                line=line, what=label), where


def _strip_annotations(module: ast.Module) -> None:
    """Annotations are read, never run (they may name typing's objects, absent in the worker)."""
    for n in ast.walk(module):
        if isinstance(n, ast.arg):
            n.annotation = None
        elif isinstance(n, ast.FunctionDef):
            n.returns = None
    for parent in ast.walk(module):
        for fld, value in ast.iter_fields(parent):
            if not isinstance(value, list):
                continue
            new: list[Any] = []
            for s in value:
                if isinstance(s, ast.AnnAssign):
                    if s.value is None or not isinstance(s.target, ast.Name):
                        if s.value is not None:
                            new.append(ast.copy_location(ast.Assign(targets=[s.target],
                                                                    value=s.value), s))
                        continue
                    new.append(ast.copy_location(ast.Assign(targets=[s.target], value=s.value),
                                                 s))
                else:
                    new.append(s)
            if len(new) != len(value) or any(a is not b for a, b in zip(new, value, strict=False)):
                if not new and fld in ("body", "orelse", "finalbody"):
                    new = [ast.copy_location(ast.Pass(), parent)]
                setattr(parent, fld, new)


_LOCATION = ("lineno", "col_offset", "end_lineno", "end_col_offset")


def fix_locations(root: ast.AST) -> None:
    """``ast.fix_missing_locations`` without recursion (it recurses once per level, and a
    long ``a + b + ...`` chain that Python compiles would exhaust our stack)."""
    todo: list[tuple[ast.AST, tuple[int, int, int, int]]] = [(root, (1, 0, 1, 0))]
    while todo:
        node, parent = todo.pop()
        here = parent
        if "lineno" in node._attributes:
            values = []
            for k, default in zip(_LOCATION, parent, strict=True):
                v = getattr(node, k, None)
                if v is None:
                    setattr(node, k, default)
                    v = default
                values.append(v)
            here = (values[0], values[1], values[2], values[3])
        todo.extend((c, here) for c in ast.iter_child_nodes(node))


def _guard_handlers(module: ast.Module) -> None:
    k = 0
    for n in ast.walk(module):
        if isinstance(n, ast.ExceptHandler):
            if not n.name:
                n.name = f"_adq_exc{k}"
                k += 1
            call = ast.Expr(ast.Call(func=ast.Name(id=GUARD, ctx=ast.Load()),
                                     args=[ast.Name(id=n.name, ctx=ast.Load())], keywords=[]))
            ast.copy_location(call, n)
            fix_locations(call)
            n.body.insert(0, call)
