"""SpringBoard (com.apple.springboard): home screen, Spotlight, Notification Center, windows;
the power-off screen and Control Center (`system_screens`).

Also shows the App Switcher (`app_switcher.py`) and the App Library (`app_library.py`), the lock
screen (`cover_sheet.py`) and the banner (`springboard_banner.py`), posts notifications
(`notifications.py`) and decides
the windows of every tree (`windows`): SpringBoard's own, a dozen system windows with the status
bar among them, or an app's window with a notification banner over it. Spotlight and Notification
Center are overlays of SpringBoard, so `activeAppInfo` reports com.apple.springboard while they
show, as on a real phone; the root's name and label are a single space, as in the real dumps.

The home screen is the iOS 26.5 dump's: every page is an unnamed `Icon` container with a zero
frame, the page showing holds its icons at their frames, the others' icons have zero frames
and `visible="false"` (real SpringBoard reports them so); below the pages the "spotlight-pill"
(labelled "Search", valued "Page 2 of 2") around the `PageIndicator`, then the Dock. Which apps
have an icon is `installs`' to say; a hold on an icon opens its menu (`home_menu`).

Gestures handled here (`on_drag`): a sideways drag flips home pages (a leftward one on the last
page opens the App Library, a rightward one there closes it); a downward drag from
mid-screen on the home screen opens Spotlight; an upward drag dismisses Notification Center
(back to the app underneath). The phone itself handles the top-edge drag that opens it, and
the swipe up from the bottom edge (`close_from_bottom`: over Control Center or Notification
Center it closes them, back to the app, as the home bar does on a Face ID iPhone).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from phoneshell.sim import layout, windows
from phoneshell.sim.apps import AppModel, Drag, Host, app_library, installs, register, spotlight
from phoneshell.sim.apps.app_switcher import on_switcher_drag, switcher
from phoneshell.sim.apps.calendar_data import BUNDLE_ID as CALENDAR
from phoneshell.sim.apps.cover_sheet import cover_sheet
from phoneshell.sim.apps.home_menu import HomeMenu, home_layers, live_icon
from phoneshell.sim.apps.notifications import Notice, remove
from phoneshell.sim.apps.springboard_banner import banner_gone as banner_gone
from phoneshell.sim.apps.springboard_banner import notify as notify
from phoneshell.sim.apps.springboard_banner import shown_banner
from phoneshell.sim.apps.springboard_banner import swipe_banner as swipe_banner
from phoneshell.sim.apps.system_screens import (
    ControlLayer,
    control_center,
    power_off_screen,
)
from phoneshell.sim.ui import ZERO, EditText, Handler, Node, Rect, Scroll, hidden, showing

BUNDLE_ID = "com.apple.springboard"

# Where a stock iPhone puts Apple's apps; installed apps not listed go on the last page.
HOME_PAGES = (
    ("com.apple.facetime", "com.apple.mobilecal", "com.apple.mobileslideshow",
     "com.apple.camera", "com.apple.mobilemail", "com.apple.mobiletimer", "com.apple.Maps",
     "com.apple.weather", "com.apple.reminders", "com.apple.mobilenotes", "com.apple.stocks",
     "com.apple.iBooks", "com.apple.AppStore", "com.apple.podcasts", "com.apple.tv",
     "com.apple.Health", "com.apple.Home", "com.apple.Passbook", "com.apple.Preferences"),
    ("com.apple.Fitness", "com.apple.Bridge", "com.apple.MobileAddressBook",
     "com.apple.DocumentsApp", "com.apple.Preview", "com.apple.calculator", "com.apple.compass",
     "com.apple.measure", "com.apple.shortcuts", "com.apple.findmy", "com.apple.Translate",
     "com.apple.VoiceMemos", "com.apple.tips"),
)
DOCK = ("com.apple.mobilephone", "com.apple.mobilesafari", "com.apple.MobileSMS",
        "com.apple.Music")
ICONS_PER_PAGE = 24
ICON_COLUMNS = (28, 120, 213, 306)
PILL = Rect(162, 703, 78, 31)

Overlay = Literal["home", "spotlight", "notifications", "power_off", "control", "switcher",
                  "library"]


@dataclass
class SpringBoardState:
    """What SpringBoard shows: the home page, or an overlay over it; and the banner."""

    overlay: Overlay = "home"
    shown: int = 0
    """The overlay's showing (`ui.showing`): one pulled down or opened again is new views."""
    pages: Scroll = field(default_factory=lambda: Scroll(horizontal=True))
    query: EditText = field(default_factory=lambda: EditText("Search", return_key="go"))
    behind: str | None = None
    """The app Notification Center was pulled over (an upward drag returns to it)."""
    banner: Notice | None = None
    """The notification whose banner is up (until it times out, is tapped, swiped away, or
    moves to Notification Center)."""
    banner_until: float = 0.0
    """When the banner goes by itself, in real time (`time.monotonic`)."""
    menu: HomeMenu = field(default_factory=HomeMenu)
    """An icon's menu, share sheet or alert over the home screen, and edit mode (`home_menu`)."""
    control: ControlLayer = field(default_factory=ControlLayer)
    """What shows over Control Center's first page (its connectivity module expanded...)."""
    switcher_offset: int = 0
    """How far the App Switcher's cards are moved right (older ones brought in: `app_switcher`)."""
    library: app_library.Library = field(default_factory=app_library.Library)
    """What the App Library shows (`app_library`)."""


