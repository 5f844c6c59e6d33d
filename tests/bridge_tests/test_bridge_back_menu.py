"""The audit target of an item of the back button's history menu says how many pages back it
goes (`pages_back`, red team 118, RT118-3): "Settings" held out of About is two, "General" one;
a context menu of anything else over a page with a back button (a held row's in Notes'
Recently Deleted) is none, and a visible bar's own controls are none. Driven by the
unmodified facebook-wda client through the bridge to the simulated iPhone."""

from __future__ import annotations

import wda
from bridge_rig import Rig
from test_bridge_page_under_modal import _to_recently_deleted

PREFS = "com.apple.Preferences"
NOTES = "com.apple.mobilenotes"


def _taps(rig: Rig) -> list[tuple[str, int]]:
    """(label, pages_back) of each tap the bridge logged (its intent lines name the target)."""
    return [(e.target.label, e.target.pages_back) for e in rig.intents()
            if e.kind == "tap" and e.target is not None]


def test_a_back_menu_item_logs_the_pages_it_goes_back(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(PREFS)
    session(label="General", className="Button").get(timeout=5).click()
    session(label="About").get(timeout=5).click()
    session(name="BackButton").get(timeout=5).tap_hold(1.0)
    session(xpath='//XCUIElementTypeMenu/*[@label="Settings"]').get(timeout=5).click()
    session(label="General", className="Button").get(timeout=5).click()
    session(label="About").get(timeout=5).click()
    x, y = session(name="BackButton").get(timeout=5).bounds.center
    session.tap_hold(x, y, 1.0)
    general = session(xpath='//XCUIElementTypeMenu/*[@label="General"]').get(timeout=5)
    session.tap(*general.bounds.center)  # by its point, as by its id
    assert _taps(rig) == [("General", 0), ("About", 0), ("General", 0), ("Settings", 2),
                          ("General", 0), ("About", 0), ("General", 0), ("General", 1)]


def test_another_context_menu_over_a_pushed_page_goes_back_nowhere(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(NOTES)
    title = _to_recently_deleted(session)
    session(className="Cell", label=title).get(timeout=5).tap_hold(1.0)
    session(label="Recover", className="Button").get(timeout=5).click()
    assert ("Recover", 0) in _taps(rig) and all(back == 0 for _, back in _taps(rig))
