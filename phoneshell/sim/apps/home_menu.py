"""SpringBoard's icon menu and edit mode: how an owner removes or deletes an app from the home
screen (what an app is and is not, once removed, is `installs.py`'s).

* **The menu.** A touch-and-hold on a home-screen or dock icon (WDA's `touchAndHold`, or a W3C
  long press; XCUITest suites press for 1.3 s) opens its context menu, a `Menu` of Buttons:
  "Edit Home Screen", "Share App" and "Remove App", below the icon, or above it, in reverse
  order, where there is no room below (the dock), as UIKit puts the first item nearest the
  icon. Apps that are not on the App Store (those iOS will not delete) have no "Share App". A
  tap outside closes it. Apple's apps' quick actions (New Note, Start Timer...) and iOS 18's
  "Require Face ID" are not modelled.
* **Share App** opens the system share sheet headed by the app's name and "App Store"; a tap
  outside closes it (iOS 26's sheet has no Cancel button).
* **Remove App** opens the alert `Remove “Weather”?` ("Removing from Home Screen will keep the
  app in your App Library.") with "Delete App", "Remove from Home Screen" and "Cancel"; an
  app iOS will not delete gets only the last two. "Delete App" asks again: `Delete “Weather”?`
  ("Deleting this app will also delete its data.") with "Cancel" and "Delete", which deletes.
* **Edit mode** ("Edit Home Screen"): every icon, shown or not, holds a Button named
  "DeleteButton" (the identifier XCUITest suites find it by) at its top-left corner, which
  opens the same Remove alert; apps iOS will not delete have it too, as iOS shows them the
  minus badge for removing them from the Home Screen. Its label, "Remove App", is inferred:
  it is what the badge does, and what the menu calls it. A tap on an icon opens nothing. At the
  top, iOS 18's "Edit" (its menu of Add Widget, Customize and Edit Pages is not modelled) and
  "Done", which ends edit mode, as the home button does. Dragging icons is not modelled.

The frames of the menu, the badges and the two buttons are inferred (no dump shows them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from phoneshell.sim import layout
from phoneshell.sim.apps import AppModel, Host, installs
from phoneshell.sim.share_sheet import share_sheet
from phoneshell.sim.ui import ZERO, Handler, Node, Rect

BADGE_LABEL = "Remove App"
"""The label of an icon's DeleteButton in edit mode (inferred: see the module docstring)."""
REMOVE_MESSAGE = "Removing from Home Screen will keep the app in your App Library."
DELETE_MESSAGE = "Deleting this app will also delete its data."
MENU_GAP = 8
"""Points between an icon and its menu."""

Kind = Literal["menu", "share", "remove", "delete"]


@dataclass(frozen=True)
class Prompt:
    """What shows over the home screen for one app: its menu, its share sheet, or an alert."""

    kind: Kind
    """Which shows: the icon's menu, the share sheet, the Remove alert or the Delete alert."""
    app: str
    """The app's bundle id."""
    name: str
    """The app's home-screen name, as the alerts' titles quote it."""
    frame: Rect
    """Where its icon is (the menu opens beside it)."""


@dataclass
class HomeMenu:
    """The home screen's menu state, owned by SpringBoard's state (a mutable binding)."""

    prompt: Prompt | None = None
    editing: bool = False
    """Edit ("jiggle") mode: icons carry their DeleteButtons."""

    @property
    def busy(self) -> bool:
        """Whether a menu, sheet or alert shows, or edit mode is on (home ends them first)."""
        return self.prompt is not None or self.editing

    def close(self) -> None:
        """Close whatever shows and leave edit mode."""
        self.prompt, self.editing = None, False


def live_icon(icon: Node, app: AppModel[Any], menu: HomeMenu, host: Host) -> Node:
    """A home-screen or dock icon as it behaves: a tap opens its app (reinstalling it first if
    it was offloaded), a hold opens its menu; in edit mode it carries its DeleteButton instead.
    """
    bundle = app.bundle_id
    if menu.editing:
        def ask() -> None:
            menu.prompt = Prompt("remove", bundle, app.name, icon.frame)

        frame = Rect(icon.frame.x - 5, icon.frame.y - 5, 24, 24) if icon.visible else ZERO
        badge = replace(layout.button(BADGE_LABEL, frame, ask, name="DeleteButton"),
                        visible=icon.visible)
        return replace(icon, on_tap=None, children=(*icon.children, badge))

    def hold() -> None:
        menu.prompt = Prompt("menu", bundle, app.name, icon.frame)

    return replace(icon, on_tap=lambda: installs.open_app(host, bundle), on_hold=hold)


def home_layers(menu: HomeMenu, host: Host) -> tuple[Node, ...]:
    """What shows over the icons: edit mode's buttons, then the menu, sheet or alert."""
    f = host.facts
    layers: list[Node] = []
    if menu.editing:
        def done() -> None:
            menu.editing = False

        layers += [layout.button("Edit", Rect(16, 50, 64, 30), None),
                   layout.button("Done", Rect(f.width - 80, 50, 64, 30), done)]
    prompt = menu.prompt
    if prompt is None:
        return tuple(layers)

    def close() -> None:
        menu.prompt = None

    def to(kind: Kind) -> Handler:
        def show() -> None:
            menu.prompt = replace(prompt, kind=kind)
        return show

    if prompt.kind == "menu":
        layers.append(_menu(menu, host, prompt, to, close))
    elif prompt.kind == "share":
        layers.append(share_sheet(f, prompt.name, "App Store", {}, close, labels=()))
    elif prompt.kind == "remove":
        layers.append(layout.alert(f, f"Remove \u201c{prompt.name}\u201d?", REMOVE_MESSAGE,
                                   _removals(host, prompt, to, close)))
    else:
        def delete() -> None:
            menu.prompt = None
            installs.delete(host, prompt.app)

        layers.append(layout.alert(f, f"Delete \u201c{prompt.name}\u201d?", DELETE_MESSAGE,
                                   [("Cancel", close), ("Delete", delete)]))
    return tuple(layers)


def _menu(menu: HomeMenu, host: Host, prompt: Prompt, to: Callable[[Kind], Handler],
          close: Handler) -> Node:
    """The icon's context menu, below it where it fits, else above it in reverse order."""
    def edit() -> None:
        menu.prompt, menu.editing = None, True

    items: list[tuple[str, Handler]] = [("Edit Home Screen", edit)]
    if installs.deletable(prompt.app):
        items.append(("Share App", to("share")))
    items.append(("Remove App", to("remove")))
    f, icon = host.facts, prompt.frame
    height = 44 * len(items)
    left = max(16, min(icon.x, f.width - 16 - 250))
    top = icon.bottom + MENU_GAP
    if top + height > f.height - MENU_GAP:
        top, items = icon.y - MENU_GAP - height, items[::-1]
    return layout.menu(f, "ContextMenu", items, top, left, close)


def _removals(host: Host, prompt: Prompt, to: Callable[[Kind], Handler], close: Handler,
              ) -> Sequence[tuple[str, Handler]]:
    """The Remove alert's buttons: Delete App only for an app iOS lets the owner delete."""
    def off_home() -> None:
        close()
        installs.remove_from_home(host, prompt.app)

    actions = [("Remove from Home Screen", off_home), ("Cancel", close)]
    return [("Delete App", to("delete")), *actions] if installs.deletable(prompt.app) else \
        actions
