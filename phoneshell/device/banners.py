"""Notification banners in the way of the harness's own taps: a tap it aims is never taken by one.

The phone shows a banner whenever a message comes, over any app, at the top of the screen where
search buttons and navigation bars are: a harness tap through it opens the message's app (red
team 105: the owner watch's tap on Calendar's search button opened the owner's Messages, and the
agent was charged because the owner's events could not be read). So before a tap, the screen
read since the last action is looked at: a banner over the point is waited out (a phone's goes
by itself within seconds) for as long as a step's effect may take, then swiped up (a persistent
one stays until then: an app's setting), as a person puts one away, and waited out again. It
costs nothing when no banner shows: no read is spent on it, and a tap with nothing read since
the last action is not checked. On a phone a banner is SpringBoard's window, which WDA may leave
out of the front app's source (not verified): a phone set up for phoneshell keeps a Focus on so
none comes (docs/real-device.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from phoneshell.overlays import is_banner_view
from phoneshell.tree import Element, PageSource
from phoneshell.xcui import BANNER_VIEW

if TYPE_CHECKING:  # the phone calls in here before each tap
    from phoneshell.device.phone import Phone


def banner_at(page: PageSource, x: float, y: float) -> Element | None:
    """The notification banner over a point of the screen, if one shows there: told by its
    place in the tree (`xcui.is_banner`), never by its name alone, which a note's title can
    carry (red team 110)."""
    return next((e for e in page.elements if e.name == BANNER_VIEW
                 and e.x <= x < e.x + e.width and e.y <= y < e.y + e.height
                 and is_banner_view(page, e)), None)


def clear_of_banner(phone: Phone, x: float, y: float) -> None:
    """Make sure no banner covers the point a tap is about to land on (see the module
    docstring); the screen under it is left as it was."""
    page = phone.kept_page()
    if page is None or banner_at(page, x, y) is None:
        return

    def gone() -> bool:
        return banner_at(phone.page(), x, y) is None

    if phone.poll(gone, phone.effect_timeout_s):
        return
    banner = banner_at(phone.page(), x, y)
    if banner is not None:  # flicked up from its middle to above its top
        middle_x, middle_y = banner.centre
        phone.drag((middle_x, middle_y), (middle_x, max(1.0, banner.y - banner.height)))
        phone.poll(gone, phone.effect_timeout_s)