def show_home(state: SpringBoardState) -> None:
    """The home button on SpringBoard: close an overlay (or an icon's menu, alert, edit mode),
    or on the home screen go to page 1."""
    if state.overlay == "home" and not state.menu.busy:
        state.pages.offset = 0
    close_overlays(state)


def close_overlays(state: SpringBoardState) -> None:
    """Close Spotlight or Notification Center (and an icon's menu, edit mode), keeping the home
    page that was showing."""
    state.overlay, state.behind = "home", None
    state.query.text = ""
    state.menu.close()


def open_power_off(state: SpringBoardState, behind: str | None) -> None:
    """Show the power-off screen over the app `behind` (Cancel goes back to it)."""
    state.overlay, state.behind, state.banner = "power_off", behind, None
    state.shown = showing()


def open_control_center(state: SpringBoardState, behind: str | None) -> None:
    """Pull Control Center down over the home screen or over the app `behind`."""
    state.overlay, state.behind, state.banner = "control", behind, None
    state.shown, state.control = showing(), ControlLayer()


def _backer(state: SpringBoardState, host: Host) -> Handler:
    """Close the overlay, back to the app it was opened over."""
    def back() -> None:
        behind = state.behind
        close_overlays(state)
        if behind is not None:
            host.launch(behind)
    return back


def close_from_bottom(state: SpringBoardState | None, host: Host) -> bool:
    """A swipe up from the bottom edge: over Control Center or Notification Center it closes
    them, back to the app they were pulled over on its page (home when none), as on a Face ID
    iPhone, where home would leave the app; False over anything else (the swipe goes home). A
    swipe up mid-screen pages through Control Center's pages on iOS 18+: it closes nothing."""
    if state is None or state.overlay not in ("control", "notifications"):
        return False
    _backer(state, host)()
    return True


def open_notification_centre(state: SpringBoardState, behind: str | None) -> None:
    """Pull Notification Center down over the home screen or over the app `behind`."""
    state.overlay, state.behind, state.banner = "notifications", behind, None
    state.shown = showing()


def open_spotlight(state: SpringBoardState, host: Host) -> None:
    """Show Spotlight with its search field focused and the keyboard up."""
    state.overlay, state.query.text, state.shown = "spotlight", "", showing()

    state.query.on_submit = lambda: spotlight.open_top_hit(host, state.query.text)
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


def _icon(app: AppModel[Any], frame: Rect, host: Host, shown: bool, dock: bool = False) -> Node:
    launch = _launcher(host, app)
    # Calendar's icon draws today's date, and the phone reports it as the icon's value
    # (the iOS 26.5 dump: value="Saturday, September 12"), on or off the page showing.
    value = host.facts.date_text if app.bundle_id == CALENDAR else None
    if not shown:
        return Node("Icon", ZERO, label=app.name, name=app.name, value=value, visible=False,
                    accessible=False, traits="", on_tap=launch)
    x, y = frame.x + 2, frame.y + 2
    art = Rect(x, y, frame.width - 4, 64)
    if dock:
        kids: tuple[Node, ...] = (layout.wrap(Node("Other", art, visible=False), 3,
                                              visible=False),)
    else:
        label = Rect(frame.x + 2, frame.y + 69, frame.width - 4, 20)
        # The name under the icon is drawn, not an element: its views are hidden.
        name_view = hidden(Node("Other", label, name="label-view", children=(
            Node("Other", label, children=(
                layout.image(None, Rect(label.x - 17, label.y - 19, label.width + 34, 57)),
                layout.image(None, label))),)))
        kids = (Node("Other", Rect(x, y, art.width, 78), children=(
            layout.wrap(Node("Other", art), 2), name_view)),)
    return Node("Icon", frame, label=app.name, name=app.name, value=value, on_tap=launch,
                children=kids)


