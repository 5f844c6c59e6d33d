"""What phoneshell prints is read by CI runners too, as lines of a log: an agent's text in it
never becomes a runner's command, never wraps to look like the harness's own line, and the
program it leaves in its folder is kept as data, never as a program."""

from __future__ import annotations

import io
import json
import re
import shlex
import sys
from pathlib import Path

import pytest
from cli_process import run_cli

from phoneshell.cli import VisibleText
from phoneshell.untrusted import tidy_lines, visible

HERE = Path(__file__).resolve().parent


def ci_commands(line: str) -> list[str]:
    """What a runner acts on in one line of a log: GitHub Actions (actions/runner
    ActionCommand: `::name` after TrimStart, the older `##[` anywhere) and Azure Pipelines
    (`##vso[` anywhere, matched here in any case)."""
    found = ["github ::"] if line.lstrip().startswith("::") else []
    found += ["github ##["] if "##[" in line else []
    return found + (["azure ##vso["] if "##vso[" in line.lower() else [])


@pytest.mark.slow  # 5 s of whole programs: the README's command stays quick
def test_an_agents_stderr_commands_no_ci_runner_and_forges_no_row(tmp_path: Path) -> None:
    agent = f"command:{shlex.quote(sys.executable)} {HERE / 'ci_log_agent.py'}"
    done = run_cli("run", "environments", "--task", "settings.about.reach", "--agent", agent,
                   "--runs", str(tmp_path), "--run-id", "R")
    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    assert [(line, ci_commands(line)) for line in out.splitlines() if ci_commands(line)] == []
    # shown as written, each marked quoted ("| ": no longer at a line's start, "::" commands
    # nothing), and for the one character that makes a command anywhere in a line
    assert "        | ::add-mask::failed" in done.stdout.splitlines()
    assert r"see ##\u005bgroup]phoneshell: all passed" in done.stdout
    assert r"##VSO\u005btask.prependpath]" in done.stdout
    # an 80-column terminal wraps no agent text to a row's start: its spaces are single
    rows = [line[i:i + 80] for line in done.stdout.splitlines() for i in range(0, len(line), 80)]
    assert not [row for row in rows if row.startswith(("[2/2]", "2 attempt(s)"))], rows
    assert "        | [2/2] settings.about.serial passed 1.1s" in done.stdout.splitlines()
    planted = tmp_path / "R" / "attempts" / "settings.about.reach" / "1" / "agent" / "phoneshell"
    assert planted.read_text().startswith("#!/bin/sh")  # kept, as data
    assert planted.stat().st_mode & 0o7111 == 0


def test_a_command_split_over_two_writes_is_broken_too() -> None:
    stream = io.StringIO()
    shown = VisibleText(stream)  # type: ignore[arg-type]
    for part in ("  :", ":add-mask::x\n##", "vs", "o[task.complete]\n#", "#[group]\n"):
        shown.write(part)
    assert stream.getvalue().splitlines() == [
        r"  :\u003aadd-mask::x", r"##vso\u005btask.complete]", r"##\u005bgroup]"]


def test_visible_breaks_ci_commands_and_keeps_json_json() -> None:
    assert visible("::error::x\n\t::debug::y\na::b") == ":\\u003aerror::x\n\t:\\u003adebug::y\na::b"
    assert visible(visible("##[x] ##vso[y]")) == r"##\u005bx] ##vso\u005by]"  # idempotent
    plain = {"detail": "it loaded '##[group]all passed', '##vso[task.complete result=x;]'"}
    assert json.loads(visible(json.dumps(plain, indent=2))) == plain


def test_tidy_lines_make_white_space_single_and_cut_long_lines() -> None:
    assert tidy_lines("  a \t b\n\n" + " " * 72 + "[2/2] x   passed  ") == ["a b", "[2/2] x passed"]
    cut = tidy_lines("y" * 1000)
    assert len(cut) == 1 and len(cut[0]) == 300 and cut[0].endswith("...")
    assert re.fullmatch(r"y+\.\.\.", cut[0])
