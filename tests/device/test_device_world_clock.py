"""World Clock's cities as a count, read through a list longer than the screen, and deleting only
the cities added since a count."""

from __future__ import annotations

import pytest
from sources import El, source

from phoneshell.device import Phone, ProbeError, run_probe, run_rows, run_step, run_steps
from phoneshell.device.cleanup import with_counts
from phoneshell.device.world_clock import rows_of
from phoneshell.errors import StepError
from phoneshell.tasks import Step
from phoneshell.tree import PageSource

CLOCK = "com.apple.mobiletimer"
KEY = ("world_clocks", "")


def add_city(phone: Phone, city: str) -> None:
    run_steps(phone, [Step("launch", CLOCK), Step("select_tab", "World Clock"),
                      Step.tap_on("Add", "Button"), Step("type", city), Step("tap", city),
                      Step("terminate", CLOCK)])


def delete_since(start: tuple[str, ...], now: int, kept: tuple[str, ...] | None) -> Step:
    return with_counts(Step("delete_created", options=(("probe", "world_clocks"),
                                                       ("text", ""))),
                       {KEY: (len(start), now)}, None if kept is None else {KEY: kept})


def test_cities_are_counted_through_a_list_longer_than_the_screen(phone: Phone) -> None:
    assert run_rows(phone, "world_clocks", "") == ("Cupertino",)
    added = ("London", "Tokyo", "Sydney", "Paris", "Berlin", "Dubai", "Mumbai", "Denver")
    for city in added:
        add_city(phone, city)
    assert run_rows(phone, "world_clocks", "") == ("Cupertino", *added)  # 9 rows, 7 fit
    assert run_probe(phone, "world_clocks", "ER") == 3  # Cupertino, Berlin, Denver: by name
    assert phone.app_state(CLOCK) == 1  # stopped after counting


def test_only_the_cities_added_since_the_count_are_deleted(phone: Phone) -> None:
    add_city(phone, "Paris")  # the owner's, there before
    start = run_rows(phone, "world_clocks", "")
    for city in ("London", "Tokyo"):
        add_city(phone, city)
    run_step(phone, delete_since(start, len(start) + 2, start))
    assert run_rows(phone, "world_clocks", "") == ("Cupertino", "Paris")


def test_without_the_cities_before_none_is_deleted(phone: Phone) -> None:
    start = run_rows(phone, "world_clocks", "")
    add_city(phone, "London")
    with pytest.raises(StepError, match="cities counted before the agent are not known"):
        run_step(phone, delete_since(start, len(start) + 1, None))
    assert run_rows(phone, "world_clocks", "") == ("Cupertino", "London")


def row(*texts: str) -> str:
    """A World Clock tab whose one row holds `texts`."""
    cell = El("Cell", label=", ".join(texts), frame=(0, 168, 402, 96), children=tuple(
        El("StaticText", label=t, frame=(16, 170 + 20 * i, 150, 18)) for i, t in enumerate(texts)))
    return source(El("Table", frame=(0, 168, 402, 623), children=(cell,)), bundle=CLOCK)


def test_a_row_is_named_by_the_one_text_that_does_not_change_with_the_time() -> None:
    page = PageSource.parse(row("Tomorrow, +17HRS", "Tokyo", "2:41", "AM"))
    assert [city for city, _ in rows_of(page)] == ["Tokyo"]
    # two texts that are not a time: which is the city cannot be told, and is not guessed
    with pytest.raises(ProbeError, match="cannot tell the city"):
        rows_of(PageSource.parse(row("Today, +0HRS", "Cupertino", "Home", "9:41", "AM")))
