"""Exactly the text asked, and the last: `typed_into`'s and `opened_from_search`'s `whole`.

Red team 54: "type 'iso 8601 date format' and send it" passed with "iso 8601 date format
javascript parse error" sent, or with the asked query and then "rfc 3339 vs iso 8601": typed_into
was "contains". Suite finishes are played on the simulated iPhone through the bridge with
facebook-wda; the rest are hand-written logs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import wda
from audit_logs import PREFS, act, grade, log, tgt
from played_finish import Play, failed_checks, played

from phoneshell.checks import Check, lookup
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

SAFARI, MAPS = "com.apple.mobilesafari", "com.apple.Maps"
ASKED = "iso 8601 date format"


def search_safari(*queries: str) -> Play:
    """Safari's address bar, each query typed and sent in turn."""
    def play(c: wda.Client) -> None:
        c.app_launch(SAFARI)
        s = c.session()
        for query in queries:
            s(name="TabBarItemTitle").click()
            s.send_keys(f"{query}\n")
    return play


def asked_then_url(c: wda.Client) -> None:
    search_safari(ASKED)(c)
    c.open_url("https://www.google.com/search?q=rfc+3339+vs+iso+8601")


def search_maps(*typed: str) -> Play:
    """Maps' search field, each text typed in turn (a tap on the field between)."""
    def play(c: wda.Client) -> None:
        c.app_launch(MAPS)
        s = c.session()
        for text in typed:
            s(className="XCUIElementTypeSearchField").click()
            s.send_keys(text)
    return play


def test_the_asked_query_sent_passes(sim: SimServer, tmp_path: Path,
                                     suite: dict[str, Task]) -> None:
    row = played(sim, tmp_path, suite["safari.search.web"], search_safari(f"  {ASKED.upper()}"))
    assert row.outcome == "passed", failed_checks(row)
    typed = next(c for c in row.checks if c.kind == "typed_into")
    assert "whole, and nothing sent there after" in typed.detail, typed.detail


@pytest.mark.parametrize(("play", "seen"), [
    (search_safari(f"{ASKED} javascript parse error"),
     f"was '{ASKED} javascript parse error'; wanted '{ASKED}', whole"),
    (search_safari(ASKED, "rfc 3339 vs iso 8601"),
     "was 'rfc 3339 vs iso 8601'; wanted 'iso 8601 date format', whole (it sent that before"),
    (asked_then_url, "but then #"),
], ids=["longer", "then-another", "then-a-url"])
def test_another_search_fails_safari(play: Play, seen: str, sim: SimServer, tmp_path: Path,
                                     suite: dict[str, Task]) -> None:
    failed = failed_checks(played(sim, tmp_path, suite["safari.search.web"], play))
    assert seen in failed.get("typed_into", ""), failed


def test_maps_wants_the_landmark_as_given(sim: SimServer, tmp_path: Path,
                                          suite: dict[str, Task]) -> None:
    task = suite["maps.search_place"]
    assert played(sim, tmp_path / "a", task, search_maps("Eiffel Tower")).outcome == "passed"
    failed = failed_checks(played(sim, tmp_path / "b", task, search_maps("Eiffel Tower",
                                                                        " Las Vegas")))
    # the field tapped between goes on holding "Eiffel Tower": that tap ends no typing of it
    assert failed.get("typed_into", "").endswith(
        "was 'Eiffel Tower Las Vegas'; wanted 'Eiffel Tower', whole"), failed


# hand-written logs ------------------------------------------------------------------------------

SEARCH = tgt("XCUIElementTypeSearchField", "Search", "Search")
BATTERY = tgt("XCUIElementTypeButton", "Battery", "Battery")


def test_negated_whole_is_the_exact_text_at_any_moment() -> None:
    typed = log(act(1, "tap", PREFS, PREFS, target=SEARCH),
                act(2, "type", PREFS, PREFS, target=SEARCH, text="Battery Health"))
    fields = {"text": "Battery", "app": PREFS, "into": "Search", "whole": True}
    passed, detail = grade("typed_into", typed, negate=True, **fields)
    assert passed and "never typed exactly 'Battery'" in detail, detail
    assert not grade("typed_into", typed, negate=True, **{**fields, "whole": False})[0]
    exact = log(act(1, "type", PREFS, PREFS, target=SEARCH, text="battery "))
    assert not grade("typed_into", exact, negate=True, **fields)[0]


def test_opened_from_search_whole_wants_the_search_as_given() -> None:
    fields = {"text": "Battery", "result": "Battery", "app": PREFS, "into": "Search"}
    for word, whole_passes in (("Battery", True), ("battery health", False)):
        ev = log(act(1, "tap", PREFS, PREFS, target=SEARCH),
                 act(2, "type", PREFS, PREFS, target=SEARCH, text=word),
                 act(3, "tap", PREFS, PREFS, target=BATTERY))
        assert grade("opened_from_search", ev, **fields)[0]
        assert grade("opened_from_search", ev, **fields, whole=True)[0] is whole_passes, word


def test_a_whole_typed_into_is_implied_only_by_the_same_check() -> None:
    rule = lookup("typed_into").implied_by

    def typed(text: str, **more: object) -> Check:
        return Check.make("typed_into", text, app=SAFARI, submitted=True, **more)  # type: ignore[arg-type]

    assert rule.implied(typed(ASKED, whole=True), typed(ASKED.upper(), whole=True))
    # "contains" passes on a longer query; the last send need not be it
    assert not rule.implied(typed(ASKED, whole=True), typed(f"{ASKED} javascript"))
    assert not rule.implied(typed("iso 8601", whole=True), typed(ASKED, whole=True))
    # the whole text sent last holds every part of it
    assert rule.implied(typed("iso 8601"), typed(ASKED, whole=True))
