"""A `whole` search's word in another spelling is the same search (red team 115, RT115-3).

`settings.search.wifi` quotes "Wi-Fi"; most people and models type "wifi" or "wi fi", Settings
lists the same page, and `whole` was there to stop a longer query (red team 54), not a spelling
of the word. Played on the simulated iPhone through the bridge with facebook-wda; a search that
is not the word fails naming what was typed. A hyphen or space folds only where the word has
one (red team 119, RT119-4): "bat tery" or "w i f i" is other words, which a phone's search
finds nothing for, and the check takes for no search for the word.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import wda
from attempt_rig import run_one
from played_finish import Play, Played, failed_checks, played

from phoneshell.checks import Check, grade_check
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

PREFS = "com.apple.Preferences"


def searched_then_result(word: str, page: str = "Wi-Fi") -> Play:
    """Settings' search field, `word` typed, then the `page` row among its results, when they
    list it."""
    def play(c: wda.Client) -> str:
        c.app_launch(PREFS)
        c(className="XCUIElementTypeSearchField").click()
        c.send_keys(word)
        c(className="XCUIElementTypeButton", name="Search").click()
        row = c(className="XCUIElementTypeButton", name=page)
        if row.exists:
            row.click()
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


@pytest.mark.parametrize(("task", "word"), [("battery", "bat tery"), ("bluetooth", "b-luetooth"),
                                            ("storage", "stor age"), ("wifi", "w i f i")])
def test_a_word_broken_up_is_no_search_for_it(sim: SimServer, tmp_path: Path,
                                              suite: dict[str, Task], task: str,
                                              word: str) -> None:
    """The phone's search lists nothing for a word broken where it has no break, so there is
    no result to open, and the failure names what was typed."""
    page = {"battery": "Battery", "bluetooth": "Bluetooth", "storage": "iPhone Storage",
            "wifi": "Wi-Fi"}[task]
    row = played(sim, tmp_path, suite[f"settings.search.{task}"],
                 searched_then_result(word, page))
    detail = failed_checks(row)["opened_from_search"]
    assert "no search for" in detail and f"it searched {word!r}" in detail, detail


def test_a_break_counts_only_where_the_word_has_one(sim: SimServer, tmp_path: Path,
                                                    suite: dict[str, Task]) -> None:
    """"wi fi" opened from Settings' results is a search for "Wi-Fi" and "Wi Fi", which break
    there, and none for a word written without that break ("WiFi"), or broken elsewhere: the
    same evidence graded by `opened_from_search` for each."""
    task = suite["settings.search.wifi"]
    done = run_one(sim, tmp_path, task, Played(searched_then_result("wi fi")))
    assert done.evidence is not None and done.row.outcome == "passed", failed_checks(done.row)

    def graded(word: str) -> bool:
        check = Check.make("opened_from_search", word, result="Wi-Fi", app=PREFS,
                           into="Search", whole=True)
        return grade_check(check, done.evidence).passed  # type: ignore[arg-type]

    assert graded("Wi-Fi") and graded("Wi Fi") and graded("wi fi")
    assert not graded("WiFi") and not graded("Wif i")
