"""`adequacy export harbor` checked by Harbor itself: its task and dataset models, its packager's
digests, `harbor lint`, its reward reader on what `tests/test.sh` writes for every bundled spec,
and the image build's gym step; plus a scan of every exported file for hidden cases and paths
of this machine."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path
from typing import Any

import pytest

from adequacy.taskdirs.load import load_task

from .conftest import EXAMPLES, REPO, bundled_specs, harbor_call
from .sandbox import bwrap, run_test_sh

pytestmark = pytest.mark.slow

SPECS = bundled_specs()


def task_dirs(out: Path) -> list[Path]:
    return sorted(d for d in out.iterdir() if (d / "task.toml").is_file())


def test_harbor_models_load_every_task_and_digests_match(exported: Path, harbor: Path) -> None:
    got = harbor_call(harbor, "check_export", {"out": str(exported)})
    sources = {load_task(d).id for lang in EXAMPLES for d in lang.iterdir()
               if (d / "task.toml").is_file()}
    assert {n.split("/")[1] for n in got["tasks"]} == sources
    assert got["metric_matches"]
    for name, t in got["tasks"].items():
        tid = name.split("/")[1]
        assert t["digest_matches"], name
        assert t["verifier_mode"] == "separate"
        assert t["agent_user"] == "agent"
        assert t["network"] == "public" and t["agent_network"] == "no-network"
        assert t["mcp"] == ["spec-gym"]
        assert len(t["artifacts"]) == 1 and t["artifacts"][0].startswith(f"/app/{tid}/")
        meta = t["metadata"]
        task = next(load_task(d) for lang in EXAMPLES for d in lang.iterdir()
                    if (d / "task.toml").is_file() and load_task(d).id == tid)
        assert meta["cases"] == {b.value: len(c) for b, c in task.cases.items()}
        assert meta["language"] == task.language


def test_harbor_lint_default_rules_find_nothing(exported: Path, harbor: Path) -> None:
    r = subprocess.run([str(harbor / "bin" / "harbor"), "lint", "--json",
                        *map(str, task_dirs(exported))], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout) == []


def test_harbor_lint_all_rules_flag_only_the_unpinned_base_image(
        exported: Path, harbor: Path, wheel: Path, tmp_path: Path) -> None:
    """`--select ALL` adds root-agent (fixed: the agent runs as `agent`) and unpinned-image:
    the default base image is a tag; pinned by digest (`--base-image`), nothing is left.
    Lint checks the digest's form only, so a well-formed digest stands in for a real one."""
    from adequacy.ecosystem.harbor_export import HarborOptions, export_harbor

    r = subprocess.run([str(harbor / "bin" / "harbor"), "lint", "--select", "ALL", "--json",
                        *map(str, task_dirs(exported))], capture_output=True, text=True,
                       timeout=300)
    findings = json.loads(r.stdout)
    assert {f["rule"] for f in findings} == {"unpinned-image"}
    assert len(findings) == len(task_dirs(exported))
    pinned = tmp_path / "pinned"
    export_harbor([EXAMPLES[0] / "euclid_mod", EXAMPLES[1] / "abs_value"], pinned,
                  HarborOptions(wheel=wheel, base_image="python:3.12-slim@sha256:" + "a" * 64))
    r = subprocess.run([str(harbor / "bin" / "harbor"), "lint", "--select", "ALL", "--json",
                        *map(str, task_dirs(pinned))], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0 and json.loads(r.stdout) == [], r.stdout


# ------------------------------------------------------------------ grading with test.sh


@pytest.fixture(scope="module")
def graded(exported: Path, harbor: Path, tmp_path_factory: pytest.TempPathFactory
           ) -> dict[str, Any]:
    """Every bundled spec graded by its exported task's tests/test.sh in the sandbox, each
    reward file then read by Harbor's own reader."""
    if bwrap() is None:
        pytest.skip("needs bubblewrap (bwrap) to run test.sh with the container's paths bound")
    base = tmp_path_factory.mktemp("trials")
    runs: dict[str, Any] = {}
    for task_rel, spec, _fails in SPECS:
        task = load_task(REPO / task_rel)
        folder = exported / task.id
        meta = tomllib.loads((folder / "task.toml").read_text())["metadata"]
        key = f"{task.id}/{spec}"
        trial = base / key.replace("/", "__")
        ws = trial / "workspace"
        target = ws / meta["spec_file"].removeprefix("/app/")
        target.parent.mkdir(parents=True)
        shutil.copyfile(REPO / task_rel / "specs" / spec, target)
        r = run_test_sh(folder, ws, trial / "verifier")
        runs[key] = {"trial": str(trial), "rc": r.returncode, "out": r.stdout, "err": r.stderr}
    rewards = harbor_call(harbor, "read_rewards",
                          {"trials": {k: v["trial"] for k, v in runs.items()}})
    for k in runs:
        runs[k]["harbor"] = rewards[k]
    return runs


@pytest.mark.requires("bwrap")
@pytest.mark.parametrize("task_rel,spec,fails", [
    pytest.param(t, s, f, id=f"{t.split('/')[-1]}/{s}",
                 marks=[pytest.mark.requires("javac")] if s.endswith(".java") else [])
    for t, s, f in SPECS])
def test_test_sh_rewards_read_by_harbor(graded: dict[str, Any], task_rel: str, spec: str,
                                        fails: list[str]) -> None:
    task = load_task(REPO / task_rel)
    run = graded[f"{task.id}/{spec}"]
    assert run["rc"] == 0, run["err"]
    got = run["harbor"]
    assert "rewards" in got, got
    rewards = got["rewards"]
    assert set(rewards) == {"reward", "pre_complete", "pre_sound", "post_complete",
                            "post_sound"}
    if not fails:
        assert rewards == {k: 1.0 for k in rewards}
    else:
        assert rewards["reward"] < 1.0
        for b in ("pre_complete", "pre_sound", "post_complete", "post_sound"):
            assert (rewards[b] < 1.0) == (b in fails), (b, rewards)
    ctrf = json.loads((Path(run["trial"]) / "verifier" / "ctrf.json").read_text())
    tests = ctrf["results"]["tests"]
    assert len(tests) == len(task.all_cases())
    assert ctrf["results"]["summary"]["tests"] == len(tests)
    failed = {t["suite"][0] for t in tests if t["status"] != "passed"}
    assert failed == set(fails)


def test_missing_or_unreadable_spec_scores_zero_and_is_not_an_error(
        exported: Path, harbor: Path, tmp_path: Path) -> None:
    if bwrap() is None:
        pytest.skip("needs bubblewrap (bwrap)")
    folder = exported / "euclid_mod"
    ws = tmp_path / "ws"
    (ws / "euclid_mod").mkdir(parents=True)  # the agent deleted the spec file
    r = run_test_sh(folder, ws, tmp_path / "verifier")
    assert r.returncode == 0, r.stderr
    got = harbor_call(harbor, "read_rewards", {"trials": {"t": str(tmp_path)}})["t"]
    assert got["rewards"] == {"reward": 0.0, "pre_complete": 0.0, "pre_sound": 0.0,
                              "post_complete": 0.0, "post_sound": 0.0}


def test_a_grading_failure_writes_no_reward(exported: Path, tmp_path: Path) -> None:
    """Our failure (a task that does not load) is no zero for the spec: no reward file, so
    Harbor records the trial as an error; and no file of ours planted before survives."""
    if bwrap() is None:
        pytest.skip("needs bubblewrap (bwrap)")
    broken = tmp_path / "broken"
    shutil.copytree(exported / "euclid_mod", broken)
    (broken / "tests" / "task" / "task.toml").write_text("id = ")
    ws = tmp_path / "ws"
    (ws / "euclid_mod").mkdir(parents=True)
    shutil.copyfile(EXAMPLES[0] / "euclid_mod" / "specs" / "gold.rs", ws / "euclid_mod" / "spec.rs")
    planted = tmp_path / "verifier"  # what an agent sharing /logs could leave behind
    planted.mkdir()
    for name in ("reward.json", "adequacy-report.json", "ctrf.json"):
        (planted / name).write_text('{"reward": 1.0}')
    r = run_test_sh(broken, ws, tmp_path / "verifier")
    assert r.returncode == 2
    assert not [p.name for p in planted.iterdir() if p.suffix == ".json"]
    assert "task.toml" in r.stderr


def test_dataset_metric_through_harbors_uv_script(exported: Path, harbor: Path) -> None:
    if shutil.which("uv", path=f"{harbor / 'bin'}:{os.environ.get('PATH', '')}") is None:
        pytest.skip("Harbor's uv-script metric runs `uv run`: no uv on PATH or in Harbor's "
                    "environment (pip install uv there)")
    got = harbor_call(harbor, "metric", {"script": str(exported / "metric.py"), "rewards": [
        {"reward": 1.0, "pre_complete": 1.0, "pre_sound": 1.0, "post_complete": 1.0,
         "post_sound": 1.0},
        {"reward": 0.0, "pre_complete": 1.0, "pre_sound": 0.5, "post_complete": 1.0,
         "post_sound": 0.9}, None]})
    assert got["solved_rate"] == pytest.approx(1 / 3)
    assert got["pre_sound_mean"] == pytest.approx(0.5)  # the ungraded trial counts 0
    assert got["ungraded"] == 1


def test_metric_script_computes_means_and_solved_rate(exported: Path, tmp_path: Path) -> None:
    """The same script run as Harbor runs it (`-i rewards.jsonl -o metric.json`), with this
    interpreter (it needs nothing but the standard library)."""
    rows = [{"reward": 1.0, "pre_complete": 1.0, "pre_sound": 1.0, "post_complete": 1.0,
             "post_sound": 1.0},
            {"reward": 0.0, "pre_complete": 0.5, "pre_sound": 1.0, "post_complete": 1.0,
             "post_sound": 0.0}, None, None]
    src = tmp_path / "rewards.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    subprocess.run([sys.executable, str(exported / "metric.py"), "-i", str(src), "-o",
                    str(tmp_path / "m.json")], check=True, timeout=60)
    m = json.loads((tmp_path / "m.json").read_text())
    assert m["solved_rate"] == 0.25 and m["graded"] == 2 and m["trials"] == 4
    # a trial without a reward counts 0: leaving it out would reward making grading fail
    assert m["pre_complete_mean"] == 0.375 and m["post_sound_mean"] == 0.25


