"""A command agent whose command line cannot start in the run's sandbox is found once, before the
run's first attempt, and refused (red team 123: each attempt found it anew and the run played its
whole plan into skips). What can start, or cannot be told before it runs, is let through."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from phoneshell.agents import make_agent
from phoneshell.agents.command import refuse_unstartable
from phoneshell.agents.sandbox_choice import choose
from phoneshell.errors import RunError

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("command", "why"), [
    ("nosuchcmd_zz --go", "nosuchcmd_zz: not found on PATH"),
    ("/nonexistent/prog", "/nonexistent/prog: no such file"),
    ("cd /nonexistent && ./play.sh", "cd /nonexistent: no such folder"),
    ("cd /tmp && nosuchcmd_zz a.py", "nosuchcmd_zz: not found on PATH"),  # a cd makes nothing
    ("nosuchcmd_zz | tee log; true", "nosuchcmd_zz: not found on PATH"),
])
def test_a_program_that_cannot_start_is_refused_before_the_run(command: str, why: str) -> None:
    with pytest.raises(RunError, match=f"^command:{command}: the command could not start: "
                                       f"{why} ") as refused:
        refuse_unstartable(make_agent(f"command:{command}"), choose("auto"))
    assert "nothing ran" in (refused.value.hint or "")


@pytest.mark.parametrize("command", [
    "true", "sh -c 'exit 3'", "$NOT_TOLD_BEFORE_IT_RUNS",
    # red team 128: what runs after a program may need what it made, or the PATH it set
    "mkdir -p /tmp/ps-w && cd /tmp/ps-w && nosuch_made_here",
    "python3 -m venv --without-pip /tmp/ps-v && /tmp/ps-v/bin/python a.py",
    "cp /bin/true /tmp/ps-t; /tmp/ps-t", "PATH=/tmp/ps-v/bin:$PATH py a.py",
    "export PATH=/tmp/ps-v/bin:$PATH; py a.py", "X=1; nosuch_after_an_assignment"])
def test_what_can_start_or_cannot_be_told_is_let_through(command: str) -> None:
    refuse_unstartable(make_agent(f"command:{command}"), choose("auto"))
    refuse_unstartable(make_agent("null"), choose("auto"))  # not a program: nothing to look for


@pytest.mark.slow  # a whole program, up to its refusal
def test_phoneshell_run_refuses_it_before_any_phone(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "phoneshell", "run", "environments", "--task",
         "settings.about.reach", "--agent", "command:nosuchcmd_zz --go", "--runs",
         str(tmp_path), "--run-id", "R"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "command:nosuchcmd_zz --go: the command could not start: nosuchcmd_zz: not found " \
           "on PATH" in done.stderr, done.stderr
    assert not (tmp_path / "R").exists() and "[1/1]" not in done.stdout  # nothing recorded
