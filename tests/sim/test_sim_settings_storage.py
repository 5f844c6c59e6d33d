"""Settings > General > iPhone Storage: every app by size, each app's page, Offload App (data
and icon kept, not installed for WDA until its icon is tapped) and Delete App."""

from __future__ import annotations

import time

import pytest
import wda
from lxml import etree

SETTINGS = "com.apple.Preferences"
CLOCK = "com.apple.mobiletimer"
MAPS = "com.apple.Maps"


@pytest.fixture
def storage(client: wda.Client) -> wda.Client:
    """A session on Settings > General > iPhone Storage."""
    session = client.session(SETTINGS)
    session(label="General").get(timeout=1).tap()
    session(label="iPhone Storage").get(timeout=1).tap()
    return session


def cells(client: wda.Client) -> list[str]:
    root = etree.fromstring(client.source().encode())
    return [c.get("label") for c in root.iter("XCUIElementTypeCell") if c.get("label")]


def title(client: wda.Client) -> str:
    root = etree.fromstring(client.source().encode())
    return root.xpath("//XCUIElementTypeNavigationBar")[0].get("name")


def open_row(session: wda.Client, label: str) -> None:
    """Scroll the list down until the row is made, then tap it (rows far below are not made)."""
    deadline = time.monotonic() + 10
    while not session(label=label, className="Cell").exists:
        assert time.monotonic() < deadline, f"no row {label!r}"
        session.swipe_up()
    session(label=label, className="Cell").get(timeout=1).tap()


def test_the_list_holds_every_app_largest_first(storage, client):
    assert title(client) == "iPhone Storage"
    assert cells(client)[2:5] == ["Photos, 21.3 GB", "Messages, 8.1 GB", "Music, 6.4 GB"]
    open_row(storage, "Photos, 21.3 GB")
    assert title(client) == "Photos"
    assert cells(client) == ["Photos", "App Size, 25 MB", "Documents & Data, 21.3 GB"]


def test_offload_keeps_data_and_icon_and_the_icon_reinstalls(client, sim, raw):
    clock = client.session(CLOCK)
    clock(label="Alarms", className="Button").click()  # Clock now reopens on Alarms
    storage = client.session(SETTINGS)  # a new session restarts Settings at its root
    storage(label="General").get(timeout=1).tap()
    storage(label="iPhone Storage").get(timeout=1).tap()
    open_row(storage, "Clock, 10 MB")
    assert cells(client) == ["Clock", "App Size, 9.8 MB", "Documents & Data, 400 KB",
                             "Offload App", "Delete App"]
    storage(label="Offload App").tap()
    assert client.alert.buttons() == ["Offload App", "Cancel"]
    storage(label="Offload App", className="Button").tap()  # the sheet's
    assert cells(client)[1:4] == ["App Size, Zero KB", "Documents & Data, 400 KB",
                                  "Reinstall App"]
    state = sim.state()
    assert CLOCK not in state["installed"] and CLOCK not in state["running"]
    assert CLOCK in state["stores"]  # its documents and data stay
    reply = raw("POST", f"/session/{storage.session_id}/wda/apps/launch", {"bundleId": CLOCK})
    assert reply.status == 400 and "is not installed" in reply.value["message"]
    client.home()
    storage(className="Icon", label="Clock").get(timeout=1).tap()  # reinstalls, then opens
    assert client.app_current()["bundleId"] == CLOCK
    assert CLOCK in sim.state()["installed"]
    assert storage(label="Alarms", className="Button").get(timeout=1).value == "1"


def test_reinstall_app_puts_an_offloaded_app_back(storage, client, sim):
    open_row(storage, "Maps, 357 MB")
    storage(label="Offload App").tap()
    client.alert.accept()
    assert MAPS not in sim.state()["installed"]
    storage(label="Reinstall App").tap()
    assert MAPS in sim.state()["installed"] and "Offload App" in cells(client)


def test_delete_app_returns_to_the_list_without_the_app(storage, client, sim):
    open_row(storage, "Maps, 357 MB")
    storage(label="Delete App").tap()
    assert client.alert.text == ("This will delete the app and all related data from this "
                                 "iPhone.")
    client.alert.dismiss()  # Cancel: nothing changes
    assert MAPS in sim.state()["installed"] and title(client) == "Maps"
    storage(label="Delete App").tap()
    storage(label="Delete App", className="Button").tap()
    assert title(client) == "iPhone Storage"
    assert not [c for c in cells(client) if c.startswith("Maps, ")]
    assert MAPS not in sim.state()["installed"]
    with pytest.raises(wda.WDARequestError, match="is not installed"):
        storage.app_launch(MAPS)
    client.home()
    assert not storage(className="Icon", label="Maps").exists


def test_an_app_ios_will_not_delete_has_neither_button(storage, client):
    open_row(storage, "Safari, 412 MB")
    assert "Offload App" not in cells(client) and "Delete App" not in cells(client)


def test_the_confirmation_is_an_action_sheet(storage, client):
    open_row(storage, "Maps, 357 MB")
    storage(label="Offload App").tap()
    root = etree.fromstring(client.source().encode())
    (sheet,) = root.iter("XCUIElementTypeSheet")
    assert [b.get("label") for b in sheet.iter("XCUIElementTypeButton")] == ["Offload App",
                                                                             "Cancel"]
    assert sheet.get("label") == ("This will free up storage used by the app, but keep its "
                                  "documents and data.")
