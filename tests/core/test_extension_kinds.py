"""Every extension kind through one registry: a third-party plugin (the toy) adds a writer, a
metric, a mutation operator and a judge through ``adequacy.plugin`` alone; names are unique
across plugins (errors name both); records name the writer with its parameters and every
plugin's distribution."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from adequacy.errors import BackendError
from adequacy.extensions import registry
from adequacy.extensions.hookspecs import hookimpl
from adequacy.plugin import (
    SKIP,
    BucketStats,
    JudgeKind,
    Metric,
    MutationOperator,
    StringType,
    WriterKind,
    WriterOptions,
)
from toy_support import GOLD, run_cli, toy_task_with_visible


def test_the_toy_adds_one_of_each_kind_beside_the_builtins(toy: None) -> None:
    reg = registry.registry()
    assert {"templates", "houdini", "dspy", "toy-bounds"} <= set(reg.writers)
    assert list(reg.metrics)[:4] == ["post_corr", "post_comp", "pre_corr", "pre_comp"]
    assert "toy_decided" in reg.metrics
    assert {"adequacy", "vr", "verified_adequacy"} <= set(reg.objectives)
    assert "toy.string.rot13" in reg.operators and "int.plus_one" in reg.operators
    assert set(reg.judges) == {"reference", "toy-succ"}
    assert reg.provider("writer", "toy-bounds") == "adequacy_toy.plugin"
    assert reg.provider("metric", "post_corr") == "adequacy.scoring.metrics_plugin"


def test_a_plugin_operator_joins_its_constructors_operators_and_makes_mutants(toy: None
                                                                              ) -> None:
    from adequacy_mutators import mutants, operators_for

    names = [op.name for op in operators_for(StringType())]
    assert names[-1] == "toy.string.rot13" and names[0] == "string.edit"
    made = {m.operator: m.value for m in mutants("Hello", StringType(), 40, seed=3)}
    assert made.get("toy.string.rot13") == "Uryyb"
    # a nullable string gets it too, unwrapped, and never on null
    from adequacy.model.types import NullableType
    assert "toy.string.rot13" in [op.name for op in operators_for(NullableType(StringType()))]


def test_a_plugin_metric_is_printed_with_the_builtin_ones(toy: None, toy_task: Path) -> None:
    from rich.console import Console

    from adequacy.records.tables import spec_table
    from adequacy.scoring.runner import score_spec
    from adequacy.taskdirs.load import load_task

    task = load_task(toy_task)
    rep = score_spec(task, "pre: x >= 0\n")  # no post: every post case accepted
    con = Console(width=300, record=True)
    con.print(spec_table(rep))
    text = con.export_text()
    assert "PostCorr 1.000  PostComp 0.000  PreCorr 1.000  PreComp 1.000  toy_decided 1.000" \
        in text
    # the bucket table names each bucket by the metric that is its pass fraction
    assert "post-sound / PostComp" in text


def test_the_plugin_metric_computes_from_the_buckets() -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures" / "toy_backend"))
    try:
        from adequacy_toy.extras import METRICS
    finally:
        sys.path.pop(0)
    from adequacy.model.verdicts import Bucket
    stats = {Bucket.pre_complete: BucketStats(total=3, passed=1, failed=1, unknown=1),
             Bucket.pre_sound: BucketStats(total=1, passed=1, failed=0, unknown=0)}
    assert METRICS[0].value(stats) == 3 / 4  # 3 of 4 cases decided


def test_a_plugin_writer_is_made_by_name_and_named_in_provenance(toy: None, tmp_path: Path
                                                                 ) -> None:
    from adequacy.taskdirs.load import load_task
    from adequacy_optimizers.registry import make_writer, writer_provenance

    task = load_task(toy_task_with_visible(tmp_path / "t"))
    w = make_writer("toy-bounds", WriterOptions())
    assert [s.text for s in w.write(task)] == ["pre: x >= 0\n"]
    prov = writer_provenance("toy-bounds", WriterOptions(family="fs-cot"), samples=2)
    assert prov.writer == "toy-bounds" and prov.family is None  # not one of its params
    assert prov.made_by is not None and prov.made_by.kind == "writer"
    assert prov.made_by.params == {"samples": 2}
    dspy = writer_provenance("dspy", WriterOptions(model="openai/x", temperature=0.5,
                                                   family="zs-cot"), samples=3)
    assert dspy.family == "zs-cot" and dspy.made_by is not None
    assert dspy.made_by.params == {"model": "openai/x", "temperature": 0.5, "family": "zs-cot",
                                   "program": None, "samples": 3}
    assert dspy.made_by.distribution == "spec-adequacy"


def test_a_writer_that_needs_a_model_is_not_made_without_one(toy: None) -> None:
    from adequacy.errors import AdequacyError
    from adequacy_optimizers.registry import make_writer

    with pytest.raises(AdequacyError, match="--writer dspy needs --lm MODEL"):
        make_writer("dspy", WriterOptions())
    with pytest.raises(AdequacyError, match="expected one of templates, houdini, dspy, "
                                            "toy-bounds"):
        make_writer("nope", WriterOptions())


def test_a_plugin_judge_finds_what_a_weak_spec_misses(toy: None, toy_task: Path) -> None:
    from adequacy.scoring.options import ScoreOptions
    from adequacy.search.explore import compare
    from adequacy.search.oracles import SpecJudge
    from adequacy.taskdirs.load import load_task

    task = load_task(toy_task)
    judge = registry.registry().judges["toy-succ"].make(task)
    assert not judge.capabilities.deadline and not judge.capabilities.reference_outputs
    left = SpecJudge(task, "pre: x >= 0\n", None, ScoreOptions())
    assert left.capabilities.deadline
    rep = compare(task, left, judge, seed=0, budget=20.0, per_bucket=1)
    post = [d for d in rep.disagreements if d.predicate == "post"]
    # the spec accepts every output; the judge rejects a wrong one: a post_sound case
    assert post and all(d.left and not d.right for d in post)
    assert all(d.output["result"] != d.input["x"] + 1 for d in post)
    exact = compare(task, SpecJudge(task, GOLD, None, ScoreOptions()), judge, seed=0,
                    budget=5.0)
    assert exact.disagreements == []


# --- names are unique, types are checked ---------------------------------------------------

def _plugin(hook: str, items: list[object]) -> object:
    class P:
        pass

    def impl(self: object) -> list[object]:
        return items

    impl.__name__ = hook
    setattr(P, hook, hookimpl(impl))
    return P()


def _op(name: str, constructor: str = "int") -> MutationOperator:
    return MutationOperator(name=name, constructor=constructor, fn=lambda v, t, r: SKIP)


@pytest.mark.parametrize(("hook", "attr", "first", "second"), [
    ("adequacy_writers", "writers",
     WriterKind(name="w", description="", needs_model=False, make=lambda o: None),  # type: ignore[arg-type,return-value]
     WriterKind(name="w", description="", needs_model=True, make=lambda o: None)),  # type: ignore[arg-type,return-value]
    ("adequacy_metrics", "metrics", Metric(name="m", bucket=None, description=""),
     Metric(name="m", bucket=None, description="again")),
    ("adequacy_mutation_operators", "operators", _op("x.y"), _op("x.y", "seq")),
    ("adequacy_judges", "judges", JudgeKind(name="j", description="", make=lambda t: None),  # type: ignore[arg-type,return-value]
     JudgeKind(name="j", description="", make=lambda t: None)),  # type: ignore[arg-type,return-value]
])
def test_two_plugins_giving_one_name_are_refused_naming_both(hook: str, attr: str,
                                                             first: object, second: object
                                                             ) -> None:
    a, b = _plugin(hook, [first]), _plugin(hook, [second])
    pm = registry.make_manager(load_entry_points=False, plugins=[a, b])
    names = [pm.get_name(a), pm.get_name(b)]
    with pytest.raises(BackendError, match="provided twice") as e:
        getattr(registry.Registry(pm), attr)
    assert all(repr(n) in str(e.value) for n in names)


def test_an_item_of_the_wrong_kind_is_refused_naming_the_plugin() -> None:
    bad = _plugin("adequacy_metrics", [{"name": "m"}])
    pm = registry.make_manager(load_entry_points=False, plugins=[bad])
    with pytest.raises(BackendError, match=r"adequacy_metrics, which is not an "
                                           r"adequacy.plugin.Metric"):
        getattr(registry.Registry(pm), "metrics")  # noqa: B009 - the access is the test


def test_an_operator_of_no_constructor_is_refused() -> None:
    bad = _plugin("adequacy_mutation_operators", [_op("z.q", "integer")])
    pm = registry.make_manager(load_entry_points=False, plugins=[bad])
    with pytest.raises(BackendError, match="constructor 'integer', which is not one of bool"):
        getattr(registry.Registry(pm), "operators")  # noqa: B009 - the access is the test


def test_a_metric_may_not_take_a_builtin_metrics_paper_name(toy: None) -> None:
    from adequacy.scoring import metrics_plugin
    thief = _plugin("adequacy_metrics", [Metric(name="mine", bucket=None, description="",
                                                harness_name="PostCorr")])
    pm = registry.make_manager(load_entry_points=False, plugins=[metrics_plugin, thief])
    with pytest.raises(BackendError, match="share the name 'PostCorr'"):
        getattr(registry.Registry(pm), "metrics")  # noqa: B009 - the access is the test


def test_operators_of_a_constructor_keep_registration_order() -> None:
    first = _plugin("adequacy_mutation_operators", [_op("a.one"), _op("a.two", "seq")])
    second = _plugin("adequacy_mutation_operators", [_op("b.one")])
    pm = registry.make_manager(load_entry_points=False, plugins=[first, second])
    reg = registry.Registry(pm)
    assert [o.name for o in reg.operators_of("int")] == ["a.one", "b.one"]
    assert [o.name for o in reg.operators_of("seq")] == ["a.two"]
    assert reg.operators_of("map") == []


def test_the_builtin_operators_keep_their_order_and_mutants(tmp_path: Path) -> None:
    """Through the registry, a type's operators are the lists they always were: the mutants
    of a fixed seed cannot change with the registry's order."""
    from adequacy.model.types import parse_type
    from adequacy_mutators import mutate_once, operators_for

    seq = [op.name for op in operators_for(parse_type("array<i32>"))]
    assert seq == ["seq.drop", "seq.insert", "seq.duplicate", "seq.swap", "seq.reverse",
                   "seq.sort", "seq.sort_desc", "seq.change_elem", "seq.empty", "array.null",
                   "array.from_null"]
    assert "array.null" not in [op.name for op in operators_for(parse_type("seq<i32>"))]
    nul = [op.name for op in operators_for(parse_type("nullable<array<bool>>"))]
    assert nul[:3] == ["nullable.null", "nullable.from_null", "seq.drop"]
    assert not any(n.startswith("array.") for n in nul)
    assert mutate_once([3, 1, 2], parse_type("seq<i32>"), random.Random(7)) is not None


