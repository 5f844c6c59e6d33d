"""What phoneshell prints reaches a terminal: an agent's text in it is shown, never obeyed."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from phoneshell.runner import RunOptions, run_suite
from phoneshell.untrusted import quoted, storable, visible

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "hostile" / "hostile.py"
CONTROLLING = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069"
                         "\ufeff\ud800-\udfff]")
"""What must never reach a terminal raw: controls (C0 but newline and tab, DEL, C1), bidi
controls, zero-width and other invisible format characters, surrogates."""


def phoneshell(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONWARNINGS": "error"}
    return subprocess.run([sys.executable, "-m", "phoneshell", *args], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=300, errors="surrogateescape")


@pytest.mark.slow  # 5 s of whole programs: the README's command stays quick
def test_escape_codes_in_an_agents_stderr_are_shown_not_obeyed(tmp_path: Path) -> None:
    agent = f"command:{shlex.quote(sys.executable)} {HOSTILE} escapes"
    done = phoneshell("run", "environments", "--task", "settings.about.reach", "--agent", agent,
                      "--runs", str(tmp_path), "--run-id", "R")
    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    assert CONTROLLING.findall(out) == []
    shown = [line.strip() for line in done.stdout.splitlines()]
    # the agent's lines stay under its attempt, every escape code visible...
    assert r"\x1b[2J\x1b[3J\x1b[H[1/1] settings.about.reach" in done.stdout
    assert r"\x1b]0;phoneshell: 1 passed\x1b\\x1b]52;c;ZWNobyBwd25lZAo=\x1b\\x9b2J" in done.stdout
    assert r"| passed \u202edeliaf\u202c \u200bzero\u2066width\u2069\x1b[8m" in shown
    # ...each marked as quoted, so the one line that reads as the run's summary is the real
    # one, after them (red team 121: the agent's fake was the first a grep found)
    assert r"| \x1b[G1 attempt(s): 1 passed, 0 failed, 0 skipped (100% of scored)" in shown
    assert [line for line in shown if line.startswith("1 attempt(s):")] == [
        "1 attempt(s): 0 passed, 1 failed, 0 skipped (0% of scored)"]


@pytest.mark.slow  # 3.2 s measured: the README's command stays quick
def test_a_library_caller_of_run_suite_is_given_lines_already_escaped(tmp_path: Path) -> None:
    agent = f"command:{shlex.quote(sys.executable)} {HOSTILE} escapes"
    lines: list[str] = []
    run_suite(RunOptions((str(ROOT / "environments"),), agent=agent,
                         task_globs=("settings.about.reach",), runs_dir=tmp_path, run_id="L"),
              lines.append)
    said = "\n".join(lines)
    assert CONTROLLING.findall(said) == []
    assert r"\x1b]0;phoneshell: 1 passed\x1b" in said  # shown, not obeyed


def test_visible_escapes_what_would_control_a_terminal_and_keeps_lines() -> None:
    said = "a\x1b[2J\tb\r\n\x9b\u202e\u2066\u200b\u200d\ufeff\u2028\ud800\x00 é 🙂 ok"
    assert visible(said) == (r"a\x1b[2J" + "\tb" + r"\r" + "\n"
                             + r"\x9b\u202e\u2066\u200b\u200d\ufeff\u2028\ud800\x00 é 🙂 ok")
    assert visible("plain text\nsecond line") == "plain text\nsecond line"
    assert storable("ok \ud800 é\n") == "ok \\ud800 é\n"
    assert quoted("com.b'\n`x\u202e") == "\"com.b'\\n`x\\u202e\""
