"""Maps: the collapsed search sheet, results with subtitles, place cards, Cancel."""

from __future__ import annotations

import pytest
import wda

MAPS = "com.apple.Maps"


@pytest.fixture
def maps(client: wda.Client) -> wda.Client:
    """A session on a freshly launched Maps."""
    return client.session(MAPS)


def results(session: wda.Client) -> list[str]:
    return [c.label for c in session(className="Cell").find_elements()]


def test_opens_on_the_map_with_a_collapsed_search_sheet(maps, client):
    assert maps(className="Map").get(timeout=1).bounds.height == 874
    field = maps(className="SearchField").get(timeout=1)
    assert field.label == "Search Maps" and field.bounds.y > 700
    assert not maps(className="Keyboard").exists and not maps(name="Cancel").exists


def test_tapping_the_field_raises_the_sheet(maps):
    maps(className="SearchField").click()
    assert maps(className="SearchField").get(timeout=1).bounds.y < 120
    assert maps(className="Keyboard").exists and maps(name="Cancel").exists
    assert results(maps) == ["Restaurants", "Coffee", "Groceries"]


def test_typing_lists_results_with_subtitles(maps):
    maps(className="SearchField").click()
    maps.send_keys("Paris")
    assert results(maps) == ["Eiffel Tower", "Louvre Museum", "Le Jules Verne"]
    maps.send_keys("\b" * 5 + "Eiffel Tower")
    assert results(maps) == ["Eiffel Tower"]
    assert maps(className="StaticText", label="Landmark · Paris, France").exists
    maps.send_keys("\n")  # Search: the keyboard goes, the results stay
    assert not maps(className="Keyboard").exists
    assert results(maps) == ["Eiffel Tower"]


def test_a_result_opens_its_place_card(maps):
    maps(className="SearchField").click()
    maps.send_keys("eiffel\n")
    maps(className="Cell", label="Eiffel Tower").click()
    assert maps(className="StaticText", label="Eiffel Tower").exists
    assert maps(name="Directions").exists and not maps(className="SearchField").exists
    maps(name="Close").click()
    assert results(maps) == ["Eiffel Tower"]


def test_categories_no_results_and_cancel(maps):
    maps(className="SearchField").click()
    maps(className="Cell", label="Coffee").click()
    assert results(maps) == ["Blue Bottle Coffee", "Philz Coffee"]
    maps.send_keys("\b\b\b\b\b\bqwzx")
    assert results(maps) == ["No Results"]
    maps(name="Cancel").click()
    assert maps(className="SearchField").get(timeout=1).bounds.y > 700
    assert results(maps) == [] and not maps(className="Keyboard").exists