# ------------------------------------------------------------------ the agent's image


def test_image_gym_step_makes_a_visible_only_folder_where_check_works(
        exported: Path, tmp_path: Path) -> None:
    """The Dockerfile's own `adequacy gym make ... && rm -rf /opt/adequacy/task` line, run with
    environment/task bound at /opt/adequacy/task and a scratch /app: `adequacy check` works in
    the folder with the gold spec, and `adequacy submit` cannot grade (no hidden case here)."""
    if bwrap() is None:
        pytest.skip("needs bubblewrap (bwrap)")
    folder = exported / "binary_search_first"
    docker = (folder / "environment" / "Dockerfile").read_text()
    m = re.search(r"^RUN (adequacy gym make .*)\nUSER root\nRUN (rm -rf /opt/adequacy/task)$",
                  docker, re.M)
    assert m is not None, docker
    opt = tmp_path / "opt"
    shutil.copytree(folder / "environment" / "task", opt / "task")
    app = tmp_path / "app"
    app.mkdir()
    gold = (EXAMPLES[0] / "binary_search_first" / "specs" / "gold.rs").read_text()

    def run(cmd: str, cwd: str = "/") -> subprocess.CompletedProcess[str]:
        args = [shutil.which("bwrap") or "bwrap", "--unshare-all", "--die-with-parent",
                "--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc", "--proc", "/proc",
                "--dev", "/dev", "--tmpfs", "/tmp"]
        for link in ("/bin", "/lib", "/lib64"):
            if os.path.islink(link):
                args += ["--symlink", os.readlink(link), link]
        for p in sorted({os.path.realpath(sys.base_prefix), os.path.realpath(sys.prefix),
                         str(REPO)}):
            args += ["--ro-bind", p, p]
        args += ["--bind", str(opt), "/opt/adequacy", "--bind", str(app), "/app",
                 "--setenv", "PATH", f"{Path(sys.prefix) / 'bin'}:/usr/bin:/bin",
                 "--setenv", "HOME", "/tmp", "--setenv", "ADEQUACY_CACHE", "/tmp/cache",
                 "--chdir", cwd, "bash", "-c", cmd]
        return subprocess.run(args, capture_output=True, text=True, timeout=300)

    r = run(f"{m.group(1)} && {m.group(2)}")
    assert r.returncode == 0, r.stderr
    assert not (opt / "task").exists()
    gymf = app / "binary_search_first"
    (gymf / "spec.rs").write_text(gold)
    r = run("adequacy check", "/app/binary_search_first")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "3 of 3 visible cases passed" in r.stdout
    r = run("adequacy submit", "/app/binary_search_first")
    assert r.returncode == 2 and "PASS" not in r.stdout, r.stdout + r.stderr
    # whatever the gym keeps about its source names a path of the container, none of the host
    text = "".join(p.read_text(errors="replace") for p in gymf.rglob("*") if p.is_file())
    assert str(tmp_path) not in text and str(REPO) not in text


