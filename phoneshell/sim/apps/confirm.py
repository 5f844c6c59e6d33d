"""Action sheets that confirm or discard, as Contacts and Calendar show them, and the helpers
their edit pages share (a field per row, touch-and-hold on a list's cells).

iOS's destructive confirmations are action sheets at the bottom: an optional message, the
destructive action ("Delete Contact", "Delete Event", "Discard Changes"), and a cancel button
("Cancel", or "Keep Editing" over an edit page). A tap on the dimmed backdrop cancels.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Protocol

from phoneshell.sim import layout
from phoneshell.sim.apps import Host
from phoneshell.sim.facts import DeviceFacts
from phoneshell.sim.ui import EditText, Handler, Node, Rect


def confirm_sheet(f: DeviceFacts, action: str, on_action: Handler, on_cancel: Handler, *,
                  message: str = "", cancel: str = "Cancel") -> Node:
    """An action Sheet: `message` (if any), the button `action`, then `cancel`."""
    top = f.height - (60 if message else 8) - 57 - 70 - 20
    kids = [layout.text(message, Rect(24, top + 16, f.width - 48, 20))] if message else []
    y = top + (52 if message else 8)
    kids += [layout.button(action, Rect(8, y, f.width - 16, 56), on_action),
             layout.button(cancel, Rect(8, f.height - 76, f.width - 16, 56), on_cancel)]
    box = Node("Sheet", Rect(8, top, f.width - 16, f.height - top - 8), name=message or None,
               label=message or None, children=tuple(kids))
    return layout.modal_layer(f, (box,), on_cancel)


def edit_bar(f: DeviceFacts, title: str | None, on_cancel: Handler, done: str,
             on_done: Handler, enabled: bool = True) -> Node:
    """An edit page's NavigationBar: Cancel at the left, `done` ("Done", "Add") at the right,
    and the page's title between (None: no title, and the bar has no name)."""
    kids = [layout.button("Cancel", Rect(16, layout.NAV_TOP, 70, 44), on_cancel),
            layout.button(done, Rect(f.width - 76, layout.NAV_TOP, 60, 44), on_done,
                          enabled=enabled)]
    if title:
        w = layout.text_width(title)
        kids.insert(1, layout.text(title, Rect((f.width - w) // 2, layout.NAV_TOP + 11, w, 22),
                                   header=True))
    return Node("NavigationBar", Rect(0, layout.NAV_TOP, f.width,
                                      layout.NAV_BOTTOM - layout.NAV_TOP), name=title,
                children=tuple(kids))


def fields(texts: Sequence[EditText], top: int, width: int) -> list[Node]:
    """One TextField a row, from `top`, each named by its placeholder."""
    return [layout.text_field(field, Rect(16, top + 52 * i, width - 32, 44),
                              name=field.placeholder) for i, field in enumerate(texts)]


def with_holds(node: Node, holds: Mapping[str, Handler]) -> Node:
    """`node`, each descendant keyed in `holds` given that touch-and-hold (a list's cells)."""
    kids = tuple(with_holds(child, holds) for child in node.children)
    hold = holds.get(node.key or "")
    if hold is None and kids == node.children:
        return node
    return replace(node, children=kids, on_hold=hold or node.on_hold)


class Asking(Protocol):
    """An edit page's state: what sheet shows over it, and whether anything was changed."""

    asking: str

    def changed(self) -> bool: ...


def cancelling(host: Host, form: Asking, close: Handler) -> tuple[Handler, Node | None]:
    """An edit page's Cancel (it asks first when something was changed: `asking` "discard"),
    and the sheet that asks, while it does ("Discard Changes", "Keep Editing")."""
    def cancel() -> None:
        if form.changed():
            host.focus(None)
            form.asking = "discard"
        else:
            close()

    def keep() -> None:
        form.asking = ""

    sheet = confirm_sheet(host.facts, "Discard Changes", close, keep,
                          message="Are you sure you want to discard your changes?",
                          cancel="Keep Editing") if form.asking == "discard" else None
    return cancel, sheet
