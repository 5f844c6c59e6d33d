"""`phoneshell run --resume` goes on with the run's own agent, tasks, repeat count and latency: an
option that contradicts run.json is refused, naming it and the run's value, never silently
dropped; one that agrees passes."""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

import pytest
from cli_process import run_cli

from phoneshell.runner.resume import program_file
from phoneshell.runner.run import RunOptions, run_suite

ROOT = Path(__file__).resolve().parents[2]


phoneshell = partial(run_cli, timeout=120)


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_options_that_contradict_the_run_are_refused_and_agreeing_ones_pass(
        tmp_path: Path) -> None:
    run_suite(RunOptions(paths=("environments",), agent="null", runs_dir=tmp_path, run_id="R",
                         task_globs=("settings.about.reach",)), lambda line: None)
    resume = ("run", "--resume", "R", "--runs", str(tmp_path))
    refused = phoneshell(*resume, "--agent", "solution", "--repeat", "3", "--task", "weather.*",
                         "environments/weather.open.yaml", "--run-id", "other")
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert refused.stderr.startswith(
        "error: --resume R goes on with the run's own agent, tasks, repeat count and latency "
        "(run.json), but was given --run-id other (resuming run R); --agent 'solution' (the "
        "run's agent is 'null'); --repeat 3 (the run's is 1); --task weather.* (the run's: "
        "settings.about.reach); task paths environments/weather.open.yaml (the run's: "
        "environments)\n")
    assert "hint: drop them to continue run R as it began" in refused.stderr
    # the same run spelled out whole (another spelling of its folder too) is no contradiction
    agreed = phoneshell(*resume, "--agent", "null", "--repeat", "1", "--task",
                        "settings.about.reach", str(ROOT / "environments"), "--run-id", "R",
                        "--latency", "none")
    assert agreed.returncode == 1, agreed.stdout + agreed.stderr  # done: null failed it
    assert "nothing left to run" in agreed.stdout or "already scored" in agreed.stdout, \
        agreed.stdout


def test_the_program_recorded_is_what_an_interpreter_runs_not_the_interpreter(
        tmp_path: Path) -> None:
    """`/path/to/python agent.py`: the interpreter is a file too, but the agent is agent.py."""
    script = tmp_path / "agent.py"
    script.write_text("print('hi')\n")
    for command in (f"{sys.executable} {script}", f"python3 {script}", f"env A=1 sh {script}",
                    str(script)):
        assert program_file(command) == script, command
    assert program_file(f"{sys.executable} -m phoneshell") is None
    assert program_file("sleep 3") is None
