"""A held slide from what opens a context menu is refused (red team 96, RT96-1): a finger held a
second on Safari's "More information..." link, or on its Tabs button, slid onto the menu that
opened and lifted on Add to Reading List, Copy Link, New Private Tab or Close This Tab, and the
phone (the simulator plays it: sim/held_slides.py) chose the item, which a plain tap is refused
for. The bridge judges a touch on the screen before it, where no menu shows, so it refuses the
held slide itself (`holds.held_slide_away` from what `holds.opens_menu`), by every route that
holds before it slides; a quick slide, a hold that never slid, and a held slide on page text
stay the phone's.
facebook-wda and raw HTTP through a bridge on loopback in front of the simulated iPhone."""

from __future__ import annotations

import pytest
import wda
from bridge_rig import Rig, refused_unsent, sent, touch

from phoneshell.holds import MENU_SLIDE
from phoneshell.sim.phone import PASTEBOARD

SAFARI = "com.apple.mobilesafari"
READING_LIST = (141, 442)
COPY_LINK = (141, 486)
"""Where the link's menu shows its items (red team 96's repro, the simulator's layout)."""


def _page(rig: Rig) -> tuple[wda.Session, tuple[float, float]]:
    """Safari on Example Domain, typed into the address bar; the link's middle."""
    session = wda.Client(rig.bridge.url).session(SAFARI)
    session(name="TabBarItemTitle").get(timeout=5).click()
    session.send_keys("example.com\n")
    link = session(className="Link").get(timeout=5).bounds
    return session, link.center


def _untouched(rig: Rig) -> None:
    """Nothing the menu's items write was written."""
    with rig.sim.lock:
        assert rig.sim.phone.store(SAFARI).records("reading_list") == []
        assert not rig.sim.phone.store(PASTEBOARD).text("text")


@pytest.mark.parametrize("route", ["press_and_drag", "w3c", "touch_perform", "drag"])
def test_a_held_slide_from_a_link_is_refused_by_every_route(rig: Rig, route: str) -> None:
    session, (x, y) = _page(rig)
    path = f"/session/{session.session_id}"
    to = READING_LIST if route in ("press_and_drag", "drag") else COPY_LINK
    body: dict[str, object]
    if route == "press_and_drag":
        path += "/wda/pressAndDragWithVelocity"
        body = {"fromX": x, "fromY": y, "toX": to[0], "toY": to[1], "pressDuration": 1.0,
                "holdDuration": 0.1, "velocity": 400}
    elif route == "drag":
        path += "/wda/dragfromtoforduration"
        body = {"fromX": x, "fromY": y, "toX": to[0], "toY": to[1], "duration": 0.6}
    elif route == "w3c":
        path += "/actions"
        body = {"actions": [touch(x, y, hold_ms=300, to=to, still_ms=1000)]}
    else:
        path += "/wda/touch/perform"
        body = {"actions": [{"action": "press", "options": {"x": x, "y": y}},
                            {"action": "wait", "options": {"ms": 800}},
                            {"action": "moveTo", "options": {"x": to[0], "y": to[1]}},
                            {"action": "release", "options": {}}]}
    assert MENU_SLIDE in refused_unsent(rig, path, body)
    _untouched(rig)


def test_a_held_slide_between_elements_is_refused(rig: Rig) -> None:
    """pressAndDragWithVelocity from the link's element to another element's middle."""
    session, _ = _page(rig)
    link = session(className="Link").get(timeout=5).id
    heading = session(className="StaticText", label="Example Domain").get(timeout=5).id
    message = refused_unsent(rig, f"/session/{session.session_id}/wda/element/{link}/"
                             "pressAndDragWithVelocity",
                             {"toElement": heading, "pressDuration": 1.0, "holdDuration": 0,
                              "velocity": 400})
    assert MENU_SLIDE in message


def test_a_held_slide_from_tabs_onto_close_this_tab_is_refused(rig: Rig) -> None:
    session, _ = _page(rig)
    tabs = session(name="TabOverviewButton").get(timeout=5).bounds.center
    message = refused_unsent(rig, f"/session/{session.session_id}/wda/pressAndDragWithVelocity",
                             {"fromX": tabs[0], "fromY": tabs[1], "toX": 265, "toY": 702,
                              "pressDuration": 1.0, "holdDuration": 0.1, "velocity": 400})
    assert MENU_SLIDE in message and "'Tabs'" in message
    assert session(className="Link").exists  # the page's tab is still in front


def test_a_held_slide_from_an_icon_is_refused(rig: Rig) -> None:
    """The home screen's icons: Remove App, Share App lie in their menus."""
    client = wda.Client(rig.bridge.url)
    client.home()
    session = client.session()
    x, y = session(className="Icon", label="Weather").get(timeout=5).bounds.center
    message = refused_unsent(rig, f"/session/{session.session_id}/actions",
                             {"actions": [touch(x, y, hold_ms=200, to=(x, y + 100),
                                                still_ms=700)]})
    assert MENU_SLIDE in message


def test_what_opens_no_menu_or_chooses_nothing_goes_through(rig: Rig) -> None:
    session, (x, y) = _page(rig)
    path = f"/session/{session.session_id}"
    heading = session(className="StaticText", label="Example Domain").get(timeout=5).bounds
    hx, hy = heading.center
    # a quick slide from the link: the page scrolls
    sent(rig, path + "/wda/dragfromtoforduration",
         {"fromX": x, "fromY": y, "toX": x, "toY": y + 100, "duration": 0})
    x, y = session(className="Link").get(timeout=5).bounds.center
    # held, never slid: a touch and hold, its menu opens and nothing is chosen
    sent(rig, path + "/wda/dragfromtoforduration",
         {"fromX": x, "fromY": y, "toX": x + 2, "toY": y, "duration": 1.0})
    session.tap(30, 150)  # the menu closes
    # held on the page's text, then slid: a scroll (text opens no menu of items to choose)
    sent(rig, path + "/actions", {"actions": [touch(hx, hy, hold_ms=300, to=(hx, hy - 100),
                                                    still_ms=900)]})
    _untouched(rig)


def test_a_settings_row_held_then_slid_scrolls_but_its_back_button_is_refused(rig: Rig) -> None:
    """Settings' rows open no context menu: facebook-wda's `swipe(x1, y1, x2, y2, 0.5)` (a drag
    pressed half a second first) scrolls the list on a phone, and goes through (red team 97). A
    Back button's hold lists the pages behind it, so a held slide from it is still refused."""
    session = wda.Client(rig.bridge.url).session("com.apple.Preferences")
    general = session(label="General").get(timeout=5)
    x, y = general.bounds.center
    session.swipe(x, y, x, y - 300, 0.5)
    assert session(label="General").get(timeout=5).bounds.center[1] < y, "the list scrolled"
    session(label="General").click()
    back = session(className="Button", label="Settings").get(timeout=5)
    bx, by = back.bounds.center
    message = refused_unsent(rig, f"/session/{session.session_id}/wda/dragfromtoforduration",
                             {"fromX": bx, "fromY": by, "toX": bx + 100, "toY": by + 200,
                              "duration": 0.6})
    assert MENU_SLIDE in message