def _pill(state: SpringBoardState, host: Host, page: str) -> Node:
    """The "Search" pill under the icons: the page indicator, and Spotlight's way in."""
    inner = Node("Other", PILL, children=(
        layout.image("magnifyingglass", Rect(173, 713, 12, 11), label="Search"),
        layout.text("Search", Rect(188, 711, 41, 15), accessible=False)))
    return Node("Other", PILL, name="spotlight-pill", label="Search", value=page,
                traits="Adjustable", accessible=True, on_tap=lambda: open_spotlight(state, host),
                children=(
                    Node("PageIndicator", Rect(PILL.x, PILL.y, PILL.width, 36),
                         name="Page control", value=page, traits="Adjustable"),
                    Node("Other", PILL, name="spotlight-pill", children=(inner,))))


def _layers(full: Rect) -> tuple[Node, ...]:
    """The empty widget, folder and drag layers SpringBoard keeps over its icons."""
    return tuple(Node("Other", full, children=(
        layout.wrap(Node("Other", full, children=(layout.wrap(Node("Other", full), 1),)), 1),
        layout.wrap(Node("Other", full), 1))) for _ in range(3))


def _home(state: SpringBoardState, host: Host) -> Node:
    f = host.facts
    full = Rect(0, 0, f.width, f.height)
    pages, dock = home_layout(installs.on_home(host))
    state.pages.clamp((len(pages) - 1) * f.width, page=f.width)
    current = state.pages.offset // f.width
    page_nodes = []
    for p, apps in enumerate(pages):
        icons = tuple(live_icon(_icon(app, Rect(ICON_COLUMNS[i % 4], 88 + 100 * (i // 4), 69, 91),
                                      host, p == current), app, state.menu, host)
                      for i, app in enumerate(apps))
        page_nodes.append(Node("Icon", ZERO, children=icons, visible=p == current,
                               accessible=False, traits="", key=f"page{p}"))
    dock_icons = tuple(live_icon(_icon(app, Rect(ICON_COLUMNS[i], 771, 68, 69), host, True,
                                       dock=True), app, state.menu, host)
                       for i, app in enumerate(dock))
    dock_view = Node("Other", Rect(0, 753, f.width, 104), name="Dock", label="Dock",
                     children=(Node("Other", Rect(0, 753, f.width, 104)), *dock_icons))
    icons_view = Node("Other", full, children=(
        Node("Other", Rect(f.width, 0, f.width, f.height), visible=False),
        *page_nodes, _pill(state, host, f"Page {current + 1} of {len(pages)}"),
        Node("Other", Rect(0, 753, f.width, 121), children=(
            Node("Other", Rect(17, 753, 368, 104), children=(dock_view,)),))))
    return Node("Other", full, key="home", children=(
        layout.wrap(Node("Other", Rect(0, 0, f.width, 100), visible=False), 1, visible=False),
        Node("Other", full, name="Home screen icons", children=(
            layout.wrap(icons_view, 1), *_layers(full))),
        Node("Other", full), *home_layers(state.menu, host)))


def _spotlight(state: SpringBoardState, host: Host) -> Node:
    f = host.facts

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
    else:
        kids += spotlight.results(host, state.query)
    return layout.wrap(Node("Other", Rect(0, 0, f.width, f.height), children=tuple(kids),
                            key="spotlight"), 3)


def _launcher(host: Host, app: AppModel[Any]) -> Handler:
    return lambda: host.launch(app.bundle_id)


def _cover_sheet(state: SpringBoardState, host: Host, locked: bool) -> Node:
    """The cover sheet (SBCoverSheetWindow): the lock screen, or Notification Center."""
    return cover_sheet(host, locked, _opener(state, host))


def _opener(state: SpringBoardState, host: Host) -> Callable[[Notice], Handler]:
    def opener(notice: Notice) -> Handler:
        def open_it() -> None:
            remove(host, notice)
            close_overlays(state)
            installs.open_app(host, notice.app)
        return open_it
    return opener


def render(state: SpringBoardState, host: Host) -> Node:
    """The home screen, or the overlay that is showing (keyed by its showing)."""
    overlay = {"spotlight": lambda: _spotlight(state, host),
               "notifications": lambda: _cover_sheet(state, host, locked=False),
               "power_off": lambda: power_off_screen(host, _backer(state, host)),
               "control": lambda: control_center(host, _backer(state, host), state.control),
               "switcher": lambda: switcher(state, host),
               "library": lambda: app_library.library(state, host),
               }.get(state.overlay)
    if overlay is None:
        return _home(state, host)
    shown = overlay()
    return replace(shown, key=f"{shown.key or state.overlay}@{state.shown}")


def windows_of(state: SpringBoardState, host: Host, body: Node | None, keyboard: Node | None,
               *, front: str) -> tuple[Node, ...]:
    """Every window of the tree in front: `body` (None: the phone is locked) in its window,
    the keyboard's, SpringBoard's system windows when it is in front, and a banner if one is
    up. Only SpringBoard's tree has the status bar, as in the dumps."""
    f = host.facts
    if front != BUNDLE_ID:
        return windows.app_windows(f, body, keyboard, shown_banner(state, host)) if body else ()
    full = Rect(0, 0, f.width, f.height)
    names = {a.bundle_id: a.name for a in host.apps()}
    recent = [(b, names[b]) for b in host.running if b != BUNDLE_ID and b in names]
    shown = body if state.overlay == "switcher" else None
    system = [*windows.island_windows(f), windows.switcher_window(f, recent, shown),
              *windows.hidden_windows(f, 4)]
    tail = windows.hidden_windows(f, 3)
    if body is None or state.overlay == "notifications":
        cover = _cover_sheet(state, host, locked=True) if body is None else body
        return (*system, Node("Window", full, name="SBCoverSheetWindow", children=(cover,)),
                Node("Window", full, visible=False, children=(
                    windows.status_bar(f, clock=False, visible=False),)), *tail)
    if state.overlay == "switcher":  # its window shows, over no other, the status bar hidden
        return (*system, Node("Window", full, visible=False, children=(
            windows.status_bar(f, visible=False),)), *tail)
    own = windows.app_windows(f, body, keyboard)
    return (*own, *system, Node("Window", full, children=(windows.status_bar(f),)),
            *shown_banner(state, host), *tail)


def on_drag(state: SpringBoardState, host: Host, drag: Drag) -> bool:
    """Flip pages sideways (past the last one: the App Library), Spotlight from a downward drag
    on the home screen, dismiss Notification Center upwards; the App Switcher's and the App
    Library's drags."""
    if state.overlay == "switcher":
        return on_switcher_drag(state, host, drag)
    if state.overlay == "library":
        if not drag.vertical and drag.dx > 60:
            close_overlays(state)  # back to the last home page
        return not drag.vertical
    if state.overlay == "notifications" and drag.vertical and drag.dy < -60:
        behind = state.behind
        show_home(state)
        if behind is not None:
            host.launch(behind)
        return True
    if state.overlay == "home" and state.menu.prompt is not None:
        return True  # a drag across an icon's menu or alert moves nothing
    if state.overlay == "home" and drag.vertical and drag.dy > 60 and not state.menu.editing:
        open_spotlight(state, host)
        return True
    if state.overlay == "home" and not drag.vertical and abs(drag.dx) > 60:
        # The pages follow the finger and settle on the nearest whole page; the screen as
        # drawn knows how many pages there are.
        host.screen()
        if drag.dx < 0 and state.pages.offset >= state.pages.limit:
            app_library.open_library(state)
            return True
        state.pages.scroll_by(-drag.dx)
        return True
    return False


APP = register(AppModel(BUNDLE_ID, " ", SpringBoardState, render, on_drag=on_drag,
                        home_icon=False))
