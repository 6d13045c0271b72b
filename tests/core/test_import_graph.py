"""Data flows one way (task -> spec -> engine -> verdicts -> metrics -> report): no module may
import, directly or through others, a module that imports it.

The graph is read from the source with ``ast`` (nothing is imported); import names are folder
names under the source roots (``backends/adequacy_verus/x.py`` is ``adequacy_verus.x``). Every import counts, also those inside
functions (a lazy import that closes a cycle is a cycle postponed, not removed) and those under
``if TYPE_CHECKING:``: they never run, but a type that can only be named through a cycle says
the two modules are one, and the plugin contract (``adequacy.extensions.backend``) must not depend on the
registry or the loader that use it.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SOURCE_ROOTS = (".", "backends", "mutators", "optimizers")


def modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for root in SOURCE_ROOTS:
        for pkg in sorted((REPO / root).glob("adequacy*/__init__.py")):
            for p in sorted(pkg.parent.rglob("*.py")):
                parts = list(p.relative_to(REPO / root).with_suffix("").parts)
                if "examples" in parts:  # bundled tasks' files are data, not modules
                    continue
                if parts[-1] == "__init__":
                    parts = parts[:-1]
                out[".".join(parts)] = p
    return out


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_pkg = path.name == "__init__.py"
    package = name if is_pkg else name.rsplit(".", 1)[0]
    found: set[str] = set()

    def target(mod: str) -> str | None:
        while mod and mod not in known:
            mod = mod.rsplit(".", 1)[0] if "." in mod else ""
        return mod or None

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            for a in node.names:
                t = target(a.name)
                if t:
                    found.add(t)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            for a in node.names:
                t = target(f"{mod}.{a.name}") if f"{mod}.{a.name}" in known else target(mod)
                if t:
                    found.add(t)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    found.discard(name)
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return out


@cache
def _graph() -> dict[str, set[str]]:
    """Read once per session: the three tests ask the same question of the same files."""
    mods = modules()
    known = set(mods)
    graph = {n: imports_of(n, p, known) for n, p in mods.items()}
    # a package's __init__ re-exporting its submodules is not a dependency of the submodules
    # on the package: drop edges from a module to its own ancestors' __init__
    for n, deps in graph.items():
        graph[n] = {d for d in deps if not n.startswith(d + ".")}
    return graph


def test_the_reader_sees_real_edges() -> None:
    """The checker itself must find known edges (else an empty graph would pass)."""
    g = _graph()
    assert "adequacy.extensions.backend" in g["adequacy.scoring.runner"]
    assert "adequacy.extensions.registry" in g["adequacy.scoring.runner"]
    assert any(d.startswith("adequacy_verus.") for d in
               g["adequacy_verus.plugin"])
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycles() -> None:
    found = cycles(_graph())
    assert not found, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_the_task_model_and_the_contract_do_not_reach_the_registry() -> None:
    """The loader (``adequacy.taskdirs.load``) resolves a task's files through the registry; the model
    and the plugin contract never import it, directly or through others."""
    g = _graph()

    def reach(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for d in g.get(todo.pop(), ()):
                if d not in seen:
                    seen.add(d)
                    todo.append(d)
        return seen
    for mod in ("adequacy.model.task", "adequacy.extensions.backend"):
        assert "adequacy.extensions.registry" not in reach(mod), mod
        assert "adequacy.taskdirs.load" not in reach(mod), mod


def test_the_front_door_contract_names_every_room_of_core() -> None:
    """lint-imports' "front-door" contract forbids languages every room of core but the plugin
    API; a room added later must be added to it, or a language could import it unseen."""
    import tomllib

    conf = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    [door] = [c for c in conf["tool"]["importlinter"]["contracts"] if c["id"] == "front-door"]
    rooms = {f"adequacy.{p.parent.name}" for p in (REPO / "adequacy").glob("*/__init__.py")}
    rooms |= {f"adequacy.{p.stem}" for p in (REPO / "adequacy").glob("*.py")
              if p.stem not in ("__init__", "__main__", "plugin")}
    assert rooms, "no room found: the scan is wrong"
    missing = rooms - set(door["forbidden_modules"])
    assert not missing, f"add to the front-door contract: {sorted(missing)}"
    languages = {p.parent.name for p in (REPO / "backends").glob("adequacy_*/__init__.py")}
    assert languages and languages == set(door["source_modules"])
