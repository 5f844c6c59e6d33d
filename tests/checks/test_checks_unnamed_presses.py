"""What the log says pressed nothing is no unknown touch; a slide held until a context menu
opened is one (red team 83). Played with facebook-wda as an agent through the bridge, in front
of the simulated iPhone, graded as `phoneshell run` grades.

An honest finish that also sends WDA's keyboard dismiss (`keyNames: ["Done"]`, as Appium's
hideKeyboard does) with no keyboard up presses nothing, and the bridge logs it so (`taps` 0):
`count_increased`'s way-back rule and `settings_unchanged` used to take it for a touch they could
not name and failed the honest agent. One touch held on a Recently Deleted row until its menu
opens, then slid onto Recover and lifted, recovers the note (the simulator plays it as iOS
does), and the log cannot name the item it lifted on: the bridge refuses it (red team 96), and
no note is brought back.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import wda
from attempt_rig import run_one
from played_finish import Played, failed_checks, played

from phoneshell.sim import SimServer
from phoneshell.tasks import Task

NOTES = "com.apple.mobilenotes"
PREFS = "com.apple.Preferences"
TITLE = "phoneshell benchmark"


def dismiss(s: wda.Session) -> None:
    """WDA's keyboard dismiss by key name, as Appium's hideKeyboard sends it."""
    s.http.post(f"/session/{s.session_id}/wda/keyboard/dismiss", {"keyNames": ["Done"]})


def make_note(c: wda.Client) -> wda.Session:
    """The reference finish of notes.create_titled: its session."""
    s = c.session()
    s.app_activate(NOTES)
    s(label="New Note", className="XCUIElementTypeButton").get(timeout=5).click()
    s.send_keys(TITLE)
    s(label="Done", className="XCUIElementTypeButton").get(timeout=5).click()
    return s


def note_then_dismiss(c: wda.Client) -> None:
    """The reference finish of notes.create_titled, and a dismiss after its Done."""
    dismiss(make_note(c))


def text_size_with_a_dismiss(c: wda.Client) -> None:
    """Settings > Display & Brightness > Text Size, with a dismiss on the way."""
    s = c.session()
    s.app_activate(PREFS)
    s.swipe_up()
    s(label="Display & Brightness").get(timeout=5).click()
    dismiss(s)
    s(label="Text Size").get(timeout=5).click()


@pytest.mark.parametrize(("task", "play"), [("notes.create_titled", note_then_dismiss),
                                            ("settings.textsize.reach", text_size_with_a_dismiss)],
                         ids=["notes", "settings"])
def test_a_dismiss_that_pressed_nothing_fails_no_honest_finish(
        task: str, play: Any, sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    row = played(sim, tmp_path, suite[task], play)
    assert row.outcome == "passed", failed_checks(row)


def note(c: wda.Client) -> None:
    """The reference finish: its teardown deletes the note into Recently Deleted."""
    make_note(c)


def hold_slide_recover(c: wda.Client) -> None:
    """The last attempt's note (its teardown deleted it into Recently Deleted) brought back by
    one touch: down on its row, 900 ms still (the menu opens), slid onto Recover, lifted."""
    s = c.session()
    s.app_activate(NOTES)
    s(name="BackButton").get(timeout=5).click()
    s(name="Recently Deleted", className="XCUIElementTypeCell").get(timeout=5).click()
    x, y = s(label=TITLE, className="XCUIElementTypeCell").get(timeout=5).bounds.center
    steps: list[dict[str, Any]] = [
        {"type": "pointerMove", "duration": 0, "x": x, "y": y},
        {"type": "pointerDown", "button": 0}, {"type": "pause", "duration": 900},
        {"type": "pointerMove", "duration": 300, "x": 185, "y": 322},  # the menu's Recover
        {"type": "pointerUp", "button": 0}]
    s.http.post(f"/session/{s.session_id}/actions", {"actions": [
        {"type": "pointer", "id": "f1", "parameters": {"pointerType": "touch"},
         "actions": steps}]})


@pytest.mark.slow  # 1.9 s measured: the README's command stays quick
def test_recover_by_a_held_slide_is_no_note_made(sim: SimServer, tmp_path: Path,
                                                 suite: dict[str, Task]) -> None:
    task = suite["notes.create_titled"]
    first = run_one(sim, tmp_path, task, Played(note)).row
    assert first.outcome == "passed", failed_checks(first)
    second = run_one(sim, tmp_path, task, Played(hold_slide_recover), attempt=2).row
    count = failed_checks(second)["count_increased"]
    # the bridge refuses the held slide from the row (red team 96): nothing is brought back
    assert "1 before the agent, 1 after" in count, count
