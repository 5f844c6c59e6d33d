"""Notes: the seeded notes, creating, searching, editing, deleting, persistence, the edit menu."""

from __future__ import annotations

import pytest
import wda
from lxml import etree

from phoneshell.sim import SimServer
from phoneshell.sim.apps.notes_edit import TEXT_FRAME, word_spans

NOTES = "com.apple.mobilenotes"


@pytest.fixture
def notes(client: wda.Client) -> wda.Client:
    """A session on a freshly launched Notes."""
    return client.session(NOTES)


def rows(client: wda.Client) -> list[str]:
    """The labels of the visible cells (the notes the list shows)."""
    root = etree.fromstring(client.source().encode())
    return [c.get("label") for c in root.iter("XCUIElementTypeCell")
            if c.get("visible") == "true"]


def body(session: wda.Client) -> str:
    return session(className="TextView").get(timeout=1).value or ""


def new_note(session: wda.Client, text: str) -> None:
    session(label="New Note").click()
    session.send_keys(text)


def stored(sim: SimServer, folder: str = "notes") -> list[str]:
    return [n["text"] for n in sim.state()["stores"][NOTES][folder]]


def test_a_fresh_phone_has_the_seeded_notes(notes, client):
    assert rows(client)[0] == "phoneshell benchmark"
    assert {"Groceries", "Trip ideas", "Meeting notes"} <= set(rows(client))
    assert notes(label="4 Notes").exists
    assert notes(className="NavigationBar", name="Notes").exists


def test_new_note_is_a_focused_text_view_and_the_first_line_is_its_title(sim, notes, client):
    notes(label="New Note").click()
    view = notes(className="TextView").get(timeout=1)
    assert notes(className="Keyboard").exists
    assert client.source(format="json") and _focused_types(client) == ["TextView"]
    notes.send_keys("Shopping list\nbananas\n")
    assert view.value == "Shopping list\nbananas\n"
    notes(label="Done").click()
    assert not notes(className="Keyboard").exists
    notes(name="BackButton").click()
    assert rows(client)[0] == "Shopping list"
    assert notes(labelContains="bananas").exists  # the second line is the row's subtitle
    assert stored(sim)[0] == "Shopping list\nbananas\n"


def test_search_filters_live_by_title_and_body(notes, client):
    notes(className="SearchField").click()
    notes.send_keys("phoneshell")
    assert rows(client) == ["phoneshell benchmark"]
    notes.send_keys("\b" * 10 + "coffee")  # only in the Groceries note's body
    assert rows(client) == ["Groceries"]
    notes.send_keys("zzz")
    assert rows(client) == ["No Results"]
    notes(label="Cancel").click()
    assert len(rows(client)) == 4


def test_editing_an_existing_note(sim, notes, client):
    notes(label="Groceries", className="Cell").click()
    assert body(notes).startswith("Groceries\nmilk")
    assert not notes(className="Keyboard").exists  # opened to read, not to type
    notes(className="TextView").click()
    notes.send_keys("\ntea")
    assert body(notes).endswith("coffee\ntea")
    notes(name="BackButton").click()
    assert rows(client)[0] == "Groceries"  # most recently edited first
    assert "Groceries\nmilk\neggs\nbread\ncoffee\ntea" in stored(sim)


def test_swipe_left_reveals_delete(sim, notes, client):
    row = notes(label="Trip ideas", className="Cell").get(timeout=1)
    x, y = row.bounds.center
    notes.swipe(x + 100, y, x - 100, y)
    notes(label="Delete").click()
    assert "Trip ideas" not in rows(client)
    assert notes(label="3 Notes").exists
    notes(name="BackButton").click()  # to Folders
    notes(name="Recently Deleted", className="Cell").click()
    assert rows(client) == ["Trip ideas"]
    assert stored(sim, "deleted") == ["Trip ideas\nLisbon in spring, Kyoto in autumn."]


def test_a_tap_after_a_swipe_only_closes_it(notes, client):
    row = notes(label="Groceries", className="Cell").get(timeout=1)
    x, y = row.bounds.center
    notes.swipe(x + 100, y, x - 100, y)
    assert notes(label="Delete").exists
    notes(label="Meeting notes", className="Cell").click()
    assert not notes(label="Delete").exists and not notes(className="TextView").exists


def test_delete_from_the_notes_more_sheet(sim, notes, client):
    notes(label="Meeting notes", className="Cell").click()
    notes(label="More").click()
    notes(label="Delete").click()
    assert "Meeting notes" not in rows(client)
    assert stored(sim, "deleted")[0].startswith("Meeting notes")


def test_notes_are_saved_as_you_type_and_outlive_terminate(notes, client):
    new_note(notes, "kept without Done")
    notes.app_terminate(NOTES)
    notes.app_launch(NOTES)
    assert rows(client)[0] == "kept without Done"


def test_an_empty_new_note_is_not_kept(sim, notes, client):
    notes(label="New Note").click()
    notes(name="BackButton").click()
    assert len(rows(client)) == 4
    assert NOTES not in sim.state()["stores"] or len(stored(sim)) == 4


