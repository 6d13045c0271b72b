"""Backends arrive through entry points, the built-in ones exactly like third-party ones."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from adequacy.errors import BackendError
from adequacy.extensions import registry
from adequacy.extensions.hookspecs import hookimpl


def run_cli(args: list[str], pythonpath: Path, **kw: object) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(pythonpath), COLUMNS="200")
    return subprocess.run([sys.executable, "-m", "adequacy", *args], env=env,
                          capture_output=True, text=True, timeout=120, **kw)  # type: ignore


@pytest.mark.slow
def test_separately_installed_backend_is_listed(installed_toy: Path) -> None:
    proc = run_cli(["backends", "--json"], installed_toy)
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)["engines"]
    toy = {r["engine"]: r for r in rows if r["backend"] == "toy"}
    assert set(toy) == {"exact", "picky", "liar", "gone", "preonly", "toyprove"}
    assert toy["toyprove"]["kind"] == "verifier" and toy["exact"]["kind"] == "engine"
    assert toy["gone"]["available"] is False and toy["gone"]["reason"] == "install gone-tool"
    assert toy["exact"]["default"] is True


@pytest.mark.slow
def test_table_output_names_unavailable_reason(installed_toy: Path) -> None:
    proc = run_cli(["backends"], installed_toy)
    assert proc.returncode == 0
    assert "toy" in proc.stdout and "install gone-tool" in proc.stdout


def test_builtin_backends_use_the_same_entry_point_group() -> None:
    from importlib.metadata import entry_points
    names = {ep.name: ep.value for ep in entry_points(group=registry.ENTRY_POINT_GROUP)}
    assert names.get("verus") == "adequacy_verus.plugin"
    assert names.get("openjml") == "adequacy_openjml.plugin"


class Misspelt:
    @hookimpl
    def adequacy_backend(self) -> list[object]:  # missing "s": must not be silently ignored
        return []


def test_misspelt_hook_fails_loudly() -> None:
    with pytest.raises(BackendError, match="adequacy_backend"):
        registry.make_manager(load_entry_points=False, plugins=[Misspelt()])


class NotABackend:
    @hookimpl
    def adequacy_backends(self) -> list[object]:
        return [object()]


def test_object_without_backend_surface_is_rejected() -> None:
    pm = registry.make_manager(load_entry_points=False, plugins=[NotABackend()])
    with pytest.raises(BackendError, match="is not an adequacy.plugin.Backend"):
        registry.collect_backends(pm)


def test_duplicate_backend_names_name_both_plugins() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures" / "toy_backend"))
    try:
        import adequacy_toy.plugin as toy_plugin

        class Again:
            @hookimpl
            def adequacy_backends(self) -> list[object]:
                return [toy_plugin.ToyBackend()]

        pm = registry.make_manager(load_entry_points=False, plugins=[toy_plugin, Again()])
        with pytest.raises(BackendError, match="provided twice"):
            registry.collect_backends(pm)
    finally:
        sys.path.pop(0)


# --- a new language is one package plus one entry point, with no edit to core ---------------

TOY_TASK = Path(__file__).resolve().parents[1] / "fixtures" / "toy_task"


def _copy_toy_task(dest: Path) -> Path:
    import shutil

    shutil.copytree(TOY_TASK, dest)
    return dest


@pytest.mark.slow
def test_third_party_language_declares_its_task_files(installed_toy: Path, tmp_path: Path
                                                      ) -> None:
    """Core learns the toy language's skeleton name and settings keys from the plugin."""
    good = _copy_toy_task(tmp_path / "good")
    proc = run_cli(["task", "validate", str(good)], installed_toy)
    assert proc.returncode == 0, proc.stderr
    missing = _copy_toy_task(tmp_path / "missing")
    (missing / "skeleton.toy").unlink()
    proc = run_cli(["task", "validate", str(missing)], installed_toy)
    assert proc.returncode == 2 and "missing skeleton.toy" in proc.stdout + proc.stderr
    typo = _copy_toy_task(tmp_path / "typo")
    with (typo / "task.toml").open("a") as f:
        f.write('\n[toy]\nflavor = "sweet"\n')
    proc = run_cli(["task", "validate", str(typo)], installed_toy)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 2 and "unknown key 'flavor' in [toy]" in out
    assert "did you mean 'flavour'" in out and "Traceback" not in out


