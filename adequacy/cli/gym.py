"""Commands of the agent environment: ``gym make``, ``check``, ``submit``, ``mcp``, ``agent``.

Thin wrappers over ``adequacy.gym`` and ``adequacy_optimizers.agent``; registered on the main
app by ``register`` (``adequacy.cli.root``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from adequacy.cli.checks import at_least, fraction, positive
from adequacy.cli.common import err, out
from adequacy.cli.optimize import ApiKeyOpt, VerboseOpt, need_dspy
from adequacy.errors import AdequacyError
from adequacy.model.thresholds import HARNESS_T

gym_app = typer.Typer(no_args_is_help=True, help="Task folders for coding agents.")


def _fail(msg: str, code: int = 2) -> typer.Exit:
    err.print(f"error: {msg}", highlight=False, markup=False, style="bold red", soft_wrap=True)
    return typer.Exit(code)


@gym_app.command("make")
def gym_make(
    tasks: Annotated[list[Path], typer.Argument(help="Task folders or folders of tasks.")],
    out_dir: Annotated[Path, typer.Argument(help="Folder to write gym folders into (one per "
                                            "task).", show_default=False)],
    visible: Annotated[int, typer.Option(callback=at_least(0),
        help="Visible cases per task (completeness buckets "
                                         "only).")] = 3,
    seed: Annotated[int, typer.Option(help="Seed of the visible-case draw.")] = 0,
    examples: Annotated[list[Path] | None, typer.Option(
        "--examples", help="Tasks to take worked examples from (default: the other tasks).")]
    = None,
    force: Annotated[bool, typer.Option("--force", help="Replace existing folders.")] = False,
) -> None:
    """Write one gym folder per task: instructions, statement, spec to complete, visible cases,
    a worked example of another task, language notes. Hidden cases are never written."""
    from adequacy.gym import make_gym
    try:
        made = make_gym(tasks, out_dir, visible=visible, seed=seed, force=force,
                        examples=examples or [])
    except AdequacyError as e:
        raise _fail(str(e)) from None
    for m in made:
        out.print(f"{m.folder}  ({m.visible} visible, example {m.example_task or '-'})"
                  + (f"  [yellow]{m.warning}[/]" if m.warning else ""), highlight=False)
    out.print(f"{len(made)} gym folder(s) in {out_dir}", highlight=False)


@gym_app.command("shell", context_settings={"allow_interspersed_args": False})
def gym_shell(
    folder: Annotated[Path, typer.Argument(help="A gym folder (one task).")],
    command: Annotated[list[str], typer.Argument(help="The command and its arguments (after "
                                                 "`--`).", show_default=False)],
    timeout: Annotated[float, typer.Option(callback=positive, help="Wall-clock seconds before "
                                           "the command is killed.")] = 60.0,
    ro: Annotated[list[Path] | None, typer.Option(
        "--ro", help="Another folder the command may read, e.g. a tool chain outside /usr "
        "(its bin/ goes on the command's PATH). Nothing is bound because it is on your PATH; "
        "a folder that holds a task, a gym folder or the grader's files is refused.")]
    = None,
) -> None:
    """Run an agent's shell command in the sandbox, seeing only this gym folder's files
    (read-write) and the tool chain (read-only): no network, no source task, no process left
    behind. Exit code: the command's (124 when the time limit killed it)."""
    from adequacy.gym.shell import run_shell
    extra = list(ro or [])
    if command[:1] != ["--"] and command[:1] and command[0].startswith("-") and "--" in command:
        # options written after FOLDER (`gym shell DIR --timeout 9 --ro D -- cmd`): the parser
        # stops at FOLDER so that the command's own options stay the command's
        cut = command.index("--")
        mine, command = command[:cut], command[cut + 1:]
        try:
            timeout, extra = _shell_options(mine, timeout, extra)
        except ValueError as e:
            raise _fail(str(e)) from None
    elif command[:1] == ["--"]:
        command = command[1:]
    if not command:
        raise _fail("no command given (after --)")
    try:
        r = run_shell(folder, command, timeout=timeout, extra_ro=extra)
    except AdequacyError as e:
        raise _fail(str(e)) from None
    if r.stdout:
        typer.echo(r.stdout, nl=False)
    if r.stderr:
        typer.echo(r.stderr, nl=False, err=True)
    for note in r.notes:
        err.print(f"note: {note}", highlight=False, markup=False, soft_wrap=True)
    if r.output_truncated:
        err.print("note: output cut at 1 MiB per stream", highlight=False, markup=False)
    if r.timed_out:
        err.print(f"error: killed after {timeout:g} s (--timeout)", highlight=False,
                  markup=False)
        raise typer.Exit(124)
    code = r.returncode
    raise typer.Exit(128 - code if code is not None and code < 0 else (code or 0))


