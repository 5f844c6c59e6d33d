"""Notifications, part of SpringBoard: posting one, its banner, and Notification Center's list.

Apps do not post here (none of the modelled ones has reason to); the control route
`POST /phoneshell/sim/notify` posts for them. A posted notification is kept in SpringBoard's
store (`notifications`, newest last) until it is opened, and shows as a banner at the top of
the screen, over whatever is in front, for `BANNER_S` seconds of the phone's running clock
(which moves only when told, so a banner stays put between two reads). Tapping the banner opens
its app; pulling Notification Center down moves it into the list there.

Shapes follow the iOS 26 dumps: a banner is a window holding "Notification" > the accessible
"NotificationShortLookView" (labelled "CLOCK, now, Title, Body") > "ShortLook.Platter" > its
content Button with "NotificationTitle" and "TextContent.Primary"; in Notification Center the
same platter sits in an accessible "ListCell" scroll view. Pure layout and store access: the
state that says whether a banner shows lives in SpringBoard's state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from phoneshell.sim import layout
from phoneshell.sim.apps import Host
from phoneshell.sim.store import JSON
from phoneshell.sim.ui import Handler, Node, Rect

BUNDLE_ID = "com.apple.springboard"
BANNER_S = 5.0
"""How long a banner stays up, in seconds of the running clock or of real time. iOS shows a
temporary banner for a few seconds; 5 is what is commonly said, not measured on a phone (and a
persistent banner, an app's setting, stays until it is swiped away or opened)."""


@dataclass(frozen=True)
class Notice:
    """One posted notification."""

    app: str
    """The posting app's bundle id (tapping the notification opens it)."""
    app_name: str
    title: str
    body: str
    posted_s: float
    """When it was posted, on the phone's running clock."""

    def to_json(self) -> dict[str, JSON]:
        """The notification as SpringBoard's store keeps it."""
        return {"app": self.app, "app_name": self.app_name, "title": self.title,
                "body": self.body, "posted_s": self.posted_s}

    @classmethod
    def from_json(cls, data: JSON) -> Notice | None:
        """A notification from the store, or None for an entry that is not one."""
        if not isinstance(data, dict):
            return None
        texts = [data.get(k) for k in ("app", "app_name", "title", "body")]
        posted = data.get("posted_s")
        if not all(isinstance(t, str) for t in texts) or not isinstance(posted, (int, float)):
            return None
        app, name, title, body = (str(t) for t in texts)
        return cls(app, name, title, body, float(posted))

    def when(self, now_s: float) -> str:
        """How long ago, as the platter says it ("now", "5m ago")."""
        minutes = int((now_s - self.posted_s) // 60)
        return "now" if minutes < 1 else f"{minutes}m ago" if minutes < 60 else \
            f"{minutes // 60}h ago"

    def label(self, now_s: float) -> str:
        """What VoiceOver reads: "CLOCK, now, Timer, Your timer is done"."""
        return ", ".join(t for t in (self.app_name.upper(), self.when(now_s), self.title,
                                     self.body) if t)


def notices(host: Host) -> list[Notice]:
    """Every waiting notification, oldest first."""
    raw = host.store(BUNDLE_ID).data.get("notifications")
    found = [Notice.from_json(r) for r in raw] if isinstance(raw, list) else []
    return [n for n in found if n is not None]


def post(host: Host, app: str, title: str, body: str) -> Notice:
    """Keep a new notification from `app` (its name is looked up) and return it.

    Raises:
        ValueError: `app` is not installed, or the title and body are both empty.
    """
    model = next((a for a in host.apps() if a.bundle_id == app), None)
    if model is None:
        raise ValueError(f"no installed app {app!r} to post a notification from")
    if not (title or body):
        raise ValueError("a notification needs a title or a body")
    notice = Notice(app, model.name, title, body, host.clock_s)
    host.store(BUNDLE_ID).records("notifications").append(notice.to_json())
    return notice


def remove(host: Host, notice: Notice) -> None:
    """Forget a notification (it was opened)."""
    records = host.store(BUNDLE_ID).records("notifications")
    records[:] = [r for r in records if Notice.from_json(r) != notice]


def drop_app(host: Host, app: str) -> None:
    """Forget every notification of `app` (it was deleted, and its notifications with it)."""
    raw = host.store(BUNDLE_ID).data.get("notifications")
    if isinstance(raw, list):
        raw[:] = [r for r in raw if (n := Notice.from_json(r)) is not None and n.app != app]


def _platter(notice: Notice, frame: Rect, now_s: float, *, accessible: bool) -> Node:
    """The notification's platter: app, time, title and body."""
    x, y, w = frame.x, frame.y, frame.width
    title = layout.text(notice.title, Rect(x + 64, y + 14, w - 116, 19),
                        name="NotificationTitle", accessible=False)
    body = Node("Other", Rect(x + 64, y + 32, w - 81, 19),
                name="NotificationBody.TopAligned.originalMessage", children=(
                    layout.text(notice.body, Rect(x + 64, y + 32, w - 81, 19),
                                name="TextContent.Primary", accessible=False),))
    content = Node("Button", frame, name="ShortLook.Platter.Content.Seamless",
                   label=", ".join(t for t in (notice.when(now_s), notice.title, notice.body)
                                   if t), traits="Button", accessible=False,
                   children=(Node("Other", frame,
                                  name="ShortLook.Platter.Content.Seamless.CrossFade",
                                  children=(title, body)),))
    glass = layout.wrap(Node("Other", frame), 5)
    platter = Node("Other", frame, name="ShortLook.Platter", opaque=True, children=(
        Node("Other", frame, visible=False), Node("Other", frame, visible=False),
        Node("Other", frame, name="ShortLook.Platter.Content", children=(content, glass))))
    return Node("Other", frame, name="NotificationShortLookView", label=notice.label(now_s),
                accessible=accessible, children=(platter,))


def banner_frame(host: Host) -> Rect:
    """Where a banner shows: across the top of the screen, under the Dynamic Island."""
    return Rect(8, 58, host.facts.width - 16, 67)


def banner(host: Host, notice: Notice, on_tap: Handler) -> Node:
    """The banner window of a notification, at the top of the screen."""
    f = host.facts
    full = Rect(0, 0, f.width, f.height)
    frame = banner_frame(host)
    view = _platter(notice, frame, host.clock_s, accessible=True)
    holder = Node("Other", frame, name="Notification", label="Notification", on_tap=on_tap,
                  children=(layout.wrap(view, 1),))
    return Node("Window", full, children=(
        Node("Other", full, children=(Node("Other", full), Node("Other", frame,
                                                                  children=(holder,)))),))


def notification_list(host: Host, shown: Sequence[Notice],
                      opener: Callable[[Notice], Handler]) -> Node:
    """Notification Center's list: one "ListCell" per waiting notification, newest lowest,
    stacked up from the bottom of the screen as iOS 26 stacks them."""
    f = host.facts
    full = Rect(0, 0, f.width, f.height)
    cells: list[Node] = []
    bottom = f.height - 128
    for i, notice in enumerate(reversed(shown)):
        frame = Rect(14, bottom - 82 * (i + 1) - 8 * i, f.width - 28, 82)
        platter = _platter(notice, Rect(frame.x, frame.y, frame.width, 66), host.clock_s,
                           accessible=False)
        content = Node("Other", platter.frame, name="ListCell.ContentView",
                       children=(layout.wrap(platter, 2),))
        cell = Node("ScrollView", frame, name="ListCell", label=notice.label(host.clock_s),
                    traits="Button", accessible=True, on_tap=opener(notice),
                    children=(content,))
        cells.append(Node("ScrollView", frame, children=(cell,)))
    cells.reverse()
    return layout.wrap(Node("ScrollView", full, children=tuple(cells)), 4)

