"""A typed word with white space at its ends is the word, for `regex_on_screen` too.

Red team 110 (RT110-1): notes.text_select failed an honest note "anchor " (iOS adds the space
after a word picked from its suggestions, and most typists leave one): its `^[Aa]nchor$` on
the TextView matched nothing, while `typed_into` and the title count took the word, and the
failure listed the screen's labels ('Note'), not what the note held. Each string is now searched
with its ends' white space trimmed, and a failure on a text input quotes the values it tried; a
second line is still another word (red team 98). Finishes are played with facebook-wda on the
simulated iPhone through the bridge.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import wda
from played_finish import Play, failed_checks, played

from phoneshell.sim import SimServer
from phoneshell.tasks import Task
from phoneshell.tree import LINE_BREAK

NOTES, CONTACTS = "com.apple.mobilenotes", "com.apple.MobileAddressBook"
WORD = (47, 143)
"""The middle of the first line's word when a space comes before it ("anchor" alone too)."""


def held_note(text: str) -> Play:
    """A new note with `text` typed into it, the word on its first line then double-tapped."""
    def play(c: wda.Client) -> None:
        s = c.session()
        s.app_activate(NOTES)
        s(label="New Note", type="XCUIElementTypeButton").click()
        s.send_keys(text)
        s.double_tap(*WORD)
    return play


@pytest.mark.parametrize("text", ["anchor ", " anchor", "anchor \n"],
                         ids=["a-space-after", "a-space-before", "a-space-and-a-return"])
def test_the_word_with_white_space_at_its_ends_passes(text: str, sim: SimServer, tmp_path: Path,
                                                      suite: dict[str, Task]) -> None:
    row = played(sim, tmp_path, suite["notes.text_select"], held_note(text))
    assert row.outcome == "passed", failed_checks(row)


@pytest.mark.slow  # 1.6 s measured: the README's command stays quick
def test_a_second_line_still_fails_and_the_note_is_quoted(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    failed = failed_checks(played(sim, tmp_path, suite["notes.text_select"],
                                  held_note("anchor \nharbour")))
    assert (f"/^[Aa]nchor$/ matched nothing in a TextView on the final screen; the TextView "
            f"holds 'anchor{LINE_BREAK}harbour'; it shows") in failed.get("regex_on_screen", ""), \
        failed


def test_a_search_field_with_a_space_after_the_letter_passes(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    def play(c: wda.Client) -> None:
        s = c.session()
        s.app_activate(CONTACTS)
        s(type="XCUIElementTypeSearchField").click()
        s.send_keys("a ")

    row = played(sim, tmp_path, suite["contacts.search"], play)
    assert row.outcome == "passed", failed_checks(row)
