"""Contacts (com.apple.MobileAddressBook): the contact list, its search, and a contact's card.

The list has a search field at the top, then the contacts in sections by the initial of the
last name (sorted by last name, shown as "First Last", as iOS does by default).
Typing in the search field filters to contacts one of whose names starts with the query, under
"Top Name Matches", or shows "No Results"; "Cancel" shows while searching and ends it. Tapping a
contact opens its card (name, phone, email); back returns to the list. The contacts are the
iOS Simulator's six, in `CONTACTS`; none can be added or edited.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from phoneshell.sim import layout, lists
from phoneshell.sim.apps import AppModel, Host, register
from phoneshell.sim.ui import EditText, Handler, Node, Rect, Scroll

BUNDLE_ID = "com.apple.MobileAddressBook"


@dataclass(frozen=True)
class Contact:
    """One address-book entry."""

    first: str
    last: str
    phone: str
    email: str
    company: str = ""

    @property
    def name(self) -> str:
        """The display name, first name first."""
        return f"{self.first} {self.last}"


CONTACTS = (
    Contact("Kate", "Bell", "(555) 564-8583", "kate-bell@mac.com", "Creative Consulting"),
    Contact("Daniel", "Higgins Jr.", "555-478-7672", "d-higgins@mac.com"),
    Contact("John", "Appleseed", "888-555-5512", "John-Appleseed@mac.com"),
    Contact("Anna", "Haro", "555-522-8243", "anna-haro@mac.com"),
    Contact("Hank", "Zakroff", "(555) 766-4823", "hank-zakroff@mac.com", "Financial Services"),
    Contact("David", "Taylor", "555-610-6679", "dtaylor@mac.com"),
)


@dataclass
class ContactsState:
    """The open contact (None: the list), the list's scroll, the search query."""

    open: Contact | None = None
    scroll: Scroll = field(default_factory=Scroll)
    query: EditText = field(default_factory=lambda: EditText("Search", return_key="search"))


def search(query: str) -> list[Contact]:
    """Contacts one of whose names (first, last, company words) starts with the query."""
    q = query.strip().lower()
    if not q:
        return []
    return [c for c in sorted(CONTACTS, key=lambda c: c.last)
            if c.name.lower().startswith(q)
            or any(w.startswith(q) for w in f"{c.name} {c.company}".lower().split())]


def _opener(state: ContactsState, host: Host, contact: Contact) -> Handler:
    def open_card() -> None:
        host.focus(None)
        state.open = contact
    return open_card


def _list(state: ContactsState, host: Host) -> Node:
    f = host.facts
    query = state.query
    sections = [lists.Section((lists.search_row(query, host),))]
    if query.text.strip():
        found = tuple(lists.Row(c.name, on_tap=_opener(state, host, c))
                      for c in search(query.text))
        sections.append(lists.Section(found, header="Top Name Matches") if found
                        else lists.Section((lists.Row("No Results"),)))
    else:
        ordered = sorted(CONTACTS, key=lambda c: c.last)
        for initial in sorted({c.last[0].upper() for c in ordered}):
            sections.append(lists.Section(
                tuple(lists.Row(c.name, on_tap=_opener(state, host, c))
                      for c in ordered if c.last[0].upper() == initial), header=initial))
    viewport = Rect(0, layout.LARGE_NAV_BOTTOM, f.width, f.height - layout.LARGE_NAV_BOTTOM)
    return layout.screen(f, [layout.nav_bar(f, "Contacts", large=True),
                             lists.table(state.scroll, viewport, sections, key="contacts")],
                         key="contacts:list")


def _card(state: ContactsState, host: Host, contact: Contact) -> Node:
    f = host.facts

    def back() -> None:
        state.open = None

    bar = Node("NavigationBar", Rect(0, layout.NAV_TOP, f.width,
                                     layout.NAV_BOTTOM - layout.NAV_TOP), name=contact.name,
               children=(layout.button("Contacts", Rect(16, layout.NAV_TOP, 90, 44), back,
                                       name="BackButton"),))
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
                                                  ("email", contact.email)))]
    return layout.screen(f, kids, key=f"contacts:{contact.name}")


def render(state: ContactsState, host: Host) -> Node:
    """The open contact's card, or the list."""
    return _card(state, host, state.open) if state.open else _list(state, host)


APP = register(AppModel(BUNDLE_ID, "Contacts", ContactsState, render, rotates=True))
