"""The cover sheet of SpringBoard (SBCoverSheetWindow): the lock screen and Notification Center,
with the date and big clock over them, and the notifications waiting. Layout only: SpringBoard
says when it shows and what opening a notification does."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from phoneshell.sim import layout
from phoneshell.sim.apps import Host
from phoneshell.sim.apps.notifications import Notice, notices, notification_list
from phoneshell.sim.facts import DeviceFacts
from phoneshell.sim.ui import Handler, Node, Rect, hidden


def _centred(f: DeviceFacts, text: str, y: int, height: int) -> Node:
    width = layout.text_width(text, round(height * 0.8))
    return layout.text(text, Rect((f.width - width) // 2, y, width, height))


def _date_view(f: DeviceFacts, locked: bool) -> Node:
    """The cover sheet's date and big clock. The clock draws "9:41" but, as the Notification
    Center dump shows ("7:46 PM" for name, label and value), reports the time as VoiceOver
    reads it. Over Notification Center WDA reports both hidden (the dump) though they are
    drawn; on the lock screen they are taken as visible (no dump of one)."""
    full = Rect(0, 0, f.width, f.height)
    face = _centred(f, f.clock_face, 89, 144)  # framed as drawn
    clock = layout.text(f.time_text, face.frame, pixels_text=f.clock_face)
    view = Node("Other", full, name="lockscreen-date-view", children=(
        _centred(f, f.date_text, 72, 37), clock))
    if locked:
        return view
    unseen = hidden(view)
    drawn = replace(unseen, children=tuple(replace(c, covered=True) for c in unseen.children))
    return Node("Other", Rect(0, 0, f.width, 2 * f.height), visible=False, children=(drawn,))


def cover_sheet(host: Host, locked: bool, opener: Callable[[Notice], Handler]) -> Node:
    """The cover sheet (SBCoverSheetWindow): the lock screen, or Notification Center, whose
    notifications open by `opener`."""
    f = host.facts
    full = Rect(0, 0, f.width, f.height)
    waiting = notices(host)
    kids: list[Node] = [_date_view(f, locked)]
    if waiting:
        kids.append(notification_list(host, waiting, opener))
    elif not locked:
        # Inferred (no dump of an empty list): what iOS writes where no notification waits.
        kids.append(_centred(f, "No Older Notifications", 560, 20))
    if locked:
        kids += [layout.image("lock.fill", Rect(190, 60, 22, 28), label="Locked"),
                 layout.button("Flashlight", Rect(46, 760, 50, 50), None),
                 layout.button("Camera", Rect(306, 760, 50, 50), None)]
    indicator = Node("Other", Rect(129, 861, 144, 5), name="Home indicator",
                     label="Home indicator", enabled=False, traits="NotEnabled",
                     children=(layout.wrap(Node("Other", Rect(129, 861, 144, 5)), 3),))
    page = layout.wrap(Node("Other", full, children=tuple(kids)), 1)
    return Node("Other", full, key="lock" if locked else "notifications", children=(
        layout.wrap(Node("Other", full, visible=False), 2, visible=False),
        Node("Other", full, children=(page, layout.wrap(indicator, 3)))))