# ------------------------------------------------------------------ nothing leaks


def _files(root: Path) -> list[tuple[str, str]]:
    """(name, text) of every file under root, the wheel's members included."""
    out = []
    for p in sorted(root.rglob("*")):
        if not p.is_file():
            continue
        if p.suffix == ".whl":
            with zipfile.ZipFile(p) as z:
                for n in z.namelist():
                    out.append((f"{p}!{n}", z.read(n).decode("utf-8", "replace")))
        else:
            out.append((str(p), p.read_bytes().decode("utf-8", "replace")))
    return out


def test_no_hidden_case_in_what_an_agent_gets_and_no_path_of_this_machine_anywhere(
        exported: Path) -> None:
    from gym.leaks import Hidden, leaks_in, renderings

    sources = {load_task(d).id: load_task(d) for lang in EXAMPLES for d in lang.iterdir()
               if (d / "task.toml").is_file()}
    from adequacy.scoring.cache import default_cache_dir

    # the home folder itself is left out: `/root` is a word in the project's own comments
    machine = {str(REPO), str(exported), str(exported.resolve()), str(default_cache_dir()),
               os.path.realpath(sys.prefix), os.path.realpath(sys.base_prefix),
               *(str(t.root.resolve()) for t in sources.values())}
    machine = {m for m in machine if m not in ("/", "")}
    files = _files(exported)
    for name, text in files:
        for m in machine:
            assert m not in text, f"{name} holds the path {m}"
    for tid, task in sources.items():
        folder = exported / tid
        shown = load_task(folder / "environment" / "task" / tid)
        visible = {c.key for c in shown.all_cases()}
        assert visible and all(c.visible for c in shown.all_cases())
        allowed = task.statement + task.skeleton + "".join(
            g.read_text() for g in (task.root / "specs").glob("gold.*"))
        shown_in: set[str] = set()
        for c in task.all_cases():
            if c.key in visible:
                shown_in |= renderings(task, c)[0]
        shown_pairs = {(i, o) for c in task.all_cases() if c.key in visible
                       for i in renderings(task, c)[0] for o in renderings(task, c)[1]}
        hidden = []
        for c in task.all_cases():
            if c.key in visible:
                continue
            ins, outs = renderings(task, c)
            if c.output is None:
                ins = {i for i in ins if i not in shown_in and i not in allowed}
            else:
                outs = {o for o in outs if o not in allowed}
                if all((i, o) in shown_pairs for i in ins for o in outs):
                    continue
            hidden.append(Hidden(tid, c.key, ins, outs))
        # what reaches this task's agent: its own folder but tests/ (Harbor copies that in
        # only to grade, in a separate container), and the dataset's files
        own = [(n, t) for n, t in files
               if (n.startswith(f"{folder}{os.sep}") and
                   not n.startswith(f"{folder / 'tests'}{os.sep}"))
               or Path(n.split("!")[0]).parent == exported]
        assert any(n.endswith(".whl!adequacy/__init__.py") for n, _ in own)
        # the wheel is the project's own code and docs: a case could only reach it as data,
        # whose JSON forms are checked there; a bare Java argument list (`-2147483648`) also
        # appears in prose about integers and would flag nothing a task gave away
        as_json = [Hidden(h.task_id, h.case, {i for i in h.inputs if i.startswith("{")},
                          {o for o in h.outputs if o.startswith("{")}) for h in hidden]
        for name, text in own:
            found = leaks_in(text, as_json if ".whl!" in name else hidden)
            assert not found, f"{name} gives away {found}"
        # the scan sees hidden cases where they are: the grader's copy holds every one
        grader = "".join((folder / "tests" / "task" / "tests" / f"{b}.jsonl").read_text()
                         for b in ("pre_complete", "pre_sound", "post_complete", "post_sound"))
        assert len(leaks_in(grader, hidden)) == len([h for h in hidden if h.inputs])


