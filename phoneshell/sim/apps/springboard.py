"""SpringBoard (com.apple.springboard): home screen pages and dock, Spotlight, Notification Centre.

Also draws the lock screen. Spotlight and Notification Centre are overlays of SpringBoard, so
`activeAppInfo` reports com.apple.springboard while they show, as on a real phone; the root's
name and label are a single space, as in the real dumps. Icons on pages that are not showing
have zero frames and `visible="false"` (real SpringBoard does the same).

Gestures handled here (`on_drag`): a downward drag from mid-screen on the home screen opens
Spotlight; an upward drag dismisses Notification Centre (back to the app underneath). The phone
itself handles the top-edge drag that opens Notification Centre from anywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from phoneshell.sim import layout
from phoneshell.sim.apps import AppModel, Drag, Host, register
from phoneshell.sim.facts import DeviceFacts
from phoneshell.sim.ui import ZERO, EditText, Handler, Node, Rect, Scroll

BUNDLE_ID = "com.apple.springboard"

# Where a stock iPhone puts Apple's apps; installed apps not listed go on the last page.
HOME_PAGES = (
    ("com.apple.mobilecal", "com.apple.mobileslideshow", "com.apple.camera",
     "com.apple.mobilemail", "com.apple.mobiletimer", "com.apple.Maps", "com.apple.weather",
     "com.apple.reminders", "com.apple.mobilenotes", "com.apple.stocks", "com.apple.iBooks",
     "com.apple.AppStore", "com.apple.Health", "com.apple.Home", "com.apple.Passbook",
     "com.apple.Preferences"),
    ("com.apple.calculator", "com.apple.compass", "com.apple.measure",
     "com.apple.MobileAddressBook", "com.apple.DocumentsApp", "com.apple.shortcuts"),
)
DOCK = ("com.apple.mobilephone", "com.apple.mobilesafari", "com.apple.MobileSMS",
        "com.apple.Music")
ICONS_PER_PAGE = 24
ICON_COLUMNS = (28, 120, 213, 306)

Overlay = Literal["home", "spotlight", "notifications"]


@dataclass
class SpringBoardState:
    """What SpringBoard shows: the home page, or an overlay over it."""

    overlay: Overlay = "home"
    pages: Scroll = field(default_factory=lambda: Scroll(horizontal=True))
    query: EditText = field(default_factory=lambda: EditText("Search", return_key="go"))
    behind: str | None = None
    """The app Notification Centre was pulled over (an upward drag returns to it)."""


def show_home(state: SpringBoardState) -> None:
    """The home button on SpringBoard: close an overlay, or on the home screen go to page 1."""
    if state.overlay == "home":
        state.pages.offset = 0
    close_overlays(state)


def close_overlays(state: SpringBoardState) -> None:
    """Close Spotlight or Notification Centre, keeping the home page that was showing."""
    state.overlay, state.behind = "home", None
    state.query.text = ""


def open_notification_centre(state: SpringBoardState, behind: str | None) -> None:
    """Pull Notification Centre down over the home screen or over the app `behind`."""
    state.overlay, state.behind = "notifications", behind


def open_spotlight(state: SpringBoardState, host: Host) -> None:
    """Show Spotlight with its search field focused and the keyboard up."""
    state.overlay, state.query.text = "spotlight", ""

    def open_top_hit() -> None:
        found = matches(host.apps(), state.query.text)
        if found:
            host.launch(found[0].bundle_id)

    state.query.on_submit = open_top_hit
    host.focus(state.query)


def home_layout(apps: Sequence[AppModel[Any]]) -> tuple[list[list[AppModel[Any]]],
                                                          list[AppModel[Any]]]:
    """Pages of home-screen apps and the dock, for the apps installed."""
    by_id = {a.bundle_id: a for a in apps if a.home_icon}
    dock = [by_id.pop(b) for b in DOCK if b in by_id]
    pages = [[by_id.pop(b) for b in page if b in by_id] for page in HOME_PAGES]
    rest = list(by_id.values())
    while rest:
        if not pages or len(pages[-1]) >= ICONS_PER_PAGE:
            pages.append([])
        room = ICONS_PER_PAGE - len(pages[-1])
        pages[-1].extend(rest[:room])
        rest = rest[room:]
    return [p for p in pages if p] or [[]], dock


def _icon(app: AppModel[Any], frame: Rect, host: Host, shown: bool) -> Node:
    return Node("Icon", frame if shown else ZERO, label=app.name, name=app.name,
                visible=shown, accessible=shown, on_tap=lambda: host.launch(app.bundle_id))


def _home(state: SpringBoardState, host: Host) -> Node:
    f = host.facts
    pages, dock = home_layout(host.apps())
    state.pages.clamp((len(pages) - 1) * f.width, page=f.width)
    current = state.pages.offset // f.width
    page_nodes = []
    for p, apps in enumerate(pages):
        icons = tuple(_icon(app, Rect(ICON_COLUMNS[i % 4], 88 + 100 * (i // 4), 69, 91), host,
                                p == current) for i, app in enumerate(apps))
        page_nodes.append(Node("Other", Rect(0, 0, f.width, f.height), children=icons,
                               visible=p == current, key=f"page{p}"))
    search_pill = Node(
        "PageIndicator", Rect(162, 703, 78, 36), name="Page control",
        value=f"Page {current + 1} of {len(pages)}", traits="Adjustable",
        on_tap=lambda: open_spotlight(state, host),
        children=(layout.image("magnifyingglass", Rect(173, 713, 12, 11), label="Search"),
                  layout.text("Search", Rect(188, 711, 41, 15))))
    dock_icons = tuple(_icon(app, Rect(ICON_COLUMNS[i], 771, 68, 69), host, True)
                       for i, app in enumerate(dock))
    return layout.screen(f, [
        Node("ScrollView", Rect(0, 0, f.width, 700), children=tuple(page_nodes),
             scroll=state.pages, key="home-pages"),
        search_pill,
        Node("Other", Rect(12, 759, f.width - 24, 93), name="Dock", children=dock_icons),
    ], key="home")


def matches(apps: Sequence[AppModel[Any]], query: str) -> list[AppModel[Any]]:
    """Apps Spotlight lists for a query: the name or one of its words starts with it."""
    q = query.strip().lower()
    return [a for a in apps if a.home_icon and q and (
        a.name.lower().startswith(q) or any(w.startswith(q) for w in a.name.lower().split()))]


def _spotlight(state: SpringBoardState, host: Host) -> Node:
    f = host.facts
    found = matches(host.apps(), state.query.text)

    def cancel() -> None:
        host.focus(None)
        show_home(state)

    kids = [layout.search_field(state.query, Rect(16, 62, 296, 36)),
            layout.button("Cancel", Rect(322, 62, 64, 36), cancel)]
    if not state.query.text:
        kids.append(layout.text("Siri Suggestions", Rect(20, 120, 140, 20), header=True))
        suggested = [a for a in host.apps() if a.home_icon][:4]
        kids += [_icon(a, Rect(ICON_COLUMNS[i], 150, 69, 91), host, True)
                 for i, a in enumerate(suggested)]
    elif found:
        kids.append(layout.text("Applications", Rect(20, 120, 120, 20), header=True))
        for i, app in enumerate(found[:6]):
            row = layout.Row(app.name, subtitle="Application", on_tap=_launcher(host, app))
            kids.append(layout.cell(row, Rect(16, 150 + 60 * i, 370, 60)))
    else:
        kids.append(layout.text("No Results", Rect(150, 200, 102, 22)))
    return layout.screen(f, kids, key="spotlight")


def _launcher(host: Host, app: AppModel[Any]) -> Handler:
    return lambda: host.launch(app.bundle_id)


def _centred(f: DeviceFacts, text: str, y: int, height: int) -> Node:
    width = layout.text_width(text, round(height * 0.8))
    return layout.text(text, Rect((f.width - width) // 2, y, width, height))


def _clock(f: DeviceFacts) -> list[Node]:
    return [_centred(f, f.date, 78, 24), _centred(f, f.time, 100, 96)]


def _notifications(state: SpringBoardState, host: Host) -> Node:
    f = host.facts
    return layout.screen(f, [
        *_clock(f),
        layout.text("Notification Centre", Rect(20, 520, 200, 24), header=True),
        _centred(f, "No Older Notifications", 560, 20),
    ], key="notifications")


def lock_screen(f: DeviceFacts) -> Node:
    """The lock screen body: clock, date, and the two quick-action buttons."""
    return layout.screen(f, [
        layout.image("lock.fill", Rect(190, 60, 22, 28), label="Locked"),
        *_clock(f),
        layout.button("Flashlight", Rect(46, 760, 50, 50), None),
        layout.button("Camera", Rect(306, 760, 50, 50), None),
    ], key="lock")


def render(state: SpringBoardState, host: Host) -> Node:
    """The home screen, or the overlay that is showing."""
    if state.overlay == "spotlight":
        return _spotlight(state, host)
    if state.overlay == "notifications":
        return _notifications(state, host)
    return _home(state, host)


def on_drag(state: SpringBoardState, host: Host, drag: Drag) -> bool:
    """Spotlight from a downward drag on the home screen; dismiss Notification Centre upwards."""
    if state.overlay == "notifications" and drag.vertical and drag.dy < -60:
        behind = state.behind
        show_home(state)
        if behind is not None:
            host.launch(behind)
        return True
    if state.overlay == "home" and drag.vertical and drag.dy > 60:
        open_spotlight(state, host)
        return True
    return False


APP = register(AppModel(BUNDLE_ID, " ", SpringBoardState, render, on_drag=on_drag,
                        home_icon=False))
