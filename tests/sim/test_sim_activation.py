"""A tap by element id lands where iOS puts the element's activation point: a switch row's knob.

iOS 26 shows a switch row as a labelled Switch the row's width around its label and the
unlabelled knob (the Motion dump); XCUITest's tap of that element, or of a Cell whose one
accessible element it is, toggles it, while a tap at the row's centre by coordinates lands on the
label and does nothing. facebook-wda's `Element.tap()` is `POST /element/:id/click`; its
`click()` taps the centre of the bounds by coordinates.
"""

from __future__ import annotations

import wda

from phoneshell.sim import SimServer

CLOCK, SETTINGS = "com.apple.mobiletimer", "com.apple.Preferences"


def _snooze(s: wda.Session) -> str:
    return str(s(label="Snooze", className="XCUIElementTypeSwitch").get(timeout=3).value)


def test_a_tap_by_id_on_a_labelled_switch_or_its_cell_toggles_it_at_the_knob():
    with SimServer() as sim:
        s = wda.Client(sim.url).session(CLOCK)
        s(label="Alarms").get(timeout=3).tap()
        s(name="Add").get(timeout=3).tap()
        row = s(label="Snooze", className="XCUIElementTypeSwitch").get(timeout=3)
        assert row.bounds.width > 300 and _snooze(s) == "1"  # the row-wide element
        row.tap()
        assert _snooze(s) == "0"
        s(name="Snooze", className="XCUIElementTypeCell").get().tap()
        assert _snooze(s) == "1"
        settings = wda.Client(sim.url).session(SETTINGS)
        settings(label="Accessibility").get(timeout=3).tap()
        settings(label="Motion").get(timeout=3).tap()
        settings(name="REDUCE_MOTION").get(timeout=3).tap()  # the Cell: the first so named
        assert settings(label="Reduce Motion",
                        className="XCUIElementTypeSwitch").get().value == "1"


def test_a_touch_at_a_switch_rows_centre_lands_on_its_label_and_does_nothing():
    # iOS 26's switch rows are not selectable: only the knob toggles, by coordinates.
    with SimServer() as sim:
        s = wda.Client(sim.url).session(CLOCK)
        s(label="Alarms").get(timeout=3).tap()
        s(name="Add").get(timeout=3).tap()
        s(label="Snooze", className="XCUIElementTypeSwitch").get(timeout=3).click()  # centre
        bounds = s(label="Snooze", className="XCUIElementTypeSwitch").get().bounds
        s.tap(bounds.x + 30, bounds.y + bounds.height // 2)  # the label
        assert _snooze(s) == "1"
        s.tap(bounds.x + bounds.width - 30, bounds.y + bounds.height // 2)  # the knob
        assert _snooze(s) == "0"