@pytest.mark.slow
def test_third_party_language_scores_and_verifies(installed_toy: Path, tmp_path: Path) -> None:
    task = _copy_toy_task(tmp_path / "t")
    spec = tmp_path / "s.toy"
    spec.write_text("pre: x >= 0\npost: result == x + 1\n")
    proc = run_cli(["score", str(task), str(spec), "--json"], installed_toy)
    assert proc.returncode == 0, proc.stderr
    rep = json.loads(proc.stdout)
    assert rep["passed_all"] and rep["options"]["engines"] == []
    # the toy prover says "verified" exactly when the spec has a precondition
    proc = run_cli(["verify", str(task), str(spec), "--json"], installed_toy)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["verification"]["engine"] == "toyprove"
    spec.write_text("post: result == x + 1\n")
    proc = run_cli(["verify", str(task), str(spec)], installed_toy)
    assert proc.returncode == 1 and "not verified by toyprove" in proc.stdout
    proc = run_cli(["verify", str(task), str(spec), "--engine", "nope"], installed_toy)
    assert proc.returncode == 2 and "no prover 'nope'" in proc.stderr
    proc = run_cli(["backends", "--json"], installed_toy)
    kinds = {(r["engine"], r["kind"]) for r in json.loads(proc.stdout)["engines"]
             if r["backend"] == "toy"}
    assert ("toyprove", "verifier") in kinds and ("exact", "engine") in kinds


def test_engine_capabilities_limit_what_it_is_given(toy: None, toy_task: Path) -> None:
    """An engine that declares only ``pre`` never sees a post case; those stay unknown."""
    from adequacy.scoring.runner import score_spec
    from adequacy.taskdirs.load import load_task

    task = load_task(toy_task)
    rep = score_spec(task, "pre: x >= 0\npost: result == x + 1\n", engines=["preonly"])
    pre = [v for v in rep.verdicts if v.bucket.predicate == "pre"]
    post = [v for v in rep.verdicts if v.bucket.predicate == "post"]
    assert pre and all(v.decided for v in pre)
    assert post and all(not v.decided and "does not evaluate postconditions" in v.reason
                        for v in post)


#: Substrings that name a built-in language or its tools (case-insensitive). "rust" also
#: catches "rustc"; "jml" catches "openjml"; "java" catches "javac"; "vstd" and "cargo" are
#: Verus's library and build tool, "key" is not listed (a common English word and a dict verb).
LANGUAGE_NAMES = ("verus", "jml", "java", "rust", "vstd", "cargo")
#: Words that contain a language name by accident (trust, distrusted, frustrate).
NOT_LANGUAGE = ("trust", "frust")
#: Where core may name a tool because it hosts it for every backend, not because it knows a
#: language: finding and pinning host toolchains (a JDK, rustc/cargo) and mounting them into
#: the sandbox, and passing their environment (JAVA_HOME, RUST_BACKTRACE) to engine processes.
#: The backends decide what to run; these modules only make it runnable.
TOOLCHAIN_HOSTS: tuple[str, ...] = ()


def _code_words(tree: ast.AST) -> list[tuple[int, str]]:
    """Every name and string of the code: identifiers, attributes, arguments, imported
    modules, string literals. Docstrings (module, class, function and attribute docstrings:
    bare string statements) are prose and may cite a language as an example."""
    prose = {id(n.value) for n in ast.walk(tree)
             if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)
             and isinstance(n.value.value, str)}
    out: list[tuple[int, str]] = []
    for n in ast.walk(tree):
        line = getattr(n, "lineno", 0)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in prose:
            out.append((line, n.value))
        elif isinstance(n, ast.Name):
            out.append((line, n.id))
        elif isinstance(n, ast.Attribute):
            out.append((line, n.attr))
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.append((line, n.name))
        elif isinstance(n, ast.arg):
            out.append((line, n.arg))
        elif isinstance(n, ast.alias):
            out.append((line, n.name))
            if n.asname:
                out.append((line, n.asname))
        elif isinstance(n, ast.ImportFrom) and n.module:
            out.append((line, n.module))
        elif isinstance(n, ast.keyword) and n.arg:
            out.append((line, n.arg))
    return out


def language_names_in(text: str) -> list[str]:
    low = text.lower()
    for w in NOT_LANGUAGE:
        low = low.replace(w, "")
    return [n for n in LANGUAGE_NAMES if n in low]


def test_language_name_scan_finds_substrings() -> None:
    assert language_names_in("OpenJmlBackend") == ["jml"]
    assert language_names_in("find_javac") == ["java"]
    assert language_names_in("the trusted RUSTC") == ["rust"]
    assert language_names_in("distrusted") == []


@pytest.mark.parametrize("package", ["adequacy", "optimizers", "mutators"])
def test_core_names_no_built_in_language(package: str) -> None:
    """Core, the optimizers and the mutators hold no language name in their code, substrings
    included: what they know of a language comes from its backend's capabilities
    (``adequacy.plugin.Backend``), so a third-party language works with no edit here."""
    root = Path(__file__).resolve().parents[2]
    found = []
    for p in sorted((root / package).rglob("*.py")):
        rel = p.relative_to(root).as_posix()
        if rel in TOOLCHAIN_HOSTS or "examples" in p.parts:
            continue
        for line, word in _code_words(ast.parse(p.read_text(encoding="utf-8"))):
            names = language_names_in(word)
            if names:
                found.append(f"{rel}:{line}: {word[:70]!r} ({', '.join(names)})")
    assert not found, "\n".join(found)


