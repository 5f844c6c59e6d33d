"""A `whole` search's word in another spelling is the same search (red team 115, RT115-3).

`settings.search.wifi` quotes "Wi-Fi"; most people and models type "wifi" or "wi fi", Settings
lists the same page, and `whole` was there to stop a longer query (red team 54), not a spelling
of the word. Played on the simulated iPhone through the bridge with facebook-wda; a search that
is not the word fails naming what was typed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import wda
from played_finish import Play, failed_checks, played

from phoneshell.sim import SimServer
from phoneshell.tasks import Task

PREFS = "com.apple.Preferences"


def searched_then_result(word: str) -> Play:
    """Settings' search field, `word` typed, then the Wi-Fi row among its results."""
    def play(c: wda.Client) -> str:
        c.app_launch(PREFS)
        c(className="XCUIElementTypeSearchField").click()
        c.send_keys(word)
        c(className="XCUIElementTypeButton", name="Search").click()
        c(className="XCUIElementTypeButton", name="Wi-Fi").click()
        return ""
    return play


@pytest.mark.parametrize("word", ["wifi", "wi fi", "WiFi"])
def test_a_spelling_of_the_word_is_a_search_for_it(sim: SimServer, tmp_path: Path,
                                                   suite: dict[str, Task], word: str) -> None:
    row = played(sim, tmp_path, suite["settings.search.wifi"], searched_then_result(word))
    assert row.outcome == "passed", failed_checks(row)
    found = next(c for c in row.checks if c.kind == "opened_from_search")
    assert f"from the results of {word!r}" in found.detail, found.detail


def test_a_part_of_the_word_fails_naming_what_was_searched(sim: SimServer, tmp_path: Path,
                                                           suite: dict[str, Task]) -> None:
    row = played(sim, tmp_path, suite["settings.search.wifi"], searched_then_result("Wi"))
    detail = failed_checks(row)["opened_from_search"]
    assert "no search for 'Wi-Fi'" in detail and "it searched 'Wi'" in detail, detail
