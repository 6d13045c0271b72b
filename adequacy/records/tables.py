"""Reports a person can read: one spec's scores with both vocabularies, and batch summaries."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from adequacy.console.tables import key_columns
from adequacy.extensions.registry import registry
from adequacy.model.metrics import HARNESS_T, KS, passed_all, summarize, untested_buckets
from adequacy.model.task import Task
from adequacy.model.verdicts import BUCKETS, Bucket
from adequacy.scoring.spec_report import SpecReport, totals


def _pct(v: float | None) -> str:
    return "N/A" if v is None else f"{v:.3f}"


def _symbolic_findings(rep: SpecReport, limit: int = 5) -> list[str]:
    """The solver's confirmed findings, one line each (the first few)."""
    import json
    out: list[str] = []
    figs = rep.symbolic
    if figs is None:
        return out
    if figs.output is not None:
        for r in figs.output.results:
            if r.status in ("second_output", "encoding_fault"):
                what = ("accepts a second output" if r.status == "second_output"
                        else "ENCODING FAULT (solver and engines disagree)")
                out.append(f"{what}: input {json.dumps(r.input)} right {json.dumps(r.output)} "
                           f"other {json.dumps(r.other)}")
    if figs.pre is not None:
        for a in figs.pre.inputs:
            whose = {"valid": " (the task's oracles call it valid: the gold spec is too "
                     "strong here)", "invalid": "", "undecided": " (the task's oracles do not "
                     "decide it)"}[a.oracle]
            out.append(f"accepts an input the gold spec refuses: {json.dumps(a.input)}{whose}")
    return out[:limit] + ([f"... and {len(out) - limit} more (--json lists them)"]
                          if len(out) > limit else [])


def spec_table(rep: SpecReport, harness_t: float = HARNESS_T, max_failures: int = 20,
               task: Task | None = None) -> Group:
    """The bucket table, metrics, engines and failing cases of one report."""
    parts: list[object] = []
    title = f"{rep.task_id}  <-  {rep.spec_path or '(spec text)'}"
    if rep.status == "invalid" and rep.invalid is not None:
        by = f" (found by {rep.invalid.engine})" if rep.invalid.engine else ""
        parts.append(Text(f"{title}\nINVALID SPEC{by}: {rep.invalid.render()}", style="bold red"))
        return Group(*parts)  # type: ignore[arg-type]
    if rep.status == "error":
        parts.append(Text(f"{title}\nERROR (not the spec's fault): {rep.error}", style="bold red"))
        return Group(*parts)  # type: ignore[arg-type]
    t = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, show_edge=False,
              pad_edge=False, collapse_padding=True)
    t.add_column("bucket", no_wrap=True)
    t.add_column("SpecGym / Harness", no_wrap=True)
    t.add_column("must", no_wrap=True, min_width=6)
    for col in ("pass", "fail", "unk", "total", "frac"):
        t.add_column(col, justify="right", no_wrap=True, min_width=len(col))
    for b in BUCKETS:
        s = rep.buckets.get(b)
        if s is None:
            continue
        must = "accept" if b.expects else "reject"
        frac = s.fraction(rep.strict)
        style = "green" if s.total and s.passed == s.total else ("red" if s.failed else "yellow")
        names = registry().metric_of(b)
        t.add_row(b.value, f"{names.specgym_name.removeprefix('tau ')} / {names.label}", must,
                  str(s.passed),
                  str(s.failed), str(s.unknown), str(s.total), Text(_pct(frac), style=style if s.total else ""))
    parts.append(t)
    m = rep.metrics
    if m is not None:
        h = m.harness_at(harness_t)
        ph = m.post_harness_at(harness_t)
        line = ("".join(f"{x.label} {_pct(x.value(rep.buckets, rep.strict))}  "
                        for x in registry().metrics.values())
                + f"Harness@{harness_t:g} {'N/A' if h is None else h}  "
                f"PostHarness@{harness_t:g} {'N/A' if ph is None else ph}  "
                f"scoring {'strict (unknown = failed)' if rep.strict else 'lenient (unknown left out)'}")
        parts.append(Text(line))
    if rep.symbolic is not None:
        for line in rep.symbolic.lines():
            parts.append(Text("solver: " + line))
        for found in _symbolic_findings(rep):
            parts.append(Text("  " + found, style="red"))
    if rep.origins:
        parts.append(Text("cases by origin: " + ", ".join(
            f"{k} {n}" for k, n in sorted(rep.origins.items(), key=lambda kv: (-kv[1], kv[0])))))
    if rep.program_mutants is not None:
        pm = rep.program_mutants
        left = (f"; accepted on every recorded wrong output: {', '.join(pm.survivors)}"
                + (" ..." if pm.mutants - pm.killed > len(pm.survivors) else "")
                if pm.survivors else "")
        parts.append(Text(f"program mutants rejected: {pm.killed}/{pm.mutants} "
                          f"({_pct(pm.ratio)}, the wrong programs the task's cases name)"
                          + left))
    parts.append(verdict_line(rep, task))
    parts.append(Text("engines: " + "; ".join(_engine_note(e.name, e.skipped, e.decided,
                                                           e.cases, e.cached, e.seconds)
                                              for e in rep.engines), style="dim"))
    bad = [v for v in rep.verdicts if not v.passed]
    if bad:
        ft = Table(title=f"cases not passed ({len(bad)})", title_justify="left",
                   box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, collapse_padding=True)
        ft.add_column("bucket", no_wrap=True)
        ft.add_column("case", overflow="fold")
        for col in ("said", "expected", "engine"):
            ft.add_column(col, no_wrap=True)
        ft.add_column("reason", ratio=2)
        ft.add_column("input -> output", ratio=3)
        cases = {(c.bucket, c.id): c for c in task.all_cases()} if task else {}
        for v in bad[:max_failures]:
            expected = "true" if v.bucket.expects else "false"
            c = cases.get((v.bucket, v.case_id))
            ft.add_row(v.bucket.value, Text(v.case_id), v.value.value, expected, v.engine,
                       Text(v.reason[:120]),
                       Text(_short(c.input, c.output)) if c is not None else "")
        parts.append(key_columns(ft, 2))
        if len(bad) > max_failures:
            parts.append(Text(f"... and {len(bad) - max_failures} more (see --json)"))
    if rep.disagreements:
        dt = Table(title=f"engine disagreements ({len(rep.disagreements)}): defects",
                   title_justify="left")
        dt.add_column("bucket")
        dt.add_column("case")
        dt.add_column("values")
        for d in rep.disagreements:
            dt.add_row(d.bucket.value, d.case_id,
                       ", ".join(f"{e}={v.value}" for e, v in d.values.items()))
        parts.append(dt)
    return Group(*parts)  # type: ignore[arg-type]


