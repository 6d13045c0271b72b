"""Problem packages as hostile input: paths out of the package, malformed problem.xml, bad
hack records; the round trip's first differing byte; testlib's exit codes read from a judge
run in the sandbox (a Python judge: no compiler needed)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from adequacy.errors import InputError
from adequacy.examples import bundled_folder
from adequacy.model.task import Param
from adequacy.packages.convert import first_difference, round_trip_error
from adequacy.packages.layout import Source, read_package
from adequacy.packages.programs import run_judge

XML = """<?xml version="1.0"?>
<problem short-name="p">
  <judging input-file="" output-file="">
    <testset name="tests">
      <test-count>{n}</test-count>
      <input-path-pattern>{pat}</input-path-pattern>
      <answer-path-pattern>tests/%02d.a</answer-path-pattern>
    </testset>
  </judging>
  <assets>{assets}</assets>
</problem>
"""


def package(tmp_path: Path, n: int = 1, pat: str = "tests/%02d", assets: str = "") -> Path:
    root = tmp_path / "p"
    (root / "tests").mkdir(parents=True)
    for i in range(1, n + 1):
        (root / "tests" / f"{i:02d}").write_text(f"{i}\n")
        (root / "tests" / f"{i:02d}.a").write_text(f"{i}\n")
    (root / "problem.xml").write_text(XML.format(n=n, pat=pat, assets=assets))
    return root


def test_reads_tests_in_order(tmp_path: Path) -> None:
    pkg = read_package(package(tmp_path, n=3))
    assert [t.input.name for t in pkg.tests] == ["01", "02", "03"]
    assert all(t.answer is not None for t in pkg.tests)


def test_a_path_out_of_the_package_is_refused(tmp_path: Path) -> None:
    root = package(tmp_path, pat="../../etc/%02d")
    with pytest.raises(InputError, match="leaves the package"):
        read_package(root)
    root2 = package(tmp_path / "b", assets='<checker><source path="/etc/passwd" '
                    'type="cpp.g++17"/></checker>')
    with pytest.raises(InputError, match="relative"):
        read_package(root2)


def test_a_symlinked_test_out_of_the_package_is_refused(tmp_path: Path) -> None:
    root = package(tmp_path)
    (root / "tests" / "01").unlink()
    secret = tmp_path / "secret"
    secret.write_text("x\n")
    os.symlink(secret, root / "tests" / "01")
    with pytest.raises(InputError, match="leaves the package"):
        read_package(root)


def test_malformed_xml_names_file_and_line(tmp_path: Path) -> None:
    root = package(tmp_path)
    (root / "problem.xml").write_text("<problem>\n<judging>\n</problem>\n")
    with pytest.raises(InputError) as e:
        read_package(root)
    assert "problem.xml:3" in str(e.value)


def test_entities_are_refused(tmp_path: Path) -> None:
    root = package(tmp_path)
    (root / "problem.xml").write_text('<?xml version="1.0"?><!DOCTYPE p [<!ENTITY a "aaaa">]>'
                                      "<problem>&a;</problem>")
    with pytest.raises(InputError, match="entity"):
        read_package(root)


def test_a_hack_record_with_an_unknown_verdict_is_refused(tmp_path: Path) -> None:
    root = package(tmp_path)
    (root / "hacks").mkdir()
    (root / "hacks" / "h1").write_text("5\n")
    (root / "hacks" / "h1.json").write_text('{"checker": "maybe"}')
    with pytest.raises(InputError, match="checker: expected one of ok, wa, pe"):
        read_package(root)
    (root / "hacks" / "h1.json").write_text('{"verdict": "ok"}')
    with pytest.raises(InputError, match="unknown key"):
        read_package(root)


def test_first_difference() -> None:
    assert first_difference(b"abc", b"abc") == 3
    assert first_difference(b"abc", b"abd") == 2
    assert first_difference(b"ab", b"abc") == 2
    msg = round_trip_error("official-01", "input", b"007\n", b"7\n")
    assert "at byte 0" in msg and "b'0'" in msg and "b'7'" in msg


CHECKER = """import sys
got = open(sys.argv[2]).read().split()
want = open(sys.argv[3]).read().split()
if not got or not got[0].lstrip('-').isdigit():
    sys.exit(2)
if got[0] == 'boom':
    raise RuntimeError('crash')
