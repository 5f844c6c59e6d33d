"""A task whose checks all pass when the agent does nothing is warned about (fixer AT, after
RT123-6): "Work out 2+2 in Calculator" checked only `never_opened` Safari, and the null agent
passed it. Which checks pass then comes from the check registry (`CheckKind.absence`, and any
negated check). Driven through the loader, `phoneshell check-tasks` and `phoneshell run --agent
null` as subprocesses."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from phoneshell.checks import CHECKS
from phoneshell.tasks import parse_task

TASK = """\
id: demo.idle
name: Demo
app: com.apple.calculator
instruction: Work out 2+2 in Calculator.
setup:
  - terminate: com.apple.calculator
  - home
checks:
{checks}
teardown:
  - terminate: com.apple.calculator
"""
WARNED = "this task passes when the agent does nothing"


def text_of(checks: str) -> str:
    return TASK.format(checks=textwrap.indent(textwrap.dedent(checks), "  "))


def warnings(checks: str) -> list[str]:
    """The warning's lines for a task with `checks` (a task that does not load says why)."""
    task, problems = parse_task(text_of(checks), "demo.yaml")
    return [str(p) for p in problems if task is None or WARNED in p.message]


@pytest.mark.parametrize("checks", [
    "- kind: never_opened\n  app: com.apple.mobilesafari\n",
    "- kind: count_unchanged\n  probe: notes\n- kind: settings_unchanged\n",
    "- kind: tapped\n  text: Delete\n  negate: true\n",
    # negated screen checks pass on a screen without the words: the home screen, say
    "- kind: foreground_app\n  text: com.apple.mobilesafari\n  negate: true\n"
    "- kind: element_exists\n  text: Error\n  negate: true\n"
    "- kind: never_opened\n  app: com.apple.mobilesafari\n",
])
def test_checks_that_all_pass_on_no_action_are_warned(checks: str) -> None:
    found = warnings(checks)
    assert len(found) == 1 and found[0].startswith("demo.yaml:9:3: warning: "), found
    assert "negated or asserts an absence" in found[0]


@pytest.mark.parametrize("checks", [
    "- foreground_app: com.apple.calculator\n- kind: never_opened\n"
    "  app: com.apple.mobilesafari\n",
    "- kind: count_increased\n  probe: notes\n- kind: settings_unchanged\n",
    "- kind: answer_contains\n  text: '4'\n",
])
def test_one_check_that_only_doing_the_task_passes_is_enough(checks: str) -> None:
    assert warnings(checks) == []


def test_only_kinds_that_cannot_be_negated_assert_an_absence() -> None:
    # a negated absence would be a presence: the registry marks no negatable kind an absence
    marked = sorted(name for name, kind in CHECKS.items() if kind.absence)
    assert marked == ["count_unchanged", "never_opened", "settings_unchanged"]
    assert not any(CHECKS.lookup(name).negatable for name in marked)


def test_check_tasks_shows_the_warning(tmp_path: Path) -> None:
    task = tmp_path / "idle.yaml"
    task.write_text(text_of("- kind: never_opened\n  app: com.apple.mobilesafari\n"))
    checked = subprocess.run([sys.executable, "-m", "phoneshell", "check-tasks", str(task)],
                             capture_output=True, text=True, timeout=60, check=False)
    assert checked.returncode == 0, checked.stderr
    assert f"idle.yaml:9:3: warning: {WARNED}: every check (never_opened)" in checked.stdout
    assert "1 warning(s)" in checked.stdout


@pytest.mark.slow
def test_the_null_agent_passes_such_a_task(tmp_path: Path) -> None:
    # why it is warned about: doing nothing at all passes it
    task = tmp_path / "idle.yaml"
    task.write_text(text_of("- kind: never_opened\n  app: com.apple.mobilesafari\n"))
    ran = subprocess.run([sys.executable, "-m", "phoneshell", "run", str(task), "--agent", "null",
                          "--runs", str(tmp_path / "runs"), "--run-id", "idle"],
                         capture_output=True, text=True, timeout=120, check=False)
    assert ran.returncode == 0 and "1 passed" in ran.stdout, ran.stdout + ran.stderr
