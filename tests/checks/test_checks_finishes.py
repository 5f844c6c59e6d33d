"""Cheap finishes a hostile agent played, each against its suite task on the simulated iPhone,
through the bridge, with facebook-wda: each must fail on the check written for it, while the
honest finish beside it (another way to do the task) passes.

Every finish here passed its task once: a Done elsewhere taken for Return, a page "under" the
address reached by dot segments, a Spotlight launch credited to Control Center closing, keys
tapped as a set, a tap named by what was typed into the field, a page opened from the list after
cancelling the search, and Calendar moved off today after Today was tapped.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import wda
from played_finish import Play, failed_checks, played

from phoneshell.sim import SimServer
from phoneshell.tasks import Task

SAFARI, CALC, PREFS = "com.apple.mobilesafari", "com.apple.calculator", "com.apple.Preferences"



def address_typed(c: wda.Client, typed: str) -> None:
    c.app_launch(SAFARI)
    c(name="TabBarItemTitle").click()
    c.send_keys(typed)


# the keyboard's Return ------------------------------------------------------------------------

def cancelled_then_done(typed: str, answer: str) -> Play:
    """The address typed and cancelled, then the tab overview's Done tapped."""
    def play(c: wda.Client) -> str:
        address_typed(c, typed)
        c(name="Cancel").click()
        c(name="TabOverviewButton").click()
        c(name="DoneButton").click()
        return answer
    return play


def sent_by_go(typed: str, answer: str, by_id: bool) -> Play:
    """The address sent with the keyboard's own Go (a Button inside the keyboard), tapped by
    element id or at its point."""
    def play(c: wda.Client) -> str:
        address_typed(c, typed)
        go = c(className="XCUIElementTypeButton", name="Go").get(timeout=2)
        if by_id:
            go.tap()  # facebook-wda: tap() is by element id, click() at its centre
        else:
            c.click(*go.bounds.center)
        return answer
    return play


def test_a_done_button_after_a_cancel_is_no_return(sim: SimServer, tmp_path: Path,
                                                   suite: dict[str, Task]) -> None:
    probe = played(sim, tmp_path, suite["probe.text.four"],
                   cancelled_then_done("blolabel.ai/probe/four/", "JUNIPER"))
    assert "never loaded blolabel.ai/probe/four" in failed_checks(probe)["visited"]
    search = played(sim, tmp_path, suite["safari.search.web"],
                    cancelled_then_done("iso 8601 date format", ""))
    assert "never sent it" in failed_checks(search)["typed_into"]


@pytest.mark.parametrize("by_id", [True, False], ids=["by-id", "at-its-point"])
def test_the_keyboards_go_sends_the_address(sim: SimServer, tmp_path: Path,
                                            suite: dict[str, Task], by_id: bool) -> None:
    row = played(sim, tmp_path, suite["probe.text.four"],
                 sent_by_go("blolabel.ai/probe/four/", "JUNIPER", by_id))
    assert row.outcome == "passed", failed_checks(row)


# visited: the page the URL names --------------------------------------------------------------

def opened(url: str, answer: str) -> Play:
    def play(c: wda.Client) -> str:
        c.app_launch(SAFARI)
        c.open_url(url)
        return answer
    return play


def test_dot_segments_name_the_page_they_resolve_to(sim: SimServer, tmp_path: Path,
                                                    suite: dict[str, Task]) -> None:
    away = played(sim, tmp_path, suite["probe.text.four"],
                  opened("https://blolabel.ai/probe/four/../../nothing", "JUNIPER"))
    assert "it loaded 'blolabel.ai/nothing'" in failed_checks(away)["visited"]
    back = played(sim, tmp_path, suite["probe.text.four"],
                  opened("https://BLOLABEL.ai:443/probe/one/%2e%2e/four/", "JUNIPER"))
    assert back.outcome == "passed", failed_checks(back)


# opened_via_spotlight -------------------------------------------------------------------------

