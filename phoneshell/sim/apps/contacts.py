"""Contacts (com.apple.MobileAddressBook): the contact list, its search, a contact's card, and
editing, adding and deleting contacts.

The list has a search field at the top, then the contacts in sections by the initial of the
last name (sorted by last name, shown as "First Last", as iOS does by default), under a
navigation bar with "Add" (the "+"). Typing in the search field filters to contacts one of whose
names starts with the query, under "Top Name Matches", or shows "No Results"; "Cancel" shows
while searching and ends it. Tapping a contact opens its card (name, phone, email) with "Edit";
back returns to the list. Touch and hold on a contact's row shows its menu, whose "Delete
Contact" asks again (an action sheet: "Delete Contact", "Cancel"; iOS 16 added deleting from the
list's menu; what else that menu holds on iOS 26 is not modelled). The list has no swipe
actions, as iOS's has none.

Edit shows the edit page (no title; "Cancel" and "Done" in its bar): a TextField per field
("First name", "Last name", "Company", "Phone", "Email"), and at its bottom "Delete Contact",
which asks again as above. Done saves; Cancel discards, asking first ("Discard Changes", "Keep
Editing") when something was changed. "Add" opens the same page titled "New Contact", whose
Done is enabled once a field holds text. Contacts are kept in the app's store
(`contacts_data`): the iOS Simulator's six until the first change.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from phoneshell.sim import layout, lists
from phoneshell.sim.apps import AppModel, Host, register
from phoneshell.sim.apps.confirm import cancelling, confirm_sheet, edit_bar, fields, with_holds
from phoneshell.sim.apps.contacts_data import (
    BUNDLE_ID,
    FIELDS,
    Contact,
    delete,
    find,
    read,
    save,
    search,
)
from phoneshell.sim.back_menu import BackMenu
from phoneshell.sim.key_planes import KeyboardType
from phoneshell.sim.ui import EditText, Handler, Node, Rect, Scroll, showing

PLACEHOLDERS = {"first": "First name", "last": "Last name", "company": "Company",
                "phone": "Phone", "email": "Email"}
KEYBOARDS: dict[str, KeyboardType] = {"phone": "phonePad", "email": "email"}
"""The fields with a keyboard of their own, as iOS's Contacts sets them (the others: letters)."""


@dataclass
class Form:
    """The edit page: the contact it edits (None: a new one), its fields, what they held."""

    contact_id: int | None
    texts: dict[str, EditText]
    was: dict[str, str]
    asking: str = ""
    """The sheet over it: "discard" or "delete" ("" for none)."""
    shown: int = field(default_factory=showing)
    """Its showing (`ui.showing`): an edit page presented again is new views, with new ids."""

    def changed(self) -> bool:
        return any(self.texts[k].text != self.was[k] for k in FIELDS)


@dataclass
class ContactsState:
    """The open contact's id (None: the list), the edit page, the list's menu and sheet, the
    list's scroll, the search query."""

    open: int | None = None
    card: int = 0
    """The open card's showing (`ui.showing`): a card pushed again is new views."""
    form: Form | None = None
    held: int | None = None
    """The contact whose menu shows (touch and hold on its row)."""
    deleting: int | None = None
    """The contact whose deletion the list's sheet asks about."""
    scroll: Scroll = field(default_factory=Scroll)
    query: EditText = field(default_factory=lambda: EditText("Search", return_key="search"))
    back_menu: BackMenu = field(default_factory=BackMenu)
    """The back button's history menu (a hold on it): whether it shows."""


def _form(contact: Contact | None) -> Form:
    was = {k: getattr(contact, k) if contact else "" for k in FIELDS}
    return Form(contact.id if contact else None,
                {k: EditText(PLACEHOLDERS[k], text=was[k], keyboard=KEYBOARDS.get(k, "default"))
                 for k in FIELDS}, was)


def _opener(state: ContactsState, host: Host, contact: Contact) -> Handler:
    def open_card() -> None:
        host.focus(None)
        state.open, state.card = contact.id, showing()
    return open_card


def _holder(state: ContactsState, host: Host, contact: Contact) -> Handler:
    def hold() -> None:
        host.focus(None)
        state.held = contact.id
    return hold