def verdict_line(rep: SpecReport, task: Task | None = None) -> Text:
    """PASSED ALL only when every bucket was tested and nothing failed; otherwise say why not,
    naming the untested buckets (an imported task has no sound cases until ``mutate`` runs)
    and, given the task, what would fill each with what the task has."""
    if rep.passed_all:
        return Text("PASSED ALL", style="bold green")
    failed = sum(s.failed + (s.unknown if rep.strict else 0) for s in rep.buckets.values())
    untested = untested_buckets(rep.buckets, rep.strict, rep.empty_by_design)
    words = ["FAILED" if failed else "NOT PASSED"]
    if failed:
        words.append(f"({failed} case{'s' if failed != 1 else ''} not passed)")
    if untested:
        empty = [b.value for b in untested if rep.buckets[b].total == 0]
        undecided = [b.value for b in untested if rep.buckets[b].total > 0]
        said = ([f"{', '.join(empty)} (no cases)"] if empty else []) + (
            [f"{', '.join(undecided)} (no decided case)"] if undecided else [])
        words.append("untested: " + "; ".join(said))
        empty_sound = {b for b in untested if not b.expects and rep.buckets[b].total == 0}
        # each command fills the bucket it can: advice that adds nothing would loop
        if task is not None:
            from adequacy.taskdirs.advice import fill_advice

            for b in (Bucket.pre_sound, Bucket.post_sound):
                if b in empty_sound:
                    words.append(f"- {b.value}: {fill_advice(task, b)}")
        else:
            if Bucket.pre_sound in empty_sound:
                words.append(f"- `adequacy cases generate {rep.task_path}` adds invalid "
                             "inputs (or marks the task every_input_valid)")
            if Bucket.post_sound in empty_sound:
                words.append(f"- `adequacy mutate {rep.task_path}` adds wrong outputs")
    return Text(" ".join(words), style="bold red")


def _engine_note(name: str, skipped: str, decided: int, cases: int, cached: int,
                 seconds: float) -> str:
    """One short note per engine; why an engine is unavailable is `adequacy backends`'s job
    (repeating it on every score buried the scores)."""
    if skipped.startswith("unavailable"):
        return f"{name} unavailable (see `adequacy backends`)"
    if skipped:
        return f"{name} [{skipped}]"
    return f"{name} decided {decided}/{cases}, cached {cached}, {seconds:.2f}s"


def _short(inp: object, out: object) -> str:
    import json
    s = json.dumps(inp, ensure_ascii=False)
    if out is not None:
        s += " -> " + json.dumps(out, ensure_ascii=False)
    return s if len(s) <= 70 else s[:67] + "..."