def test_export_is_refused_before_writing_anything(tmp_path: Path, wheel: Path) -> None:
    from adequacy.ecosystem.harbor_export import HarborOptions, export_harbor
    from adequacy.errors import TaskError

    src = tmp_path / "src"
    shutil.copytree(EXAMPLES[0] / "euclid_mod", src / "euclid_mod")
    (src / "euclid_mod" / "tests" / "post_sound.jsonl").write_text("")
    with pytest.raises(TaskError, match="post_sound has no case"):
        export_harbor([src], tmp_path / "out", HarborOptions(wheel=wheel))
    assert not (tmp_path / "out").exists()


@pytest.mark.skipif(shutil.which("docker") is None, reason="no docker client")
def test_oracle_run_scores_every_task(exported: Path, harbor: Path, tmp_path: Path) -> None:
    """`harbor run -a oracle` on the export: every gold spec must score 1.0."""
    if subprocess.run(["docker", "info"], capture_output=True, timeout=60).returncode != 0:
        pytest.skip("no Docker daemon answers here (`docker info` fails): `harbor run` builds "
                    "each task's image with Docker")
    r = subprocess.run([str(harbor / "bin" / "harbor"), "run", "-p", str(exported), "-a",
                        "oracle", "-o", str(tmp_path / "jobs"), "--job-name", "oracle"],
                       capture_output=True, text=True, timeout=7200)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    rewards = [json.loads(p.read_text()) for p in (tmp_path / "jobs" / "oracle").glob(
        "*/verifier/reward.json")]
    with_gold = [d for d in task_dirs(exported) if (d / "solution" / "solve.sh").is_file()]
    assert len(rewards) == len(with_gold) and all(r["reward"] == 1.0 for r in rewards)


