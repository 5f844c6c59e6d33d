"""Books: the four tabs, search behind its own tab, a book's page, and no purchases."""

from __future__ import annotations

import pytest
import wda

BOOKS = "com.apple.iBooks"


@pytest.fixture
def books(client: wda.Client) -> wda.Client:
    """A session on a freshly launched Books."""
    return client.session(BOOKS)


def cells(session: wda.Client) -> list[str]:
    return [c.label for c in session(className="Cell").find_elements()]


def test_opens_on_home_and_the_tabs_switch(books):
    tabs = [b.label for b in books(xpath="//XCUIElementTypeTabBar/*").find_elements()]
    assert tabs == ["Home", "Library", "Book Store", "Search"]
    assert books(className="Button", label="Home").get(timeout=1).value == "1"
    assert not books(className="SearchField").exists
    books(className="Button", label="Library").click()
    assert cells(books) == ["Pride and Prejudice", "Frankenstein",
                            "The Adventures of Sherlock Holmes"]


def test_search_finds_a_title_with_its_author(books):
    books(className="Button", label="Search").click()
    field = books(className="SearchField").get(timeout=1)
    assert field.label == "Books & Audiobooks"
    field.click()
    books.send_keys("moby dick")
    assert cells(books) == ["Moby Dick", "Moby Dick: A Graphic Novel"]
    assert books(className="StaticText", label="Herman Melville").exists


def test_search_by_author_no_results_and_cancel(books):
    books(className="Button", label="Search").click()
    books(className="SearchField").click()
    books.send_keys("dickens\n")
    assert cells(books) == ["Great Expectations", "A Tale of Two Cities"]
    assert not books(className="Keyboard").exists
    books(className="SearchField").click()
    books.send_keys("\b" * 7 + "zzz")
    assert cells(books) == ["No Results"]
    books(name="Cancel").click()
    assert "Dracula" in cells(books)  # trending again


def test_a_book_page_and_get_asks_to_sign_in(books):
    books(className="Button", label="Search").click()
    books(className="SearchField").click()
    books.send_keys("moby")
    books(className="Cell", label="Moby Dick").click()
    assert books(name="BackButton").get(timeout=1).label == "Search"
    assert books(className="StaticText", label="Herman Melville").exists
    books(className="Button", label="Get").click()
    assert books.alert.exists and books.alert.text.startswith("Apple Account")
    books.alert.click("Not Now")
    assert not books.alert.exists
    books(name="BackButton").click()
    assert cells(books) == ["Moby Dick", "Moby Dick: A Graphic Novel"]
