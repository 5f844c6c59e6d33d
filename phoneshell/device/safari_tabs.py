"""The `safari_tabs` count: the number Safari's tab overview shows, read from its toolbar.

Also what `delete_created` closes tabs from (`tab_overview`, `tab_count`); see `probes` for how
a probe runs and fails.
"""

from __future__ import annotations

import re

from phoneshell.device.phone import Phone
from phoneshell.device.probes import ProbeError, fresh_app, leaving_open, probe, stop_app
from phoneshell.device.steps import still_left
from phoneshell.tasks import Step
from phoneshell.tree import PageSource
from phoneshell.xcui import SAFARI

TABS = Step.tap_on("Tabs", "Button")
"""Safari's tab overview button (a page's own link named Tabs is not it)."""


OVERVIEW_LEFT = f"{SAFARI} tab overview"
"""What the tabs count leaves up for the closing of tabs after it (`Phone.leave`)."""


def tab_overview(phone: Phone) -> PageSource:
    """Safari's tab overview, from a fresh start; or, when the tabs count left it up
    (`run_probe`'s `leave_open`) and nothing acted since, that, read afresh."""
    left = still_left(phone, OVERVIEW_LEFT, SAFARI, lambda page: _shown_tabs(page) is not None)
    return left if left is not None else fresh_app(phone, SAFARI, TABS)


@probe("safari_tabs")
def safari_tabs(phone: Phone, arg: str) -> int:
    """Open Safari tabs (not private ones): the number the tab overview's "N Tabs" button
    shows."""
    count = tab_count(tab_overview(phone))
    if leaving_open():
        phone.leave(OVERVIEW_LEFT)
    else:
        stop_app(phone, SAFARI)
    return count


def tab_count(page: PageSource) -> int:
    """The number Safari's tab overview shows ("27 Tabs").

    Raises:
        ProbeError: the screen shows no tab count.
    """
    count = _shown_tabs(page)
    if count is None:
        raise ProbeError(f"Safari's tab overview shows no tab count; it shows {page.summary()}")
    return count


def _shown_tabs(page: PageSource) -> int | None:
    """The overview's toolbar button that says how many tabs there are ("27 Tabs"), never a
    card's title: a page titled "500 Tabs" would else set how many tabs the run closes. The
    button named TabGroupsButton, else the last button so labelled (the toolbar comes after
    the cards)."""
    counted = [(element, match) for element in page.on_screen()
               if element.type == "XCUIElementTypeButton"
               and (match := re.fullmatch(r"(\d+) Tabs?", element.label.strip()))]
    named = [pair for pair in counted if pair[0].name == "TabGroupsButton"]
    found = (named or counted)[-1:]
    return int(found[0][1].group(1)) if found else None
