"""An action on an element id lands where a tap at the element's hit point does.

XCUITest taps an element at its hit point (the middle of what shows of it), and whatever is
topmost there takes the tap: a key of the keyboard, a banner. Each overlay is brought up on two
phones; on one the covered element is tapped by id (every element-addressed tap route), on the
other at its hit point by coordinates, and the two phones must end the same, with the covered
element's own action not done. What a modal presentation covers (an alert, a context menu) is
reported not visible, as on a phone: an action on it by id answers WDA's not-visible error and
touches nothing, and a tap at its point reaches the modal's layer, never the element. Typing into a
field by id focuses it by such a tap first, and fails (WDA's invalid element state) when the
tap lands elsewhere. All through facebook-wda over HTTP.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import pytest
import wda

from phoneshell.sim import SimServer, layout
from phoneshell.sim.apps import AppModel, Host, builtin_apps
from phoneshell.sim.ui import EditText, Node, Rect

SETTINGS, APP_STORE = "com.apple.Preferences", "com.apple.AppStore"
OVERLAY = "com.example.overlay"


@dataclass
class OverlayState:
    """A field up top, a slider, a destructive button and a PIN field low on the screen (under
    the keyboard once it is up), and an alert that covers the middle."""

    user: EditText = field(default_factory=lambda: EditText(placeholder="User name"))
    pin: EditText = field(default_factory=lambda: EditText(placeholder="PIN", secure=True))
    level: float = 0.5
    alert: bool = False
    pressed: list[str] = field(default_factory=list)


def _render(state: OverlayState, host: Host) -> Node:
    f = host.facts

    def press(what: str) -> Callable[[], None]:
        def run() -> None:
            state.pressed.append(what)
            state.alert = what == "Show Alert" or (state.alert and what not in ("Cancel", "OK"))
        return run

    def adjust(position: float) -> None:
        state.level = position

    kids = [layout.nav_bar(f, "Overlay"),
            layout.text_field(state.user, Rect(16, 150, 370, 44), name="user"),
            layout.button("Show Alert", Rect(16, 210, 200, 44), press("Show Alert")),
            layout.slider("Level", state.level, Rect(16, 400, 370, 30), adjust),
            layout.button("Erase", Rect(16, 480, 370, 40), press("Erase"), name="erase"),
            layout.text_field(state.pin, Rect(16, 700, 370, 44), name="pin")]
    if state.alert:
        kids.append(layout.alert(f, "Sure?", "It cannot be undone.",
                                 [("Cancel", press("Cancel")), ("OK", press("OK"))]))
    return layout.screen(f, kids)


OVERLAY_APP = AppModel(OVERLAY, "Overlay", OverlayState, _render)


@pytest.fixture
def phones() -> Iterator[tuple[SimServer, SimServer]]:
    """Two phones with the overlay app: one tapped by id, the other at the hit point."""
    with SimServer(apps=[*builtin_apps(), OVERLAY_APP]) as one, \
            SimServer(apps=[*builtin_apps(), OVERLAY_APP]) as two:
        yield one, two


def _navs(c: wda.Client) -> list[str]:
    return re.findall(r'<XCUIElementTypeNavigationBar[^>]*name="([^"]*)"', c.source())


def _hit_point(rect: wda.Rect, c: wda.Client) -> tuple[int, int]:
    """The middle of the part of `rect` on the screen (none of these elements is in a list
    that cuts it)."""
    size = c.window_size()
    left, top = max(rect.x, 0), max(rect.y, 0)
    right, bottom = min(rect.x + rect.width, size.width), min(rect.y + rect.height, size.height)
    return (left + right) // 2, (top + bottom) // 2


# -- the overlays: each brings one up and names an element it covers ----------------------------

Query = dict[str, str]


@dataclass(frozen=True)
class Overlay:
    """How to bring an overlay up, the element it covers, and whether that element's own
    action was done (it must not be)."""

    setup: Callable[[SimServer, wda.Client], wda.Session]
    covered: Query
    acted: Callable[[SimServer, wda.Client], bool]
    modal: bool = True
    """A modal presentation: what it covers reports itself not visible (as the share-sheet dump
    shows), so an action on it by id answers WDA's not-visible error. The keyboard and a banner
    are windows of their own and leave what they cover visible."""


def _springboard_alert(_: SimServer, c: wda.Client) -> wda.Session:
    s = c.session()
    c.home()
    rect = s(name="Weather").get(timeout=3).bounds
    s.tap_hold(rect.x + rect.width // 2, rect.y + rect.height // 2, 1.0)
    s(label="Remove App").get(timeout=3).click()
    assert s.alert.exists
    return s


def _app_store_alert(_: SimServer, c: wda.Client) -> wda.Session:
    s = c.session(APP_STORE)
    s(label="Search").get(timeout=3).tap()
    s(className="SearchField").get(timeout=3).set_text("Maps\n")
    s(label="Get").get(timeout=3).tap()
    assert s.alert.exists and "Sign in" in s.alert.text
    return s


def _keyboard(_: SimServer, c: wda.Client) -> wda.Session:
    s = c.session(SETTINGS)
    s(className="SearchField").get(timeout=3).tap()
    assert s(className="Keyboard").exists
    return s


def _banner(sim: SimServer, c: wda.Client) -> wda.Session:
    s = c.session(SETTINGS)
    s(name="com.apple.settings.general").get(timeout=3).tap()
    sim.notify("com.apple.MobileSMS", "Hello", "hi there")
    assert s(name="NotificationShortLookView").exists
    return s


def _context_menu(_: SimServer, c: wda.Client) -> wda.Session:
    s = c.session()
    c.home()
    rect = s(name="Weather").get(timeout=3).bounds
    s.tap_hold(rect.x + rect.width // 2, rect.y + rect.height // 2, 1.0)
    assert s(className="Menu").exists
    return s


def _own_alert(_: SimServer, c: wda.Client) -> wda.Session:
    s = c.session(OVERLAY)
    s(label="Show Alert").get(timeout=3).tap()
    assert s.alert.exists
    return s


def _front(c: wda.Client) -> str:
    return str(c.app_current()["bundleId"])


def _pressed(sim: SimServer) -> list[str]:
    state = sim.phone.running[OVERLAY].state
    assert isinstance(state, OverlayState)
    return state.pressed


OVERLAYS = {
    "springboard alert": Overlay(_springboard_alert, {"name": "Settings"},
                                 lambda _, c: _front(c) == SETTINGS),
    "app alert": Overlay(_app_store_alert, {"label": "Today"},
                         lambda _, c: "Today" in _navs(c)),
    "keyboard": Overlay(_keyboard, {"name": "com.apple.settings.general"},
                        lambda _, c: "General" in _navs(c), modal=False),
    "banner": Overlay(_banner, {"name": "BackButton"},
                      lambda _, c: _front(c) == SETTINGS and "Settings" in _navs(c), modal=False),
    "context menu": Overlay(_context_menu, {"name": "Books"},
                            lambda _, c: _front(c) == "com.apple.iBooks"),
    "alert over a button": Overlay(_own_alert, {"name": "erase"},
                                   lambda sim, _: "Erase" in _pressed(sim)),
}

ById = Callable[[wda.Element], object]
AtPoint = Callable[[wda.Session, int, int], object]
GESTURES: dict[str, tuple[ById, AtPoint]] = {
    "click": (lambda e: e.tap(), lambda s, x, y: s.tap(x, y)),
    "tap": (lambda e: e._wda_req("post", "/tap", {}), lambda s, x, y: s.tap(x, y)),
    "doubleTap": (lambda e: e._wda_req("post", "/doubleTap", {}),
                  lambda s, x, y: s.double_tap(x, y)),
    "tapWithNumberOfTaps": (
        lambda e: e._wda_req("post", "/tapWithNumberOfTaps",
                             {"numberOfTaps": 1, "numberOfTouches": 1}),
        lambda s, x, y: s.tap(x, y)),
    "touchAndHold short": (lambda e: e._wda_req("post", "/touchAndHold", {"duration": 0.1}),
                           lambda s, x, y: s.tap_hold(x, y, 0.1)),
    "touchAndHold long": (lambda e: e._wda_req("post", "/touchAndHold", {"duration": 1.0}),
                          lambda s, x, y: s.tap_hold(x, y, 1.0)),
}


@pytest.mark.parametrize("gesture", GESTURES)
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_a_tap_by_id_lands_where_a_tap_at_the_hit_point_does(
        phones: tuple[SimServer, SimServer], overlay: str, gesture: str) -> None:
    spec, (by_id, at_point) = OVERLAYS[overlay], GESTURES[gesture]
    (one, two), ends = phones, []
    for sim, touch in ((one, "id"), (two, "point")):
        c = wda.Client(sim.url)
        s = spec.setup(sim, c)
        element = s(**spec.covered).get(timeout=3)
        assert element.visible is not spec.modal, "only a modal hides what it covers"
        before = (_front(c), c.source())
        if touch == "id" and spec.modal:
            with pytest.raises(wda.WDARequestError, match="not visible"):
                by_id(element)
            assert (_front(c), c.source()) == before, "an action refused touches nothing"
        elif touch == "id":
            by_id(element)
        else:
            at_point(s, *_hit_point(element.bounds, c))
        assert not spec.acted(sim, c), f"the {overlay} did not take the {gesture} by {touch}"
        ends.append((_front(c), c.source()))
    # A modal's layer takes the touch at the point (a menu closes); by id nothing is touched.
    assert spec.modal or ends[0] == ends[1]


def test_a_tap_by_id_on_an_element_nothing_covers_acts(phones: tuple[SimServer, SimServer],
                                                       ) -> None:
    s = wda.Client(phones[0].url).session(OVERLAY)
    s(name="erase").get(timeout=3).tap()
    assert _pressed(phones[0]) == ["Erase"]


# -- typing by id: focus comes only from a tap that reaches the field ---------------------------

def test_typing_into_a_field_under_an_alert_fails_and_types_nothing(
        phones: tuple[SimServer, SimServer]) -> None:
    c = wda.Client(phones[0].url)
    s = _app_store_alert(phones[0], c)
    search = s(className="SearchField").get(timeout=3)
    before = search.value
    for write in (lambda: search.set_text("Weather"), search.clear_text):
        with pytest.raises(wda.WDARequestError, match="not visible"):
            write()
        assert s(className="SearchField").get().value == before and s.alert.exists


def test_typing_into_a_field_under_the_keyboard_presses_the_key_over_it(
        phones: tuple[SimServer, SimServer]) -> None:
    """The PIN field is under the keyboard while the user field has focus: typing into it by id
    taps its hit point, which is a key; the key types its letter into the user field, as a tap
    there does, and the PIN gets nothing."""
    ends = []
    for sim, touch in zip(phones, ("id", "point"), strict=True):
        c = wda.Client(sim.url)
        s = c.session(OVERLAY)
        s(name="user").get(timeout=3).tap()
        pin = s(name="pin").get(timeout=3)
        if touch == "id":
            with pytest.raises(wda.WDARequestError, match="not ready for text input"):
                pin.set_text("4321")
        else:
            s.tap(*_hit_point(pin.bounds, c))
        state = sim.phone.running[OVERLAY].state
        assert isinstance(state, OverlayState)
        assert state.pin.text == "" and len(state.user.text) == 1  # the key's letter
        ends.append(c.source())
    assert ends[0] == ends[1]


def test_a_field_with_focus_takes_typing_by_id_even_under_the_keyboard(
        phones: tuple[SimServer, SimServer]) -> None:
    c = wda.Client(phones[0].url)
    s = c.session(OVERLAY)
    pin = s(name="pin").get(timeout=3)
    pin.tap()  # it shows: the tap focuses it, and the keyboard comes up over it
    assert pin.bounds.y > s(className="Keyboard").get().bounds.y
    pin.set_text("4321")  # it has focus: WDA types without tapping
    pin.clear_text()
    pin.set_text("12")
    state = phones[0].phone.running[OVERLAY].state
    assert isinstance(state, OverlayState) and state.pin.text == "12" and state.user.text == ""


def test_typing_into_a_field_under_a_sheet_fails(phones: tuple[SimServer, SimServer]) -> None:
    c = wda.Client(phones[0].url)
    s = c.session()
    s.open_url("https://example.com/")
    s(name="MoreMenuButton").get(timeout=5).tap()
    s(label="Share\u2026").get(timeout=5).tap()
    address = s(name="TabBarItemTitle").get(timeout=3)
    before = address.value
    with pytest.raises(wda.WDARequestError, match="not visible"):
        address.set_text("wikipedia.org\n")
    assert s(className="Popover").exists and s(name="TabBarItemTitle").get().value == before


def test_a_slider_under_an_alert_does_not_move(phones: tuple[SimServer, SimServer]) -> None:
    c = wda.Client(phones[0].url)
    s = _own_alert(phones[0], c)
    with pytest.raises(wda.WDARequestError, match="not visible"):
        s(className="Slider").get(timeout=3).set_text("0.9")
    state = phones[0].phone.running[OVERLAY].state
    assert isinstance(state, OverlayState) and state.level == 0.5 and s.alert.exists
    s.alert.click("Cancel")
    s(className="Slider").get(timeout=3).set_text("0.9")  # nothing over it now
    assert state.level == pytest.approx(0.9)


def test_control_center_leaves_no_element_of_the_app_to_act_on(
        phones: tuple[SimServer, SimServer]) -> None:
    c = wda.Client(phones[0].url)
    s = c.session(SETTINGS)
    general = s(name="com.apple.settings.general").get(timeout=3)
    width = s.window_size().width
    s.swipe(int(width * 0.9), 5, int(width * 0.9), 500, 0.2)  # Control Center
    with pytest.raises(wda.WDARequestError):
        general.tap()
    c.home()
    c.session(SETTINGS)  # back in front, where it was left
    assert "General" not in _navs(c)
