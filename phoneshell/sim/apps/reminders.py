"""Reminders (com.apple.reminders): smart lists, your lists, and reminders kept in the store.

The app opens on the lists overview: a search field, the smart-list tiles (Today, Scheduled,
All, Flagged, Completed, each with its count) and "My Lists" (Reminders, Groceries). Tapping a
list opens it: its reminders, each with a completion circle, over a "New Reminder" button.
"New Reminder" adds a row at the end with a focused title field (the list scrolls to it);
typing a title and Return saves it and opens the next empty reminder below, keyboard up (so
"a\nb\n" adds two); "Done", or a tap anywhere outside the title (the blank list below the
rows, another row, the bar), saves it and ends editing; Return, "Done", such a tap or leaving
the list on an empty title saves nothing and ends editing. From the overview "New Reminder"
opens iOS's New Reminder sheet instead (`reminders_sheet`: title, notes, list, Cancel/Add).
Tapping a circle completes a reminder (it moves to Completed; tapping it there undoes that).
Searching the overview lists reminders whose title contains the query. A swipe left on a
reminder's row (in a list or in the search results) shows its Delete, which removes it; a swipe
right hides it again.

Turned to landscape, a list's title is the bar's inline one (a phone's screen is compact in
height there, so no large title shows) and, while a title is typed, the list ends at the
keyboard's top (`keyboard.above_keyboard`) with the row being typed into scrolled into view: on
adding it, and again whenever the room above the keyboard changes (the phone turned with it up).

Reminders live in the store under `reminders` (objects with title, list, done, flagged, due),
so they survive terminate and carry over between tasks. A fresh phone has `SEED`: more
reminders than the screen shows, so a new one starts out of sight below them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from phoneshell.sim import layout, lists
from phoneshell.sim.apps import AppModel, Drag, Host, register, reminders_sheet
from phoneshell.sim.apps.reminders_sheet import NewReminder
from phoneshell.sim.back_menu import BackMenu
from phoneshell.sim.keyboard import above_keyboard
from phoneshell.sim.store import JSON, Store
from phoneshell.sim.touch_paths import hit_path
from phoneshell.sim.ui import EditText, Handler, Node, Rect, Scroll, showing

BUNDLE_ID = "com.apple.reminders"
DEFAULT_LIST = "Reminders"
MY_LISTS = (DEFAULT_LIST, "Groceries")
SMART_LISTS = ("Today", "Scheduled", "All", "Flagged", "Completed")
NEW_IN: dict[str, dict[str, JSON]] = {"Today": {"due": "Today"}, "Scheduled": {"due": "Today"},
                                      "Flagged": {"flagged": True}}
"""What a reminder added in a smart list gets so that it belongs there."""
TOOLBAR_HEIGHT = 74
SWIPE_TRAVEL = 60
"""A horizontal drag at least this long swipes a row (shorter ones are not gestures)."""

Reminder = dict[str, JSON]


def _seed(title: str, due: str = "", *, where: str = DEFAULT_LIST, flagged: bool = False,
          done: bool = False) -> Reminder:
    return {"title": title, "list": where, "done": done, "flagged": flagged, "due": due}


SEED: tuple[Reminder, ...] = (
    _seed("Call the dentist", "Today, 10:00 AM"),
    _seed("Pay the electricity bill", "Today, 5:00 PM"),
    _seed("Renew passport"), _seed("Book car service", "Tomorrow"), _seed("Water the plants"),
    _seed("Return library books", flagged=True), _seed("Buy a birthday card for Mom", "Friday"),
    _seed("Back up the laptop"), _seed("Cancel the gym trial"), _seed("Order printer ink"),
    _seed("Reply to Kate's email", flagged=True), _seed("Pick up dry cleaning"),
    _seed("Schedule a haircut"), _seed("Send the rent", "Jan 31"), _seed("Clean the gutters"),
    _seed("Update the budget spreadsheet"), _seed("Charge the camera batteries"),
    _seed("Check tire pressure"), _seed("Sort the recycling"),
    _seed("Milk", where="Groceries"), _seed("Eggs", where="Groceries"),
    _seed("Coffee beans", where="Groceries"), _seed("Bananas", where="Groceries"),
    _seed("Renew car insurance", done=True),
)


@dataclass
class RemindersState:
    """The open list (None: the overview), scrolls, the overview's search, the draft title."""

    back_menu: BackMenu = field(default_factory=BackMenu)
    """The back button's history menu (a hold on it): whether it shows."""
    open: str | None = None
    shown: int = 0
    """The open list's showing (`ui.showing`): a list pushed again is new views, new ids."""
    scroll: Scroll = field(default_factory=Scroll)
    overview: Scroll = field(default_factory=Scroll)
    query: EditText = field(default_factory=lambda: EditText("Search", return_key="search"))
    draft: EditText | None = None
    """The title field of the reminder being added, if one is."""
    swiped: int | None = None
    """The reminder (its place in the store) whose row shows Delete."""
    sheet: NewReminder | None = None
    """The New Reminder sheet over the overview, while it shows."""
    typing_room: int | None = None
    """How tall the open list was when the reminder being typed was last scrolled into view."""


def reminders(store: Store) -> list[Reminder]:
    """Every reminder, in order (the seed while nothing was ever saved). Read-only."""
    value = store.data.get("reminders")
    if not isinstance(value, list):
        return [dict(r) for r in SEED]
    return [r for r in value if isinstance(r, dict)]


def _saved(store: Store) -> list[Reminder]:
    # The seed is written on the first change, so reads never write the store.
    if not isinstance(store.data.get("reminders"), list):
        store.put("reminders", [dict(r) for r in SEED])
    return store.records("reminders")


def in_list(reminder: Reminder, name: str) -> bool:
    """Whether a reminder shows in the list or smart list `name`."""
    done, due = reminder.get("done") is True, str(reminder.get("due") or "")
    if name == "Completed":
        return done
    if done:
        return False
    return {"Today": due.startswith("Today"), "Scheduled": bool(due), "All": True,
            "Flagged": reminder.get("flagged") is True}.get(name, reminder.get("list") == name)


def commit(state: RemindersState, host: Host) -> None:
    """Save the draft reminder, if it has a title, and stop editing it."""
    draft, state.draft = state.draft, None
    if draft is None:
        return
    if draft.focused:
        host.focus(None)
    title = draft.text.strip()
    if title:
        opened = state.open or ""
        where = opened if opened in MY_LISTS else DEFAULT_LIST
        _saved(host.store(BUNDLE_ID)).append({**_seed(title, where=where),
                                              **NEW_IN.get(opened, {})})


def _new_reminder(state: RemindersState, host: Host) -> Handler:
    def start() -> None:
        commit(state, host)
        if state.open is None:
            state.sheet = reminders_sheet.open_sheet(host, DEFAULT_LIST)
            return
        if state.open == "Completed":
            state.open, state.scroll, state.shown = DEFAULT_LIST, Scroll(), showing()
        _draft(state, host)
    return start


def _draft(state: RemindersState, host: Host) -> None:
    """Open an empty reminder at the end of the open list, its title focused."""
    # iOS: a tap anywhere outside the title (blank list, another row, the bar) saves it and
    # ends editing, as Done does; the tap then does what it was aimed at.
    draft = EditText("", on_submit=lambda: _submitted(state, host),
                     on_tap_outside=lambda: commit(state, host))
    state.draft = draft
    state.scroll.offset = 1 << 20  # the new row is last: show it (the table clamps)
    host.focus(draft)


def _submitted(state: RemindersState, host: Host) -> None:
    """Return in a reminder's title, as on iOS: a titled one is saved and the next empty
    reminder opens below it with the keyboard still up (how a person adds several in a row);
    an empty one ends editing and leaves nothing."""
    titled = state.draft is not None and bool(state.draft.text.strip())
    commit(state, host)
    if titled and state.open is not None:
        _draft(state, host)


def _opener(state: RemindersState, name: str) -> Handler:
    def open_list() -> None:
        state.open, state.scroll, state.shown = name, Scroll(), showing()
    return open_list


def _toggler(host: Host, index: int) -> Handler:
    def toggle() -> None:
        saved = _saved(host.store(BUNDLE_ID))
        if index < len(saved):
            saved[index]["done"] = saved[index].get("done") is not True
    return toggle


def _circle(frame: Rect, done: bool, on_tap: Handler | None) -> Node:
    """The completion button at a row's start: its name says the state, the pixels a circle."""
    node = layout.button("Completed" if done else "Not completed",
                         Rect(frame.x + 12, frame.y + 13, 26, 26), on_tap, selected=done)
    return replace(node, pixels_text="\u25cf" if done else "\u25cb")


def _deleter(state: RemindersState, host: Host, index: int) -> Handler:
    def remove() -> None:
        saved = _saved(host.store(BUNDLE_ID))
        if index < len(saved):
            del saved[index]
        state.swiped = None
    return remove


def _item(state: RemindersState, host: Host, index: int, reminder: Reminder,
          note: str | None = None) -> lists.Row:
    title, done = str(reminder.get("title", "")), reminder.get("done") is True
    detail = note or str(reminder.get("due") or "") or None

    def build(frame: Rect) -> Sequence[Node]:
        nodes = [_circle(frame, done, _toggler(host, index)),
                 layout.text(title, Rect(frame.x + 50, frame.y + (6 if detail else 15),
                                         min(frame.width - 66, layout.text_width(title)), 22))]
        if detail:
            nodes.append(layout.text(detail, Rect(frame.x + 50, frame.y + 30,
                                                  layout.text_width(detail, 15), 18)))
        if state.swiped == index:
            nodes.append(layout.button("Delete", Rect(frame.x + frame.width - 84, frame.y, 84,
                                                      frame.height),
                                       _deleter(state, host, index)))
        return nodes

    return lists.Row(title, build=build, name=title)


def _draft_row(draft: EditText) -> lists.Row:
    def build(frame: Rect) -> Sequence[Node]:
        return [_circle(frame, False, None),
                layout.text_field(draft, Rect(frame.x + 50, frame.y + 8, frame.width - 66, 36),
                                  name="Title")]
    return lists.Row(build=build)


def _toolbar(state: RemindersState, host: Host, f_width: int, top: int,
             can_add: bool) -> Node:
    kids = [layout.button("New Reminder", Rect(16, top + 8, 150, 36),
                          _new_reminder(state, host))] if can_add else []
    return Node("Toolbar", Rect(0, top, f_width, TOOLBAR_HEIGHT), name="Toolbar",
                children=tuple(kids))


def _overview(state: RemindersState, host: Host) -> Node:
    f = host.facts
    everything = reminders(host.store(BUNDLE_ID))
    query = state.query
    sections = [lists.Section((lists.search_row(query, host),))]
    if query.text.strip():
        found = tuple(_item(state, host, i, everything[i], str(everything[i].get("list", "")))
                      for i in _shown(state, host))
        sections.append(lists.Section(found or (lists.Row("No Results"),)))
    else:
        def tiles(frame: Rect) -> Sequence[Node]:
            return [layout.button(name, Rect(frame.x + (i % 2) * 189, frame.y + (i // 2) * 86,
                                             181, 78), _opener(state, name),
                                  value=str(sum(in_list(r, name) for r in everything)))
                    for i, name in enumerate(SMART_LISTS)]

        sections.append(lists.Section((lists.Row(build=tiles, height=250, name="Smart Lists",
                                                   container="Other"),)))
        sections.append(lists.Section(tuple(
            lists.Row(name, detail=str(sum(in_list(r, name) for r in everything)),
                       chevron=True, on_tap=_opener(state, name)) for name in MY_LISTS),
            header="My Lists"))
    bar = Node("NavigationBar", Rect(0, layout.NAV_TOP, f.width,
                                     layout.NAV_BOTTOM - layout.NAV_TOP), name="Lists")
    bottom = f.height - TOOLBAR_HEIGHT
    table = lists.table(state.overview, Rect(0, layout.NAV_BOTTOM, f.width,
                                              bottom - layout.NAV_BOTTOM), sections,
                         key="overview", frame=lists.under_bars(f))
    kids = [bar, table, _toolbar(state, host, f.width, bottom, True)]
    if state.sheet is not None:
        kids.append(reminders_sheet.render(state.sheet, host, MY_LISTS, _adder(host),
                                           _closer(state, host)))
    return layout.screen(f, kids, key="reminders:lists")


def _adder(host: Host) -> reminders_sheet.Save:
    def add(title: str, where: str, notes: str) -> None:
        extra: Reminder = {"notes": notes} if notes else {}
        _saved(host.store(BUNDLE_ID)).append({**_seed(title, where=where), **extra})
    return add


def _closer(state: RemindersState, host: Host) -> Handler:
    def close() -> None:
        state.sheet = None
        host.focus(None)
    return close


def _list(state: RemindersState, host: Host, name: str) -> Node:
    f = host.facts
    everything = reminders(host.store(BUNDLE_ID))
    rows = [_item(state, host, i, everything[i]) for i in _shown(state, host)]
    if state.draft is not None:
        rows.append(_draft_row(state.draft))
    if not rows:
        rows.append(lists.Row("No Reminders"))

    def back() -> None:
        commit(state, host)
        state.open = None

    trailing = []
    if state.draft is not None:
        trailing.append(layout.button("Done", Rect(f.width - 70, layout.NAV_TOP, 54, 44),
                                      lambda: commit(state, host)))
    # A turned phone's screen is compact in height: UIKit shows no large title there.
    large = f.height > f.width
    nav = layout.nav_bar(f, name, back="Lists", on_back=back, large=large, trailing=trailing,
                         menu=state.back_menu)
    editing = state.draft is not None and state.draft.focused
    top = layout.LARGE_NAV_BOTTOM if large else layout.NAV_BOTTOM
    viewport = above_keyboard(f, Rect(0, top, f.width, f.height - TOOLBAR_HEIGHT - top),
                              editing)
    _keep_typing_in_view(state, viewport.height if editing else None)
    table = lists.table(state.scroll, viewport, [lists.Section(tuple(rows))],
                        key=f"list:{name}", frame=lists.under_bars(f))
    toolbar = _toolbar(state, host, f.width, f.height - TOOLBAR_HEIGHT, name != "Completed")
    return layout.screen(f, [nav, table, toolbar], key=f"reminders:{name}@{state.shown}")


def _keep_typing_in_view(state: RemindersState, room: int | None) -> None:
    """Scroll the reminder being typed (the list's last row) into view when the room above the
    keyboard changed since it last was (`room`: the list's height while typing, else None),
    as UIKit scrolls the first responder into view when the keyboard's frame changes."""
    if room is not None and room != state.typing_room:
        state.scroll.offset = 1 << 20  # the table clamps it to the end
    state.typing_room = room


def render(state: RemindersState, host: Host) -> Node:
    """The open list, or the lists overview."""
    return _list(state, host, state.open) if state.open else _overview(state, host)


def _shown(state: RemindersState, host: Host) -> list[int]:
    """Where in the store the reminder rows showing are, in order: the open list's, or the
    overview's search results."""
    everything = reminders(host.store(BUNDLE_ID))
    if state.open:
        return [i for i, r in enumerate(everything) if in_list(r, state.open)]
    query = state.query.text.strip().lower()
    return [i for i, r in enumerate(everything)
            if query and query in str(r.get("title", "")).lower()]


def on_drag(state: RemindersState, host: Host, drag: Drag) -> bool:
    """A swipe left on a reminder's row shows its Delete; a swipe right hides it again; the
    New Reminder sheet takes drags while it shows (`reminders_sheet.on_drag`)."""
    if state.sheet is not None and state.open is None:
        return reminders_sheet.on_drag(state.sheet, drag)
    if drag.vertical or state.draft is not None:
        return False
    if drag.dx > -SWIPE_TRAVEL:
        hid = drag.dx > SWIPE_TRAVEL and state.swiped is not None
        if hid:
            state.swiped = None
        return hid
    path = hit_path(host.screen().root, drag.from_x, drag.from_y)
    table = next((n for n in path if n.scroll is not None), None)
    cell = next((n for n in reversed(path) if n.type == "Cell"), None)
    shown = _shown(state, host)
    if table is None or cell is None or not shown:
        return False
    cells = [c for c in table.children if c.type == "Cell"][-len(shown):]
    if cell not in cells:
        return False
    state.swiped = shown[cells.index(cell)]
    return True


def keep(state: RemindersState) -> str:
    """The list Reminders shows as it stops: like a phone, it opens in it again (iOS state
    restoration), so a search must first go back to the overview."""
    return state.open or ""


def restore(state: RemindersState, name: str) -> None:
    """Open in the list Reminders stopped in (an unknown name: the overview)."""
    if name in MY_LISTS or name in SMART_LISTS:
        state.open = name


APP = register(AppModel(BUNDLE_ID, "Reminders", RemindersState, render, on_drag=on_drag,
                        rotates=True, keep=keep, restore=restore))
