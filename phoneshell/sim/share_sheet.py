"""The system share sheet, as the iOS 26 dump shows it on a phone (Safari's Share..., SpringBoard's
Share App): the `Popover` over a "PopoverDismissRegion" ("dismiss popup": a tap outside closes
it, as iOS 26's sheet has no Cancel button), a header naming what is shared, then an activity
list of "shareCell"s (apps) and "actionGroupCell"s (Copy, Add to Bookmarks...). Pure layout.

Another process draws the sheet's contents in a remote view ("ShareSheet.RemoteContainerView"),
and WDA reports their frames in that view's own coordinates, from (0, 0), as the real dump does
(the Copy cell at (18, 249) while it shows at (27, 726)): the simulator draws and touches them
where they show (`Node.remote_origin`), and reports them as a phone does. A tap by id lands
where the simulator draws the element (what XCTest does with such a frame on a phone is not
known; the bridge refuses it either way: `bridge.remote_panels`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from phoneshell.sim import layout
from phoneshell.sim.facts import DeviceFacts
from phoneshell.sim.ui import Handler, Node, Rect

SHARE_APPS = ("Messages", "Mail", "Reminders", "More")
SHARE_ACTIONS = ("Copy", "Add to Bookmarks", "Add to Reading List", "View More")


def share_sheet(f: DeviceFacts, title: str, subtitle: str, actions: dict[str, Handler],
                dismiss: Handler, *, labels: Sequence[str] = SHARE_ACTIONS) -> Node:
    """The share sheet as iOS 26 shows it on a phone: a Popover over a dismiss region.

    Args:
        f: screen geometry.
        title: what is shared (a page's title, an app's name), heading the sheet.
        subtitle: the line under it (a page's host, "App Store").
        actions: what each action cell does, by label (others dismiss the sheet).
        dismiss: what a tap outside the popover, or on an app, does.
        labels: the action cells, in order.
    """
    full = Rect(0, 0, f.width, f.height)
    box = Rect(9, 477, 384, 388)
    header = Node("NavigationBar", Rect(box.x, box.y, box.width, 126), name=title,
                  children=(
                      Node("Image", Rect(box.x + 24, box.y + 24, 65, 65), accessible=True),
                      Node("Other", Rect(box.x + 103, box.y + 24, 257, 19),
                           name="LP.CaptionBar.TopCaption", label=title, accessible=True),
                      Node("Other", Rect(box.x + 103, box.y + 42, 257, 21),
                           name="LP.CaptionBar.BottomCaption", label=subtitle,
                           accessible=True),
                      Node("Button", Rect(box.x + 103, box.y + 73, 92, 37), name="Options ",
                           label="Options ", traits="Button", on_tap=_ignore, children=(
                               layout.text("Options ", Rect(box.x + 115, box.y + 81, 68, 21),
                                           accessible=False),))))
    apps = _cell_row(box.x + 18, box.y + 125, 123, "shareCell", SHARE_APPS,
                     dict.fromkeys(SHARE_APPS, dismiss))
    acts = _cell_row(box.x + 18, box.y + 249, 139, "actionGroupCell", labels,
                     {a: actions.get(a, dismiss) for a in labels})
    # visible="false", as the real share sheet dump reports it
    activity = Node("CollectionView", box, name="activityCollectionView", visible=False, children=(
        layout.wrap(Node("Other", Rect(box.x, box.y, box.width, 181)), 1),
        Node("Other", box), apps, acts,
        Node("Other", Rect(box.x + 24, box.y + 248, 336, 2), name="collectionView.footerView")))
    content = Node("Other", box, children=(
        header, layout.wrap(Node("Other", box, name="shareSheet.activity.contentView",
                                 children=(activity, Node("Other", Rect(box.x + 24, box.y + 125,
                                                                        336, 2)))), 2),
        layout.wrap(Node("Other", box, visible=False), 1, visible=False)))
    # Another process draws what the remote container holds: WDA reports it in the remote
    # view's own coordinates, from (0, 0) while the popover lies at (9, 477), as the dump does.
    remote = Node("Other", box, name="ShareSheet.RemoteContainerView",
                  children=(layout.wrap(_remote(layout.wrap(content, 5), (box.x, box.y)), 2),))
    backdrop = layout.wrap(Node("Other", Rect(box.x - 1, box.y, box.width + 1, box.height)), 4)
    popover = Node("Popover", box, opaque=True, children=(
        Node("Image", Rect(box.x - 150, box.y - 150, 684, 688), visible=False),
        layout.wrap(Node("Other", box, children=(
            Node("Other", Rect(box.x, box.y, 0, 0), visible=False, children=(backdrop,)),)), 5),
        Node("Other", box, children=(
            Node("Other", box, name="ActivityListView", children=(remote,)),))))
    region = Node("Other", full, name="PopoverDismissRegion", label="dismiss popup",
                  on_tap=dismiss)
    return layout.modal_layer(f, (region, popover), None)


def _remote(node: Node, origin: tuple[int, int]) -> Node:
    """`node` and all below it drawn by another process, whose (0, 0) lies at `origin` on
    screen: reported in its coordinates (`Node.remote_origin`), drawn and touched where it is."""
    return replace(node, remote_origin=origin,
                   children=tuple(_remote(c, origin) for c in node.children))


def _cell_row(x: int, y: int, height: int, name: str, labels: Sequence[str],
              actions: dict[str, Handler]) -> Node:
    """One scrolling row of share-sheet cells (apps, or actions)."""
    cells = []
    for i, label in enumerate(labels):
        frame = Rect(x + 88 * i, y, 83, height)
        title = Rect(frame.x, frame.y + 92, 83, 15)
        cells.append(Node("Cell", frame, name=name, label=label, traits="Button",
                          accessible=True, on_tap=actions[label], children=(
                              Node("Other", frame, children=(
                                  Node("Other", title, children=(
                                      layout.text(label, title, name="cellTitleLabel",
                                                  accessible=False),)),
                                  layout.image("activityImageView",
                                               Rect(frame.x + 7, frame.y + 16, 69, 69)))),)))
    return Node("ScrollView", Rect(x, y, 348, height), children=tuple(cells))


def _ignore() -> None:
    """The header's Options button: its options (send as PDF, link...) are not modelled."""
