"""Safari (com.apple.mobilesafari): the address bar, web pages, back and forward, tabs, link menus.

Tapping the address field ("TabBarItemTitle", labelled "Address") starts editing: the field
moves above the keyboard holding the page's address, all selected (typing replaces it,
Backspace deletes it), or empty on a blank tab, with Cancel. Return (the "go" key) does what
`address_bar.sent` says, the rule the checks grade by: loads an address, searches Google for
the words, or shows that Safari cannot open it.
`POST /url` (the `on_url` hook) opens http(s) URLs: in the blank tab if one is in front, else in
a new tab. Holding a link shows its preview and menu (Open in New Tab, Add to Reading List, Copy
Link, Share…); a tap elsewhere dismisses it. More offers Reload, New Tab, Add to Reading List
and Share…; Tabs opens the overview (New Tab, Private, the tab count, Done), and a touch and hold
on it shows its menu instead (New Tab, New Private Tab, Close This Tab, Close All N Tabs). A
swipe up on the bar's address capsule opens the overview too, and one along it brings the next
or previous tab (`on_drag`).

This module owns the state and the behaviour; pages are data (`safari_pages.py`), tabs and their
history live in Safari's store (`safari_tabs.py`), and the layout is in `safari_views.py`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from phoneshell.address_bar import sent
from phoneshell.sim import layout
from phoneshell.sim.apps import AppModel, Drag, Host, register
from phoneshell.sim.apps.safari_bars import (
    PLACEHOLDER,
    BarActions,
    bar_swipe,
    bottom_bar,
    editing,
    link_preview,
)
from phoneshell.sim.apps.safari_pages import Page, cannot_open, load, search_url
from phoneshell.sim.apps.safari_tabs import (
    OverviewActions,
    Tab,
    Window,
    bar_top,
    load_window,
    overview,
    reveal,
    save_window,
)
from phoneshell.sim.apps.safari_views import safari_window, start_page, web_view
from phoneshell.sim.facts import DeviceFacts
from phoneshell.sim.share_sheet import share_sheet
from phoneshell.sim.ui import EditText, Handler, Node, Rect, Scroll

BUNDLE_ID = "com.apple.mobilesafari"
PASTEBOARD = "com.apple.pasteboard"
"""The system pasteboard: a store every app shares (Copy Link here, Copy and Paste in Notes)."""
Menu = Literal["link", "more", "share", "tabs"]


@dataclass
class SafariState:
    """What Safari shows besides the tabs themselves (those are in the store)."""

    address: EditText = field(default_factory=lambda: EditText(PLACEHOLDER, return_key="go",
                                                               keyboard="webSearch"))
    view: Literal["page", "tabs"] = "page"
    menu: Menu | None = None
    held: str = ""
    """The URL of the link whose menu (or share sheet) is showing."""
    scroll: Scroll = field(default_factory=Scroll)
    grid: Scroll = field(default_factory=Scroll)
    private: bool = False
    private_window: Window = field(default_factory=lambda: Window([]))
    """Private tabs: never written to the store, gone on terminate."""


def _window(state: SafariState, host: Host) -> Window:
    return state.private_window if state.private else load_window(host.store(BUNDLE_ID))


def _change(state: SafariState, host: Host, edit: Callable[[Window], object]) -> None:
    """Apply `edit` to the tabs showing and keep the result (normal tabs go to the store)."""
    window = _window(state, host)
    if not window.tabs:
        window.open()
    edit(window)
    if not state.private:
        save_window(host.store(BUNDLE_ID), window)
    state.scroll.offset = 0


def go(state: SafariState, host: Host, typed: str) -> None:
    """Do what Safari does with the text sent from the address bar (`address_bar.sent`)."""
    does = sent(typed)
    state.address.text = ""
    if does.does == "nothing":
        return
    if does.does == "load":
        page = load(does.url)
    elif does.does == "search":
        page = load(search_url(does.words))
    else:
        page = cannot_open(does.url)
    state.menu, state.view = None, "page"
    _change(state, host, lambda w: w.current.visit(page))


def on_url(state: SafariState, host: Host, url: str) -> None:
    """Open a URL from outside (`POST /url`): in the blank tab in front, else in a new tab."""
    host.focus(None)
    state.menu, state.view, state.address.text = None, "page", ""
    page = load(url)

    def show(window: Window) -> None:
        if window.current.url:
            window.open(page)
        else:
            window.current.visit(page)

    _change(state, host, show)


def _show_overview(state: SafariState, host: Host) -> None:
    """Show the tab overview, opened on the tab in front (as Tabs and the bar's swipe up do)."""
    state.view, state.menu = "tabs", None
    reveal(host.facts, _window(state, host), state.grid)


def on_drag(state: SafariState, host: Host, drag: Drag) -> bool:
    """A drag that starts on the bottom bar's capsule (`bar_swipe`): up shows the tab
    overview, along it brings the next or previous tab, and anything else only moves the
    capsule. False for a drag that starts elsewhere."""
    does = bar_swipe(host.screen(), drag)
    if does == "overview":
        _show_overview(state, host)
    elif does in ("next", "previous"):
        _change(state, host, lambda w: w.step(1 if does == "next" else -1))
    return does is not None


def _overlay(f: DeviceFacts, state: SafariState, host: Host) -> Node | None:
    """The menu or sheet showing, if any (a tap outside it dismisses it)."""
    url = state.held
    target = load(url) if url else None

    def dismiss() -> None:
        state.menu = None

    def act(do: Callable[[], object]) -> Handler:
        def run() -> None:
            do()
            state.menu = None
        return run

    def add_to_reading_list() -> None:
        page = target if target is not None else _current_page(state, host)
        if page is not None:
            host.store(BUNDLE_ID).records("reading_list").append(
                {"url": page.url, "title": page.title})

    def copy_link() -> None:
        host.store(PASTEBOARD).put("text", url)

    def share() -> None:
        page = target if target is not None else _current_page(state, host)
        state.menu, state.held = ("share", page.url) if page is not None else (None, "")

    if state.menu == "share" and target is not None:
        bookmark = act(lambda: host.store(BUNDLE_ID).records("bookmarks").append(
            {"url": target.url, "title": target.title}))
        return share_sheet(f, target.title, target.address, {
            "Copy": act(copy_link), "Add to Reading List": act(add_to_reading_list),
            "Add to Bookmarks": bookmark}, dismiss)
    if state.menu == "link" and target is not None:
        return layout.menu(f, "ContextMenu", [
            ("Open in New Tab", act(lambda: _change(state, host, lambda w: w.open(target)))),
            ("Add to Reading List", act(add_to_reading_list)),
            ("Copy Link", act(copy_link)), ("Share\u2026", share),
        ], 376, 16, dismiss, above=[link_preview(target)])
    if state.menu == "tabs":
        return _tabs_menu(f, state, host, act, dismiss)
    if state.menu == "more":
        return layout.menu(f, "MoreMenu", [
            ("Reload", act(lambda: setattr(state.scroll, "offset", 0))),
            ("New Tab", act(lambda: _change(state, host, lambda w: w.open()))),
            ("Add to Reading List", act(add_to_reading_list)), ("Share\u2026", share),
        ], bar_top(f) - 184, 136, dismiss)
    return None


def _tabs_menu(f: DeviceFacts, state: SafariState, host: Host,
               act: Callable[[Callable[[], object]], Handler], dismiss: Handler) -> Node:
    """The menu a touch and hold on Tabs shows, over the bar beside it: a new tab or private
    tab, and closing the tab in front or every tab of the group showing (the items are
    inferred: no phone dump of this menu yet; tab groups are left out)."""
    count = len(_window(state, host).tabs)

    def new_tab(private: bool) -> None:
        state.private = private
        empty = not _window(state, host).tabs  # no private tab yet: `_change` opens the first
        _change(state, host, lambda w: None if empty else w.open())

    def close_all(window: Window) -> None:
        # as closing the last tab does: a blank tab, or the empty private overview
        window.tabs[:], window.active = [] if state.private else [Tab()], 0

    return layout.menu(f, "TabsMenu", [
        ("New Tab", act(lambda: new_tab(False))),
        ("New Private Tab", act(lambda: new_tab(True))),
        ("Close This Tab", act(lambda: _change(state, host, lambda w: w.close(w.active)))),
        (f"Close All {count} Tab{'s' if count != 1 else ''}",
         act(lambda: _change(state, host, close_all))),
    ], bar_top(f) - 4 * 44 - 8, f.width - 262, dismiss)


def _current_page(state: SafariState, host: Host) -> Page | None:
    window = _window(state, host)
    url = window.current.url if window.tabs else ""
    return load(url) if url else None


def render(state: SafariState, host: Host) -> Node:
    """The tab overview, or the tab in front with its bottom bar, menus and address editing."""
    f = host.facts
    window = _window(state, host)
    if state.view == "tabs" or not window.tabs:
        normal = len(load_window(host.store(BUNDLE_ID)).tabs)
        return overview(f, window, state.private, normal, state.grid,
                        _overview_actions(state, host))
    # Return's handler needs the host, which only render has; binding it here is idempotent.
    state.address.on_submit = lambda: go(state, host, state.address.text)

    def cancel() -> None:
        state.address.text = ""
        host.focus(None)

    def open_link(url: str) -> Handler:
        def follow() -> None:
            # A favourite tapped while the address is being edited ends the editing, as a
            # link followed does on a phone.
            cancel()
            _change(state, host, lambda w: w.current.visit(load(url)))
        return follow

    def hold_link(url: str) -> Handler:
        def show_menu() -> None:
            state.menu, state.held = "link", url
        return show_menu

    def begin_edit() -> None:
        # iOS shows the page's address in the field, all selected, so typing replaces it.
        state.menu, state.address.text = None, window.current.url or ""
        state.address.select_all()

    def submit() -> None:
        typed = state.address.text
        host.focus(None)
        go(state, host, typed)

    def show_more() -> None:
        state.menu, state.held = "more", ""

    def show_tabs_menu() -> None:
        state.menu, state.held = "tabs", ""

    tab = window.current
    page = load(tab.url) if tab.url else None
    # the tab document names WebKit's process, launched with Safari's: a new one each launch
    pid = getattr(host.running.get(BUNDLE_ID), "pid", None)
    if page is not None:
        content = [web_view(f, page, state.scroll, open_link, hold_link, app_pid=pid)]
    else:
        store = host.store(BUNDLE_ID)
        card = None if store.flag("start_card_closed", False) else (
            lambda: store.put("start_card_closed", True))
        content = start_page(f, open_link, card, app_pid=pid)
    bar: Node | None = None
    overlay = None
    if state.address.focused:
        loads = sent(state.address.text).does == "load"
        content += editing(f, state.address, cancel, submit, loads)
    else:
        actions = BarActions(
            back=lambda: _change(state, host, lambda w: w.current.go_back()),
            forward=lambda: _change(state, host, lambda w: w.current.go_forward()),
            edit=begin_edit, tabs=lambda: _show_overview(state, host),
            tabs_menu=show_tabs_menu, more=show_more,
            reload=lambda: setattr(state.scroll, "offset", 0))
        bar = bottom_bar(f, state.address, page, (bool(tab.back), bool(tab.forward)), actions)
        overlay = _overlay(f, state, host)
    shown = safari_window(f, content, bar, secure=page.secure if page else False)
    full = Rect(0, 0, f.width, f.height)
    return Node("Other", full, key="safari", children=(shown, *(() if overlay is None
                                                                 else (overlay,))))


def _overview_actions(state: SafariState, host: Host) -> OverviewActions:
    def select(index: int) -> Handler:
        def pick() -> None:
            _change(state, host, lambda w: setattr(w, "active", index))
            state.view = "page"
        return pick

    def close(index: int) -> Handler:
        return lambda: _change(state, host, lambda w: w.close(index))

    def new_tab() -> None:
        _change(state, host, lambda w: w.open())
        state.view = "page"

    def done() -> None:
        if state.private and not state.private_window.tabs:
            state.private = False
        state.view = "page"

    def show_private(private: bool) -> Handler:
        def switch() -> None:
            state.private = private
            state.grid.offset = 0
        return switch

    return OverviewActions(select, close, new_tab, done, show_private)


APP = register(AppModel(BUNDLE_ID, "Safari", SafariState, render, on_url=on_url,
                        on_drag=on_drag, url_schemes=("http", "https"), rotates=True))
