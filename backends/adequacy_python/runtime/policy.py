"""What a Python spec may say: the rules the front end enforces (standard library only).

A spec is evaluated once per case, and its verdicts are a reward signal that optimizers and agents
climb, so a spec may compute only a function of the case: no I/O, no way out of the evaluator
(dunder attributes, frames, ``__import__``), no state that outlives a case (``global``,
``nonlocal``, attributes set on shared objects, caches), nothing whose value is not a function of
the case (``id()``, ``hash()``, ``is`` between values, clocks), and no catching of the failures the
evaluator uses to stop a case (``MemoryError``, ``RecursionError``, ``BaseException``).

The same checks run in the front end (where a violation makes the spec invalid with its line)
and again in the sandboxed worker before it compiles anything, so an engine never runs code the
front end did not check. ``check`` also says whether the spec's value may depend on the hash seed
or on object addresses (set iteration order, ``str`` of a function): such specs are evaluated by
two interpreters with different hash seeds, and a case on which they disagree is ``unknown``.
"""

from __future__ import annotations

import ast
import builtins
import collections
import functools
import importlib
import itertools
import math
import operator
import re
import string
import types
from dataclasses import dataclass, field

#: Modules a spec may import: pure functions of their arguments.
ALLOWED_MODULES = ("math", "itertools", "functools", "collections", "re", "string", "operator")
#: Modules whose imports are read by the front end and never executed.
CONTRACT_MODULES = ("icontract", "deal")
ANNOTATION_MODULES = ("typing",)
RESERVED_PREFIX = "_adq"

#: Names of allowed modules a spec may not use, with why.
REFUSED_MODULE_ATTRS = {
    "functools": {n: "a cache keeps values from one call to the next" for n in
                  ("lru_cache", "cache", "cached_property", "singledispatch",
                   "singledispatchmethod", "update_wrapper", "wraps", "total_ordering",
                   "partialmethod")},
    "operator": {n: "it reads attributes by name, around the dunder rule" for n in
                 ("attrgetter", "methodcaller")},
    "string": {"Formatter": "it reads attributes by name, around the dunder rule"},
}

#: Built-in names a spec may not use, with why.
FORBIDDEN_BUILTINS = {
    **{n: "a spec does no I/O" for n in ("open", "print", "input", "breakpoint", "help",
                                         "exit", "quit", "copyright", "credits", "license")},
    **{n: "a spec runs only the code it shows" for n in ("exec", "eval", "compile",
                                                           "__import__")},
    **{n: "a spec reads no namespace or attribute by name" for n in (
        "globals", "locals", "vars", "dir", "getattr", "setattr", "delattr", "hasattr")},
    "id": "an object's id is its address, not a function of the case",
    "hash": "hashes of strings and objects differ between interpreters (hash randomisation)",
    "object": "plain objects carry only an identity, which is not a function of the case",
    **{n: "a spec defines functions, not classes" for n in ("super", "classmethod",
                                                             "staticmethod", "property")},
    "memoryview": "a spec reads no raw memory",
    **{n: "the evaluator stops a case with it: catching it would turn a limit into a verdict"
       for n in ("BaseException", "KeyboardInterrupt", "SystemExit", "GeneratorExit",
                 "MemoryError", "RecursionError")},
    **{n: "a spec is not asynchronous" for n in ("aiter", "anext")},
}

#: Built-in names a spec may use (everything else of ``builtins`` is refused).
SAFE_BUILTINS = (
    "abs", "all", "any", "ascii", "bin", "bool", "bytearray", "bytes", "callable", "chr",
    "complex", "dict", "divmod", "enumerate", "filter", "float", "format", "frozenset", "hex",
    "int", "isinstance", "issubclass", "iter", "len", "list", "map", "max", "min", "next",
    "oct", "ord", "pow", "range", "repr", "reversed", "round", "set", "slice", "sorted", "str",
    "sum", "tuple", "type", "zip", "True", "False", "None", "Ellipsis", "NotImplemented",
    "ArithmeticError", "AssertionError", "AttributeError", "Exception", "IndexError",
    "KeyError", "LookupError", "NameError", "NotImplementedError", "OverflowError",
    "RuntimeError", "StopIteration", "TypeError", "UnboundLocalError", "UnicodeError",
    "ValueError", "ZeroDivisionError", "FloatingPointError",
)

