"""Every run of a task's pattern is stopped past its budget, whatever text it runs on (red team
85): `phoneshell grade` in a subprocess with a deadline, since without the budget it never ends."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from cli_process import run_cli
from sources import evidence

from phoneshell.evidence import DeviceRead, save_evidence

TASK = """\
id: user.note.shout
name: Write a shouted note
app: com.apple.mobilenotes
instruction: Start a fresh note in the Notes app and type one word made of letters.
setup:
  - terminate: com.apple.mobilenotes
checks:
  - kind: device_value
    probe: newest_note
    text: '(\\w|[a-z])+'
"""


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_a_pattern_the_agents_typing_makes_backtrack_fails_within_seconds(
        tmp_path: Path) -> None:
    # red team 85: '(\w|[a-z])+' fullmatched against 34 a's and a "!" backtracks 2^34 times, so
    # grading hung until the run was killed and the attempt became "not scored"
    (tmp_path / "tasks").mkdir()
    (tmp_path / "tasks" / "shout.yaml").write_text(TASK)
    typed = DeviceRead(probe="newest_note", arg="", value="a" * 34 + "!")
    save_evidence(replace(evidence(task_id="user.note.shout"), reads=(typed,)), tmp_path / "ev")
    done = run_cli("grade", str(tmp_path / "ev"), "--task", "user.note.shout", "--tasks",
                   str(tmp_path / "tasks"), timeout=60)  # without the budget: hung, killed
    assert done.returncode == 1, done.stdout + done.stderr
    assert "FAIL  device_value" in done.stdout
    assert "the search took over 1s (at the value newest_note read) and was stopped" in done.stdout
