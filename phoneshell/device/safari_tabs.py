"""The `safari_tabs` count: the number Safari's tab overview shows, read from its toolbar.

Also what `delete_created` closes tabs from (`tab_overview`, `tab_count`), the tabs' titles
in the overview's order (`tab_titles`), which the owner watch compares (`runner.owner_tabs`), and
the run's own blank tab, opened and left in front so that Safari reopens on it (`run_tab`); see
`probes` for how a probe runs and fails.
"""

from __future__ import annotations

import re
from functools import partial

from phoneshell.device.phone import Phone
from phoneshell.device.probes import (
    SCROLLS,
    Overflow,
    ProbeError,
    fresh_app,
    leaving_open,
    merge_scrolled,
    probe,
    running,
    scrolled_down,
    stop_app,
)
from phoneshell.device.steps import run_steps, screen_signature, scroll_points, still_left
from phoneshell.tasks import Step
from phoneshell.tree import PageSource
from phoneshell.xcui import SAFARI

TABS = Step.tap_on("Tabs", "Button")
"""Safari's tab overview button (a page's own link named Tabs is not it)."""
NEW_TAB = Step.tap_on("New Tab", "Button")
"""The overview's New Tab: a blank tab, brought to the front, the overview closed."""


CARD = "TabOverviewItem"
"""The name of a tab's card in the overview (the simulator's; a phone's is inferred:
docs/simulator.md), labelled with the page's title."""
BLANK = "Start Page"
"""The title of a blank tab's card (it shows the start page): a tab that holds nothing."""
TO_TOP = 60
"""Drags up, at most, to bring the overview to its first tabs from the tab in front (the
newest, after a run's agents opened theirs): about 90 rows of two cards."""
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


def tab_titles(phone: Phone, first: int | None = None, then_new: bool = False,
               ) -> tuple[str, ...]:
    """The titles of the first `first` open (not private) tabs (every one when None), as their
    cards in the overview are labelled, in the overview's order (the oldest first: Safari adds a
    tab at the end); fewer when fewer are open. From a fresh start of Safari, which it stops
    again, with a new blank tab in front when `then_new` and a tab read is not blank (`run_tab`,
    in the same visit; a blank tab in front takes what is typed as a new one would). The
    overview opens on the tab in front: when its cards do not all show, it is scrolled to its
    top first, then read down only as far as needed (the run's agents' tabs, after the owner's,
    often share a title, which no scrolled read can count across).

    Raises:
        ProbeError: the overview could not be read, or not as far as needed (`Overflow`: its
            top beyond `TO_TOP` drags, the first cards beyond `SCROLLS` screens, or titles
            repeated across a scroll).
    """
    def read() -> tuple[str, ...]:
        page = tab_overview(phone)
        count = tab_count(page)
        want = count if first is None else min(first, count)
        seen = _cards(page)
        if len(seen) < count:
            up = scroll_points(phone, "up")
            for _ in range(TO_TOP):
                before = screen_signature(phone)
                phone.drag(*up)
                if not phone.poll(partial(_moved, phone, before), 1.0):
                    break
            else:
                raise Overflow(f"Safari's tab overview ({count} tabs) did not reach its top in "
                               f"{TO_TOP} drags")
            seen = _cards(phone.page())
            for _ in range(SCROLLS):
                if len(seen) >= want or not scrolled_down(phone):
                    break
                seen = merge_scrolled(seen, _cards(phone.page()))
        if then_new and any(title != BLANK for title in seen[:want]):
            run_steps(phone, [NEW_TAB])
        stop_app(phone, SAFARI)
        if len(seen) < want:
            raise Overflow(f"Safari's tab overview counts {count} tabs, and only {len(seen)} "
                           f"of the first {want} cards could be read")
        return tuple(seen[:want])

    return running(phone, "safari_tabs", "", False, lambda _phone, _arg: read())


def run_tab(phone: Phone) -> None:
    """Open a blank tab from the overview (the one a count left up, else a fresh start's) and
    stop Safari on it: Safari reopens on the tab last shown, so an agent that types an address
    into the tab in front types into this one, the run's, never into an owner's. A URL opened
    from outside loads into it too (a blank tab in front takes it).

    Raises:
        ProbeError: the overview or its New Tab could not be reached.
    """
    def open_it(_phone: Phone, _arg: str) -> None:
        tab_count(tab_overview(phone))  # the overview, not a page's own "New Tab" link
        run_steps(phone, [NEW_TAB])
        stop_app(phone, SAFARI)

    running(phone, "safari_tabs", "", False, open_it)


def _moved(phone: Phone, before: object) -> bool:
    return screen_signature(phone) != before


def _cards(page: PageSource) -> list[str]:
    """The titles of the tab cards on screen, top to bottom, left to right."""
    cards = [e for e in page.on_screen() if e.name == CARD and e.type == "XCUIElementTypeCell"]
    return [e.label for e in sorted(cards, key=lambda e: (e.y, e.x))]