#: Built-ins whose result may depend on the hash seed (set order) or on addresses (the text
#: of a function or an iterator shows its address).
ORDER_SENSITIVE_BUILTINS = {"set": "a set", "frozenset": "a set", "str": "str() of a value",
                            "repr": "repr() of a value", "ascii": "ascii() of a value",
                            "format": "format() of a value"}

#: Attributes of namedtuple instances a spec may read besides their fields.
NAMEDTUPLE_ATTRS = ("_replace", "_asdict", "_fields", "_make", "_field_defaults")


def _value_types() -> list[type]:
    d: dict[int, int] = {}
    return [str, bytes, bytearray, int, float, complex, bool, list, tuple, dict, set,
            frozenset, range, slice, type(d.keys()), type(d.values()), type(d.items()),
            re.Pattern, re.Match, collections.Counter, collections.deque,
            collections.defaultdict, collections.OrderedDict, collections.ChainMap,
            functools.partial, string.Template]


def _attrs() -> frozenset[str]:
    names: set[str] = set()
    for t in _value_types():
        names |= {n for n in dir(t) if not n.startswith("_")}
    names -= {"mro", "with_traceback", "add_note"}
    return frozenset(names | set(NAMEDTUPLE_ATTRS) | {"args"})


#: Attribute names a spec may read on values: the public methods and fields of Python's
#: built-in values and of the allowed modules' classes. Nothing reaches frames, code, globals
#: or modules through them.
VALUE_ATTRS = _attrs()

_MUTABLE = (list, dict, set, bytearray, collections.deque)


@functools.cache
def module_names(mod: str) -> dict[str, str]:
    """Public names of an allowed module -> "" when usable, else why not."""
    m = importlib.import_module(mod)
    public = getattr(m, "__all__", None) or [n for n in dir(m) if not n.startswith("_")]
    out: dict[str, str] = {}
    for n in public:
        if n.startswith("_") or not hasattr(m, n):
            continue
        v = getattr(m, n)
        if isinstance(v, types.ModuleType):
            out[n] = "it is a module"
        elif isinstance(v, _MUTABLE):
            out[n] = "it is a mutable object shared by every case"
        else:
            out[n] = REFUSED_MODULE_ATTRS.get(mod, {}).get(n, "")
    return out


for _m in (math, itertools, functools, collections, re, string, operator):
    assert _m.__name__ in ALLOWED_MODULES


@dataclass
class Violation:
    line: int
    message: str
    rank: int = 1
    """Which of several problems on one line to name first (0: a name or an import)."""


@dataclass
class Report:
    violations: list[Violation] = field(default_factory=list)
    order_sensitive: list[str] = field(default_factory=list)
    """Why the spec's value may depend on the hash seed or addresses (empty: it cannot)."""

    def add(self, node: ast.AST | None, message: str, rank: int = 1) -> None:
        self.violations.append(Violation(getattr(node, "lineno", 0) or 0, message, rank))

    def first(self) -> Violation:
        return min(self.violations, key=lambda v: (v.line, v.rank))


def is_dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def annotation_nodes(tree: ast.AST) -> set[int]:
    """ids of every node inside an annotation: annotations are read, never run."""
    roots: list[ast.AST] = []
    for n in ast.walk(tree):
        if isinstance(n, ast.arg) and n.annotation is not None:
            roots.append(n.annotation)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.returns is not None:
            roots.append(n.returns)
        elif isinstance(n, ast.AnnAssign):
            roots.append(n.annotation)
    out: set[int] = set()
    for r in roots:
        out |= {id(x) for x in ast.walk(r)}
    return out


def bound_names(tree: ast.AST) -> set[str]:
    """Every name the module binds anywhere (assignment, parameter, def, import, handler)."""
    out: set[str] = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            out.add(n.id)
        elif isinstance(n, ast.arg):
            out.add(n.arg)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(n.name)
        elif isinstance(n, ast.alias):
            out.add((n.asname or n.name).split(".")[0])
        elif isinstance(n, ast.ExceptHandler) and n.name:
            out.add(n.name)
    return out


