"""Settings' search finds a page as a phone's does (red teams 108 and 111): by its title with case
ignored, and hyphens and spaces where the title has one ("wifi" found nothing; "bat tery" is no
Battery, red team 119), and by the titles of its rows ("Model Number" answered "No Results"),
listing the page, not the row; what it found before it lists in the same places. Through
facebook-wda against the simulated iPhone."""

from __future__ import annotations

from pathlib import Path

import pytest
import wda
from played_finish import failed_checks, played
from settings_screen import SETTINGS, rows, title

from phoneshell.sim import DeviceFacts, SimServer
from phoneshell.tasks import Task


@pytest.fixture
def settings(client: wda.Client) -> wda.Client:
    """A session on a freshly launched Settings, its search field tapped."""
    session = client.session(SETTINGS)
    session(className="SearchField").get(timeout=1).click()
    return session


def result(settings: wda.Client, name: str) -> None:
    settings(label=name, className="Button").get(timeout=1).click()


@pytest.mark.parametrize("query", ["wifi", "WiFi", "wi fi", "WI-FI"])
def test_wi_fi_is_found_however_it_is_spelt(settings: wda.Client, client: wda.Client,
                                            query: str) -> None:
    settings.send_keys(query)
    assert rows(client)[0] == "Wi-Fi", rows(client)
    result(settings, "Wi-Fi")
    assert title(client) == "Wi-Fi"


@pytest.mark.parametrize("query", ["bat tery", "b-luetooth", "stor age", "w i f i", "wif i",
                                   "blue tooth"])
def test_a_word_broken_where_it_has_no_break_finds_nothing(settings: wda.Client,
                                                             client: wda.Client,
                                                             query: str) -> None:
    """A space or hyphen fits only where the title's word has one (red team 119): "bat tery"
    is two words, neither of them Battery's, as on a phone that matches words (inferred)."""
    settings.send_keys(query)
    assert rows(client) == ["No Results"], rows(client)


def test_a_row_finds_the_page_it_is_on(settings: wda.Client, client: wda.Client) -> None:
    """"Model Number" lists About (under General), not a result titled by the search's words,
    and opens it with General underneath."""
    settings.send_keys("model number")
    assert rows(client) == ["About"]
    assert settings(label="About, General", className="Button").exists
    assert not settings(label="Model Number").exists  # only in the field
    result(settings, "About, General")
    assert title(client) == "About"
    assert settings(name="BackButton").get(timeout=1).label == "General"
    assert "Model Number" in rows(client)


@pytest.mark.parametrize(("query", "first"), [
    ("Battery", ["Battery", "Battery Usage", "Battery Health"]),
    ("Bluetooth", ["Bluetooth"]),
    ("Storage", ["iPhone Storage"]),
    ("Wi-Fi", ["Wi-Fi"]),
    ("tery", ["Battery"]),  # inside a word, as before
    ("wi-f", ["Wi-Fi"]),  # a hyphen where the title has one, the word begun
    ("iphone-storage", ["iPhone Storage"]),  # or a hyphen for its space
])
def test_what_was_found_before_keeps_its_place(settings: wda.Client, client: wda.Client,
                                               query: str, first: list[str]) -> None:
    settings.send_keys(query)
    assert rows(client)[:len(first)] == first, rows(client)


def test_the_phones_spelling_finds_a_page_by_its_rows() -> None:
    """An en_GB phone's row "Apple Colour Emoji" (a stub) finds System Fonts, by the row's
    title as the phone spells it and as US English does."""
    with SimServer(facts=DeviceFacts(locale="en_GB")) as sim:
        client = wda.Client(sim.url)
        settings = client.session(SETTINGS)
        for query in ("colour emoji", "color emoji"):
            settings(className="SearchField").get(timeout=1).click()
            settings.send_keys(query)
            assert rows(client) == ["System Fonts"], (query, rows(client))
            settings(name="Cancel").click()


def searched_and_stopped(c: wda.Client) -> str:
    """A cheap finish: the check's words typed into the search, the results left showing."""
    c.app_launch(SETTINGS)
    c(className="XCUIElementTypeSearchField").click()
    c.send_keys("Model Number")
    return "MQ163LL/A"


def test_a_search_for_a_rows_words_is_no_visit_to_its_page(sim: SimServer, tmp_path: Path,
                                                           suite: dict[str, Task]) -> None:
    """Results titled by their page keep settings.about.reach's 'Model Number' from showing
    before About is opened; opening About from them is an honest finish."""
    row = played(sim, tmp_path / "stopped", suite["settings.about.reach"], searched_and_stopped)
    assert "only in what was typed" in failed_checks(row)["element_exists"], failed_checks(row)

    def opened(c: wda.Client) -> str:
        searched_and_stopped(c)
        c(label="About, General", className="XCUIElementTypeButton").click()
        return ""

    row = played(sim, tmp_path / "opened", suite["settings.about.reach"], opened)
    assert row.outcome == "passed", failed_checks(row)
