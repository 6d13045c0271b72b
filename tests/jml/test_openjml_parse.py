"""The OpenJML output parser on recorded outputs written from OpenJML's documented formats."""

from __future__ import annotations

from adequacy.model.task import Case
from adequacy.model.verdicts import Bucket
from adequacy_openjml.engines.openjml.driver import verdicts_from
from adequacy_openjml.engines.openjml.parse import parse_output
from adequacy_openjml.stubs import Stub, StubFile

RUN = """\
Starting proof of Solution.__pre_phi_0() with prover z3_4_3
Completed proof of Solution.__pre_phi_0() with prover z3_4_3 - no warnings
Starting proof of Solution.__pre_not_0() with prover z3_4_3
Solution.java:31: verify: The prover cannot establish an assertion (Assert) in method __pre_not_0
Completed proof of Solution.__pre_not_0() with prover z3_4_3 - with warnings
Starting proof of Solution.__post_phi_1(int[],int) with prover z3_4_3
Solution.java:40: verify: The prover cannot establish an assertion (Postcondition: Solution.java:5:) in method __post_phi_1
Solution.java:5: verify: Associated declaration: Solution.java:40:
Completed proof of Solution.__post_phi_1(int[],int) with prover z3_4_3 - with warnings
Starting proof of Solution.__post_not_1() with prover z3_4_3
Completed proof of Solution.__post_not_1() with prover z3_4_3 - no warnings
Starting proof of Solution.__post_phi_2(int[],int) with prover z3_4_3
Completed proof of Solution.__post_phi_2(int[],int) with prover z3_4_3 - TIMEOUT
Starting proof of Solution.__post_not_2() with prover z3_4_3
Completed proof of Solution.__post_not_2() with prover z3_4_3 - UNKNOWN
Starting proof of Solution.__post_phi_3(int[],int) with prover z3_4_3
Completed proof of Solution.__post_phi_3(int[],int) with prover z3_4_3 - INFEASIBLE
Starting proof of Solution.__post_not_3() with prover z3_4_3
Completed proof of Solution.__post_not_3() with prover z3_4_3 - no warnings
3 verification failures
"""

# The test-suite spelling: warning: instead of verify:, no progress lines.
TESTSUITE = """\
Solution.java:12: warning: The prover cannot establish an assertion (Postcondition: Solution.java:5:) in method __post_phi_0
Solution.java:5: warning: Associated declaration: Solution.java:12:
2 verification failures
"""


def _stubs() -> StubFile:
    stubs = []
    for k, (kind, bucket) in enumerate([("pre", "pre_complete"), ("post", "post_sound"),
                                        ("post", "post_complete"), ("post", "post_sound")]):
        stubs.append(Stub(f"__{kind}_phi_{k}", f"{kind}_phi", f"c{k}", bucket, "phi"))
        stubs.append(Stub(f"__{kind}_not_{k}", f"{kind}_not", f"c{k}", bucket, "not-phi"))
    return StubFile("Solution", "", stubs, {})


def test_progress_lines() -> None:
    r = parse_output(RUN, 6)
    assert r.methods["__pre_phi_0"].status == "proved"
    assert r.methods["__pre_not_0"].status == "failed"
    assert r.methods["__post_phi_1"].status == "failed"
    assert "Postcondition" in r.methods["__post_phi_1"].warnings[0]
    assert len(r.methods["__post_phi_1"].warnings) == 1  # associated declaration not counted
    assert r.methods["__post_phi_2"].status == "timeout"
    assert r.methods["__post_not_2"].status == "unknown"
    assert r.methods["__post_phi_3"].status == "infeasible"


def test_warning_variant_without_progress() -> None:
    r = parse_output(TESTSUITE, 6)
    assert r.methods["__post_phi_0"].status == "failed"


def test_verdicts_both_directions() -> None:
    cases = [Case(id="c0", bucket=Bucket.pre_complete, input={}),
             Case(id="c1", bucket=Bucket.post_sound, input={}, output={"result": 1}),
             Case(id="c2", bucket=Bucket.post_complete, input={}, output={"result": 1}),
             Case(id="c3", bucket=Bucket.post_sound, input={}, output={"result": 1})]
    vs = verdicts_from(_stubs(), RUN, 6, cases, 1.0, "S.java")
    assert [v.value.value for v in vs] == ["true", "false", "unknown", "false"]
    # c3: phi infeasible (vacuous) is not an acceptance; not-phi proved decides
    assert vs[2].reason.startswith("neither direction proved")


def test_compile_error_is_spec_invalid() -> None:
    import pytest

    from adequacy.errors import SpecInvalid
    out = "Solution.java:7: error: cannot find symbol\n  symbol: variable y\n1 error\n"
    with pytest.raises(SpecInvalid) as ei:
        verdicts_from(_stubs(), out, 1, [], 0.1, "S.java")
    assert ei.value.line == 7 and ei.value.engine == "openjml"