@dataclass
class Imports:
    """What each imported name stands for."""

    modules: dict[str, str] = field(default_factory=dict)
    """alias -> allowed or contract module."""
    names: dict[str, tuple[str, str]] = field(default_factory=dict)
    """alias -> (module, name) of ``from module import name``."""


def read_imports(tree: ast.Module, rep: Report) -> Imports:
    imp = Imports()
    known = (*ALLOWED_MODULES, *CONTRACT_MODULES, *ANNOTATION_MODULES)
    for n in ast.walk(tree):
        if isinstance(n, ast.Import):
            for a in n.names:
                if a.name not in known:
                    rep.add(n, _refused_import(a.name), 0)
                    continue
                imp.modules[a.asname or a.name] = a.name
        elif isinstance(n, ast.ImportFrom):
            mod = n.module or ""
            if n.level:
                rep.add(n, "relative imports: a spec is one file")
                continue
            if mod == "__future__":
                if any(a.name != "annotations" for a in n.names):
                    rep.add(n, "from __future__ only `annotations` may be imported")
                continue
            if mod not in known:
                rep.add(n, _refused_import(mod), 0)
                continue
            for a in n.names:
                if a.name == "*":
                    rep.add(n, f"`from {mod} import *`: import the names you use")
                    continue
                if mod in ALLOWED_MODULES:
                    why = module_names(mod).get(a.name)
                    if why is None:
                        rep.add(n, f"{mod} has no public name {a.name!r}")
                        continue
                    if why:
                        rep.add(n, f"{mod}.{a.name} is not allowed: {why}")
                        continue
                imp.names[a.asname or a.name] = (mod, a.name)
    return imp


def _refused_import(mod: str) -> str:
    return (f"import of {mod!r}: a spec may import only {', '.join(ALLOWED_MODULES)} "
            "(pure functions of their arguments)")


_TOP_OK = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.Assign, ast.AnnAssign, ast.Assert,
           ast.Pass)


def check(tree: ast.Module, case_names: frozenset[str] = frozenset()) -> Report:
    """Every rule broken by ``tree`` (a parsed spec), with lines, and its order sensitivity.
    ``case_names``: the names the top-level assert block may read (the task's inputs and
    outputs, ``result``, ``return_value``)."""
    rep = Report()
    skip = annotation_nodes(tree)
    imp = read_imports(tree, rep)
    bound = bound_names(tree)
    block = {id(x) for s in tree.body if isinstance(s, ast.Assert) for x in ast.walk(s)}
    typing_names = {a for a, (m, _) in imp.names.items() if m in ANNOTATION_MODULES}
    typing_names |= {a for a, m in imp.modules.items() if m in ANNOTATION_MODULES}
    contract_names = {a for a, (m, _) in imp.names.items() if m in CONTRACT_MODULES}
    contract_names |= {a for a, m in imp.modules.items() if m in CONTRACT_MODULES}
    module_aliases = {a for a, m in imp.modules.items() if m in ALLOWED_MODULES}
    decorators: set[int] = set()

    for stmt in tree.body:
        if not isinstance(stmt, _TOP_OK) and not (
                isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)):
            rep.add(stmt, "at the top level a spec has only imports, function definitions, "
                          "assignments and assert statements (the postcondition block), not "
                          f"{type(stmt).__name__.lower()} statements")
        if isinstance(stmt, ast.FunctionDef):
            for d in stmt.decorator_list:
                decorators |= {id(x) for x in ast.walk(d)}
                if not _is_contract_call(d, imp):
                    rep.add(d, "decorators: only icontract.require/ensure and deal.pre/post/"
                               "ensure (a decorator could wrap the function in state)")

    parents: dict[int, ast.AST] = {}
    for n in ast.walk(tree):
        for c in ast.iter_child_nodes(n):
            parents[id(c)] = n

    for n in ast.walk(tree):
        if id(n) in skip:
            continue
        names = bound | case_names if id(n) in block else bound
        _check_node(n, rep, names, typing_names, contract_names, module_aliases, imp,
                    decorators, parents)
    return rep


def _is_contract_call(d: ast.expr, imp: Imports) -> bool:
    return contract_of(d, imp) is not None