def test_notes_outlive_the_simulator_through_the_state_file(tmp_path):
    path = tmp_path / "phone.json"
    with SimServer(state_file=path) as first:
        session = wda.Client(first.url).session(NOTES)
        new_note(session, "across runs")
    with SimServer(state_file=path) as second:
        client = wda.Client(second.url)
        client.session(NOTES)
        assert rows(client)[0] == "across runs"


def test_holding_a_word_shows_the_edit_menu(sim, notes, client):
    new_note(notes, "anchor")
    word = _word_frame(notes)
    notes.tap_hold(word[0], word[1], 1.0)
    assert _menu(client) == ["Cut", "Copy", "Select All", "Look Up"]
    notes(label="Copy").click()
    assert sim.state()["stores"]["com.apple.pasteboard"]["text"] == "anchor"
    assert not _menu(client)
    notes.tap_hold(200, 400, 1.0)  # below the text: the caret's menu
    assert _menu(client) == ["Select", "Select All", "Paste"]
    notes(label="Paste").click()
    assert body(notes) == "anchoranchor"


def test_a_tap_dismisses_the_menu_and_cut_removes_the_word(notes, client):
    new_note(notes, "keep drop")
    notes(label="Done").click()
    drop = _word_centre("keep drop", "drop")
    notes.tap_hold(*drop, 1.0)
    assert "Cut" in _menu(client)
    notes(className="TextView").click()
    assert not _menu(client)
    notes.tap_hold(*drop, 1.0)
    notes(label="Cut").click()
    assert body(notes) == "keep "


def test_look_up_and_select_all(notes, client):
    new_note(notes, "anchor bolt")
    notes.tap_hold(24, 140, 1.0)
    notes(label="Select All").click()
    assert _menu(client)[:2] == ["Cut", "Copy"]
    notes(label="Look Up").click()
    assert notes(labelContains="Look Up \u201canchor bolt\u201d").exists
    notes(label="Cancel").click()
    assert body(notes) == "anchor bolt"


def _word_frame(session: wda.Client) -> tuple[int, int]:
    view = session(className="TextView").get(timeout=1).bounds
    return view.x + 20, view.y + 16  # inside the first word of the first line


def _word_centre(text: str, word: str) -> tuple[int, int]:
    """Where `word` of a note's `text` is drawn (the geometry the screenshot uses)."""
    start = text.index(word)
    frame = next(r for s, _, r in word_spans(text, TEXT_FRAME) if s == start)
    return frame.center


def _menu(client: wda.Client) -> list[str]:
    root = etree.fromstring(client.source().encode())
    menu = root.find(".//XCUIElementTypeMenu")
    return [] if menu is None else [b.get("label") for b in menu]


def _focused_types(client: wda.Client) -> list[str]:
    found, stack = [], [client.source(format="json")]
    while stack:
        node = stack.pop()
        if node.get("isFocused") == "1":
            found.append(node.get("type"))
        stack.extend(node.get("children") or [])
    return found


def test_words_are_held_where_the_screenshot_draws_them(notes, client):
    new_note(notes, "keep drop")
    notes(label="Done").click()
    image = client.screenshot().convert("L")
    scale = image.width // 402
    frame = next(r for s, _, r in word_spans("keep drop", TEXT_FRAME) if s == 5)

    def darkest(x: int, y: int, width: int, height: int) -> int:
        box = (x * scale, y * scale, (x + width) * scale, (y + height) * scale)
        return int(image.crop(box).getextrema()[0])

    assert darkest(frame.x, frame.y, frame.width, frame.height) < 80  # ink where "drop" is
    assert darkest(frame.x + frame.width + 8, frame.y, 60, frame.height) > 200  # none after


@pytest.mark.parametrize("between", ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f"])
def test_only_ios_line_breaks_end_the_title(notes, client, between):
    # Python's splitlines breaks at these too; iOS's text does not, and the list's title is
    # what the note's own screen shows as its first line (the source drops the character).
    new_note(notes, f"phoneshell benchmark{between}XYZ\nsecond")
    assert body(notes) == f"phoneshell benchmark{between}XYZ\nsecond"
    notes(name="BackButton").click()
    assert rows(client)[0] == "phoneshell benchmarkXYZ"


@pytest.mark.parametrize("between", ["\n", "\r", "\r\n", "\u2028", "\u2029", "\u0085"])
def test_ios_line_breaks_end_the_title(notes, client, between):
    new_note(notes, f"phoneshell benchmark{between}XYZ")
    notes(name="BackButton").click()
    assert rows(client)[0] == "phoneshell benchmark"


def test_a_note_not_edited_today_shows_its_day_and_an_edit_today_the_time(notes, client):
    subtitles = [t.get("label") for t in etree.fromstring(client.source().encode()).iter(
        "XCUIElementTypeStaticText") if t.get("label", "").startswith(("Yesterday", "Sunday"))]
    assert subtitles == ["Yesterday  A saved note for Notes search to find.", "Sunday  milk"]
    notes(label="Groceries").click()
    notes(className="TextView").click()
    notes.send_keys("\nmore")
    notes(name="BackButton").click()
    assert rows(client)[:2] == ["Groceries", "phoneshell benchmark"]
    assert notes(label="9:41 AM  milk").exists  # edited now: the time, on top