sys.exit(0 if got == want else 1)
"""


def test_checker_exit_codes_in_the_sandbox(tmp_path: Path) -> None:
    src = tmp_path / "check.py"
    src.write_text(CHECKER)
    outs = run_judge(Source(path=src, type="python.3"), "checker",
                     [(b"1\n", b"7\n", b"7\n"), (b"1\n", b"8\n", b"7\n"),
                      (b"1\n", b"x\n", b"7\n")], cache=tmp_path)
    assert [o.accepted for o in outs] == [True, False, False]
    assert [o.code for o in outs] == [0, 1, 2]


def test_validator_crash_is_invalid_and_no_state_crosses_cases(tmp_path: Path) -> None:
    """An assert that fails rejects the input; a global the judge sets on one case is gone on
    the next (each case runs in a fresh fork)."""
    src = tmp_path / "val.py"
    src.write_text("import sys, builtins\n"
                   "assert not getattr(builtins, 'seen', False), 'state crossed'\n"
                   "builtins.seen = True\n"
                   "assert int(sys.stdin.read()) > 0\n")
    outs = run_judge(Source(path=src, type="python.3"), "validator",
                     [(b"1\n", b"", b""), (b"-1\n", b"", b""), (b"2\n", b"", b"")],
                     cache=tmp_path)
    assert [o.valid for o in outs] == [True, False, True]
    assert outs[1].status == "crash"


def test_a_judge_that_loops_times_out(tmp_path: Path) -> None:
    src = tmp_path / "val.py"
    src.write_text("while True:\n    pass\n")
    (o,) = run_judge(Source(path=src, type="python.3"), "validator", [(b"1\n", b"", b"")],
                     cache=tmp_path, case_seconds=1)
    assert o.status == "timeout" and o.valid is None


@pytest.mark.requires("bwrap")
def test_a_judge_cannot_read_outside_its_sandbox(tmp_path: Path) -> None:
    src = tmp_path / "val.py"
    secret = tmp_path / "secret.txt"
    secret.write_text("hidden")
    src.write_text(f"import sys\ntry:\n    open({str(secret)!r}).read()\n    sys.exit(0)\n"
                   "except OSError:\n    sys.exit(1)\n")
    (o,) = run_judge(Source(path=src, type="python.3"), "validator", [(b"1\n", b"", b"")],
                     cache=tmp_path)
    assert o.valid is False


def test_an_io_py_that_loops_or_reads_outside_fails_cleanly(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    from adequacy.errors import ConvertError
    from adequacy.model.types import parse_type
    from adequacy.packages import convert
    from adequacy.packages.convert import Request, convert_all

    params = {"input": [Param(name="n", type=parse_type("i64"), type_text="i64")],
              "output": []}
    io = tmp_path / "io.py"
    io.write_text("def parse_input(t):\n    while True:\n        pass\n"
                  "print_input = parse_output = print_output = parse_input\n")
    monkeypatch.setattr(convert, "SECONDS_PER_TEXT", 0.0)
    monkeypatch.setattr(convert, "START_SECONDS", 2.0)
    with pytest.raises(ConvertError, match="timed out"):
        convert_all(io, [Request("t1", "input", b"1\n")], params)
    io.write_text("def parse_input(t):\n    return {'n': len(open('/etc/hostname').read())}\n"
                  "def print_input(v):\n    return '1\\n'\n"
                  "def parse_output(t, i):\n    return {}\ndef print_output(v, i):\n"
                  "    return ''\n")
    (c,) = convert_all(io, [Request("t1", "input", b"1\n")], params)
    if shutil.which("bwrap"):
        assert c.value is None and "FileNotFoundError" in c.error


@pytest.mark.requires("g++")
def test_a_judge_that_does_not_compile_names_its_file_and_error(tmp_path: Path) -> None:
    from adequacy.errors import JudgeError
    src = tmp_path / "val.cpp"
    src.write_text("int main() { return undefined_name; }\n")
    with pytest.raises(JudgeError, match=r"val.cpp: does not compile with g\+\+: .*"
                                         r"undefined_name"):
        run_judge(Source(path=src, type="cpp.g++17"), "validator", [(b"1\n", b"", b"")],
                  cache=tmp_path)


@pytest.mark.slow
def test_core_routes_any_language_and_asks_its_backend_for_the_skeleton(
        tmp_path: Path, toy: None) -> None:
    """The Python sample package declared in the toy language: converted, judged and routed by
    core alone (the same drops as for its Verus task), then refused because the toy backend
    writes no skeleton (``Backend.new_skeleton`` returns None): nothing is written."""
    from adequacy.packages import import_packages
    src = bundled_folder("packages") / "any_divisor"
    pkg = tmp_path / "any_divisor"
    shutil.copytree(src, pkg)
    toml = pkg / "adequacy" / "task.toml"
    toml.write_text(toml.read_text().replace('language = "verus"', 'language = "toy"'))
    (o,) = import_packages([pkg], tmp_path / "out").outcomes
    assert not o.converted and o.problems[0].kind == "no skeleton"
    assert {(p.case, p.kind) for p in o.problems[1:]} == {
        ("official-07", "duplicate case"), ("hack-h2", "duplicate case"),
        ("hack-h13", "input does not round-trip"), ("hack-h14", "syntactically invalid hack"),
        ("hack-h16", "output does not round-trip"), ("hack-h17", "truncated test")}
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == []
