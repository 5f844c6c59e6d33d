"""Settings (com.apple.Preferences): data-driven pages, navigation, search, switches, sliders,
options.

Pages are data in `settings_pages.py`; this module turns a page into a navigation bar and a
scrollable list, and holds the behaviour: push a page when a link row is tapped, pop it with the
back button (or the left-edge swipe, which presses it), toggle switches, move sliders and choose
options (their values live in Settings' persistent store, so a switched-off Wi-Fi stays off
after a terminate), and filter the root list by the search field in its bottom toolbar (iOS 26;
it rises above the keyboard while typing): typing "wifi" lists the Wi-Fi page (the pages found
are `settings_search`'s), and tapping a result opens it with its parents underneath, so back
leads up the hierarchy. The root is the iOS 26.2 dump's collection list (`lists.grouped`), the
other pages tables (`lists.table`).
iPhone Storage lists the apps, each with a page that offloads or deletes it
(`settings_storage.py`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields

from phoneshell.sim import layout, lists
from phoneshell.sim.apps import AppModel, Host, register
from phoneshell.sim.apps import settings_storage as storage
from phoneshell.sim.apps.settings_pages import (
    APP_STORE_PAGE,
    APPS,
    CHOICE_DEFAULTS,
    PAGES,
    SLIDER_DEFAULTS,
    SWITCH_DEFAULTS,
    PageRow,
    PageSection,
)
from phoneshell.sim.apps.settings_rows import STUB
from phoneshell.sim.apps.settings_search import ROOT as ROOT  # re-exported: spotlight.py
from phoneshell.sim.apps.settings_search import search
from phoneshell.sim.back_menu import BackMenu
from phoneshell.sim.facts import HOUR_24_KEY, DeviceFacts
from phoneshell.sim.keyboard import KEYBOARD_HEIGHT
from phoneshell.sim.store import Store
from phoneshell.sim.ui import EditText, Handler, Node, Rect, Scroll, showing

BUNDLE_ID = "com.apple.Preferences"
TOOLBAR_TOP = 788
"""Where the root's bottom toolbar (the search field) begins, as in the iOS 26.2 dump."""


@dataclass
class SettingsState:
    """The navigation stack (page id and title per level), a scroll per level, the query, and
    the action sheet asking to confirm offloading or deleting an app."""

    stack: list[tuple[str, str]] = field(default_factory=lambda: [(ROOT, "Settings")])
    scrolls: list[Scroll] = field(default_factory=lambda: [Scroll()])
    showings: list[int] = field(default_factory=lambda: [showing()])
    """Each level's showing (`ui.showing`): a page pushed again is new views, with new ids."""
    query: EditText = field(default_factory=lambda: EditText("Search", return_key="search"))
    confirm: storage.Confirm | None = None
    alternates: dict[str, Scroll] = field(default_factory=dict)
    """Info rows tapped to show their alternate value (About's Model Number), each with the
    scroll of the page it was tapped on: a page opened again is a new one, showing the first."""
    back_menu: BackMenu = field(default_factory=BackMenu)
    """The back button's history menu (a hold on it): whether it shows."""

    def push(self, page_id: str, title: str) -> None:
        """Open a page on top of the current one."""
        self.stack.append((page_id, title))
        self.scrolls.append(Scroll())
        self.showings.append(showing())

    def pop(self) -> None:
        """Go back one level (the root stays), closing a sheet asking about this page."""
        self.confirm = None
        if len(self.stack) > 1:
            self.stack.pop()
            self.scrolls.pop()
            self.showings.pop()

    def ask(self, confirm: storage.Confirm | None) -> None:
        """Show the action sheet `confirm` (None: close it)."""
        self.confirm = confirm


def _parents() -> dict[str, str]:
    found: dict[str, str] = {}
    for page in PAGES.values():
        for section in page.sections:
            for row in section.rows:
                if row.kind == "link" and row.target and row.target not in found:
                    found[row.target] = page.id
    return found


PARENTS = _parents()
"""The page that links to each page first: search results open with these underneath."""


def trail(page_id: str) -> list[str]:
    """Page ids from the root down to `page_id`."""
    chain = [page_id]
    while chain[-1] in PARENTS and chain[-1] != ROOT and PARENTS[chain[-1]] not in chain:
        chain.append(PARENTS[chain[-1]])
    return chain[::-1] if chain[-1] == ROOT else [ROOT, page_id]


def values(host: Host) -> dict[str, str]:
    """What braces in page data may name: device facts, a few derived values, and each switch
    as "On" or "Off" (`switch:voiceover`), which a link row to the switch's page shows."""
    f, store = host.facts, host.store(BUNDLE_ID)
    out = {k.name: str(getattr(f, k.name)) for k in fields(f)}
    out.update({f"switch:{key}": "On" if store.flag(key, switch_default(f, key)) else "Off"
                for key in SWITCH_DEFAULTS})
    out.update({f"choice:{key}": SHORT.get((key, chosen), chosen)
                for key, chosen in ((k, chosen_option(store, k)) for k in CHOICE_DEFAULTS)})
    wifi = store.flag("wifi", SWITCH_DEFAULTS["wifi"])
    today = f.today
    out.update(battery_percent=f.battery_percent, last_charged=f.time_of_day(8, 12),
               wifi_status=f.wifi_network if wifi else "Off",
               app_count=str(sum(1 for a in host.apps() if a.home_icon)),
               region=f.conventions.region,
               warranty_expiry=f.conventions.short_date(today.replace(year=today.year + 3),
                                                        year=True))
    return out


SHORT = {(row.key, row.title): row.detail for page in PAGES.values() for section in page.sections
         for row in section.rows if row.kind == "choice" and row.key and row.detail}
"""How a page's link names an option chosen in it, where it shortens the option's title."""


def chosen_option(store: Store, key: str) -> str:
    """The title of the option chosen in the choice list `key`."""
    return store.text(key, CHOICE_DEFAULTS[key])


def auto_lock_s(store: Store) -> float | None:
    """How long the phone stays unlocked untouched, by Auto-Lock's choice (None: Never)."""
    amount, _, unit = chosen_option(store, "auto_lock").partition(" ")
    if not (amount.isascii() and amount.isdigit()):
        return None
    return float(amount) * (60 if unit.startswith("minute") else 1)


def _filler(host: Host) -> Callable[[str | None], str | None]:
    """Fills braces in page data and spells the result as the phone's locale does."""
    known, spell = values(host), host.facts.conventions.spell

    def fill(text: str | None) -> str | None:
        if text is None:
            return None
        if "{" in text:
            text = re.sub(r"\{([\w:]+)\}", lambda m: known.get(m.group(1), m.group(0)), text)
        return spell(text)

    return fill


def _row(row: PageRow, state: SettingsState, host: Host,
         fill: Callable[[str | None], str | None], icons: bool) -> lists.Row:
    store = host.store(BUNDLE_ID)
    title = fill(row.title) or ""
    detail = fill(row.detail)
    # The root list shows each row's icon (the Apple Account's picture is "apple.id").
    icon = (("apple.id" if row.subtitle else "") if icons else None)
    if row.kind == "link" and row.target is not None:
        target = row.target
        return lists.Row(title, detail=detail, subtitle=fill(row.subtitle), chevron=True,
                         name=row.ident, icon=icon,
                         height=91 if row.subtitle else lists.ROW_HEIGHT,
                         on_tap=lambda: state.push(target, title))
    if row.kind == "choice" and row.key is not None:
        key, option = row.key, row.title
        return lists.Row(title, checked=chosen_option(store, key) == option, name=row.ident,
                         on_tap=lambda: store.put(key, option))
    if row.kind == "pick" and row.key is not None:
        on = store.flag(row.key, row.chosen)
        return lists.Row(title, checked=on, name=row.ident,
                         on_tap=toggler(store, row.key, row.chosen))
    if row.kind == "switch" and row.key is not None:
        default = switch_default(host.facts, row.key)
        return lists.Row(title, switch=store.flag(row.key, default),
                         on_switch=toggler(store, row.key, default), name=row.ident, icon=icon)
    if row.kind == "slider" and row.key is not None:
        key = row.key
        position = store.number(key, SLIDER_DEFAULTS.get(key, 0.5))

        def build(frame: Rect) -> Sequence[Node]:
            return [layout.slider(title, position, Rect(frame.x + 16, frame.y + 10,
                                                        frame.width - 32, 32),
                                  lambda v: store.put(key, round(v, 3)))]

        return lists.Row(title, build=build, name=title)
    if row.kind == "buttons" and row.key is not None:
        return _choosing(row, row.key, store)
    if row.kind == "button":
        press = BUTTONS.get(row.title, _unmodelled)
        return lists.Row(title, name=row.ident, on_tap=lambda: press(host))
    if row.kind == "joins" and row.key is not None:
        return _joining(row, title, detail, store)
    if row.kind == "readout":
        return _readout(title, detail or "")
    if row.kind == "note":
        lines = 1 + len(title) // 40

        def paragraph(frame: Rect) -> Sequence[Node]:
            return [layout.text(title, Rect(frame.x + 16, frame.y + 12, frame.width - 32,
                                            22 * lines))]

        return lists.Row(title, build=paragraph, height=24 + 22 * lines)
    if row.alternate is not None:
        return _alternating(row, title, state, fill)
    return lists.Row(title, detail=detail, name=row.ident, checked=row.chosen)