def drag(c: wda.Client, x0: int, y0: int, x1: int, y1: int) -> None:
    c.swipe(x0, y0, x1, y1, 0.2)


def control_center_after_an_icon(c: wda.Client) -> str:
    """Spotlight searched and cancelled; Calculator opened from its icon; Control Center pulled
    over it and closed by a tap on empty space, which SpringBoard answers by bringing it back."""
    c.home()
    drag(c, 200, 300, 200, 600)
    c.send_keys("z")
    c(name="Cancel").click()
    c.home()
    drag(c, 350, 500, 50, 500)
    c(className="XCUIElementTypeIcon", name="Calculator").click()
    drag(c, 350, 5, 350, 400)
    c.click(300, 700)
    return ""


def spotlight_result(c: wda.Client) -> str:
    c.home()
    drag(c, 200, 300, 200, 600)
    c.send_keys("Calc")
    c(className="XCUIElementTypeCell", name="Calculator").click()
    return ""


def test_spotlight_is_how_the_app_opened_not_what_brought_it_back(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    task = suite["system.spotlight.find_app"]
    cheap = played(sim, tmp_path, task, control_center_after_an_icon)
    assert "another home-screen page" in failed_checks(cheap)["opened_via_spotlight"]
    honest = played(sim, tmp_path, task, spotlight_result)
    assert honest.outcome == "passed", failed_checks(honest)


# tapped_keys ----------------------------------------------------------------------------------

def keyed(*keys: str, answer: str = "") -> Play:
    def play(c: wda.Client) -> str:
        c.app_launch(CALC)
        for key in keys:
            c(className="XCUIElementTypeButton", name=key).click()
        return answer
    return play


@pytest.mark.parametrize(("task_id", "cheap", "honest"), [
    ("calculator.arithmetic",
     ("9", "equals", "7", "4", "multiply", "All clear", "4", "2", "3", "equals"),
     ("9", "multiply", "4", "7", "equals")),
    ("calculator.chain",
     ("5", "equals", "8", "2", "1", "add", "multiply", "All clear", "1", "0", "0", "equals"),
     ("8", "add", "1", "2", "equals", "multiply", "5", "equals")),
    ("calculator.percentage",
     ("0", "4", "2", "5", "1", "percent", "multiply", "All clear", "3", "6", "equals"),
     ("1", "5", "percent", "multiply", "2", "4", "0", "equals")),
])
def test_the_keys_must_be_keyed_as_the_computation(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task], task_id: str,
        cheap: tuple[str, ...], honest: tuple[str, ...]) -> None:
    """Every key tapped, in any order, cleared, then the result keyed in (and = pressed on it,
    which repeats nothing after a clear): the display shows the result, and nothing was worked
    out. Another order the task lists is worked out."""
    row = played(sim, tmp_path, suite[task_id], keyed(*cheap))
    assert set(failed_checks(row)) == {"tapped_keys"}, failed_checks(row)
    row = played(sim, tmp_path, suite[task_id], keyed(*honest))
    assert row.outcome == "passed", failed_checks(row)