def test_one_construction_of_each_backend_and_one_info_call_per_registry(
        toy: None, toy_task: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Scoring several specs builds the registry once: the hook runs once (one ToyBackend),
    and each engine's info() is asked once, however many scores follow."""
    import adequacy_toy.plugin as toy_plugin

    from adequacy.scoring.runner import score_spec
    from adequacy.taskdirs.load import load_task

    made: list[object] = []
    real_init = toy_plugin.ToyBackend.__init__
    infos: list[str] = []
    real_info = toy_plugin.ToyEngine.info

    def counting_init(self: object) -> None:
        made.append(self)
        real_init(self)  # type: ignore[arg-type]

    def counting_info(self: object) -> object:
        infos.append(self.name)  # type: ignore[attr-defined]
        return real_info(self)  # type: ignore[arg-type]
    monkeypatch.setattr(toy_plugin.ToyBackend, "__init__", counting_init)
    monkeypatch.setattr(toy_plugin.ToyEngine, "info", counting_info)
    task = load_task(toy_task)
    for _ in range(3):
        assert score_spec(task, "pre: x >= 0\npost: result == x + 1\n").passed_all
    assert len(made) == 1
    assert sorted(infos) == sorted({*infos})  # each engine asked once
    registry.registry().refresh()
    score_spec(task, "pre: x >= 0\n")
    assert len(made) == 1 and len(infos) == 2 * len(set(infos))


def test_owner_is_the_one_rule_for_tasks_runner_and_gym(toy: None) -> None:
    """An add-on backend of the same language whose engines are all opt-in does not take over
    the language: task files, writer texts and the default chain all come from the owner."""
    from adequacy.extensions.backend import Backend, EngineInfo
    from adequacy.model.task import TaskFiles
    from adequacy.taskdirs.load import task_files

    class AddOnEngine:
        name = "addon"

        def info(self) -> EngineInfo:
            return EngineInfo(name="addon", available=True, version="1")

        def check(self, *a: object) -> list[object]:
            return []

    class AddOn(Backend):
        name, language = "toy_addon", "toy"
        task_files = TaskFiles(skeleton="other.toy")

        def engines(self) -> list[object]:  # type: ignore[override]
            return [AddOnEngine()]

    class P:
        @hookimpl
        def adequacy_backends(self) -> list[object]:
            return [AddOn()]

    import adequacy_toy.plugin as toy_plugin
    pm = registry.make_manager(load_entry_points=False, plugins=[P(), toy_plugin])
    reg = registry.Registry(pm)
    assert [b.name for b in reg.of_language("toy")] == ["toy_addon", "toy"]  # first is not owner
    assert reg.owner("toy").name == "toy"
    from unittest import mock
    with mock.patch.object(registry, "default_manager", lambda: pm):
        assert task_files("toy") == reg.owner("toy").task_files
        assert registry.registry().owner("toy").name == "toy"


def test_engine_version_follows_the_sources(tmp_path: Path) -> None:
    from adequacy.extensions.engine_version import engine_version, sources_hash

    src = tmp_path / "engine"
    src.mkdir()
    (src / "a.py").write_text("x = 1\n")
    v1 = engine_version("tool 1.0", src)
    assert v1.startswith("tool 1.0+src.")
    (src / "a.py").write_text("x = 2\n")
    sources_hash.cache_clear()
    v2 = engine_version("tool 1.0", src)
    assert v2 != v1 and engine_version("tool 1.1", src) != v2
    (src / "__pycache__").mkdir()
    (src / "__pycache__" / "a.cpython.pyc").write_bytes(b"\0")
    sources_hash.cache_clear()
    assert engine_version("tool 1.0", src) == v2  # build artefacts do not count


def test_the_toy_backend_imports_only_the_public_plugin_api() -> None:
    """A third-party backend needs one module of ours: ``adequacy.plugin``."""
    src = Path(__file__).resolve().parents[1] / "fixtures" / "toy_backend" / "adequacy_toy"
    ours = set()
    for p in src.rglob("*.py"):
        for n in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(n, ast.ImportFrom) and n.module and n.module.startswith("adequacy"):
                ours.add(n.module)
            elif isinstance(n, ast.Import):
                ours |= {a.name for a in n.names if a.name.startswith("adequacy")}
    assert ours == {"adequacy.plugin"}