def _choosing(row: PageRow, key: str, store: Store) -> lists.Row:
    """A row of Buttons that choose (Appearance's Light and Dark), the chosen one selected; the
    store keeps the chosen one's title in lower case, the first's until one is tapped."""
    chosen = store.text(key, row.options[0].lower())

    def choose(option: str) -> Handler:
        return lambda: store.put(key, option.lower())

    def build(frame: Rect) -> Sequence[Node]:
        width = (frame.width - 32) // len(row.options)
        return [layout.button(option, Rect(frame.x + 16 + i * width, frame.y + 8, width, 164),
                              choose(option), selected=chosen == option.lower())
                for i, option in enumerate(row.options)]

    return lists.Row(row.title, build=build, height=180, name=row.title)


def _alternating(row: PageRow, title: str, state: SettingsState,
                 fill: Callable[[str | None], str | None]) -> lists.Row:
    """An info row a tap switches between its value and its alternate (Model Number: the part
    number, the regulatory model number), on this page until it is left."""
    page = state.scrolls[-1]
    shown = state.alternates.get(title) is page

    def switch() -> None:
        if state.alternates.get(title) is page:
            del state.alternates[title]
        else:
            state.alternates[title] = page

    return lists.Row(title, detail=fill(row.alternate if shown else row.detail),
                     name=row.ident, on_tap=switch, silent=True)


def _readout(value: str, detail: str) -> lists.Row:
    """A reading drawn large at the top of a page, the line under it smaller: one cell read
    as "VALUE, DETAIL" (Battery's "87%, Last Charged to 100%, 8:12 AM")."""

    def build(frame: Rect) -> Sequence[Node]:
        return [layout.text(value, Rect(frame.x + 16, frame.y + 14, 200, 56)),
                layout.text(detail, Rect(frame.x + 16, frame.y + 78, frame.width - 32, 22))]

    return lists.Row(f"{value}, {detail}", build=build, height=112)


def _joining(row: PageRow, title: str, detail: str | None, store: Store) -> lists.Row:
    """A network's or a device's row (`settings_rows.joins`): a tap joins or connects to it,
    kept in the store, and the row then reads "Connected"; its More Info opens nothing here."""
    key, joined = row.key or "", row.title

    def join() -> None:
        store.put(key, joined)

    if row.chosen:  # the network the phone is on (`settings_rows.connected`)
        return lists.Row(title, detail=detail, name=row.ident, checked=True,
                         accessory=("More Info", _unmodelled_press))
    connected = store.text(key, "") == joined
    return lists.Row(title, detail="Connected" if connected else detail, name=row.ident,
                     on_tap=join, accessory=("More Info", _unmodelled_press))


def _unmodelled(host: Host) -> None:
    """A button row a phone acts on and the simulator does not model: it reports as the
    phone's (a row with the Button trait), and a tap changes nothing."""


def _unmodelled_press() -> None:
    """A Button a phone acts on and the simulator does not model (a row's More Info)."""


BUTTONS: dict[str, Callable[[Host], None]] = {"Shut Down": lambda host: host.show_power_off()}
"""What a button row does, where it does anything here (the others change nothing)."""


def switch_default(facts: DeviceFacts, key: str) -> bool:
    """A switch's value before it is first turned: its factory value; "24-Hour Time"'s is the
    locale's habit (on in the UK), or what the `time_format` fact sets."""
    return facts.hour_24 if key == HOUR_24_KEY else SWITCH_DEFAULTS.get(key, False)


def toggler(store: Store, key: str, default: bool) -> Handler:
    """What turning the switch `key` does: it flips the value `store` keeps (`default` before
    it is first turned). Control Center's switches turn the same values."""
    def toggle() -> None:
        store.put(key, not store.flag(key, default))
    return toggle


def _results(state: SettingsState, host: Host) -> list[lists.Section]:
    spell = host.facts.conventions.spell
    found = search(state.query.text, spell)
    if not found:
        return [lists.Section((lists.Row("No Results"),))]
    rows = []
    for page in found:
        parents = [spell(PAGES[p].title) for p in trail(page.id)[1:-1]]
        rows.append(lists.Row(spell(page.title), subtitle=" > ".join(parents) or None,
                              chevron=True,
                              height=64 if parents else lists.ROW_HEIGHT,
                              on_tap=_opener(state, host, page.id)))
    return [lists.Section(tuple(rows), header="Results")]


def _opener(state: SettingsState, host: Host, page_id: str) -> Handler:
    return lambda: open_page(state, host, page_id)


def open_page(state: SettingsState, host: Host, page_id: str) -> None:
    """Show page `page_id` with the pages above it underneath, as a search result (Settings'
    own, or Spotlight's) opens it."""
    host.focus(None)
    del state.stack[1:], state.scrolls[1:], state.showings[1:]
    for level in trail(page_id)[1:]:
        state.push(level, PAGES[level].title)


def _sections(page_id: str, state: SettingsState, host: Host) -> list[lists.Section]:
    """A page's sections: its data's, filled in; iPhone Storage's apps below its own rows."""
    app = storage.app_of(page_id)
    if app is not None:
        return storage.app_page(host, app, state.ask)
    if page_id.startswith(STUB):  # a deeper page (`settings_rows.opens`), an app's (`_app_rows`)
        return [lists.Section((lists.Row(host.facts.conventions.spell(page_id[len(STUB):])),))]
    page, store, fill = PAGES[page_id], host.store(BUNDLE_ID), _filler(host)
    shown = [s for s in page.sections if _shows(s, store, host)]
    icons = page.id == ROOT
    sections = [lists.Section(tuple(_row(r, state, host, fill, icons) for r in s.rows),
                              header=fill(s.header), footer=fill(s.footer)) for s in shown]
    if page_id == storage.STORAGE:
        sections.append(storage.app_list(host, state.push))
    if page_id == APPS:
        sections.append(_app_rows(state, host))
    return sections


def _shows(section: PageSection, store: Store, host: Host) -> bool:
    """Whether a section shows: always, or while its switch `when` is on ("!key": off)."""
    if section.when is None:
        return True
    key = section.when.removeprefix("!")
    return store.flag(key, switch_default(host.facts, key)) != section.when.startswith("!")


def _app_rows(state: SettingsState, host: Host) -> lists.Section:
    """Apps' list (iOS 18 on): a row with a chevron per app on the phone, by name, each opening
    the app's page (the App Store's its own, the others' a stub titled by the app)."""
    apps = sorted((a for a in host.apps() if a.home_icon), key=lambda a: a.name)
    return storage.app_rows(apps, state.push, lambda a: APP_STORE_PAGE if a.name == "App Store"
                            else STUB + a.name)


def _search_bar(state: SettingsState, host: Host, active: bool) -> Node:
    """iOS 26's bottom toolbar with the search field; above the keyboard while typing."""
    f = host.facts
    typing = state.query.focused
    top = f.height - KEYBOARD_HEIGHT - 58 if typing else TOOLBAR_TOP
    field = Rect(32, top + 15, 337, 38)
    nodes = lists.search_bar(state.query, host, field, active=active)
    capsule = layout.wrap(Node("Other", Rect(27, top + 10, 347, 48), children=tuple(nodes)), 2)
    holder = Node("Other", Rect(28, top + 10, 346, 48), children=(
        Node("Other", Rect(28, top + 10, 0, 0), visible=False, children=(capsule,)),))
    return Node("Toolbar", Rect(0, top, f.width, f.height - top), name="Toolbar",
                label="Toolbar", children=(layout.wrap(holder, 1),))


def render(state: SettingsState, host: Host) -> Node:
    """The page on top of the stack: its navigation bar over its scrollable list."""
    f = host.facts
    page_id, title = state.stack[-1]
    if len(state.stack) > 1:
        behind = [f.conventions.spell(t) for _, t in reversed(state.stack[:-2])]
        nav = layout.nav_bar(f, f.conventions.spell(title), back=f.conventions.spell(
            state.stack[-2][1]), on_back=state.pop, menu=state.back_menu, behind=behind)
        viewport = Rect(0, layout.NAV_BOTTOM, f.width, f.height - layout.NAV_BOTTOM)
        table = lists.table(state.scrolls[-1], viewport, _sections(page_id, state, host),
                            key=f"page:{page_id}", frame=Rect(0, 0, f.width, f.height))
        confirm = state.confirm
        sheet = [] if confirm is None else [
            storage.confirm_sheet(host, confirm, lambda: state.ask(None), state.pop)]
        return layout.screen(f, [nav, table, *sheet],
                             key=f"settings:{page_id}@{state.showings[-1]}")
    active = state.query.focused or bool(state.query.text)
    sections = _results(state, host) if state.query.text else _sections(page_id, state, host)
    viewport = Rect(0, layout.LARGE_NAV_BOTTOM, f.width, TOOLBAR_TOP - layout.LARGE_NAV_BOTTOM)
    root = lists.grouped(state.scrolls[-1], viewport, sections, key=f"page:{page_id}",
                         frame=Rect(0, 0, f.width, f.height))
    return layout.screen(f, [layout.nav_bar(f, "Settings", large=True), root,
                             _search_bar(state, host, active)],
                         key=f"settings:root@{state.showings[0]}")


APP = register(AppModel(BUNDLE_ID, "Settings", SettingsState, render))
