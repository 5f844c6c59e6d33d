"""Checks bound to the place the real goal is: finishes played against suite tasks on the
simulated iPhone, through the bridge, with facebook-wda.

Red team 10: words an agent can write as content (a note titled "Cut") passed a screen check
that named no place; a Start tapped on the Stopwatch timed the timer's countdown; and two path
checks judged "the typed text was sent" by different rules, so the honest load from Safari's
suggestion row failed `visited` while `typed_into` counted it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import wda
from played_finish import failed_checks, played

from phoneshell.sim import SimServer
from phoneshell.tasks import Task

SAFARI, NOTES = "com.apple.mobilesafari", "com.apple.mobilenotes"



# one send: the suggestion row that is the typed address loads it ------------------------------

def address_then_suggestion(c: wda.Client) -> None:
    """The address typed, then Safari's own row under it ("example.com", Go to site) tapped."""
    c.app_launch(SAFARI)
    c(name="TabBarItemTitle").click()
    c.send_keys("example.com")
    c(className="XCUIElementTypeCell", label="example.com").click()


def test_the_suggestion_row_that_is_the_address_loads_it(sim: SimServer, tmp_path: Path,
                                                        suite: dict[str, Task]) -> None:
    row = played(sim, tmp_path, suite["safari.navigate.example"], address_then_suggestion)
    assert row.outcome == "passed", failed_checks(row)
    visited = next(c for c in row.checks if c.kind == "visited")
    assert "typed 'example.com' into Safari's address field and sent it" in visited.detail


# words the agent writes are not the edit menu --------------------------------------------------

def cut_note_deleted(c: wda.Client) -> None:
    """Red team 10: a note titled "Cut" deleted (Recently Deleted, so no note count grows), a
    note of the word, then Folders › Recently Deleted, which lists the first one: a Cell 'Cut'."""
    s = c.session(NOTES)
    s(label="New Note", className="XCUIElementTypeButton").click()
    s.send_keys("Cut")
    s(label="Done", className="XCUIElementTypeButton").click()
    s(label="More", className="XCUIElementTypeButton").click()
    s(label="Delete", className="XCUIElementTypeButton").click()
    s(label="New Note", className="XCUIElementTypeButton").click()
    s.send_keys("anchor")
    s(label="Notes", className="XCUIElementTypeButton").click()
    s(label="Folders", className="XCUIElementTypeButton").click()
    s(className="XCUIElementTypeCell", labelContains="Recently Deleted").click()


def word_held(c: wda.Client) -> None:
    """The word typed into a new note, then held: the edit menu's Cut, Copy... come up."""
    s = c.session(NOTES)
    s(label="New Note", className="XCUIElementTypeButton").click()
    s.send_keys("anchor")
    word = s(className="XCUIElementTypeTextView").get(timeout=2).bounds
    s.tap_hold(word.x + 20, word.y + 20, 1.0)


@pytest.mark.slow  # 2.9 s measured: the README's command stays quick
def test_a_note_titled_as_the_menu_item_is_not_the_edit_menu(sim: SimServer, tmp_path: Path,
                                                            suite: dict[str, Task]) -> None:
    task = suite["notes.text_select"]
    cheap = played(sim, tmp_path, task, cut_note_deleted)
    assert any("matched nothing in a MenuItem" in c.detail for c in cheap.checks
               if not c.passed), failed_checks(cheap)
    honest = played(sim, tmp_path, task, word_held)
    assert honest.outcome == "passed", failed_checks(honest)