def contract_of(d: ast.expr, imp: Imports) -> tuple[str, str] | None:
    """(module, function) of a contract decorator such as ``@icontract.require(...)``."""
    if not isinstance(d, ast.Call):
        return None
    f = d.func
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
        mod = imp.modules.get(f.value.id)
        if mod in CONTRACT_MODULES:
            return mod, f.attr
    if isinstance(f, ast.Name) and f.id in imp.names:
        mod, name = imp.names[f.id]
        if mod in CONTRACT_MODULES:
            return mod, name
    return None


def _check_node(n: ast.AST, rep: Report, bound: set[str], typing_names: set[str],
                contract_names: set[str], module_aliases: set[str], imp: Imports,
                decorators: set[int], parents: dict[int, ast.AST]) -> None:
    if isinstance(n, (ast.Global, ast.Nonlocal)):
        rep.add(n, f"`{type(n).__name__.lower()}`: a spec's functions keep no state between "
                   "calls")
    elif isinstance(n, ast.ClassDef):
        rep.add(n, "class definitions: a spec defines functions (a class could carry a "
                   "finalizer or state between cases)")
    elif isinstance(n, (ast.AsyncFunctionDef, ast.Await, ast.AsyncFor, ast.AsyncWith)):
        rep.add(n, "asynchronous code: a spec is a plain function of the case", 0)
    elif isinstance(n, (ast.With,)):
        rep.add(n, "`with`: a spec opens no resource")
    elif isinstance(n, ast.TryStar):
        rep.add(n, "`except*`: exception groups are not part of a spec")
    elif isinstance(n, ast.ExceptHandler):
        _check_handler(n, rep)
    elif isinstance(n, ast.Name):
        _check_name(n, rep, bound, typing_names, contract_names, module_aliases, decorators,
                    parents)
    elif isinstance(n, ast.Attribute):
        _check_attribute(n, rep, module_aliases, imp, decorators)
    elif isinstance(n, ast.Constant) and isinstance(n.value, str) and is_dunder(n.value):
        rep.add(n, f"the string {n.value!r} names a dunder attribute, which a spec may not "
                   "reach", 0)
    elif isinstance(n, ast.Compare):
        for op, left, right in zip(n.ops, [n.left, *n.comparators], n.comparators,
                                         strict=False):
            if isinstance(op, (ast.Is, ast.IsNot)) and not (_singleton(left) or
                                                             _singleton(right)):
                rep.add(n, "`is` between values compares identities, which are not a "
                           "function of the case: use == (is is for None, True, False)")
    elif isinstance(n, ast.Call):
        _check_call(n, rep)
    elif isinstance(n, (ast.Set, ast.SetComp)):
        rep.order_sensitive.append("a set")
    elif isinstance(n, ast.JoinedStr):
        rep.order_sensitive.append("an f-string")
    elif isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mod) and _stringish(n.left):
        rep.order_sensitive.append("%-formatting")
    elif isinstance(n, ast.FunctionDef):
        for a in [*n.args.posonlyargs, *n.args.args, *n.args.kwonlyargs]:
            _check_binding(a.arg, a, rep)
        for va in (n.args.vararg, n.args.kwarg):
            if va is not None:
                _check_binding(va.arg, va, rep)
        _check_binding(n.name, n, rep)
    elif isinstance(n, ast.Lambda):
        for a in [*n.args.posonlyargs, *n.args.args, *n.args.kwonlyargs]:
            _check_binding(a.arg, a, rep)
    elif isinstance(n, ast.alias):
        _check_binding(n.asname or n.name, parents.get(id(n)), rep)


def _singleton(e: ast.expr) -> bool:
    return isinstance(e, ast.Constant) and (e.value is None or e.value is True
                                            or e.value is False or e.value is Ellipsis)


def _stringish(e: ast.expr) -> bool:
    return isinstance(e, ast.JoinedStr) or (isinstance(e, ast.Constant)
                                            and isinstance(e.value, (str, bytes)))


def _check_binding(name: str, node: ast.AST | None, rep: Report) -> None:
    if is_dunder(name):
        rep.add(node, f"the name {name!r}: dunder names belong to the interpreter")
    elif name.startswith(RESERVED_PREFIX):
        rep.add(node, f"the name {name!r}: names starting with {RESERVED_PREFIX} are the "
                      "evaluator's")


