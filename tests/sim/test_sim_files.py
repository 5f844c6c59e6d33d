"""Files: Recents on launch, the Browse tab's locations, opening folders, and search."""

from __future__ import annotations

import pytest
import wda

FILES = "com.apple.DocumentsApp"


@pytest.fixture
def files(client: wda.Client) -> wda.Client:
    """A session on a freshly launched Files."""
    return client.session(FILES)


def cells(session: wda.Client) -> list[str]:
    return [c.label for c in session(className="Cell").find_elements()]


def test_opens_on_recents(files):
    assert files(className="Button", label="Recents").get(timeout=1).value == "1"
    assert "Quarterly Report.pdf" in cells(files)
    assert not files(label="Locations".upper()).exists


def test_browse_lists_the_locations(files):
    files(className="Button", label="Browse").click()
    assert files(className="Button", label="Browse").get(timeout=1).value == "1"
    assert files(label="LOCATIONS").exists
    assert cells(files)[:3] == ["iCloud Drive", "On My iPhone", "Recently Deleted"]
    assert "Downloads" in cells(files) and "Red" in cells(files)


def test_folders_open_and_back_returns(files):
    files(className="Button", label="Browse").click()
    files(className="Cell", label="iCloud Drive").click()
    assert files(name="BackButton").get(timeout=1).label == "Browse"
    files(className="Cell", label="Documents").click()
    assert cells(files) == ["Quarterly Report.pdf", "Packing List.txt", "Recipes"]
    assert files(name="BackButton").get(timeout=1).label == "iCloud Drive"
    files.swipe(5, 400, 250, 400)  # the left-edge swipe goes back too
    assert "Documents" in cells(files)
    files(className="Button", label="Browse").click()  # the selected tab: back to its root
    assert cells(files)[0] == "iCloud Drive"


def test_empty_folder_and_other_tabs(files):
    files(className="Button", label="Browse").click()
    files(className="Cell", label="Recently Deleted").click()
    assert cells(files) == ["No items"]
    files(className="Button", label="Shared").click()
    assert cells(files) == ["Family Budget.numbers", "Trip Itinerary.pages"]


def test_search_finds_files_in_any_folder(files):
    files(className="SearchField").click()
    files.send_keys("pdf")
    assert "Banana Bread.pdf" in cells(files) and "Boarding Pass.pdf" in cells(files)
    files.send_keys("\b\b\bzzz")
    assert cells(files) == ["No Results"]
    files(name="Cancel").click()
    assert "Packing List.txt" in cells(files)