def _list(state: ContactsState, host: Host) -> Node:
    f = host.facts
    store = host.store(BUNDLE_ID)
    query = state.query
    sections = [lists.Section((lists.search_row(query, host),))]
    shown = search(store, query.text) if query.text.strip() else read(store)

    def row(c: Contact) -> lists.Row:
        return lists.Row(c.name, on_tap=_opener(state, host, c), key=f"contact:{c.id}")

    if query.text.strip():
        sections.append(lists.Section(tuple(map(row, shown)), header="Top Name Matches")
                        if shown else lists.Section((lists.Row("No Results"),)))
    else:
        for initial in sorted({c.initial for c in shown}, key=lambda i: (i == "#", i)):
            sections.append(lists.Section(tuple(row(c) for c in shown if c.initial == initial),
                                          header=initial))
    viewport = Rect(0, layout.LARGE_NAV_BOTTOM, f.width, f.height - layout.LARGE_NAV_BOTTOM)
    table = with_holds(lists.table(state.scroll, viewport, sections, key="contacts",
                                   frame=lists.under_bars(f)),
                       {f"contact:{c.id}": _holder(state, host, c) for c in shown})

    def add() -> None:
        host.focus(None)
        state.form = _form(None)

    bar = layout.nav_bar(f, "Contacts", large=True, trailing=(
        layout.button("Add", Rect(f.width - 60, layout.NAV_TOP, 44, 44), add),))
    kids = [bar, table]
    held = find(store, state.held) if state.held is not None else None
    if held is not None:
        kids.append(_menu(state, host, held))
    gone = find(store, state.deleting) if state.deleting is not None else None
    if gone is not None:
        kids.append(_delete_sheet(state, host, gone))
    return layout.screen(f, kids, key="contacts:list")


def _menu(state: ContactsState, host: Host, contact: Contact) -> Node:
    def dismiss() -> None:
        state.held = None

    def ask() -> None:
        state.held, state.deleting = None, contact.id

    return layout.menu(host.facts, "ContactMenu", [("Delete Contact", ask)], 300, 60, dismiss)


def _delete_sheet(state: ContactsState, host: Host, contact: Contact) -> Node:
    def gone() -> None:
        delete(host.store(BUNDLE_ID), contact.id)
        state.deleting, state.open, state.form = None, None, None

    def keep() -> None:
        state.deleting = None
        if state.form is not None:
            state.form.asking = ""

    return confirm_sheet(host.facts, "Delete Contact", gone, keep)


def _card(state: ContactsState, host: Host, contact: Contact) -> Node:
    f = host.facts

    def back() -> None:
        state.open = None

    def edit() -> None:
        state.form = _form(contact)

    bar = Node("NavigationBar", Rect(0, layout.NAV_TOP, f.width,
                                     layout.NAV_BOTTOM - layout.NAV_TOP), name=contact.name,
               children=(*layout.back_controls(f, "Contacts", Rect(16, layout.NAV_TOP, 90, 44),
                                               back, menu=state.back_menu),
                         layout.button("Edit", Rect(f.width - 60, layout.NAV_TOP, 44, 44),
                                       edit)))
    width = layout.text_width(contact.name, 28)
    kids: list[Node] = [
        bar, layout.text(contact.name, Rect((f.width - width) // 2, 200, width, 34), header=True)]
    if contact.company:
        cw = layout.text_width(contact.company, 15)
        kids.append(layout.text(contact.company, Rect((f.width - cw) // 2, 238, cw, 18)))
    # Calling and messaging need the Phone and Messages apps, which are not modelled.
    kids += [layout.button(a, Rect(16 + i * 94, 270, 88, 60), None, enabled=False)
             for i, a in enumerate(("message", "call", "video", "mail"))]
    kids += [lists.cell(lists.Row(label, subtitle=value, height=64),
                         Rect(lists.ROW_X, 350 + 64 * i, lists.ROW_WIDTH, 64))
             for i, (label, value) in enumerate((("mobile", contact.phone),
                                                  ("email", contact.email))) if value]
    return layout.screen(f, kids, key=f"contacts:{contact.name}@{state.card}")


def _edit(state: ContactsState, host: Host, form: Form) -> Node:
    f = host.facts
    store = host.store(BUNDLE_ID)

    def close() -> None:
        host.focus(None)
        state.form = None

    cancel, discard = cancelling(host, form, close)

    def done() -> None:
        contact_id = save(store, form.contact_id, {k: t.text for k, t in form.texts.items()})
        close()
        if state.open != contact_id:  # a new contact's card is pushed as the page closes
            state.open, state.card = contact_id, showing()

    def ask_delete() -> None:
        host.focus(None)
        form.asking = "delete"

    new = form.contact_id is None
    filled = any(t.text.strip() for t in form.texts.values())
    kids = [edit_bar(f, "New Contact" if new else None, cancel, "Done", done,
                     enabled=filled or not new),
            *fields([form.texts[k] for k in FIELDS], 140, f.width)]
    if not new:
        kids.append(layout.button("Delete Contact", Rect(16, 140 + 52 * len(FIELDS) + 40,
                                                         f.width - 32, 44), ask_delete))
    if discard is not None:
        kids.append(discard)
    gone = find(store, form.contact_id) if form.asking == "delete" \
        and form.contact_id is not None else None
    if gone is not None:
        kids.append(_delete_sheet(state, host, gone))
    return layout.screen(f, kids, key=f"contacts:edit@{form.shown}")


def render(state: ContactsState, host: Host) -> Node:
    """The edit page, the open contact's card, or the list."""
    if state.form is not None:
        return _edit(state, host, state.form)
    contact = find(host.store(BUNDLE_ID), state.open) if state.open is not None else None
    return _card(state, host, contact) if contact else _list(state, host)


APP = register(AppModel(BUNDLE_ID, "Contacts", ContactsState, render, rotates=True))
