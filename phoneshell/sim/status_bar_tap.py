"""The status bar's tap on the simulated iPhone: it scrolls the list in front to its top.

iOS (UIScrollView `scrollsToTop`, on by default): a tap on the status bar scrolls the window's
scroll view that has it back to its top, animated; Settings' list, Notes', Contacts', a Safari
page. The status bar is SpringBoard's, drawn over every app in portrait (none shows in
landscape), so the tap reaches no view of the app under it: here it takes a tap in its strip
(`windows.STATUS_BAR_HEIGHT` points) that no control of the screen takes (a banner or anything
else drawn over the strip keeps its taps, as before).

Which list takes it is the one thing not verified on a phone. UIKit scrolls none when several
on-screen scroll views keep `scrollsToTop` on, and Apple's apps leave it on their main list;
here it is the largest vertical list a touch reaches (none under a sheet, alert or menu: the
presented one's own list takes it), scrolled to its top at once, not over the phone's ~0.3 s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from phoneshell.sim.touch_paths import actionable, hit_path
from phoneshell.sim.ui import Node
from phoneshell.sim.windows import STATUS_BAR_HEIGHT

if TYPE_CHECKING:
    from phoneshell.sim.phone import Phone


def on_status_bar(phone: Phone, x: float, y: float) -> bool:
    """Whether a tap at the point is the status bar's: in its strip in portrait, on nothing of
    the screen that takes a tap."""
    if phone.orientation != "PORTRAIT" or not (0 <= y < STATUS_BAR_HEIGHT):
        return False
    return actionable(hit_path(phone.screen().root, x, y)) is None


def front_list(phone: Phone) -> Node | None:
    """The list a status-bar tap scrolls: the largest vertical one a touch reaches."""
    root = phone.screen().root
    reached = [node for node in phone.screen().nodes
               if node.scroll is not None and not node.scroll.horizontal
               and any(node in hit_path(root, *point) for point in _inside(node))]
    return max(reached, key=lambda n: n.frame.width * n.frame.height, default=None)


def scroll_to_top(phone: Phone) -> bool:
    """Scroll the front list to its top; False when there is none or it is there already."""
    found = front_list(phone)
    if found is None or found.scroll is None or found.scroll.offset == 0:
        return False
    found.scroll.offset = 0
    phone.changed()
    return True


def _inside(node: Node) -> list[tuple[float, float]]:
    """Points down the middle of a list: a toolbar floating over part of it leaves others."""
    f = node.frame
    return [(f.x + f.width / 2, f.y + f.height * share) for share in (0.5, 0.25, 0.75)]
