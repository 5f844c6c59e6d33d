"""Every app's list spans its screen under its bars, as all three real Settings dumps frame theirs
(0,0,402,874): since iOS 7 a view controller's view lies under its navigation bar, toolbar and
tab bar, and a list in it spans it, its content inset by the bars and the keyboard.

Fixer AY (follow-up to RT124-5): only Settings' lists did; every other app's (Clock, Reminders,
Calendar, Files, Weather, Books, App Store, Maps, the page sheets' lists) was framed between its
bars, so a swipe or scroll of the list element, or a drag from its centre, fell lower than on a
phone. Notes', Contacts' and Calendar's search were held back until the harness's list read
took what a list shows from the part its bars leave uncovered (fixer AZ): they span it too.
Each screen is reached with facebook-wda over HTTP on a fresh simulator.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
import wda
from lxml import etree

from phoneshell.sim import SimServer
from phoneshell.sim.apps import builtin_apps

LISTS = ("XCUIElementTypeTable", "XCUIElementTypeCollectionView")
NO_NAVIGATION_LIST = frozenset({"com.apple.springboard", "com.apple.mobilesafari"})
"""Apps whose first screen holds no list in a navigation controller: the home screen's pages,
Safari's web view and start page grid under its address bar."""
WITH_LIST = frozenset({"com.apple.Preferences", "com.apple.mobilenotes", "com.apple.mobiletimer",
                       "com.apple.weather", "com.apple.reminders", "com.apple.mobilecal",
                       "com.apple.MobileAddressBook", "com.apple.DocumentsApp",
                       "com.apple.iBooks", "com.apple.AppStore"})
"""The apps whose first screen is a list (the others' first screens hold none, which the test
holds them to, so it never passes by finding nothing)."""

UNDER_A_HEADER = {"com.apple.weather": 340, "com.apple.mobilecal": 212}
"""Lists that start under a header of their screen that is no bar (Weather's place: its name,
temperature and conditions; Calendar's week strip over its day's hours), at this y, spanning
the rest of the screen under its toolbar: only bars are drawn over a list (what the bridge and
the harness take off what it shows), so a list cut by anything else would show rows there that
neither the finger nor the log could agree on (RT136-2)."""

PENDING: frozenset[str] = frozenset()
"""Lists still framed between their bars, held back until what reads them follows the rule; none
since the harness takes what a list shows from the part its bars leave (`screen_part.shown_part`,
fixer AZ). One put here fails once it is moved, to be taken off this set."""

Frame = tuple[int, int, int, int]
Steps = Callable[[wda.Client], None]


def _frame(node: etree._Element) -> Frame:
    x, y, width, height = (int(float(node.get(k, "0"))) for k in ("x", "y", "width", "height"))
    return x, y, width, height


def _frames(client: wda.Client) -> list[Frame]:
    """The frame of every list on the screen shown."""
    root = etree.fromstring(client.source().encode())
    return [_frame(n) for n in root.iter() if n.get("type") in LISTS]


def _tap(*names: str) -> Steps:
    def steps(session: wda.Client) -> None:
        for name in names:
            session(name=name).get(timeout=2).click()
    return steps


def _search_maps(session: wda.Client) -> None:
    session(className="SearchField").get(timeout=2).click()
    session.send_keys("Eiffel Tower")


def _lists_on(bundle: str, steps: Steps | None = None) -> tuple[list[Frame], Frame]:
    with SimServer() as sim:
        client = wda.Client(sim.url)
        session = client.session(bundle)
        if steps is not None:
            steps(session)
        width, height = client.window_size()
        return _frames(client), (0, 0, width, height)


def _span_their_screen(frames: list[Frame], screen: Frame, pending: bool) -> None:
    if pending:
        assert frames and all(frame[1] > 0 for frame in frames), (
            f"{frames}: it spans its screen now; take it off PENDING")
    else:
        assert all(frame == screen for frame in frames), frames


@pytest.mark.parametrize("bundle", sorted(a.bundle_id for a in builtin_apps()
                                          if a.bundle_id not in NO_NAVIGATION_LIST))
def test_every_apps_first_list_spans_its_screen(bundle: str) -> None:
    frames, screen = _lists_on(bundle)
    assert bool(frames) == (bundle in WITH_LIST), frames
    top = UNDER_A_HEADER.get(bundle, 0)
    _span_their_screen(frames, (0, top, screen[2], screen[3] - top), bundle in PENDING)


@pytest.mark.parametrize(("bundle", "tap"), [
    ("com.apple.mobiletimer", "Alarms"), ("com.apple.mobilenotes", "BackButton"),
    ("com.apple.reminders", "Reminders"), ("com.apple.DocumentsApp", "Browse"),
    ("com.apple.weather", "List"), ("com.apple.mobilecal", "Search"),
    ("com.apple.iBooks", "Library"), ("com.apple.AppStore", "Search")])
def test_every_apps_other_lists_span_their_screen(bundle: str, tap: str) -> None:
    frames, screen = _lists_on(bundle, _tap(tap))
    assert frames
    _span_their_screen(frames, screen, bool({bundle, f"{bundle}:{tap}"} & PENDING))


@pytest.mark.parametrize(("bundle", "steps", "top"), [
    ("com.apple.Maps", _search_maps, 70),  # the raised card, the keyboard up
    ("com.apple.mobiletimer", _tap("Add"), 62),  # World Clock's city chooser, a page sheet
], ids=["maps-results", "clock-city-chooser"])
def test_a_list_in_a_sheet_or_card_spans_it_down_to_the_screens_bottom(
        bundle: str, steps: Steps, top: int) -> None:
    frames, (_, _, width, height) = _lists_on(bundle, steps)
    assert frames, "no list shows"
    x, y, w, h = frames[-1]  # the sheet's, over the app's list it covers
    assert (x, y, y + h) == (0, top, height) and w <= width, frames