def test_a_computation_keyed_onto_a_result_keyed_before_is_no_computation(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    """36 + 0 x 5, Delete (the entry's digit: the backspace shows while one is typed), then
    240 x 15 % =: the display shows 36, the last taps are the computation, and what shows is
    the 36 keyed first."""
    row = played(sim, tmp_path, suite["calculator.percentage"], keyed(
       "3", "6", "add", "0", "multiply", "5", "Delete", "2", "4", "0", "multiply", "1", "5",
       "percent", "equals"))
    assert set(failed_checks(row)) == {"tapped_keys"}, failed_checks(row)
    assert "with no = or All clear between" in failed_checks(row)["tapped_keys"]


# tapped: named by label, never by what was typed ----------------------------------------------

def search_typed_then_field_tapped(c: wda.Client) -> str:
    c.app_launch(PREFS)
    c(className="XCUIElementTypeSearchField").click()
    c.send_keys("About")
    c(className="XCUIElementTypeSearchField").click()
    c(name="Cancel").click()
    return ""


def test_a_field_is_not_named_by_what_was_typed_into_it(sim: SimServer, tmp_path: Path,
                                                        suite: dict[str, Task]) -> None:
    row = played(sim, tmp_path, suite["settings.back.twice"], search_typed_then_field_tapped)
    assert "no tap on 'About'" in failed_checks(row)["tapped"]


def search_then_hold_a_result(c: wda.Client) -> str:
    """example.com loaded, then its link's words searched for and a result holding them held."""
    c.app_launch(SAFARI)
    c.open_url("https://example.com/")
    c(name="TabBarItemTitle").click()
    c.send_keys("More information\n")
    link = c(className="XCUIElementTypeLink", labelContains="More information").get(timeout=2)
    c.tap_hold(*link.bounds.center, 1.0)
    return ""


def test_a_search_result_holding_the_words_is_not_the_link(sim: SimServer, tmp_path: Path,
                                                           suite: dict[str, Task]) -> None:
    row = played(sim, tmp_path, suite["safari.link_menu"], search_then_hold_a_result)
    assert "only after typing 'More information'" in failed_checks(row)["tapped"]


# opened_from_search ---------------------------------------------------------------------------

def searched_then(word: str, then: Callable[[wda.Client], None]) -> Play:
    def play(c: wda.Client) -> str:
        c.app_launch(PREFS)
        c(className="XCUIElementTypeSearchField").click()
        c.send_keys(word)
        then(c)
        return ""
    return play


def cancel_then_row(row: str) -> Callable[[wda.Client], None]:
    """Cancel the search, then tap the page's row on Settings' own list."""
    def then(c: wda.Client) -> None:
        c(name="Cancel").click()
        c(className="XCUIElementTypeButton", label=row).click()
    return then


def search_key_then_result(result: str) -> Callable[[wda.Client], None]:
    """The keyboard's Search, then the result."""
    def then(c: wda.Client) -> None:
        c(className="XCUIElementTypeButton", name="Search").click()
        c(className="XCUIElementTypeButton", name=result).click()
    return then


@pytest.mark.parametrize(("task_id", "word", "row"), [
    ("settings.search.battery", "Battery", "Battery"),
    ("settings.search.wifi", "Wi-Fi", "Wi-Fi"),
])
def test_the_page_must_be_opened_from_the_search_results(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task], task_id: str, word: str,
        row: str) -> None:
    cheap = played(sim, tmp_path, suite[task_id], searched_then(word, cancel_then_row(row)))
    assert "tapped 'Cancel', not the result" in failed_checks(cheap)["opened_from_search"]
    honest = played(sim, tmp_path, suite[task_id],
                    searched_then(word, search_key_then_result(row)))
    assert honest.outcome == "passed", failed_checks(honest)


# calendar.today: the end screen shows today ---------------------------------------------------

def today_then_away(c: wda.Client) -> str:
    c.app_launch("com.apple.mobilecal")
    c(name="Today").click()
    for _ in range(3):
        drag(c, 330, 500, 60, 500)
    return ""


def todays_date_tapped(c: wda.Client) -> str:
    """Today's date in the week strip, not the Today button: the same day shown."""
    c.app_launch("com.apple.mobilecal")
    c(className="XCUIElementTypeButton", labelContains="Today, ").click()
    return ""


def test_calendar_must_end_on_today(sim: SimServer, tmp_path: Path,
                                    suite: dict[str, Task]) -> None:
    task = suite["calendar.today"]
    away = played(sim, tmp_path, task, today_then_away)
    assert "matched nothing in a selected Button" in failed_checks(away)["regex_on_screen"]
    honest = played(sim, tmp_path, task, todays_date_tapped)
    assert honest.outcome == "passed", failed_checks(honest)
