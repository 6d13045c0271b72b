"""A wheel of this project, and the exact versions of what it needs, for a container image.

An exported Harbor task installs the project from a wheel placed beside its Dockerfile: the
image then grades with the code that wrote the task, not with whatever a registry holds on
the day it is built. The wheel is built from the checkout this package runs from (the files git
knows, copied to a temporary folder first, so the build leaves nothing in the checkout), or a
wheel the user names is used. The image gets a copy without the bundled examples (the example
tasks with every case, gold specs of imported datasets): an exported task may be one of them,
and the agent's image must hold no hidden case. ``constraints.txt`` pins every distribution the
wheel pulls in to the version installed here, so two builds of the same export install the same
code.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from importlib import metadata
from pathlib import Path

from adequacy.errors import InputError

DISTRIBUTION = "spec-adequacy"
_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
_EXTRA = re.compile(r"""extra\s*==\s*["']([^"']+)["']""")
_SKIP_PARTS = {".git", ".venv", "venv", "build", "dist", "__pycache__", ".mypy_cache",
               ".ruff_cache", ".pytest_cache", "target", ".fresh", ".adequacy"}


def source_root() -> Path | None:
    """The checkout this package is imported from (the folder with pyproject.toml above the
    ``adequacy`` package), or None for an installed wheel."""
    here = Path(__file__).resolve().parents[2]
    if (here / "pyproject.toml").is_file() and (here / "adequacy" / "__init__.py").is_file():
        return here
    return None


def _project_files(root: Path) -> list[Path]:
    """The files of the checkout a build may read: what git tracks plus untracked files git
    does not ignore (a module added but not yet committed still ships); without git, every
    file outside caches, virtual environments and build output."""
    try:
        out = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--cached", "--others",
                              "--exclude-standard"], capture_output=True, timeout=60, check=True)
        names = [n for n in out.stdout.decode("utf-8", "replace").split("\0") if n]
        return [Path(n) for n in names if (root / n).is_file()]
    except (OSError, subprocess.SubprocessError):
        return [p.relative_to(root) for p in root.rglob("*")
                if p.is_file() and not (set(p.relative_to(root).parts) & _SKIP_PARTS)]


def build_wheel(dest: Path, root: Path | None = None, timeout: float = 900) -> Path:
    """Build the project's wheel into ``dest`` from a copy of the checkout; the wheel's path.

    ``python -m build --wheel`` when the ``build`` package is here, else ``pip wheel
    --no-deps``; either makes its own isolated build environment (setuptools from the package
    index or pip's cache)."""
    root = root or source_root()
    if root is None:
        raise InputError("this spec-adequacy is installed from a wheel, not run from a "
                         "checkout: give the wheel to put in the image with --wheel FILE "
                         "(e.g. `pip download spec-adequacy --no-deps -d .`)")
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="adequacy-wheel-") as tmp:
        src = Path(tmp) / "src"
        for rel in _project_files(root):
            target = src / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(root / rel, target)
        out = Path(tmp) / "out"
        try:
            import build  # noqa: F401 - only asks whether it is installed

            cmd = [sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(src)]
        except ImportError:
            cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out),
                   str(src)]
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=tmp)
        except subprocess.TimeoutExpired:
            raise InputError(f"building the wheel took more than {timeout:.0f} s",
                             file=str(root)) from None
        wheels = sorted(out.glob("*.whl")) if out.is_dir() else []
        if r.returncode != 0 or len(wheels) != 1:
            tail = (r.stderr or r.stdout).strip().splitlines()[-5:]
            raise InputError("could not build the wheel (" + " | ".join(tail) + "); give one "
                             "with --wheel FILE", file=str(root))
        final = dest / wheels[0].name
        shutil.copyfile(wheels[0], final)
    return final


