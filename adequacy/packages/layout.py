"""Read a problem package in Polygon's layout (plus our ``hacks/`` and ``adequacy/`` folders).

A package is untrusted input: every path it names (in ``problem.xml`` or by file name) must
stay inside the package folder after symlinks are resolved, files are size-capped, and a
malformed ``problem.xml`` is an ``InputError`` with its file and line. What is read here is
data only; nothing of the package runs in this module.

Polygon's ``problem.xml`` (the parts we read)::

    <problem short-name="NAME">
      <names><name language="english" value="TITLE"/></names>
      <judging input-file="" output-file="">
        <testset name="tests">
          <time-limit>1000</time-limit> <memory-limit>268435456</memory-limit>
          <test-count>N</test-count>
          <input-path-pattern>tests/%02d</input-path-pattern>
          <answer-path-pattern>tests/%02d.a</answer-path-pattern>
          <tests><test method="manual" sample="true"/> ...</tests>
        </testset>
      </judging>
      <assets>
        <checker name="std::ncmp.cpp" type="testlib"><source path="files/check.cpp" type="cpp.g++17"/></checker>
        <validators><validator><source path="files/val.cpp" type="cpp.g++17"/></validator></validators>
        <solutions><solution tag="main"><source path="solutions/a.cpp" type="cpp.g++17"/></solution></solutions>
        <interactor> ... (interactive problems are not supported)
      </assets>
    </problem>
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from adequacy.errors import InputError

#: Largest file of a package we read (a test, an answer, a source, problem.xml).
MAX_FILE_BYTES = 64 * 1024 * 1024
_PATTERN = re.compile(r"%0?(\d*)d")


class Source(BaseModel):
    """A program of the package: its file and Polygon's source type (``cpp.g++17``,
    ``python.3``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    path: Path
    type: str
    name: str = ""
    """The checker's Polygon name (``std::rcmp4.cpp`` says floating-point output)."""


class TestFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    number: int
    input: Path
    answer: Path | None
    """None when the package has no answer file for the test."""
    sample: bool = False


class HackRecord(BaseModel):
    """One hack: an input written against a program, that program's output on it, and the
    verdicts its record states (the judges are run anyway; a disagreement drops the hack)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    input: Path
    output: Path | None = None
    valid: bool | None = None
    """``"validator": "valid" | "invalid"`` in the record."""
    accepted: bool | None = None
    """``"checker": "ok" | "wa" | "pe"`` in the record (ok: accepted)."""
    truncated: bool = False
    program: str = ""


class Package(BaseModel):
    """What the importer needs of one package folder."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    root: Path
    name: str
    title: str = ""
    statement: str = ""
    time_limit_ms: int = 2000
    memory_limit_mb: int = 256
    stdio: bool = True
    """False when the problem reads or writes named files instead of stdin/stdout."""
    interactive: bool = False
    tests: list[TestFile] = []
    checker: Source | None = None
    validator: Source | None = None
    solution: Source | None = None
    hacks: list[HackRecord] = []
    task_toml: Path | None = None
    """``adequacy/task.toml``: the declared types (our addition to the layout)."""
    io_py: Path | None = None
    """``adequacy/io.py``: the parser and printer (written by hand or by ``package convert``)."""


def inside(root: Path, rel: str, what: str, where: str) -> Path:
    """``root/rel`` if it stays inside ``root`` once symlinks are resolved, else InputError."""
    if not rel or rel.startswith("/") or "\\" in rel or "\0" in rel:
        raise InputError(f"{what} path {rel!r} must be relative to the package", file=where)
    real_root = root.resolve()
    p = (root / rel).resolve()
    if p != real_root and real_root not in p.parents:
        raise InputError(f"{what} path {rel!r} leaves the package folder", file=where)
    return p


def read_bytes(p: Path, what: str) -> bytes:
    """A regular file's bytes, capped (InputError naming it otherwise)."""
    if not p.is_file():
        raise InputError(f"{what}: not a file", file=str(p))
    size = p.stat().st_size
    if size > MAX_FILE_BYTES:
        raise InputError(f"{what}: {size} bytes, more than the {MAX_FILE_BYTES} a package file "
                         "may hold", file=str(p))
    return p.read_bytes()


