"""A tap on the status bar, told from a press of what the app draws under it, off the page source.

In portrait iOS draws the status bar over every app, and a tap in its strip that no control of
the app takes scrolls the list in front to its top (UIScrollView's `scrollsToTop`; the
simulator plays it so: `sim/status_bar_tap.py`). The page source does not report the bar, and
a scrolled list's rows lie under it there, so such a tap would be aimed at what lies under the
bar: an unnamed Other of a row, which Settings' allow-list reads as a row and refuses (red team
95, RT95-2). So the bridge logs it as the status bar's (`STATUS_BAR`) and judges no element of
the app by it. Only where nothing but an unnamed view of the app lies there: a control, a text
or anything named under the point, or a panel presented (an alert, a sheet, a menu), keeps the
tap the app's, judged as ever. In landscape no status bar shows. Pure over the page tree.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from bridge.classified import Classified
from bridge.touched import CONTROLS, MODALS, ancestry, node_at, rect_of
from phoneshell.records import Target
from phoneshell.xcui import short_type, walk

STATUS_BAR_PT = 54.0
"""The height of the status bar's strip in portrait, in points (the iPhone 17's, as the
simulator draws it: `sim.windows.STATUS_BAR_HEIGHT`)."""
STATUS_BAR = Target(type="XCUIElementTypeStatusBar", label="scrolls to top")
"""The target a status-bar tap is logged at: not an element of the app, the list in front
scrolls to its top."""
PLAIN_TAPS = frozenset({"", "tap", "click", "actions", "touch_perform"})
"""Gestures of a logged tap that put one finger down once, briefly (no hold, no slide)."""
VIEWS = frozenset({"Other", "Group"})
"""Short types of the plain views a status-bar tap may lie over."""
LISTS = frozenset({"Table", "CollectionView", "ScrollView"})
"""Lists in `touched.CONTROLS` (a touch on one is a scroll's, not a press)."""


def status_bar_tap(screen_tree: Callable[[], object | None], action: Classified) -> bool:
    """Whether `action` is a tap on the status bar: one finger's plain tap at a point in the
    portrait strip (`STATUS_BAR_PT`) of the screen `screen_tree` gives (asked only for such a
    tap: it may cost a read), over nothing of the app but an unnamed view, with no control on
    its line and no panel presented."""
    params = action.params
    x, y = params.get("x"), params.get("y")
    fingers = params.get("fingers")
    if (action.kind != "tap" or action.aim != "point" or not isinstance(x, (int, float))
            or not isinstance(y, (int, float)) or not 0 <= y < STATUS_BAR_PT
            or params.get("gesture", "") not in PLAIN_TAPS
            or isinstance(fingers, int) and fingers > 1):
        return False
    tree = screen_tree()
    if not isinstance(tree, Mapping):
        return False
    screen = rect_of(tree.get("rect"))
    if screen is None or screen.width >= screen.height:
        return False  # landscape: no status bar shows
    if any(short_type(str(node.get("type") or "")) in MODALS for _, node in walk(tree)):
        return False
    node = node_at(tree, float(x), float(y))
    if node is None:
        return True
    if short_type(str(node.get("type") or "")) not in VIEWS or node.get("name") \
            or node.get("label"):
        return False
    line = ancestry(tree, node)
    return not any(short_type(str(n.get("type") or "")) in CONTROLS - LISTS for n in line)
