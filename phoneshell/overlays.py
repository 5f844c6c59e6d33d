"""What shows over the front app's own content in a page source: SpringBoard's screens, a
notification banner, an alert, sheet, popover or menu. Pure: reads a source, never the device.

The capture scrolls only the front app's own screen (`device.capture`), and a check that found
nothing unscrolled says why (`checks.state`): both ask here, so they name the same thing. What
is "over the app" is told by what only the system draws (SpringBoard's own tree, a window it
names, an element type no text can give), never by text an app or an agent writes alone.
"""

from __future__ import annotations

from phoneshell.tree import Element, PageSource
from phoneshell.xcui import (
    APP_LIBRARY,
    BANNER_VIEW,
    CONTROL_CENTER_SPACE,
    SPRINGBOARD,
    SWITCHER_WINDOW,
    is_banner,
)

COVER_SHEET_WINDOW = "SBCoverSheetWindow"
"""The cover sheet's window (the Lock Screen, Notification Center), visible while it shows."""
OVER_APP = {"Alert": "an alert", "Sheet": "an action sheet", "Popover": "a popover",
            "Menu": "a menu"}
"""What UIKit presents over an app's screen, by short type (the share sheet is a popover; a
context menu, a back button's history menu and the edit menu are menus): a drag there picks
from it or dismisses it, and the list under it is not the screen the agent is shown."""


def first_window(page: PageSource) -> Element | None:
    """The front app's own window: the first element of its tree (iOS 26 dumps: the keyboard's
    window, and a banner's, come after it)."""
    return next((e for e in page.elements[1:] if e.parent == 0), None)


def in_first_window(page: PageSource, element: Element) -> bool:
    """Whether `element` is, or sits in, the front app's own window (`first_window`)."""
    window = first_window(page)
    return window is not None and (element.order == window.order
                                   or page.holds(window, element))


def overlay(page: PageSource) -> str:
    """What shows over the front app's own content, named for a person ("the App Switcher"),
    or "" when nothing does. SpringBoard in front is never an app's content: its screens (the
    App Switcher, the App Library, Notification Center, Control Center, Spotlight, the Home
    Screen) are SpringBoard's scroll views, where a drag closes an app or opens another screen.
    """
    if page.bundle_id == SPRINGBOARD:
        return _springboard_screen(page)
    shown = page.on_screen()
    banner = next((e for e in shown if is_banner_view(page, e)), None)
    if banner is not None:
        return "a notification banner"
    over = next((e for e in shown if e.short_type in OVER_APP), None)
    if over is None:
        return ""
    named = over.label or over.name
    return OVER_APP[over.short_type] + (f" {named!r}" if named else "")


def _springboard_screen(page: PageSource) -> str:
    """Which of SpringBoard's screens `page` shows, as far as its source tells."""
    windows = {e.name for e in page.elements if e.parent == 0 and e.visible}
    shown = page.on_screen()
    if SWITCHER_WINDOW in windows:
        return "the App Switcher (SpringBoard's)"
    if any(e.name in CONTROL_CENTER_SPACE for e in shown):
        return "Control Center (SpringBoard's)"
    if COVER_SHEET_WINDOW in windows:
        return "the cover sheet (SpringBoard's Lock Screen or Notification Center)"
    fields = [e for e in shown if e.short_type == "SearchField"]
    if any(e.name == APP_LIBRARY for e in fields):
        return "the App Library (SpringBoard's)"
    if fields:
        return "Spotlight (SpringBoard's)"
    return "SpringBoard's own screen (the Home Screen or another, no app's)"


def is_banner_view(page: PageSource, element: Element) -> bool:
    """Whether `element` is a notification banner's view, told by its place in the tree
    (`xcui.is_banner`), never by its name alone, which a note's title can carry (red team
    110)."""
    if element.name != BANNER_VIEW:
        return False
    chain: list[Element] = []
    parent = element.parent
    while parent > 0:  # up to the application node (order 0)
        chain.append(page.elements[parent])
        parent = page.elements[parent].parent
    if parent != 0 or not chain:
        return False
    chain.reverse()
    window = sum(1 for e in page.elements[1:chain[0].order] if e.parent == 0)
    return is_banner(element.short_type, element.name, element.y,
                     [(e.short_type, e.name) for e in chain], window, page.height)


__all__ = ["APP_LIBRARY", "COVER_SHEET_WINDOW", "OVER_APP", "SWITCHER_WINDOW", "first_window",
           "in_first_window", "is_banner_view", "overlay"]