def _shell_options(args: list[str], timeout: float, ro: list[Path]
                   ) -> tuple[float, list[Path]]:
    """``--timeout`` and ``--ro`` given between FOLDER and ``--``."""
    i = 0
    while i < len(args):
        name, eq, val = args[i].partition("=")
        if name not in ("--timeout", "--ro"):
            raise ValueError(f"{args[i]!r} before --: only --timeout and --ro go there")
        if not eq:
            i += 1
            if i >= len(args):
                raise ValueError(f"{name} needs a value")
            val = args[i]
        if name == "--ro":
            ro.append(Path(val))
        else:
            try:
                timeout = float(val)
            except ValueError:
                raise ValueError(f"--timeout {val!r} is not a number") from None
            if not timeout > 0 or timeout == float("inf"):
                raise ValueError(f"--timeout must be a positive number of seconds, not {val}")
        i += 1
    return timeout, ro


def check_cmd(
    folder: Annotated[Path | None, typer.Argument(help="Gym folder (default: the one you are "
                                                  "in).")] = None,
    spec: Annotated[Path | None, typer.Option(help="Spec file (default: the folder's).")]
    = None,
    case_timeout: Annotated[float, typer.Option(callback=positive,
        help="Seconds per case.")] = 10.0,
) -> None:
    """Score your spec on the folder's visible cases, with detailed feedback (also logged)."""
    from adequacy.gym import check, find_folder
    try:
        d = find_folder(folder or Path.cwd())
        text = spec.read_text(encoding="utf-8") if spec else None
        from adequacy.extensions.backend import Limits

        res = check(d, text, Limits(case_seconds=case_timeout))
    except AdequacyError as e:
        raise _fail(str(e)) from None
    except OSError as e:
        raise _fail(f"{e.filename or spec}: {e.strerror}") from None
    out.print(res.text, highlight=False, markup=False, soft_wrap=True)
    if res.log:
        out.print(f"(log: {res.log})", style="dim", highlight=False)
    raise typer.Exit(res.report.exit_code)


def submit_cmd(
    folder: Annotated[Path | None, typer.Argument(help="Gym folder (default: the one you are "
                                                  "in).")] = None,
    spec: Annotated[Path | None, typer.Option(help="Spec file (default: the folder's).")]
    = None,
    again: Annotated[bool, typer.Option("--again", help="Submit a folder once more.")] = False,
    source: Annotated[Path | None, typer.Option(help="Source task folder, when it moved since "
                                                "`gym make` (its content must not change).")]
    = None,
) -> None:
    """Grade your spec on all cases (visible and hidden) and record the grade."""
    from adequacy.gym import find_folder, grade_text, submit
    try:
        d = find_folder(folder or Path.cwd())
        text = spec.read_text(encoding="utf-8") if spec else None
        rec = submit(d, text, again=again, source=source)
    except AdequacyError as e:
        raise _fail(str(e)) from None
    except OSError as e:
        raise _fail(f"{e.filename or spec}: {e.strerror}") from None
    out.print(grade_text(rec), highlight=False, markup=False, soft_wrap=True)
    raise typer.Exit(rec.exit_code)


