"""SpringBoard: home pages and icons, Spotlight, Notification Centre, system gestures, keyboard."""

from __future__ import annotations

import pytest
import wda
from lxml import etree

from phoneshell.sim.apps import builtin_apps

SPRINGBOARD = "com.apple.springboard"
CALCULATOR = "com.apple.calculator"
SETTINGS = "com.apple.Preferences"


def front(client: wda.Client) -> str:
    return client.app_current()["bundleId"]


def icons(client: wda.Client) -> dict[str, etree._Element]:
    root = etree.fromstring(client.source().encode())
    return {e.get("label"): e for e in root.iter("XCUIElementTypeIcon")}


def test_home_has_an_icon_for_every_app(app, client):
    found = icons(client)
    assert set(found) == {a.name for a in builtin_apps() if a.home_icon}
    assert found["Settings"].get("visible") == "true"
    # Calculator sits on page 2: zero frame and invisible, as real SpringBoard reports it.
    calc = found["Calculator"]
    assert calc.get("visible") == "false" and calc.get("width") == "0"


def test_page_flip_and_icon_launch(app, client):
    app.swipe_left()
    assert icons(client)["Calculator"].get("visible") == "true"
    assert app(className="PageIndicator").get(timeout=1).value == "Page 2 of 2"
    app(label="Calculator").click()
    assert front(client) == CALCULATOR
    client.home()
    assert icons(client)["Calculator"].get("visible") == "true"  # back to the same page
    client.home()
    assert icons(client)["Settings"].get("visible") == "true"  # home again: first page


def test_an_icon_on_a_page_not_showing_cannot_be_clicked(app, client, raw):
    calculator = app(className="Icon", label="Calculator").get(timeout=1)
    assert calculator.bounds.width == 0  # page 2: a zero frame
    with pytest.raises(wda.WDARequestError) as refused:
        calculator.tap()  # POST element/:id/click
    assert refused.value.value["error"] == "invalid element state"
    assert "is not visible on the screen" in refused.value.value["message"]
    reply = raw("POST", f"/session/{app.session_id}/wda/element/{calculator.id}/touchAndHold",
                {"duration": 0.5})
    assert reply.status == 400 and "not interactable" in reply.value["message"]
    assert front(client) == SPRINGBOARD
    app.swipe_left()
    app(className="Icon", label="Calculator").get(timeout=1).tap()  # showing now: it opens
    assert front(client) == CALCULATOR


def test_spotlight_from_a_downward_drag(app, client):
    app.swipe_down()  # from mid-screen
    assert front(client) == SPRINGBOARD
    field = app(className="SearchField").get(timeout=1)
    assert client.source(format="json") and _focused_types(client) == ["SearchField"]
    assert app(className="Keyboard").exists
    app.send_keys("cal")
    assert field.value == "cal"
    assert app(label="Calculator", className="Cell").exists
    assert not app(label="Settings", className="Cell").exists
    app.send_keys("\b\b\bset")  # backspaces, then a new query
    assert app(label="Settings", className="Cell").exists
    app(label="Settings", className="Cell").click()
    assert front(client) == SETTINGS


def _focused_types(client):
    def walk(n):
        yield n
        for c in n.get("children", []):
            yield from walk(c)
    return [n["type"] for n in walk(client.source(format="json")) if n["isFocused"] == "1"]


def test_spotlight_return_opens_the_top_hit(app, client):
    app.swipe(201, 300, 201, 700)
    app.send_keys("calc\n")
    assert front(client) == CALCULATOR
    client.home()
    assert not app(className="SearchField").exists  # Spotlight closed behind the launch


def test_spotlight_by_the_search_pill_and_cancel(app, client):
    app(className="PageIndicator").click()
    assert app(className="SearchField").exists
    app(name="Cancel").click()
    assert not app(className="SearchField").exists
    assert icons(client)["Settings"].get("visible") == "true"


def test_typing_by_tapping_keys(app, client):
    app.swipe_down()
    for key in ("c", "a", "l"):
        app(className="Key", name=key).click()
    assert app(className="SearchField").get(timeout=1).value == "cal"
    app(className="Key", name="delete").click()
    assert app(className="SearchField").get(timeout=1).value == "ca"
    app(className="Key", name="shift").click()
    app(className="Key", name="X").click()
    app(className="Key", name="space").click()
    assert app(className="SearchField").get(timeout=1).value == "caX "


def test_notification_centre_from_the_top_edge(app, client):
    app.app_launch(CALCULATOR)
    app.swipe(60, 0, 60, 500)
    assert front(client) == SPRINGBOARD
    assert app(label="Notification Centre").exists
    assert app(label="No Older Notifications").exists
    app.swipe_up()
    assert front(client) == CALCULATOR  # dismissed back to the app underneath


def test_notification_centre_from_home_and_home_closes_it(app, client):
    app.swipe(200, 10, 200, 600)
    assert app(label="Notification Centre").exists
    client.home()
    assert not app(label="Notification Centre").exists
    assert icons(client)["Settings"].get("visible") == "true"


def test_upward_drag_from_the_bottom_edge_goes_home(app, client):
    app.app_launch(SETTINGS)
    app.swipe(201, 870, 201, 400)
    assert front(client) == SPRINGBOARD


def test_short_drags_are_not_gestures(app, client):
    app.swipe(201, 300, 201, 330)
    assert not app(className="SearchField").exists


@pytest.mark.parametrize("overlay_swipe", [(201, 300, 201, 700), (200, 5, 200, 500)])
def test_overlays_report_springboard(app, client, overlay_swipe):
    app.swipe(*overlay_swipe)
    assert front(client) == SPRINGBOARD
    assert client.app_current()["pid"] == app.app_list()[0]["pid"]
