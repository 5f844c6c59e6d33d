"""A touch chain's finger placed from an element is logged as a touch at the point it lands on.

WDA places it by the element's frame (`hit_point.origin_point`): its centre when the move sends
x and y (as Selenium's tap does, with 0, 0), its hit point when it sends neither; whatever is
topmost there takes the touch. For each shape (an element hidden under a floating bar, partly
under a bar, cut by its list, covered by the keyboard; with and without x and y) the log's target
must be what the simulated iPhone touched, told by the screen that results, and a refusal keyed
on the target must still apply (red team 84: Settings' Camera row, hidden under the search bar,
was logged as tapped while the phone touched the search field). Selenium-shaped requests through
the bridge, to the simulator, over loopback.

Settings' list spans its screen under its bars, as every navigation list does: a bar covers a
row, the list does not cut it. A row its list cuts is the App Library's search list's
(`app_library`), where the hit point lies inside the list, away from the middle of the row's
part on the screen.
"""

from __future__ import annotations

import re

import pytest
import wda
from app_library import SPRINGBOARD, library_search, screen_middle, scrolled_to
from bridge_rig import LOGIN, TOUCH, Rig, perform, post, refused_unsent, touch

from phoneshell.sim import in_view

SETTINGS = "com.apple.Preferences"
W3C = "element-6066-11e4-a52e-4f735466cecf"
ACCOUNT = ("Apple Account, Sign in to access your iCloud data, the App Store, Apple services, "
           "and more.")


def _placed(element: str, xy: tuple[float, float] | None) -> dict[str, object]:
    """Selenium's tap on an element: a move whose origin is the element (with x and y when
    given), down, a pause, up."""
    move: dict[str, object] = {"type": "pointerMove", "duration": 0, "origin": {W3C: element}}
    if xy is not None:
        move.update(x=xy[0], y=xy[1])
    return {"type": "pointer", "id": "finger", "parameters": TOUCH, "actions": [
        move, {"type": "pointerDown", "button": 0}, {"type": "pause", "duration": 100},
        {"type": "pointerUp", "button": 0}]}


def _scroll(rig: Rig, sid: str, by: float) -> None:
    """Scroll the list up by `by` points (its content follows the finger)."""
    assert perform(rig, sid, touch(200, 700, hold_ms=300, to=(200, 700 - by)))[0] == 200


def _title(session: wda.Client) -> str:
    titles = re.findall(r'NavigationBar[^>]*name="([^"]*)"', session.source())
    return titles[0] if titles else ""


@pytest.mark.parametrize(("scroll", "label", "xy", "lands"), [
    # hidden: the Camera row lies wholly under the floating search bar's toolbar
    (0, "Camera", (0, 0), "SearchField"),  # Selenium's tap: x and y 0, 0
    (0, "Camera", None, "SearchField"),
    # partly under a bar, its middle clear of it: at the bottom (7 pt under the search bar's
    # toolbar), at the top (30 pt under the title); rows cut by their list are the App
    # Library's (`test_a_finger_placed_from_a_row_its_list_cuts_...`)
    (0, "Apple Intelligence & Siri", (0, 0), "Apple Intelligence & Siri"),
    (0, "Apple Intelligence & Siri", None, "Apple Intelligence & Siri"),
    (30, ACCOUNT, (0, 0), "Apple Account"),
    (30, ACCOUNT, None, "Apple Account"),
    # x and y move the finger from the centre of the frame, onto another row
    (0, "Accessibility", (0, -52), "General"),
])
def test_the_log_names_what_the_finger_placed_from_an_element_touched(
        rig: Rig, scroll: float, label: str, xy: tuple[float, float] | None, lands: str) -> None:
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    sid = session.session_id
    if scroll:
        _scroll(rig, sid, scroll)
    element = session(label=label).get(timeout=5).id
    assert perform(rig, sid, _placed(element, xy)) == (200, "")
    tap = rig.intents()[-1]
    assert tap.kind == "tap" and tap.params["gesture"] == "actions"
    assert "element" not in tap.params and tap.target is not None
    if lands == "SearchField":  # the phone touched the search field: it edits, keyboard up
        assert tap.target.type == "XCUIElementTypeSearchField", tap.target
        assert session(className="Keyboard").exists and _title(session) == "Settings"
    else:  # the phone touched the row: its page opened
        assert tap.target.label.startswith(lands), tap.target
        assert _title(session) not in ("Settings", ""), "no page opened"


def test_a_switch_row_is_touched_at_its_knob_without_x_and_y(rig: Rig) -> None:
    """A labelled switch row's hit point is its knob (its activation point): placed there, the
    finger flips the switch; with x and y, at the centre of the row, beside its label, it
    touches the row and flips nothing. Either is logged as a tap at that point, on the row."""
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    switch = session(label="Airplane Mode", className="Switch").get(timeout=5)
    for xy, value, x in ((None, "1", 340), ((0, 0), "1", 201), (None, "0", 340)):
        assert perform(rig, session.session_id, _placed(switch.id, xy)) == (200, "")
        tap = rig.intents()[-1]
        assert tap.params["x"] == x
        assert tap.target is not None and tap.target.label == "Airplane Mode", tap.target
        assert session(label="Airplane Mode", className="Switch").get().value == value


