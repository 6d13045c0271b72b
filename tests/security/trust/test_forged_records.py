"""Results records: only a line this installation's grader wrote, as it wrote it, is verified.

Every forgery here has consistent counts (the record validators pass it): a typed line, a
sealed line edited, a seal taken from another line, a line sealed by another installation, a
schema-3 line carrying a seal, a line reformatted, bytes that are not UTF-8, and a gym
submission record typed into ``.gym/submissions.jsonl``. Each reads as not verified, is marked
in every report format, is dropped by ``--verified-only`` and is scored again on resume.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from gym_support import EUCLID, FLAWED, GOLD, installation, make_gym
from typer.testing import CliRunner

from adequacy.cli import app
from adequacy.records.html import build_study, read_records, render_html, render_json
from adequacy.records.log import read_results

runner = CliRunner()


def _run(task: Path, glob: str, out: Path) -> str:
    r = runner.invoke(app, ["run", "--tasks", str(task), "--spec-glob", glob, "-o", str(out),
                            "--no-cache", "--no-progress", "--workers", "1"])
    assert r.exit_code == 0, r.output
    return r.stderr


@pytest.fixture
def lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Real sealed lines: the gold spec's (passes) and the flawed spec's (fails)."""
    installation(tmp_path, monkeypatch)
    task = tmp_path / "euclid_mod"
    shutil.copytree(EUCLID, task)
    (task / "specs" / "flawed.rs").write_text(FLAWED)
    _run(task, "specs/gold.rs", tmp_path / "gold.jsonl")
    _run(task, "specs/flawed.rs", tmp_path / "flawed.jsonl")
    return {"gold": (tmp_path / "gold.jsonl").read_text().strip(),
            "flawed": (tmp_path / "flawed.jsonl").read_text().strip(), "task": str(task)}


def _as_passing(flawed: dict[str, object], gold: dict[str, object]) -> dict[str, object]:
    """The flawed spec's record with the gold spec's (consistent) counts."""
    rep = dict(gold["report"])  # type: ignore[arg-type]
    for k in ("key", "spec_path", "spec_sha"):
        rep[k] = flawed["report"][k]  # type: ignore[index]
    return {**flawed, "report": rep}


def _forgeries(lines: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
               ) -> dict[str, str]:
    gold, flawed = json.loads(lines["gold"]), json.loads(lines["flawed"])
    forged = _as_passing(flawed, gold)
    out = {
        "typed": json.dumps({k: v for k, v in forged.items() if k != "seal"}),
        "edited, seal kept": json.dumps(forged, separators=(",", ":")),
        "seal from another line": json.dumps({**forged, "seal": gold["seal"]},
                                             separators=(",", ":")),
        "schema 3 with a seal": json.dumps({**forged, "schema": 3}, separators=(",", ":")),
        "reformatted genuine": json.dumps(json.loads(lines["flawed"]), indent=None,
                                          separators=(", ", ": ")),
    }
    # sealed by another installation: a real seal, under a key that is not ours
    installation(tmp_path, monkeypatch, "elsewhere")
    from adequacy.records.log import make_record, producer, record_line
    from adequacy.scoring.spec_report import SpecReport as Rep
    rec = make_record(Rep.model_validate(forged["report"]), producer("run"))
    out["sealed elsewhere"] = record_line(rec).strip()
    installation(tmp_path, monkeypatch)
    return out


def test_every_forgery_reads_as_not_verified(lines: dict[str, str], tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    assert all(r.sealed for ln in (lines["gold"], lines["flawed"]) for r in _read(tmp_path, ln))
    for name, line in _forgeries(lines, tmp_path, monkeypatch).items():
        (rec,) = _read(tmp_path, line)
        assert not rec.sealed, name
        assert rec.record.report.key == json.loads(lines["flawed"])["report"]["key"], name
    # bytes that are not UTF-8 inside a genuine line: still a record, never verified
    bad = lines["flawed"].replace('"run"', '"r\udcffn"').encode("utf-8", "surrogateescape")
    p = tmp_path / "bytes.jsonl"
    p.write_bytes(bad + b"\n")
    assert not any(r.sealed for r in read_results(p))


def _read(tmp_path: Path, line: str) -> list:  # type: ignore[type-arg]
    p = tmp_path / "one.jsonl"
    p.write_text(line + "\n")
    return read_results(p)


def test_reports_mark_them_and_resume_scores_them_again(lines: dict[str, str], tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    forged = _forgeries(lines, tmp_path, monkeypatch)
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text(lines["gold"] + "\n" + forged["edited, seal kept"] + "\n")
    study = build_study(read_records([mixed]), [str(mixed)])
    assert study.verified == 1 and study.unverified == [f"{mixed}:2"]
    html = render_html(study)
    assert html.count('class="unverified">NO<') == 1 and "NOT VERIFIED" in html
    assert json.loads(render_json(study))["unverified"] == [f"{mixed}:2"]
    only = read_records([mixed], verified_only=True)
    assert len(only) == 1 and only[0].report.passed_all and only[0].sealed
    r = runner.invoke(app, ["compare", str(mixed), str(mixed), "--verified-only", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["unverified_a"] == 0
    # resume: the forged pass is scored again and the true (failing) grade is the latest
    for name in forged:
        log = tmp_path / f"resume-{name.replace(' ', '-')}.jsonl"
        log.write_text(forged[name] + "\n")
        err = _run(Path(lines["task"]), "specs/flawed.rs", log)
        assert "scored again" in err, name
        (latest,) = read_records([log])
        assert latest.sealed and not latest.report.passed_all, name


def test_a_typed_gym_submission_is_not_verified(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """An agent with a shell of its own appends a passing grade to the folder's log (counts
    copied from a real passing submission of the same task in another folder)."""
    from adequacy.gym import submit

    installation(tmp_path, monkeypatch)
    gym, _ = make_gym(tmp_path)
    twin, _ = make_gym(tmp_path / "twin")
    passing = submit(twin / "euclid_mod", GOLD)
    assert passing.passed_all
    rec = submit(gym / "euclid_mod", FLAWED)
    assert not rec.passed_all
    log = gym / "euclid_mod" / ".gym" / "submissions.jsonl"
    real = json.loads(log.read_text())
    good = json.loads((twin / "euclid_mod" / ".gym" / "submissions.jsonl").read_text())
    typed = {**{k: v for k, v in real.items() if k != "seal"},
             "report": {**good["report"], "key": real["report"]["key"],
                        "spec_sha": real["report"]["spec_sha"]}}
    with log.open("a") as f:
        f.write(json.dumps(typed) + "\n")
    assert [r.sealed for r in read_results(log)] == [True, False]
    last = read_records([log])[-1]
    assert last.report.passed_all and not last.sealed
    assert build_study(read_records([log]), [str(log)]).unverified == [f"{log}:2"]
