"""SpringBoard's notification banner over what is in front: posted, timed out, swiped away,
tapped open (`springboard`'s state keeps it). Pure on the `Host`: never keeps a phone."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from phoneshell.sim.apps import Drag, Host, installs
from phoneshell.sim.apps.notifications import BANNER_S, banner, banner_frame, notices, post, remove
from phoneshell.sim.apps.system_screens import FOCUS
from phoneshell.sim.ui import Node
from phoneshell.xcui import SETTINGS

if TYPE_CHECKING:
    from phoneshell.sim.apps.springboard import SpringBoardState


def notify(state: SpringBoardState, host: Host, app: str, title: str, body: str) -> None:
    """Post a notification from `app`: it is kept, and its banner comes up.

    Raises:
        ValueError: `app` is not installed, or there is nothing to say.
    """
    kept = post(host, app, title, body)
    # Focus (Do Not Disturb, from Control Center) keeps it in Notification Center, unannounced
    state.banner = None if host.store(SETTINGS).flag(FOCUS) else kept
    state.banner_until = time.monotonic() + BANNER_S


def banner_gone(state: SpringBoardState) -> bool:
    """Take the banner down once its time is up in real time; True when it just went (what
    shows is stale then)."""
    if state.banner is None or time.monotonic() < state.banner_until:
        return False
    state.banner = None
    return True


def swipe_banner(state: SpringBoardState, host: Host, drag: Drag) -> bool:
    """An upward drag that starts on the banner puts it away, as on a phone: it waits in
    Notification Center. False when no banner shows where the drag started."""
    frame = banner_frame(host)
    if not shown_banner(state, host) or not (drag.vertical and drag.dy < 0) or not (
            frame.x <= drag.from_x < frame.x + frame.width
            and frame.y <= drag.from_y < frame.y + frame.height):
        return False
    state.banner = None
    return True


def shown_banner(state: SpringBoardState, host: Host) -> list[Node]:
    notice = state.banner
    # A deleted app's notifications go with it, the banner showing too.
    if notice is None or host.clock_s - notice.posted_s >= BANNER_S or notice not in notices(host):
        return []

    def open_it() -> None:
        state.banner = None
        remove(host, notice)
        installs.open_app(host, notice.app)

    return [banner(host, notice, open_it)]