def test_a_key_over_a_covered_field_is_what_the_log_names(rig: Rig) -> None:
    """The PIN field lies under the keyboard once it is up: a finger placed from it, with x and
    y or without, presses the key over its middle, which types into the focused field."""
    session = wda.Client(rig.bridge.url).session(LOGIN)
    session(className="TextField").get(timeout=5).click()  # the user name: the keyboard is up
    pin = session(className="SecureTextField", name="pin").get(timeout=5).id
    for xy in ((0, 0), None):
        before = rig.sim.phone.focused
        assert before is not None
        typed = before.text
        assert perform(rig, session.session_id, _placed(pin, xy)) == (200, "")
        tap = rig.intents()[-1]
        assert tap.target is not None and tap.target.type == "XCUIElementTypeKey", tap.target
        assert rig.sim.phone.focused is before
        assert before.text == typed + tap.target.label


def test_a_refused_control_at_the_landing_point_is_refused(rig: Rig) -> None:
    """A finger placed from an innocent row, moved by x and y onto Shut Down: refused as a tap
    on Shut Down is, nothing sent to the phone."""
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    session(label="General").get(timeout=5).click()
    _scroll(rig, session.session_id, 500)
    transfer = session(label="Transfer or Reset iPhone").get(timeout=5)
    below = session(label="Shut Down").get().bounds.center[1] - transfer.bounds.center[1]
    message = refused_unsent(rig, f"/session/{session.session_id}/actions",
                             {"actions": [_placed(transfer.id, (0, below))]})
    assert "power-off" in message
    refused = [e for e in rig.events() if e.stage == "refused"][-1]
    assert refused.target is not None and refused.target.label == "Shut Down"


def test_a_finger_placed_from_a_gone_element_is_refused_unsent(rig: Rig) -> None:
    """No frame, no point: WDA's stale element error, and nothing reaches the phone."""
    sid = wda.Client(rig.bridge.url).session(SETTINGS).session_id
    inputs = rig.sim.ledger()[0]
    for xy in ((0, 0), None):
        status, message = post(rig, f"/session/{sid}/actions",
                               {"actions": [_placed("F00D-0000", xy)]})
        assert status == 404 and "could not read the frame" in message, message
    assert rig.sim.ledger()[0] == inputs


@pytest.mark.parametrize(("offset", "xy", "lands"), [
    # the top row cut 20 pt by its list (above the list's top edge, on the screen behind the
    # search field): its hit point, the middle of its part inside the list, lies 10 pt below
    # its frame's centre, the middle of its part on the screen; both on the row
    (238, None, "Cell"),
    (238, (0, 0), "Cell"),
    # moved 20 pt up from its centre: on the row's part the list cuts, where the search field
    # takes the touch (the list shows nothing of the row there)
    (238, (0, -20), "SearchField"),
    # cut 40 pt, 12 of its 52 inside the list: the source marks it not visible (its centre
    # lies outside the list), yet its sliver takes the touch, as UIKit hit-tests by geometry
    # (red team 135, RT135-1); its frame's centre lies above the list, on the search field
    (258, None, "Cell"),
    (258, (0, 0), "SearchField"),
])
def test_a_finger_placed_from_a_row_its_list_cuts_is_logged_where_it_lands(
        rig: Rig, offset: int, xy: tuple[float, float] | None, lands: str) -> None:
    """The App Library's search list scrolled so that its top row is cut by the list: placed
    from that row, the finger is logged at the point the phone touched (the row's hit point
    inside the list without x and y, its frame's centre moved by them with them) and names
    what took the touch there, told by the screen that results: the row's app opened, or no
    app did and the search stayed as it was."""
    listed = library_search(rig.sim)
    session = wda.Client(rig.bridge.url).session()
    top = scrolled_to(rig, session, listed, offset)[0]
    with rig.sim.lock:
        hit = in_view.hit_point(rig.sim.phone, top)
    middle = screen_middle(rig, top)
    assert hit is not None and middle is not None and hit[1] - middle[1] >= 10  # the list cuts
    element = session(className="XCUIElementTypeCell", label=str(top.label)).get(timeout=5).id
    assert perform(rig, session.session_id, _placed(element, xy)) == (200, "")
    tap = rig.intents()[-1]
    assert tap.kind == "tap" and tap.params["gesture"] == "actions"
    lands_at = hit if xy is None else (top.frame.x + top.frame.width / 2 + xy[0],
                                       top.frame.y + top.frame.height / 2 + xy[1])
    assert (tap.params["x"], tap.params["y"]) == lands_at
    assert tap.target is not None and tap.target.type == f"XCUIElementType{lands}", tap.target
    with rig.sim.lock:
        foreground, scrolled = rig.sim.phone.foreground, listed.offset
    if lands == "Cell":  # the phone touched the row: its app opened
        assert tap.target.label == top.label, tap.target
        assert foreground != SPRINGBOARD, "no app opened"
    else:  # the search field, or nothing: no app opened, the search is as it was
        assert foreground == SPRINGBOARD and scrolled == offset
        assert session(className="Keyboard").exists
