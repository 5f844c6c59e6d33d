"""The back button's history menu: what a touch and hold on a navigation bar's back button
shows on iOS 14 and later, instead of going back.

UIKit gives every UINavigationBar back button a menu of the pages behind the one shown (Apple:
"touch and hold the back button to see your navigation history"): nearest first, each item
titled with its page's title. The hold opens it and goes nowhere; choosing an item goes back to
that page at once, popping every page above it (on About, "Settings" is two pages back); a tap
outside closes it. An app keeps one `BackMenu` in its UI state and hands it to
`layout.nav_bar` (or `layout.back_controls`, for a bar it draws itself), with the titles of the
pages further behind than the back button's own; a back button given none still takes its hold
as a phone does, by not going back.

The menu is drawn as the simulator's other context menus are (`layout.menu`): a `Menu` of
`Button`s over a full-screen layer a tap dismisses, below the back button. Its element types
and frames are inferred (no dump of it): a phone may list the items in a collection view.
The bridge reads a tap on one of its items as going back that many pages (`bridge/back_menus`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from phoneshell.sim.ui import Handler

MENU_TOP = 120
"""Where the menu's first item starts: just under a standard navigation bar, as UIKit drops a
button's menu below the button (inferred)."""
MENU_LEFT = 16
"""The menu's left edge, under the back button (inferred)."""


@dataclass
class BackMenu:
    """Whether an app's back-button menu shows (the app's UI state keeps one)."""

    shown: bool = False

    def open(self) -> None:
        """Show the menu (a hold on the back button)."""
        self.shown = True

    def close(self) -> None:
        """Close the menu (a tap outside it, or an item chosen)."""
        self.shown = False


def held_back(menu: BackMenu | None) -> Handler:
    """What a touch and hold on a back button does: open its menu, never go back (with no
    menu state, nothing at all: a phone's hold shows a menu, and no hold goes back)."""
    return menu.open if menu is not None else _stay


def items(menu: BackMenu, titles: Sequence[str], on_back: Handler,
          ) -> list[tuple[str, Handler]]:
    """The menu's items: one per page behind (`titles`, nearest first), the k-th going back k
    pages at once (`on_back`, the back button's own one page back, k times), closing the menu."""
    def back_to(pages: int) -> Handler:
        def choose() -> None:
            menu.close()
            for _ in range(pages):
                on_back()
        return choose

    return [(title, back_to(i + 1)) for i, title in enumerate(titles)]


def _stay() -> None:
    """A hold on a back button whose app keeps no menu: it goes nowhere."""
