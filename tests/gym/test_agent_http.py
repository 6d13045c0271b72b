"""`adequacy agent` through litellm's real HTTP path: the fake OpenAI-compatible server
(adequacy_optimizers.fake_endpoint) on 127.0.0.1 answers in DSPy's chat format and reports token usage, which must reach the rollout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("dspy")

from fake_endpoint import FakeEndpoint, fields  # noqa: E402

from .conftest import VERUS  # noqa: E402
from .test_gym import GOLD_BSF  # noqa: E402

ANSWERS = [
    fields(next_thought="submit the spec", next_tool_name="submit",
           next_tool_args=json.dumps({"spec": GOLD_BSF})),
    fields(next_thought="done", next_tool_name="finish", next_tool_args="{}"),
    fields(reasoning="submitted", spec=GOLD_BSF),
]


@pytest.mark.slow
def test_agent_cli_over_http(tmp_path: Path) -> None:
    with FakeEndpoint(lambda prompt, i: ANSWERS[min(i, len(ANSWERS) - 1)],
                usage=lambda i: (100 + i, 10)) as srv:
        out = tmp_path / "rollouts.jsonl"
        env = {**os.environ, "OPENAI_API_KEY": "test", "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
        r = subprocess.run(
            [sys.executable, "-m", "adequacy", "agent", str(VERUS / "binary_search_first"),
             "--lm", "openai/scripted", "--api-base", srv.base, "--steps", "4", "-o", str(out)],
            capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "Pass@1 1.000" in r.stdout
    line = json.loads(out.read_text().splitlines()[0])
    assert line["report"]["passed_all"] and line["producer"]["command"] == "agent"
    rec = line["extra"]
    assert rec["submitted_by"] == "agent"
    assert [s["tool"] for s in rec["trajectory"]] == ["submit", "finish"]
    assert [s["prompt_tokens"] for s in rec["trajectory"]] == [100, 101]
    assert rec["prompt_tokens"] == 100 + 101 + 102 and rec["completion_tokens"] == 30
    assert len(srv.seen) == 3
