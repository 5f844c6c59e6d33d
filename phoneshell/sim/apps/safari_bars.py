"""Safari's controls: the bottom bar, address editing, and the preview over a held link's menu.

Pure layout, like `safari_views.py`. Names follow the iOS 26 dumps. The bottom bar is the view
"CapsuleViewController": on the start page its buttons carry no identifier, so WDA names them
by label ("Back", "More"), and the capsule holds the address field "TabBarItemTitle" (labelled
"Address") and "VoiceSearchButton"; once a page is loaded they are "BackButton",
"PageFormatMenuButton", the address (its value the host after a U+200E left-to-right mark, as
Safari writes it), "ReloadButton" and "MoreMenuButton". iOS 26's compact bar has no Forward or
Tabs button; the simulator keeps "ForwardButton" and "TabOverviewButton" ("Tabs") beside the
capsule (inferred from the bottom-bar layout), so tabs stay one tap away as the suite expects;
held, Tabs shows its menu (`safari.py`), as a phone's does. The capsule is also a handle, as on
every iOS since 15 with the bottom tab bar: a swipe up on it shows the tab overview, a swipe
along it the tab beside (`bar_swipe`).
Its menus are `layout.menu`s; its share sheet is the system's (`share_sheet.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from phoneshell.sim import layout
from phoneshell.sim.apps import Drag
from phoneshell.sim.apps.safari_pages import Page
from phoneshell.sim.apps.safari_tabs import bar_top
from phoneshell.sim.facts import DeviceFacts
from phoneshell.sim.keyboard import keyboard_height
from phoneshell.sim.ui import EditText, Handler, Node, Rect, Screen

PLACEHOLDER = "Search or enter website"
LTR_MARK = "\u200e"
"""What Safari puts before a URL in the address field's value."""
CAPSULE = "CapsuleNavigationBar?isSelected=true&isDistractionControlOverlayUp=false"
"""The bottom bar's capsule (the dumps' name): the address and the buttons beside it in it."""
SWIPE_UP_PT = 30.0
"""How far a finger must go up from the capsule to show the tab overview (inferred: a phone's
capsule follows the finger and shows the overview past a short way, at any speed)."""
SWIPE_ACROSS_PT = 60.0
"""How far a finger must go along the capsule to bring the tab beside it (inferred)."""
BarSwipe = Literal["overview", "next", "previous", "none"]