def check_wheel(path: Path) -> str:
    """The wheel's file name, after checking it is a wheel of this project."""
    if not path.is_file() or path.suffix != ".whl":
        raise InputError("not a wheel file (expected NAME-VERSION-...-none-any.whl)",
                         file=str(path))
    if not path.name.replace("-", "_").lower().startswith("spec_adequacy_"):
        raise InputError("not a wheel of spec-adequacy", file=str(path))
    try:
        with zipfile.ZipFile(path) as z:
            if not any(n.startswith("adequacy/") for n in z.namelist()):
                raise InputError("the wheel holds no adequacy package", file=str(path))
    except zipfile.BadZipFile:
        raise InputError("not a zip archive", file=str(path)) from None
    return path.name


def constraints(extras: tuple[str, ...] = ("gym",)) -> tuple[str, list[str]]:
    """``constraints.txt`` pinning everything the project with ``extras`` needs, transitively,
    to the versions installed here; and the requirements that are not installed here (their
    versions are left to pip in the image)."""
    pins: dict[str, str] = {}
    missing: list[str] = []
    todo: list[tuple[str, tuple[str, ...]]] = [(DISTRIBUTION, extras)]
    seen: set[str] = set()
    while todo:
        name, want = todo.pop()
        key = _norm(name)
        if key in seen:
            continue
        seen.add(key)
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            missing.append(name)
            continue
        if key != _norm(DISTRIBUTION):
            pins[dist.metadata["Name"]] = dist.version
        for req in dist.requires or []:
            m = _NAME.match(req)
            if m is None:
                continue
            marker = req.split(";", 1)[1] if ";" in req else ""
            extra = _EXTRA.search(marker)
            if extra is not None and extra.group(1) not in want:
                continue
            inner = re.search(r"\[([^\]]*)\]", req.split(";", 1)[0])
            sub = tuple(e.strip() for e in inner.group(1).split(",")) if inner else ()
            todo.append((m.group(1), sub))
    lines = ["# Versions installed where this task was exported; the image installs these.",
             *(f"{n}=={v}" for n, v in sorted(pins.items(), key=lambda kv: kv[0].lower()))]
    return "\n".join(lines) + "\n", sorted(set(missing))


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _package_relative(path: Path) -> str | None:
    """``path`` as a wheel names it: relative to the folder holding its top-level package."""
    p = path.resolve()
    for anc in p.parents:
        if (anc / "__init__.py").is_file() and not (anc.parent / "__init__.py").is_file():
            return p.relative_to(anc.parent).as_posix()
    return None


def bundled_in_wheel() -> list[str]:
    """Where the bundled example folders sit inside the wheel (``adequacy_verus/examples/
    verus``...): what ``adequacy examples`` copies out, none of which an image needs."""
    from adequacy.examples import bundled

    return sorted({rel for f in bundled() if (rel := _package_relative(f.source))})


def image_wheel(src: Path, dest_dir: Path, drop: list[str]) -> tuple[Path, int]:
    """A copy of the wheel without the files under ``drop`` (its RECORD updated to match);
    the copy and how many files it left out. Entries keep their names, dates and modes."""
    dest_dir.mkdir(parents=True, exist_ok=True)
    dest = dest_dir / src.name
    with zipfile.ZipFile(src) as zin:
        names = zin.namelist()
        gone = {n for n in names if any(n == d or n.startswith(d.rstrip("/") + "/")
                                        for d in drop)}
        record = next((n for n in names if n.endswith(".dist-info/RECORD")), None)
        if record is None:
            raise InputError("the wheel has no .dist-info/RECORD", file=str(src))
        kept = [ln for ln in zin.read(record).decode("utf-8").splitlines()
                if ln and ln.split(",", 1)[0] not in gone]
        with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as zout:
            for info in zin.infolist():
                if info.filename in gone:
                    continue
                data = ("\n".join(kept) + "\n").encode() if info.filename == record \
                    else zin.read(info)
                zout.writestr(info, data)
    return dest, len(gone)
