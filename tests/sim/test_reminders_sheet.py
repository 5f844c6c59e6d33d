"""Reminders' New Reminder sheet, opened from the lists overview as on iOS.

The red team found "New Reminder" on the overview adding a row straight to a list; iOS presents
a sheet (Title, Notes, List, Cancel/Add) instead. Driven with facebook-wda over HTTP; the store
is read from the server's state snapshot (what the control route serves).
"""

from __future__ import annotations

import wda

from phoneshell.sim import SimServer

REMINDERS = "com.apple.reminders"


def _saved(sim: SimServer) -> list[dict[str, object]]:
    stores = sim.state()["stores"]
    assert isinstance(stores, dict)
    kept = stores.get(REMINDERS, {})
    assert isinstance(kept, dict)
    value = kept.get("reminders", [])
    assert isinstance(value, list)
    return value


def _open_sheet(sim: SimServer) -> tuple[wda.Client, wda.Client]:
    client = wda.Client(sim.url)
    app = client.session(REMINDERS)
    app(label="New Reminder", className="XCUIElementTypeButton").get(timeout=2).tap()
    return client, app


def _bar(app: wda.Client, name: str) -> bool:
    return bool(app(className="XCUIElementTypeNavigationBar", name=name).exists)


def test_new_reminder_on_the_overview_opens_the_sheet_and_add_saves_to_the_list_chosen(
        sim: SimServer) -> None:
    client, app = _open_sheet(sim)
    assert _bar(app, "New Reminder") and _bar(app, "Lists")  # a sheet over the overview
    assert not _bar(app, "Reminders")  # no list opened behind it
    add = app(label="Add", className="XCUIElementTypeButton").get(timeout=2)
    assert add.enabled is False  # nothing typed yet
    assert app(className="XCUIElementTypeKeyboard").exists  # the title has focus
    app.send_keys("collect parcel")
    assert app(className="XCUIElementTypeTextField", name="Title").get().value == \
        "collect parcel"
    app(label="List, Reminders").get(timeout=2).tap()
    assert _bar(app, "List")
    app(className="XCUIElementTypeCell", label="Groceries").find_elements()[-1].tap()
    assert app(label="List, Groceries").exists
    app(label="Add", className="XCUIElementTypeButton").get(timeout=2).tap()
    assert not _bar(app, "New Reminder")
    assert not app(className="XCUIElementTypeKeyboard").exists
    added = [r for r in _saved(sim) if r.get("title") == "collect parcel"]
    assert [r.get("list") for r in added] == ["Groceries"]
    assert app(label="Groceries, 5").exists  # four seeded, one added
    assert client.app_current()["bundleId"] == REMINDERS


def test_return_in_the_title_moves_to_notes_and_notes_are_kept(sim: SimServer) -> None:
    _, app = _open_sheet(sim)
    app.send_keys("Call Sam\nabout the trip\nand the car")
    notes = app(className="XCUIElementTypeTextView", name="Notes").get()
    assert notes.value == "about the trip\nand the car"
    app(label="Add", className="XCUIElementTypeButton").get(timeout=2).tap()
    [added] = [r for r in _saved(sim) if r.get("title") == "Call Sam"]
    assert added["list"] == "Reminders" and added["notes"] == "about the trip\nand the car"


def test_cancel_asks_before_discarding_what_was_typed(sim: SimServer) -> None:
    _, app = _open_sheet(sim)
    app.send_keys("half typed")
    app(label="Cancel", className="XCUIElementTypeButton").get(timeout=2).tap()
    assert app(label="Discard Changes").exists
    app(label="Keep Editing").get(timeout=2).tap()
    assert app(className="XCUIElementTypeTextField", name="Title").get().value == "half typed"
    app(label="Cancel", className="XCUIElementTypeButton").get(timeout=2).tap()
    app(label="Discard Changes").get(timeout=2).tap()
    assert not _bar(app, "New Reminder")
    assert not any(r.get("title") == "half typed" for r in _saved(sim))


def test_an_empty_sheet_closes_on_cancel_or_a_swipe_down(sim: SimServer) -> None:
    _, app = _open_sheet(sim)
    app(label="Cancel", className="XCUIElementTypeButton").get(timeout=2).tap()
    assert not _bar(app, "New Reminder")
    app(label="New Reminder", className="XCUIElementTypeButton").get(timeout=2).tap()
    app.swipe(201, 120, 201, 600, 0.1)
    assert not _bar(app, "New Reminder")
    assert _saved(sim) == []  # nothing saved: the store still holds no reminders of its own


def test_new_reminder_inside_a_list_still_adds_a_row_there(sim: SimServer) -> None:
    client = wda.Client(sim.url)
    app = client.session(REMINDERS)
    app(label="Groceries, 4").get(timeout=2).tap()
    app(label="New Reminder", className="XCUIElementTypeButton").get(timeout=2).tap()
    assert not _bar(app, "New Reminder")
    app.send_keys("Bread\n")
    assert [r.get("list") for r in _saved(sim) if r.get("title") == "Bread"] == ["Groceries"]