# --- a separately installed plugin, as pip installs it -------------------------------------

@pytest.mark.slow
def test_installed_plugin_extensions_are_listed_with_their_distribution(installed_toy: Path
                                                                        ) -> None:
    proc = run_cli(["plugins", "--json"], installed_toy)
    assert proc.returncode == 0, proc.stderr
    rows = {(r["kind"], r["name"]): r for r in json.loads(proc.stdout)["extensions"]}
    for key in [("writer", "toy-bounds"), ("metric", "toy_decided"),
                ("mutation operator", "toy.string.rot13"), ("judge", "toy-succ"),
                ("backend", "toy")]:
        assert rows[key]["plugin"] == "toy", key
        assert (rows[key]["distribution"], rows[key]["version"]) == \
            ("adequacy-toy-backend", "0.0.1"), key
    assert rows[("writer", "templates")]["distribution"] == "spec-adequacy"


@pytest.mark.slow
def test_records_name_the_writer_its_parameters_and_every_plugin(installed_toy: Path,
                                                                  tmp_path: Path) -> None:
    task = toy_task_with_visible(tmp_path / "toy_succ")
    out = tmp_path / "written"
    proc = run_cli(["synthesize", str(task), "-o", str(out), "--writer", "toy-bounds",
                    "--samples", "2"], installed_toy)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    jobs = [json.loads(x) for x in (out / "jobs.jsonl").read_text().splitlines()]
    made_by = jobs[0]["provenance"]["made_by"]
    assert made_by == {"kind": "writer", "name": "toy-bounds", "params": {"samples": 2},
                       "distribution": "adequacy-toy-backend", "version": "0.0.1"}
    res = tmp_path / "results.jsonl"
    proc = run_cli(["run", str(out / "jobs.jsonl"), "-o", str(res), "--no-cache", "-q",
                    "--no-progress", "--workers", "1"], installed_toy)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    from adequacy.records.log import read_results
    recs = read_results(res)
    assert len(recs) == 1  # the writer is deterministic: one spec however many samples asked
    prod = recs[0].record.producer
    assert prod.writer == "toy-bounds" and prod.made_by is not None
    assert prod.made_by.distribution == "adequacy-toy-backend"
    plugins = {p.name: (p.distribution, p.version) for p in prod.plugins}
    assert plugins["toy"] == ("adequacy-toy-backend", "0.0.1")
    assert plugins["mutators"][0] == "spec-adequacy" and plugins["verus"][0] == "spec-adequacy"
    # a table row (CSV, data frame) carries them too
    from adequacy.ecosystem.tables import spec_rows
    (row,) = spec_rows([res])
    assert row["made_by.name"] == "toy-bounds" and row["made_by.params.samples"] == 2
    assert "toy=adequacy-toy-backend 0.0.1" in row["plugins"]