def mcp_cmd(
    gym: Annotated[Path, typer.Option("--gym", help="Folder made by `adequacy gym make`.")],
    transport: Annotated[str, typer.Option(help="stdio or streamable-http.")] = "stdio",
    host: Annotated[str, typer.Option(help="streamable-http: address to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="streamable-http: port.")] = 8765,
    again: Annotated[bool, typer.Option("--again", help="Let submit re-grade a folder.")]
    = False,
    task: Annotated[str | None, typer.Option("--task", help="Serve this task only: the "
                                             "session cannot see, read or grade the others.")]
    = None,
    shell: Annotated[bool, typer.Option("--shell", help="Offer a `bash` tool that runs "
                                        "commands in the sandbox, in a copy of the task's "
                                        "folder (see `adequacy gym shell`).")] = False,
) -> None:
    """Serve the gym's tools (list tasks, read files, check, verify, submit) over MCP."""
    try:
        from adequacy.gym.mcp_server import serve
    except ImportError as e:
        raise _fail(f"the MCP server needs the gym extra: pip install 'spec-adequacy[gym]' "
                    f"({e})") from None
    if transport not in ("stdio", "streamable-http"):
        raise _fail(f"--transport must be stdio or streamable-http, not {transport!r}")
    if not gym.is_dir():
        raise _fail(f"{gym} is not a folder (make one with `adequacy gym make`)")
    if task is not None:
        from adequacy.gym import GymTools
        known = GymTools(gym).folders()
        if task not in known:
            raise _fail(f"no task {task!r} in {gym} (tasks: {', '.join(list(known)[:20])})")
    if shell:
        from adequacy.gym.shell import available
        why = available()
        if why:
            raise _fail(f"--shell: {why}")
    serve(gym, transport=transport, host=host, port=port, allow_again=again, task=task,
          shell=shell)


def agent_cmd(
    tasks: Annotated[list[Path], typer.Argument(help="Task folders or folders of tasks.")],
    lm: Annotated[str, typer.Option("--lm", help="litellm model string, e.g. "
                                    "openai/gpt-4o-mini.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Rollouts JSONL (appended).")]
    = Path("rollouts.jsonl"),
    api_base: Annotated[str | None, typer.Option("--api-base", help="OpenAI-compatible "
                                                 "endpoint.")] = None,
    api_key: ApiKeyOpt = None,
    steps: Annotated[int, typer.Option(callback=at_least(1),
        help="Step budget (tool calls) per rollout.")] = 10,
    no_harness: Annotated[bool, typer.Option("--no-harness", help="Remove the check tool "
                                             "(ablation).")] = False,
    threshold: Annotated[float, typer.Option(callback=fraction,
        help="t of Harness@t / PostHarness@t in the "
                                             "summary.")] = HARNESS_T,
    rollouts: Annotated[int, typer.Option(callback=at_least(1),
        help="Rollouts per task (pass@k).")] = 1,
    visible: Annotated[int, typer.Option(callback=at_least(0), help="Visible cases per task.")] = 3,
    seed: Annotated[int, typer.Option(help="Seed of the visible-case draw.")] = 0,
    workdir: Annotated[Path | None, typer.Option(help="Where gym folders are made (default: "
                                                 "a temporary folder).")] = None,
    temperature: Annotated[float, typer.Option(callback=at_least(0),
        help="Sampling temperature.")] = 0.7,
    tries: Annotated[int, typer.Option("--tries", min=1, max=20, help="Attempts per LM call "
                                       "in all; then the run stops with exit 2.")] = 3,
    retry_wait: Annotated[float, typer.Option("--retry-wait", min=0.0, max=60.0, help=
                                              "Seconds before the second attempt (doubles)."
                                              )] = 1.0,
    verbose: VerboseOpt = False,
) -> None:
    """Run a DSPy ReAct spec-writing agent over the gym tools; one JSONL rollout per run."""
    need_dspy(verbose)
    try:
        from adequacy_optimizers.agent import AgentOptions, run_agent, summary_text
        from adequacy_optimizers.lm_errors import LmUnavailable
    except ImportError as e:
        raise _fail(f"the agent needs the optimize extra: pip install "
                    f"'spec-adequacy[optimize]' ({e})") from None
    opts = AgentOptions(lm=lm, api_base=api_base, api_key=api_key, steps=steps, harness=not no_harness,
                        threshold=threshold, rollouts=rollouts, visible=visible, seed=seed,
                        temperature=temperature, tries=tries, retry_wait=retry_wait)
    try:
        recs = run_agent(tasks, output, opts, workdir=workdir)
    except LmUnavailable as e:
        raise _fail(f"{e}; the rollout in progress was not graded") from None
    except AdequacyError as e:
        raise _fail(str(e)) from None
    out.print(summary_text(recs, threshold), highlight=False, markup=False)


def register(app: typer.Typer) -> None:
    app.add_typer(gym_app, name="gym")
    app.command("check")(check_cmd)
    app.command("submit")(submit_cmd)
    app.command("mcp")(mcp_cmd)
    app.command("agent")(agent_cmd)
