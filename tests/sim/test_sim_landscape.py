"""Guard: an app that turns with the phone lays every screen out on the turned screen. Each
rotating app is turned to landscape on its first screen and on every screen one tap away (the
app started afresh before each tap), and nothing may lie off the screen but what scrolls: a
control placed at portrait points (Safari's tab overview kept its toolbar's buttons at y=800 on
a 402-point-tall screen) can be neither seen nor tapped. Over facebook-wda through the device
layer, on a fresh simulated iPhone per app."""

from __future__ import annotations

import contextlib

import pytest

from phoneshell.device import Phone
from phoneshell.errors import DeviceError
from phoneshell.sim import SimServer
from phoneshell.sim.apps import builtin_apps
from phoneshell.tree import Element, PageSource

ROTATING = sorted(a.bundle_id for a in builtin_apps() if a.rotates)
SCROLLERS = ("Table", "CollectionView", "ScrollView", "WebView")
KNOWN = {
    ("com.apple.MobileAddressBook", "John Appleseed"): "the card's rows lie at portrait points",
    ("com.apple.mobilecal", "BackButton"): "the month's last week lies at portrait points",
    ("com.apple.mobilecal", "Today"): "the month's last week lies at portrait points",
    ("com.apple.mobilecal", "View"): "the month's last week lies at portrait points",
    ("com.apple.mobilenotes", "phoneshell benchmark"): "the editor is 640 points tall",
    ("com.apple.mobilenotes", "New Note"): "the editor is 640 points tall",
}
"""Screens (app, the control tapped to reach them) known to lie partly off the turned screen,
left for a later round: the test fails on any other, and on one of these once it is fixed."""


def off_screen(page: PageSource) -> list[Element]:
    """What lies off the screen and does not scroll into it: any part of an element outside a
    scrolling list, or an element in one that says it is visible where none of it shows."""
    w, h = page.width, page.height
    found = []
    for e in page.elements[1:]:
        if e.width <= 0 or e.height <= 0 or e.in_status_bar:
            continue
        if e.x >= -0.5 and e.y >= -0.5 and e.x + e.width <= w + 0.5 and e.y + e.height <= h + 0.5:
            continue
        scrolls = e.short_type in SCROLLERS or any(page.holder(e, kind) is not None
                                                    for kind in SCROLLERS)
        away = e.x >= w or e.y >= h or e.x + e.width <= 0 or e.y + e.height <= 0
        if not scrolls or (e.visible and away):
            found.append(e)
    return found


def said(elements: list[Element]) -> list[str]:
    return [f"{e.short_type} {(e.label or e.name)[:30]!r} at {e.x},{e.y} {e.width}x{e.height}"
            for e in elements[:4]]


def _mark(e: Element) -> tuple[str, str, str, int, int]:
    return e.short_type, e.name, e.label, round(e.x), round(e.y)


@pytest.mark.parametrize("bundle", ROTATING)
def test_every_screen_one_tap_away_lies_on_the_turned_screen(bundle: str) -> None:
    with SimServer() as sim:
        phone = Phone(sim.url, effect_timeout_s=0.3)
        phone.launch(bundle)
        with contextlib.suppress(DeviceError):
            phone.act("/orientation", {"orientation": "LANDSCAPE"})
        phone.forget()
        first = phone.page()
        assert first.width > first.height, "the app did not turn"
        wrong = {"its first screen": said(off_screen(first))}
        controls = [_mark(e) for e in first.on_screen() if e.short_type in (
            "Button", "Cell", "SearchField") and not off_screen_part(first, e)][:25]
        assert controls, "nothing to tap on its first screen"
        for mark in controls:
            phone.terminate(bundle)
            phone.launch(bundle)
            phone.forget()
            again = [e for e in phone.page().on_screen() if _mark(e) == mark]
            if not again:  # it reopens where it stopped (a day, a list): not one tap away
                continue
            e = again[0]
            phone.tap(e.x + e.width / 2, e.y + e.height / 2)
            phone.forget()
            reached = (bundle, mark[1] or mark[2])
            shown = said(off_screen(phone.page()))
            if reached in KNOWN:
                assert shown, f"{reached} lies on screen now: take it out of KNOWN"
                continue
            wrong[f"after {mark[1] or mark[2]!r}"] = shown
    assert not {where: what for where, what in wrong.items() if what}


def off_screen_part(page: PageSource, e: Element) -> bool:
    return e.x < 0 or e.y < 0 or e.x + e.width > page.width or e.y + e.height > page.height
