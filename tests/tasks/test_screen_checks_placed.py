"""A task whose screen checks name no app in front is warned about (fixer AL, after RT115-4):
the home screen, the App Switcher (a card labelled with each app's name) and the App Library
show app names, so `element_exists: Calculator` passes with Calculator's card up and no
Calculator showing. Driven through the loader and `phoneshell check-tasks` as a subprocess."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from phoneshell.tasks import parse_task

TASK = """\
id: demo.task
name: Demo
app: {app}
instruction: Open the Calculator.
setup:
  - home
  - terminate: com.apple.calculator
checks:
{checks}
teardown:
  - terminate: com.apple.calculator
"""
WARNED = "none names the app in front"


def warnings(checks: str, app: str = "com.apple.calculator") -> list[str]:
    text = TASK.format(app=app, checks=textwrap.indent(textwrap.dedent(checks), "  "))
    task, problems = parse_task(text, "demo.yaml")
    assert task is not None, problems
    return [str(p) for p in problems if WARNED in p.message]


@pytest.mark.parametrize("checks", [
    "- element_exists: Calculator\n",
    "- kind: regex_on_screen\n  text: '^7$'\n",
    "- kind: element_exists_anywhere\n  text: Calculator\n",
    "- kind: page_shown\n  url: example.com\n",
    # a negated screen check passes on any screen without the words, the home screen too
    "- kind: element_exists\n  text: Error\n  negate: true\n",
    # "not Safari in front" names no app that is
    "- element_exists: Calculator\n- kind: foreground_app\n  text: com.apple.mobilesafari\n"
    "  negate: true\n",
])
def test_screen_checks_with_no_app_in_front_are_warned_at_the_first(checks: str) -> None:
    found = warnings(checks)
    assert len(found) == 1 and found[0].startswith("demo.yaml:9:1: warning: the checks read"), \
        found
    assert "the App Switcher" in found[0] and "foreground_app" in found[0]


@pytest.mark.parametrize(("checks", "app"), [
    ("- element_exists: Calculator\n- kind: foreground_app\n", "com.apple.calculator"),
    ("- foreground_app: com.apple.calculator\n- regex_on_screen: '^7$'\n",
     "com.apple.calculator"),
    ("- kind: device_value\n  probe: settings_value\n  of: Name\n  text: x\n",
     "com.apple.Preferences"),  # a probe reads the device its own way
    ("- element_exists: Calculator\n", "com.apple.springboard"),  # its screens all report it
])
def test_a_named_app_in_front_a_probe_or_a_springboard_task_is_not_warned(
        checks: str, app: str) -> None:
    assert warnings(checks, app) == []


def test_check_tasks_shows_the_warning(tmp_path: Path) -> None:
    folder = tmp_path / "tasks"
    folder.mkdir()
    (folder / "demo.yaml").write_text(TASK.format(
        app="com.apple.calculator", checks="  - element_exists: Calculator\n"))
    done = subprocess.run([sys.executable, "-m", "phoneshell", "check-tasks", str(folder)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert f"demo.yaml:9:1: warning: the checks read the screen (element_exists) but {WARNED}" \
        in done.stdout
    assert "1 warning(s)" in done.stdout
