"""Element ids follow which view an element is, not only what it says, as on a phone.

Real WDA ties an element id to the accessibility element of a view object. A page pushed
again, a sheet presented again, an app launched again are new view objects: an id taken from
the one shown before stays stale (WDA's 404 `stale element reference`) however alike the new
one is (red team 39: About's Model Number cell answered its old id after About was opened
again). Within one showing an id stays put: across a scroll, typing, a value change, a tab
switch (a tab controller keeps its tabs' views) and a page pushed over it and popped. Driven
through facebook-wda over HTTP, ids read off its elements and asked for over raw HTTP.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
import wda

from phoneshell.sim import SimServer, layout, lists
from phoneshell.sim.apps import AppModel, Host, builtin_apps
from phoneshell.sim.ui import Node, Rect, Scroll

SETTINGS = "com.apple.Preferences"
CLOCK = "com.apple.mobiletimer"


@pytest.fixture
def sim() -> Iterator[SimServer]:
    with SimServer(port=0) as server:
        yield server


def _status(sim: SimServer, s: wda.Session, element_id: str, what: str = "rect") -> int:
    url = f"{sim.url}/session/{s.session_id}/element/{element_id}/{what}"
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return int(r.status)
    except urllib.error.HTTPError as exc:
        error = json.loads(exc.read())["value"]["error"]
        assert exc.code == 404 and error == "stale element reference", (exc.code, error)
        return exc.code


def _about(s: wda.Session) -> str:
    s(name="About").click()
    return str(s(name="ProductModel", className="Cell").get(timeout=3).id)


def _general(c: wda.Client) -> wda.Session:
    c.app_terminate(SETTINGS)
    s = c.session(SETTINGS)
    s(name="com.apple.settings.general").click()
    return s


def test_a_page_pushed_again_has_new_ids(sim: SimServer) -> None:
    s = _general(wda.Client(sim.url))
    old = _about(s)
    s(name="BackButton").click()
    assert _status(sim, s, old) == 404  # About's views are gone
    new = _about(s)
    assert new != old
    assert _status(sim, s, old) == 404, "an id of the About shown before answers the new one"
    assert _status(sim, s, new) == 200


def test_a_page_stays_one_showing_under_a_push_and_a_scroll(sim: SimServer) -> None:
    s = _general(wda.Client(sim.url))
    about_row = s(name="About", className="Cell").get(timeout=3).id
    model = _about(s)
    s.swipe_up()  # a scroll is the same page
    s.swipe_down()
    assert _status(sim, s, model) == 200
    s(name="BackButton").click()
    # General stayed under About: a navigation controller keeps the pages below the top.
    assert _status(sim, s, about_row) == 200
    assert s(name="About", className="Cell").get().id == about_row


def test_a_tab_switch_keeps_ids(sim: SimServer) -> None:
    c = wda.Client(sim.url)
    c.app_terminate(CLOCK)
    s = c.session(CLOCK)
    s(name="Alarms", className="Button").click()
    add = s(name="Add", className="Button").get(timeout=3).id
    s(name="Stopwatch", className="Button").click()
    assert _status(sim, s, add) == 404  # another tab shows
    s(name="Alarms", className="Button").click()
    assert _status(sim, s, add) == 200, "a tab controller keeps its tabs' views"


def test_a_relaunch_stales_every_id(sim: SimServer) -> None:
    c = wda.Client(sim.url)
    s = _general(c)
    row = s(name="About", className="Cell").get(timeout=3).id
    s.app_activate("com.apple.mobilecal")
    s.app_activate(SETTINGS)  # back from the background: the same process
    assert _status(sim, s, row) == 200
    s.app_terminate(SETTINGS)
    s.app_activate(SETTINGS)
    s(name="com.apple.settings.general").click()
    assert s(name="About", className="Cell").get(timeout=3).id != row
    assert _status(sim, s, row) == 404, "a relaunched app's views are new ones"


def test_a_sheet_presented_again_has_new_ids(sim: SimServer) -> None:
    c = wda.Client(sim.url)
    c.app_terminate(CLOCK)
    s = c.session(CLOCK)
    s(name="Alarms", className="Button").click()
    s(name="Add", className="Button").click()
    cancel = s(name="Cancel", className="Button").get(timeout=3).id
    s(name="Save", className="Button").get()  # a read of the sheet keeps it
    assert _status(sim, s, cancel) == 200
    s(name="Cancel", className="Button").click()
    s(name="Add", className="Button").click()
    again = s(name="Cancel", className="Button").get(timeout=3).id
    assert again != cancel
    assert _status(sim, s, cancel) == 404, "an id of the sheet shown before answers the new one"


@dataclass
class _LongState:
    scroll: Scroll = field(default_factory=Scroll)
    asking: bool = False


def _render_long(state: _LongState, host: Host) -> Node:
    f = host.facts

    def ask() -> None:
        state.asking = True

    def answer() -> None:
        state.asking = False

    viewport = Rect(0, layout.NAV_BOTTOM, f.width, f.height - layout.NAV_BOTTOM)
    rows = tuple(lists.Row(f"Row {i}", on_tap=answer) for i in range(40))
    kids = [layout.nav_bar(f, "Long", trailing=(
                layout.button("Ask", Rect(f.width - 60, layout.NAV_TOP, 44, 44), ask),)),
            lists.table(state.scroll, viewport, [lists.Section(rows)], key="long")]
    if state.asking:
        kids.append(layout.alert(f, "Sure?", "A question.", [("OK", answer)]))
    return layout.screen(f, kids)


LONG = AppModel("com.example.long", "Long", _LongState, _render_long)


def test_an_element_behind_a_modal_changes_nothing() -> None:
    with SimServer(port=0, apps=[*builtin_apps(), LONG]) as server:
        s = wda.Client(server.url).session(LONG.bundle_id)
        below = next(e for e in s(className="Cell").find_elements() if not e.visible)
        s(name="Ask", className="Button").click()
        before = s.source()
        body = json.dumps({}).encode()
        url = f"{server.url}/session/{s.session_id}/element/{below.id}/click"
        request = urllib.request.Request(url, body, {"Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert json.loads(refused.value.read())["value"]["error"] == "invalid element state"
        assert s.source() == before, "the list behind the alert scrolled"
        assert server.phone.running_state(LONG.bundle_id).scroll.offset == 0


# (app, what opens the page, what goes back, an element on the page)
REOPENED = [
    ("com.apple.MobileAddressBook", dict(label="Kate Bell", className="Cell"),
     dict(name="BackButton"), dict(name="Edit", className="Button")),
    ("com.apple.reminders", dict(labelContains="Groceries", className="Cell"),
     dict(name="BackButton"), dict(labelContains="Milk", className="Cell")),
]


@pytest.mark.parametrize(("bundle", "opens", "back", "mark"), REOPENED,
                         ids=[r[0].split(".")[-1] for r in REOPENED])
def test_every_app_pushes_new_views(sim: SimServer, bundle: str, opens: dict[str, str],
                                    back: dict[str, str], mark: dict[str, str]) -> None:
    s = wda.Client(sim.url).session(bundle)
    s(**opens).get(timeout=3).click()
    old = s(**mark).get(timeout=3).id
    s(**back).click()
    s(**opens).get(timeout=3).click()
    assert _status(sim, s, s(**mark).get(timeout=3).id) == 200
    assert _status(sim, s, old) == 404, f"{bundle}: an id of the page shown before answers"