def _xml(root: Path) -> ET.Element:
    path = root / "problem.xml"
    data = read_bytes(inside(root, "problem.xml", "problem.xml", str(root)), "problem.xml")
    if b"<!ENTITY" in data or b"<!DOCTYPE" in data:
        raise InputError("a DOCTYPE or entity declaration is not accepted in problem.xml",
                         file=str(path))
    try:
        return ET.fromstring(data)
    except ET.ParseError as e:
        line = e.position[0] if e.position else None
        raise InputError(f"not well-formed XML ({e.msg if hasattr(e, 'msg') else e})",
                         file=str(path), line=line) from None


def _int(el: ET.Element | None, tag: str, default: int, where: str) -> int:
    if el is None:
        return default
    text = el.findtext(tag)
    if text is None or not text.strip():
        return default
    try:
        return int(text.strip())
    except ValueError:
        raise InputError(f"<{tag}> must be a whole number, got {text.strip()!r}",
                         file=where) from None


def _source(el: ET.Element | None, root: Path, what: str, where: str) -> Source | None:
    if el is None:
        return None
    src = el.find("source")
    if src is None or not src.get("path"):
        return None
    p = inside(root, src.get("path", ""), what, where)
    if not p.is_file():
        raise InputError(f"{what} source {src.get('path')!r} is missing", file=where)
    return Source(path=p, type=src.get("type", ""), name=el.get("name", ""))


def _test_path(pattern: str, n: int, root: Path, where: str, what: str) -> Path:
    if len(_PATTERN.findall(pattern)) != 1 or pattern.count("%") != 1:
        raise InputError(f"{what} {pattern!r} must hold exactly one %d (as tests/%02d)",
                         file=where)
    return inside(root, _PATTERN.sub(lambda m: f"{n:0{m.group(1) or 0}d}", pattern), what,
                  where)


def _tests(testset: ET.Element | None, root: Path, where: str) -> list[TestFile]:
    in_pat, ans_pat = "tests/%02d", "tests/%02d.a"
    rows: list[ET.Element] = []
    count = 0
    if testset is not None:
        in_pat = testset.findtext("input-path-pattern", in_pat).strip() or in_pat
        ans_pat = testset.findtext("answer-path-pattern", ans_pat).strip() or ans_pat
        tests_el = testset.find("tests")
        rows = list(tests_el.findall("test")) if tests_el is not None else []
        count = _int(testset, "test-count", len(rows), where)
    if count == 0 and testset is None:
        # no testset in problem.xml: every tests/NN file is a test
        count = sum(1 for p in (root / "tests").glob("*") if p.name.isdigit()) \
            if (root / "tests").is_dir() else 0
    if count > 100_000:
        raise InputError(f"<test-count> {count} is more than 100000", file=where)
    out = []
    for n in range(1, count + 1):
        inp = _test_path(in_pat, n, root, where, "input-path-pattern")
        ans = _test_path(ans_pat, n, root, where, "answer-path-pattern")
        if not inp.is_file():
            raise InputError(f"test {n}: input file {inp.relative_to(root.resolve())} is "
                             "missing (packages made without tests hold only generator "
                             "scripts: download the full package)", file=where)
        row = rows[n - 1] if n - 1 < len(rows) else None
        out.append(TestFile(number=n, input=inp, answer=ans if ans.is_file() else None,
                            sample=row is not None and row.get("sample") == "true"))
    return out