def _check_handler(h: ast.ExceptHandler, rep: Report) -> None:
    if h.type is None:
        rep.add(h, "a bare `except:` would catch the evaluator's timeout: name the exceptions "
                   "(except ValueError, except Exception)")
        return
    if h.name:
        _check_binding(h.name, h, rep)


def _check_name(n: ast.Name, rep: Report, bound: set[str], typing_names: set[str],
                contract_names: set[str], module_aliases: set[str], decorators: set[int],
                parents: dict[int, ast.AST]) -> None:
    name = n.id
    if is_dunder(name):
        rep.add(n, f"the name {name!r}: dunder names belong to the interpreter", 0)
        return
    if name.startswith(RESERVED_PREFIX):
        rep.add(n, f"the name {name!r}: names starting with {RESERVED_PREFIX} are the "
                   "evaluator's")
        return
    if not isinstance(n.ctx, ast.Load):
        return
    if name in typing_names:
        rep.add(n, f"{name} comes from typing, which is for annotations only")
        return
    if name in contract_names and id(n) not in decorators:
        rep.add(n, f"{name} is a contract library: use it only as a decorator")
        return
    if name in module_aliases:
        parent = parents.get(id(n))
        if not (isinstance(parent, ast.Attribute) and parent.value is n):
            rep.add(n, f"the module {name} is not a value: use its functions ({name}.f)")
        return
    if name in bound:
        return
    if name in FORBIDDEN_BUILTINS:
        rep.add(n, f"{name}: {FORBIDDEN_BUILTINS[name]}", 0)
    elif name in SAFE_BUILTINS:
        if name in ORDER_SENSITIVE_BUILTINS:
            rep.order_sensitive.append(ORDER_SENSITIVE_BUILTINS[name])
    elif hasattr(builtins, name):
        rep.add(n, f"the built-in {name} is not available to a spec")
    else:
        rep.add(n, f"name {name!r} is not defined")


def _check_attribute(n: ast.Attribute, rep: Report, module_aliases: set[str], imp: Imports,
                     decorators: set[int]) -> None:
    attr = n.attr
    if not isinstance(n.ctx, ast.Load):
        rep.add(n, f"setting or deleting the attribute .{attr}: a spec changes no object "
                   "other than its own local values")
        return
    if id(n) in decorators:
        return
    if isinstance(n.value, ast.Name) and n.value.id in module_aliases:
        mod = imp.modules[n.value.id]
        why = module_names(mod).get(attr)
        if why is None:
            rep.add(n, f"{mod} has no public name {attr!r}")
        elif why:
            rep.add(n, f"{mod}.{attr} is not allowed: {why}")
        elif mod == "operator" and attr in ("mod", "imod"):
            rep.order_sensitive.append("operator.mod")
        elif mod == "string" and attr == "Template":
            rep.order_sensitive.append("string.Template")
        return
    if is_dunder(attr):
        rep.add(n, f"the attribute .{attr}: dunder attributes lead out of the spec's values", 0)
    elif attr not in VALUE_ATTRS:
        rep.add(n, f"the attribute .{attr} is not a method or field of Python's built-in "
                   "values (frames, code objects and modules are out of a spec's reach)")
    elif attr in ("format", "format_map"):
        rep.order_sensitive.append(f".{attr}")
        _check_format_string(n, rep)
    elif attr in ("keys", "values", "items", "symmetric_difference", "union", "intersection",
                  "difference"):
        rep.order_sensitive.append(f".{attr}()")


def _check_format_string(n: ast.Attribute, rep: Report) -> None:
    """``"{0.__class__}".format(x)`` reads attributes by name: only literal format strings
    whose fields index or name arguments are allowed."""
    v = n.value
    if not (isinstance(v, ast.Constant) and isinstance(v.value, str)):
        rep.add(n, f".{n.attr} needs a literal format string (fields may read attributes)")
        return
    try:
        fields = [f for _, f, _, _ in string.Formatter().parse(v.value) if f]
    except ValueError as e:
        rep.add(n, f"format string: {e}")
        return
    for f in fields:
        if "." in f:
            rep.add(n, f"the format field {{{f}}} reads an attribute")


def _check_call(n: ast.Call, rep: Report) -> None:
    if isinstance(n.func, ast.Name) and n.func.id == "type" and (len(n.args) != 1
                                                                  or n.keywords):
        rep.add(n, "type() with other than one argument makes a class")