def address_field(address: EditText, frame: Rect, shown: str | None, on_tap: Handler) -> Node:
    """The address field: what is typed while editing, else the page's address. While it is
    edited and holds text, UIKit's clear button sits at its end (Safari's URL field is a
    UITextField: XCUITest suites tap it as textFields["Address"].buttons["Clear text"]), and
    the field keeps its focus."""
    value = address.shown_value() if address.focused else (
        LTR_MARK + shown if shown else PLACEHOLDER)
    kids: tuple[Node, ...] = ()
    if address.focused and address.text:
        def clear() -> None:
            address.text = ""

        end = Rect(frame.x + frame.width - 34, frame.y + (frame.height - 22) // 2, 22, 22)
        kids = (Node("Button", end, label="Clear text", name="Clear text", traits="Button",
                     on_tap=clear),)
    return Node("TextField", frame, label="Address", name="TabBarItemTitle", value=value,
                placeholder=None if shown else PLACEHOLDER, field=address, on_tap=on_tap,
                children=kids)


@dataclass(frozen=True)
class BarActions:
    """What the bottom bar's controls do."""

    back: Handler
    forward: Handler
    edit: Handler
    tabs: Handler
    tabs_menu: Handler
    """A touch and hold on Tabs: its menu (a phone's is a context menu, not the overview)."""
    more: Handler
    reload: Handler


def _slot(frame: Rect, control: Node) -> Node:
    return layout.wrap(control, 2, frame)


def bottom_bar(f: DeviceFacts, address: EditText, page: Page | None, can_go: tuple[bool, bool],
               act: BarActions) -> Node:
    """The bottom bar: Back, Forward, the address capsule, Tabs and More.

    Args:
        f: screen geometry.
        address: the address field's binding.
        page: the page showing (None: the start page).
        can_go: whether Back and Forward are enabled.
        act: what the controls do.
    """
    loaded = page is not None
    y = bar_top(f) + 16  # the bar hangs from the bottom edge, portrait or landscape
    capsule = Rect(100, y, 200, 48)
    field = Rect(140, y + 14, 120, 21)
    inner: list[Node] = []
    if loaded:
        inner.append(Node("Button", Rect(104, y + 4, 40, 40), name="PageFormatMenuButton",
                          label="Page Menu", traits="Button", on_tap=_nothing, children=(
                              Node("StaticText", Rect(104, y + 4, 0, 0), visible=False),)))
    inner.append(address_field(address, field, page.address if page else None, act.edit))
    if loaded:
        inner.append(_icon_button("refresh", "ReloadButton", "C", Rect(266, y + 13, 19, 22),
                                  act.reload))
    else:
        inner.append(_icon_button("Voice Search", "VoiceSearchButton", "m",
                                  Rect(266, y + 13, 18, 22), _nothing))
    bar_view = Node("Other", capsule, name=CAPSULE, traits="Selected", children=tuple(inner))
    back = Rect(8, y, 44, 48)
    more = Rect(350, y, 44, 48)
    backdrop = Rect(0, bar_top(f), f.width, f.height - bar_top(f))
    full = Rect(0, 0, f.width, f.height)
    return Node("Other", full, name="CapsuleViewController", children=(
        layout.wrap(Node("Other", Rect(0, 0, f.width, 62)), 1),
        Node("Other", backdrop, children=(layout.wrap(Node("Other", backdrop), 6),
                                          layout.wrap(Node("Other", backdrop), 1))),
        _slot(back, layout.button("Back", back, act.back, enabled=can_go[0],
                                  name="BackButton" if loaded else "Back")),
        _slot(Rect(52, y, 44, 48), _icon_button("Forward", "ForwardButton", ">",
                                                  Rect(52, y, 44, 48), act.forward,
                                                  enabled=can_go[1])),
        layout.wrap(bar_view, 3),
        _slot(Rect(304, y, 44, 48), _icon_button("Tabs", "TabOverviewButton", "[ ]",
                                                   Rect(304, y, 44, 48), act.tabs,
                                                   on_hold=act.tabs_menu)),
        _slot(more, _icon_button("More", "MoreMenuButton" if loaded else "More", "...", more,
                                 act.more)),
    ))


def bar_swipe(screen: Screen, drag: Drag) -> BarSwipe | None:
    """What a drag does that starts on the bottom bar's capsule, as Safari's tab bar takes it
    since iOS 15: up shows the tab overview, left brings the next tab (the one after it in the
    overview), right the one before; anything else (shorter, downward) only moves the capsule,
    which springs back ("none"). None: it did not start on a capsule that shows (editing, a
    menu over it, the overview). The drag's way is the phone's (`Drag.heading`: its first move
    past the slop), its travel is along that way. A drag from the screen's bottom edge never
    reaches here (the system takes it: home, or the App Switcher), nor one that pressed a
    button in the capsule (`presses`: it lifted within that button's reach)."""
    capsule = next((n for n in screen.nodes if n.name == CAPSULE and n.visible), None)
    if capsule is None or not capsule.frame.contains(drag.from_x, drag.from_y):
        return None
    way = drag.heading
    if way == "up" and -drag.dy >= SWIPE_UP_PT:
        return "overview"
    if way in ("left", "right") and abs(drag.dx) >= SWIPE_ACROSS_PT:
        return "next" if way == "left" else "previous"
    return "none"


def _nothing() -> None:
    """A control the simulator does not model (voice search, the page menu)."""


def _icon_button(label: str, name: str, drawn: str, frame: Rect, on_tap: Handler, *,
                 enabled: bool = True, on_hold: Handler | None = None) -> Node:
    # Safari's toolbar buttons are icons: the label is for VoiceOver, the pixels show a glyph.
    return Node("Button", frame, label=label, name=name, enabled=enabled,
                traits="Button" if enabled else "NotEnabled, Button", on_tap=on_tap,
                on_hold=on_hold, pixels_text=drawn)


def editing(f: DeviceFacts, address: EditText, cancel: Handler, submit: Handler,
            is_address: bool) -> list[Node]:
    """The address bar above the keyboard, over a sheet of suggestions for what is typed that
    cancels on a tap. With nothing typed there are no suggestions and no sheet: the page
    beneath (the start page's favourites) stays showing and takes its own taps, as on a phone
    (an empty opaque sheet took them while a log named the favourite drawn beneath)."""
    top = f.height - keyboard_height(f) - 56
    typed = address.text.strip()
    kids: list[Node] = []
    if typed:
        hint = "Go to site" if is_address else "Google Search"
        frame = Rect(16, 78, 370, 64)
        kids.append(Node("Cell", frame, label=typed, name=typed, traits="Button",
                         on_tap=submit, children=(layout.wrap(Node("Other", frame, children=(
                             layout.text(typed, Rect(32, 87, 338, 22), accessible=False),
                             layout.text(hint, Rect(32, 111, 338, 18), accessible=False))),
                             1),)))
    sheet = [Node("Other", Rect(0, 62, f.width, top - 62), name="Suggestions",
                  children=tuple(kids), on_tap=cancel, opaque=True)] if kids else []
    bar = Node("Other", Rect(0, top, f.width, 56), name="CapsuleNavigationBar", children=(
        address_field(address, Rect(16, top + 6, 292, 40), None, _keep_editing),
        layout.button("Cancel", Rect(316, top + 6, 74, 40), cancel),
    ))
    return [*sheet, bar]


def _keep_editing() -> None:
    """Tapping the address field while it is being edited only keeps focus there."""


def link_preview(target: Page) -> Node:
    """The preview of a held link's page, above its menu."""
    return Node("Other", Rect(16, 120, 370, 240), name="LinkPreview", opaque=True, children=(
        layout.text(target.title, Rect(32, 140, 338, 26), header=True),
        layout.text(target.address, Rect(32, 172, 338, 20)),
    ))
