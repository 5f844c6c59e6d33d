"""Red team 86, end to end: an agent's one URL made grading raise, and `phoneshell run` recorded
its failure as "not scored: harness error (ValueError)" (so `--resume` played it again), while
`phoneshell grade` on its evidence ended in a traceback."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest
from cli_process import ROOT, run_cli, run_one

AGENT = Path(__file__).with_name("odd_port_agent.py")
TASK = ROOT / "environments" / "probe.text.one.yaml"


@pytest.mark.slow
def test_an_agent_whose_url_has_an_ethiopic_port_is_failed_not_skipped(tmp_path: Path) -> None:
    agent = f"command:{shlex.quote(sys.executable)} {shlex.quote(str(AGENT))}"
    row = run_one(tmp_path, "R", str(TASK), "--agent", agent, "--sandbox", "none")
    assert row["outcome"] == "failed" and not row["skipped"], row
    visited = [c for c in row["checks"] if c["kind"] == "visited"]  # type: ignore[union-attr]
    assert visited and not visited[0]["passed"], row["checks"]
    assert "it loaded 'https://example.com:\u1369'" in visited[0]["detail"], visited

    graded = run_cli("grade", str(tmp_path / "R" / str(row["evidence"])), "--task", str(TASK))
    assert graded.returncode == 1, graded.stdout + graded.stderr
    assert "Traceback" not in graded.stdout + graded.stderr
    assert "probe.text.one: FAILED" in graded.stdout, graded.stdout