def _statement(root: Path) -> str:
    """The statement's text: Polygon's ``problem-properties.json`` (legend, input, output,
    notes), else its sections, else the first ``.tex``/``.md``/``.txt`` under statements/."""
    st = root / "statements"
    if not st.is_dir() or st.is_symlink():
        return ""
    for props in sorted(st.glob("*/problem-properties.json")):
        try:
            data = json.loads(read_bytes(inside(root, str(props.relative_to(root)), "statement",
                                                str(props)), "statement").decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            continue
        parts = [f"## {k.title()}\n\n{data[k].strip()}" for k in ("legend", "input", "output",
                                                                   "notes")
                 if isinstance(data.get(k), str) and data[k].strip()]
        if parts:
            return "\n\n".join(parts) + "\n"
    for pattern in ("*/problem.tex", "*/*.md", "*.md", "*/*.tex", "*/*.txt"):
        for p in sorted(st.glob(pattern)):
            try:
                return read_bytes(inside(root, str(p.relative_to(root)), "statement", str(p)),
                                  "statement").decode("utf-8")
            except (UnicodeDecodeError, InputError):
                continue
    return ""


def _hacks(root: Path) -> list[HackRecord]:
    """``hacks/NAME`` (input), ``hacks/NAME.out`` (the hacked program's output) and
    ``hacks/NAME.json`` (known verdicts), docs/packages.md "hack records"."""
    folder = root / "hacks"
    if not folder.is_dir():
        return []
    inside(root, "hacks", "hacks folder", str(folder))
    out = []
    names = sorted({p.name.split(".", 1)[0] for p in folder.iterdir()},
                   key=lambda s: (len(s), s))
    for name in names:
        if not name or name.startswith(("_", "README")):
            continue
        inp = folder / name
        where = str(inp)
        if not inp.is_file():
            raise InputError("hack record without its input file", file=where)
        inside(root, f"hacks/{name}", "hack input", where)
        output = folder / f"{name}.out"
        meta_path = folder / f"{name}.json"
        meta: dict[str, object] = {}
        if meta_path.exists():
            inside(root, f"hacks/{name}.json", "hack record", str(meta_path))
            try:
                meta = json.loads(read_bytes(meta_path, "hack record").decode("utf-8"))
            except (ValueError, UnicodeDecodeError) as e:
                raise InputError(f"hack record is not JSON ({e})", file=str(meta_path)) from None
            if not isinstance(meta, dict):
                raise InputError("hack record must be a JSON object", file=str(meta_path))
            unknown = set(meta) - {"validator", "checker", "truncated", "program", "author",
                                   "note"}
            if unknown:
                raise InputError(f"unknown key(s) {sorted(unknown)} in a hack record (known: "
                                 "validator, checker, truncated, program, author, note)",
                                 file=str(meta_path))
        valid = _verdict(meta.get("validator"), {"valid": True, "invalid": False},
                         "validator", meta_path)
        accepted = _verdict(meta.get("checker"), {"ok": True, "wa": False, "pe": False},
                            "checker", meta_path)
        if output.exists():
            inside(root, f"hacks/{name}.out", "hack output", str(output))
        out.append(HackRecord(name=name, input=inp.resolve(),
                              output=output.resolve() if output.is_file() else None,
                              valid=valid, accepted=accepted,
                              truncated=bool(meta.get("truncated", False)),
                              program=str(meta.get("program", ""))))
    return out


def _verdict(v: object, allowed: dict[str, bool], key: str, where: Path) -> bool | None:
    if v is None:
        return None
    if not isinstance(v, str) or v.lower() not in allowed:
        raise InputError(f"{key}: expected one of {', '.join(allowed)}, got {v!r}",
                         file=str(where))
    return allowed[v.lower()]


def read_package(root: Path) -> Package:
    """The package at ``root`` (InputError with file and line when it is malformed)."""
    if not root.is_dir():
        raise InputError("not a folder (a package is an unpacked folder with problem.xml)",
                         file=str(root))
    if not (root / "problem.xml").is_file():
        raise InputError("no problem.xml: not a package in Polygon's layout", file=str(root))
    where = str(root / "problem.xml")
    x = _xml(root)
    if x.tag != "problem":
        raise InputError(f"the root element is <{x.tag}>, expected <problem>", file=where)
    name = x.get("short-name") or root.name
    title = ""
    for n in x.findall("./names/name"):
        if n.get("language") == "english" or not title:
            title = n.get("value", "") or title
    judging = x.find("judging")
    testset = None
    if judging is not None:
        testset = judging.find("testset[@name='tests']")
        if testset is None:
            testset = judging.find("testset")
    stdio = judging is None or not (judging.get("input-file") or judging.get("output-file"))
    assets = x.find("assets")
    checker = validator = solution = None
    interactive = False
    if assets is not None:
        checker = _source(assets.find("checker"), root, "checker", where)
        validator = _source(assets.find("validators/validator"), root, "validator", where)
        sols = assets.findall("solutions/solution")
        main = next((s for s in sols if s.get("tag") == "main"), sols[0] if sols else None)
        solution = _source(main, root, "solution", where)
        interactive = assets.find("interactor") is not None
    memory = _int(testset, "memory-limit", 256 * 1024 * 1024, where)
    conv = root / "adequacy"
    return Package(
        root=root.resolve(), name=name, title=title, statement=_statement(root),
        time_limit_ms=_int(testset, "time-limit", 2000, where),
        memory_limit_mb=max(1, memory // (1024 * 1024)), stdio=stdio, interactive=interactive,
        tests=_tests(testset, root, where), checker=checker, validator=validator,
        solution=solution, hacks=_hacks(root),
        task_toml=inside(root, "adequacy/task.toml", "task.toml", where)
        if (conv / "task.toml").is_file() else None,
        io_py=inside(root, "adequacy/io.py", "io.py", where) if (conv / "io.py").is_file()
        else None)