def batch_table(reports: Sequence[SpecReport], ks: Sequence[int] = KS,
                sampled: Sequence[bool] | None = None) -> Group:
    """One row per report; give exactly one report per job of the batch (``BatchSummary``).

    ``sampled``: whether each report's job carries a writer's sample index (None: none does);
    pass@k and pass^k count those only."""
    t = Table(title="batch", title_justify="left", box=box.SIMPLE_HEAD, show_edge=False,
              pad_edge=False, collapse_padding=True)
    # names fold rather than end in "...": two specs differing only at the end must not read
    # the same in 80 columns
    t.add_column("task", overflow="fold")
    t.add_column("spec", overflow="fold")
    t.add_column("status")
    for b in BUCKETS:
        t.add_column(b.value.replace("_", "\n"), justify="right")
    kills = any(r.program_mutants is not None for r in reports)
    if kills:
        t.add_column("program\nmutants", justify="right")
    t.add_column("all")
    for r in sorted(reports, key=lambda r: (r.task_id, r.spec_path or "")):
        cells = []
        for b in BUCKETS:
            s = r.buckets.get(Bucket(b))
            cells.append("-" if s is None or s.total == 0 else f"{s.passed}/{s.total}"
                         + (f" ({s.unknown}?)" if s.unknown else ""))
        if kills:
            pm = r.program_mutants
            cells.append("-" if pm is None else f"{pm.killed}/{pm.mutants}")
        spec = Path(r.spec_path).name if r.spec_path else ""
        t.add_row(Text(r.task_id), Text(spec), r.status, *cells, "yes" if _passed(r) else "no")
    summ = summarize([(r.task_id, _passed(r), r.buckets if r.status == "scored" else None)
                      for r in reports], ks=ks,
                     sampled=list(sampled) if sampled is not None else [False] * len(reports))
    # every count comes from ``totals`` (as the run's footer does), so the two cannot disagree
    lines = [f"{totals(reports).line()}; tasks {summ.tasks}, Pass@1 {_pct(summ.pass_at_1)}"
             " (an error counts as not passed)"]
    if summ.pass_at_k:
        lines.append("pass@k " + ", ".join(f"k={k}: {v:.3f}" for k, v in summ.pass_at_k.items())
                     + "   pass^k " + ", ".join(f"k={k}: {v:.3f}"
                                                for k, v in summ.pass_hat_k.items())
                     + f" ({summ.grouped()})")
    elif any(n > 1 for n in Counter(r.task_id for r in reports).values()):
        lines.append(summ.why_no_pass_k() + " (pass@k counts samples of one writer: "
                     "`adequacy synthesize --samples N` numbers them)")
    lines.append("bucket means " + ", ".join(f"{b}: {_pct(v)}"
                                            for b, v in summ.bucket_means.items()))
    lines.append(CELL_LEGEND)
    return Group(key_columns(t, 2), Text("\n".join(lines)))


CELL_LEGEND = ("cells: passed/total cases of the bucket; (n?): n of them undecided (unknown: "
               "not passed when strict, left out when lenient); -: the bucket has no cases; "
               "program mutants: the task's wrong programs the spec rejects on some input")
"""What a bucket cell such as ``4/9 (3?)`` means, said under every table that has them."""


def _passed(r: SpecReport) -> bool:
    """Recomputed from the bucket counts, so that records written before the rule "every bucket
    tested" do not count an untested spec as a pass in Pass@1."""
    return (r.status == "scored" and bool(r.buckets)
            and passed_all(r.buckets, r.strict, r.empty_by_design))


def problem_lines(reports: Sequence[SpecReport]) -> list[str]:
    """One line per pair that was not scored, errors first: ``ERROR task spec - reason``.

    The reason is the first line of the record's error or invalid-spec message, cut at 200
    characters (the record keeps it whole): a batch of 500 pairs must end with what went
    wrong, not only with how often."""
    order = {"error": 0, "invalid": 1}
    bad = sorted((r for r in reports if r.status in order),
                 key=lambda r: (order[r.status], r.task_id, r.spec_path or ""))
    out = []
    for r in bad:
        if r.status == "error":
            why = r.error or "scoring failed"
        else:
            why = r.invalid.render() if r.invalid is not None else "invalid spec"
        why = next((ln.strip() for ln in why.splitlines() if ln.strip()), "")
        why = why if len(why) <= 200 else why[:197] + "..."
        task = r.task_id if r.task_id != "?" else r.task_path  # a task that could not be read
        out.append(f"{r.status.upper():7} {task} {r.spec_path or '(spec text)'} - {why}")
    return out
