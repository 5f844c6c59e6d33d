"""The owner watch's reading of the log (red team 83): an action the log says pressed nothing (a
keyboard dismiss that found no key, `taps` 0) implicates no agent, as the checks read it; one
logged before the bridge said so still does; a slide held until a row's context menu opened is
no scroll in place. Hand-written logs, as the bridge writes them."""

from __future__ import annotations

import pytest
from audit_logs import act, tgt

from phoneshell.device.owned import CONTACTS
from phoneshell.device.probes import CLOCK, NOTES
from phoneshell.runner.owner_blind import rewrote
from phoneshell.runner.owner_log import acted_in_clock, acted_on

NOTHING = {"gesture": "keyboard_dismiss", "taps": 0}
UNSAID = {"gesture": "keyboard_dismiss"}
"""A dismiss logged before the bridge said whether it pressed anything."""


@pytest.mark.parametrize(("params", "implicated"), [(NOTHING, False), (UNSAID, True)])
def test_a_dismiss_that_pressed_nothing_implicates_no_agent(params: dict[str, object],
                                                            implicated: bool) -> None:
    def dismissed(app: str) -> list:  # type: ignore[type-arg]
        return act(1, "tap", app, app, **params)
    assert bool(rewrote("notes", dismissed(NOTES), unsure=False)) == implicated
    assert acted_on("contacts", dismissed(CONTACTS)) == implicated
    assert acted_in_clock("alarms", tuple(dismissed(CLOCK))) == implicated


@pytest.mark.parametrize(("hold", "why"), [(0.9, "a swipe on 'Groceries'"), (0.05, "")])
def test_a_held_slide_on_a_row_is_no_scroll(hold: float, why: str) -> None:
    up = act(1, "swipe", NOTES, NOTES, target=tgt("XCUIElementTypeCell", "Groceries"),
             from_x=200, from_y=300, to_x=200, to_y=150, gesture="actions", hold=hold,
             duration=hold + 0.3)
    assert rewrote("notes", up, unsure=False) == why
