"""What the log says pressed nothing is no unknown touch (red team 83). Played with facebook-wda
as an agent through the bridge, in front of the simulated iPhone, graded as `phoneshell run`
grades.

An honest finish that also sends WDA's keyboard dismiss (`keyNames: ["Done"]`, as Appium's
hideKeyboard does) with no keyboard up presses nothing, and the bridge logs it so (`taps` 0):
`count_increased`'s way-back rule and `settings_unchanged` used to take it for a touch they could
not name and failed the honest agent.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import wda
from played_finish import failed_checks, played

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