def test_cli_export_and_force(tmp_path: Path, wheel: Path) -> None:
    run = [sys.executable, "-m", "adequacy", "export", "harbor"]
    src, out = str(EXAMPLES[0] / "euclid_mod"), tmp_path / "out"
    r = subprocess.run([*run, src, str(out), "--wheel", str(wheel)], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "spec-adequacy/euclid_mod" in r.stdout and (out / "dataset.toml").is_file()
    r = subprocess.run([*run, src, str(out), "--wheel", str(wheel)], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 2 and "--force" in r.stderr and len(r.stderr.splitlines()) == 1
    r = subprocess.run([*run, src, str(out), "--wheel", str(wheel), "--force"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    (out / "euclid_mod" / "task.toml").write_text("# someone else's\n")
    r = subprocess.run([*run, src, str(out), "--wheel", str(wheel), "--force"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and "remove it yourself" in r.stderr
    assert (out / "euclid_mod" / "task.toml").read_text() == "# someone else's\n"


def test_the_image_wheel_leaves_out_the_bundled_examples_and_stays_a_wheel(
        exported: Path, wheel: Path) -> None:
    """The built wheel carries the bundled tasks with every case (`adequacy examples`); the
    image's copy does not, keeps the gym's worked examples, and its RECORD lists exactly its
    files with their hashes, as an installer checks them."""
    import base64
    import hashlib

    from adequacy.ecosystem.wheel import bundled_in_wheel

    full = zipfile.ZipFile(wheel).namelist()
    drop = bundled_in_wheel()
    assert any(n.startswith(f"{d}/") for d in drop for n in full)
    image = exported / "euclid_mod" / "environment" / "dist" / wheel.name
    with zipfile.ZipFile(image) as z:
        names = z.namelist()
        assert not [n for n in names if any(n.startswith(f"{d}/") for d in drop)]
        assert any("/examples/gym/" in n for n in names)
        record = next(n for n in names if n.endswith(".dist-info/RECORD"))
        rows = [ln.split(",") for ln in z.read(record).decode().splitlines() if ln]
        assert sorted(r[0] for r in rows) == sorted(names)
        for name, digest, _size in rows:
            if name == record:
                continue
            want = "sha256=" + base64.urlsafe_b64encode(
                hashlib.sha256(z.read(name)).digest()).rstrip(b"=").decode()
            assert digest == want, name
