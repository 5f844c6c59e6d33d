"""A confined agent never sees what the harness knows it must not, even inside a folder shared
with it (red team 46: the project shared, an agent read runs/FIRST's verdict.json, the checks,
and its own run): the runs folder, every run folder sealed here (another runs folder too), the
signing key and its record of seals. A share that is one of them is refused by name. Through the
CLI, under bubblewrap, on the simulated iPhone."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from cli_process import ROOT, run_cli

from phoneshell.agents.sandbox import Sandbox

TASK = str(ROOT / "environments" / "calculator.arithmetic.yaml")
AGENT = """#!/bin/sh
seen=$(find "$1" -name verdict.json -o -name results.jsonl -o -name run.json 2>/dev/null \\
       | head -3 | tr '\\n' ' ')
key=$(cat "$1/key" 2>/dev/null | head -c 8)
latest=$(ls "$1/key.latest" 2>/dev/null | head -1)
phoneshell finish --status gave_up --summary "seen:$seen key:$key latest:$latest"
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project folder: its key, an earlier run in another runs folder and one in runs/."""
    folder = tmp_path / "proj"
    folder.mkdir()
    os.chmod(tmp_path, 0o755)  # the agent runs as nobody under a root harness
    for runs, run_id in (("old-runs", "FIRST"), ("runs", "EARLIER")):
        done = run_cli("run", TASK, "--agent", "null", "--runs", runs, "--run-id", run_id,
                       cwd=folder, env={"PHONESHELL_KEY_FILE": str(folder / "key")})
        assert done.returncode in (0, 1), done.stderr
    (folder / "agent.sh").write_text(AGENT)
    (folder / "agent.sh").chmod(0o755)
    return folder


def claimed(folder: Path, run_id: str) -> str:
    evidence = folder / "runs" / run_id / "attempts" / "calculator.arithmetic" / "1" / "evidence"
    return str(json.loads((evidence / "evidence.json").read_text())["claim"]["summary"])


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_runs_and_the_key_inside_a_share_stay_hidden(bwrap: Sandbox, project: Path) -> None:
    assert (project / "runs" / "EARLIER" / "run.json").exists()
    assert (project / "old-runs" / "FIRST" / "run.json").exists() and (project / "key").exists()
    attempt = project / "runs" / "EARLIER" / "attempts" / "calculator.arithmetic" / "1"
    shutil.copytree(attempt, project / "copied" / "deep" / "1")  # a copy nobody recorded
    done = run_cli("run", TASK, "--agent", f"command:./agent.sh {project}", "--run-id", "SECOND",
                   cwd=project, env={"PHONESHELL_KEY_FILE": str(project / "key"),
                                     "PHONESHELL_SANDBOX_SHARE": str(project)})
    assert done.returncode in (0, 1), done.stderr
    assert claimed(project, "SECOND") == "seen: key: latest:"


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
@pytest.mark.parametrize("inside", ["runs", "runs/EARLIER/attempts", "key.latest"])
def test_a_share_that_is_a_secret_or_inside_one_is_refused(
        bwrap: Sandbox, project: Path, inside: str) -> None:
    share = project / inside
    done = run_cli("run", TASK, "--agent", "command:./agent.sh", "--run-id", "THIRD",
                   cwd=project, env={"PHONESHELL_KEY_FILE": str(project / "key"),
                                     "PHONESHELL_SANDBOX_SHARE": str(share)})
    assert done.returncode != 0 and not (project / "runs" / "THIRD").exists()
    assert f"PHONESHELL_SANDBOX_SHARE names {share}, which " in done.stderr, done.stderr


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_an_agent_program_inside_the_runs_folder_is_refused_before_the_run(
        bwrap: Sandbox, project: Path) -> None:
    """It would find its own program missing (the runs folder is hidden whole) and fail for
    nothing it did: said before anything runs."""
    (project / "runs" / "agent.sh").write_text(AGENT)
    done = run_cli("run", TASK, "--agent", "command:sh runs/agent.sh", "--run-id", "THIRD",
                   cwd=project, env={"PHONESHELL_KEY_FILE": str(project / "key")})
    assert done.returncode == 2, done.stdout + done.stderr
    assert (f"the agent's command line names {project / 'runs' / 'agent.sh'}, inside "
            f"{project / 'runs'}, which agents never see") in done.stderr
    assert "hint: keep the agent's program outside the runs folder" in done.stderr
    assert not (project / "runs" / "THIRD").exists()
