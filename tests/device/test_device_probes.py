"""The probes on the simulated iPhone: counts that see duplicates and long lists, values read off
Settings, and a clear refusal where a count or value cannot be read."""

from __future__ import annotations

from typing import Any

import pytest
from sources import El, source

from phoneshell.device import Phone
from phoneshell.device.probes import (
    ProbeError,
    has_search_field,
    merge_scrolled,
    run_probe,
)
from phoneshell.device.safari_tabs import tab_count
from phoneshell.device.steps import back_until, run_steps
from phoneshell.tasks import Step
from phoneshell.tree import PageSource


def alarm(hour: int, minute: int, label: str = "") -> dict[str, Any]:
    return {"id": 0, "hour": hour, "minute": minute, "label": label, "repeat": "",
            "enabled": False}


def test_two_alarms_at_the_same_time_count_twice(seeded: Any) -> None:
    with seeded([alarm(7, 30), alarm(7, 30), alarm(8, 0)]) as sim:
        phone = Phone(sim.url, effect_timeout_s=1.0)
        assert run_probe(phone, "alarms", "7:30") == 2
        assert run_probe(phone, "alarms", "") == 3
        assert run_probe(phone, "alarms", "9:15") == 0


def test_an_alarm_list_longer_than_the_screen_is_counted_to_the_end(seeded: Any) -> None:
    many = [alarm(6 + i // 4, (i % 4) * 15) for i in range(24)]
    with seeded(many) as sim:
        phone = Phone(sim.url, effect_timeout_s=1.0)
        assert run_probe(phone, "alarms", "") == 24
        assert run_probe(phone, "alarms", "11:45") == 1


def test_identical_rows_across_a_scroll_are_refused_not_guessed() -> None:
    assert merge_scrolled(["6:00", "7:00", "7:30"], ["7:00", "7:30", "8:00"]) == \
        ["6:00", "7:00", "7:30", "8:00"]
    assert merge_scrolled(["6:00"], ["9:00"]) == ["6:00", "9:00"]
    with pytest.raises(ProbeError, match="identical rows"):
        merge_scrolled(["6:00", "7:30", "7:30"], ["7:30", "7:30", "8:00"])


def test_settings_values_are_read_by_path(phone: Phone) -> None:
    # Model Number is read in both notations a tap shows (part number, regulatory number)
    assert run_probe(phone, "settings_value", "General > About > Model Number") == \
        "MQ163LL/A | A3256"
    assert run_probe(phone, "settings_value", "General > About > Serial Number") == "F4GZK7Q2XM"
    with pytest.raises(ProbeError, match="no row 'Colour' under Settings > General > About"):
        run_probe(phone, "settings_value", "General > About > Colour")


def test_notes_are_counted_by_title_and_by_text(phone: Phone) -> None:
    # a fresh phone's notes: "phoneshell benchmark", "Groceries" (milk, eggs...), two more
    assert run_probe(phone, "notes_titled", "Phoneshell benchmark") == 1, "iOS capitalises"
    assert run_probe(phone, "notes_titled", "Phoneshell Benchmark") == 0, "another title"
    assert run_probe(phone, "notes_titled", "benchmark") == 0, "a title is matched whole"
    assert run_probe(phone, "notes_containing", "milk") == 1
    # all four end above the keyboard's top (583 of 874 points): counted, not refused
    assert run_probe(phone, "notes_containing", "e") == 4
    assert run_probe(phone, "notes_containing", "zzqx") == 0


def test_the_newest_note_is_read_whole(phone: Phone) -> None:
    assert run_probe(phone, "newest_note", "") == \
        "phoneshell benchmark\nA saved note for Notes search to find."
    run_steps(phone, [Step("launch", "com.apple.mobilenotes"), Step("tap", "New Note"),
                      Step("type", "x benchmark-test (v2) y")])
    assert run_probe(phone, "newest_note", "") == "x benchmark-test (v2) y"


def test_the_tab_count_is_the_toolbars_never_a_cards_title() -> None:
    # a page titled "500 Tabs" would else set how many tabs the run's tidy closes
    cards = (El("Button", "500 Tabs", frame=(20, 120, 170, 220)),
             El(label="500 Tabs", frame=(20, 350, 170, 20)))
    toolbar = El("Button", "3 Tabs", name="TabGroupsButton", frame=(150, 800, 100, 44))
    assert tab_count(PageSource.parse(source(*cards, toolbar))) == 3
    unnamed = El("Button", "3 Tabs", frame=(150, 800, 100, 44))
    assert tab_count(PageSource.parse(source(*cards, unnamed))) == 3


def test_a_count_goes_back_to_the_top_of_an_app_that_reopens_in_a_list(phone: Phone) -> None:
    """Reminders reopens in the list it stopped in, where its search field is not: a count
    goes back to the overview first, and counts as from there."""
    reminders = "com.apple.reminders"
    listed = run_probe(phone, "reminders", "")

    def into_groceries() -> None:
        run_steps(phone, [Step("launch", reminders)])
        back_until(phone, has_search_field)  # the count above left Reminders in its All list
        run_steps(phone, [Step.tap_on("Groceries", "Cell"), Step("terminate", reminders),
                          Step("launch", reminders)])

    into_groceries()
    assert not any(e.type == "XCUIElementTypeSearchField" for e in phone.page().on_screen()), \
        "Reminders reopened in its list"
    assert run_probe(phone, "reminders_titled", "Milk") == 1
    into_groceries()
    assert run_probe(phone, "reminders", "") == listed
