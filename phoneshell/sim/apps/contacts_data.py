"""Contacts' address book as its store keeps it: reading, seeding, saving and deleting.

The store (`com.apple.MobileAddressBook`) holds `contacts`, a list of `{"id", "first", "last",
"phone", "email", "company"}`, and the counter `next_id`. A fresh phone holds the iOS
Simulator's six contacts (`SEED`); the seed is *read* as the default until the first change
writes it, so drawing a screen never writes the store.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from phoneshell.sim.store import JSON, Store

BUNDLE_ID = "com.apple.MobileAddressBook"
FIELDS = ("first", "last", "company", "phone", "email")
"""What an edit page edits, in its order."""


@dataclass(frozen=True)
class Contact:
    """One address-book entry."""

    first: str
    last: str
    phone: str
    email: str
    company: str = ""
    id: int = 0

    @property
    def name(self) -> str:
        """The display name, first name first (the company for a contact with no name, and
        "No Name" for one with neither, as iOS lists them)."""
        return " ".join(p for p in (self.first, self.last) if p) or self.company or "No Name"

    @property
    def sort_key(self) -> str:
        """What the list sorts by: the last name, else the first, else the company."""
        return (self.last or self.first or self.company or "#").lower()

    @property
    def initial(self) -> str:
        """The list's section the contact is under: its sort key's first letter, or "#"."""
        first = self.sort_key[:1].upper()
        return first if first.isalpha() else "#"

    def to_json(self) -> dict[str, JSON]:
        """The contact as the store keeps it."""
        return dict(asdict(self))


SEED = (
    Contact("Kate", "Bell", "(555) 564-8583", "kate-bell@mac.com", "Creative Consulting", 1),
    Contact("Daniel", "Higgins Jr.", "555-478-7672", "d-higgins@mac.com", "", 2),
    Contact("John", "Appleseed", "888-555-5512", "John-Appleseed@mac.com", "", 3),
    Contact("Anna", "Haro", "555-522-8243", "anna-haro@mac.com", "", 4),
    Contact("Hank", "Zakroff", "(555) 766-4823", "hank-zakroff@mac.com", "Financial Services",
            5),
    Contact("David", "Taylor", "555-610-6679", "dtaylor@mac.com", "", 6),
)
"""The contacts of a fresh phone (the iOS Simulator's)."""


def _parse(raw: JSON) -> list[Contact]:
    found = []
    for item in raw if isinstance(raw, list) else []:
        if not isinstance(item, dict) or not isinstance(item.get("id"), int):
            continue
        texts = {k: item.get(k) if isinstance(item.get(k), str) else "" for k in FIELDS}
        found.append(Contact(id=int(item["id"]), **texts))  # type: ignore[arg-type]
    return found


def read(store: Store) -> list[Contact]:
    """Every contact, sorted as the list shows them; writes nothing."""
    found = list(SEED) if "contacts" not in store.data else _parse(store.data["contacts"])
    return sorted(found, key=lambda c: (c.sort_key, c.name.lower(), c.id))


def find(store: Store, contact_id: int) -> Contact | None:
    """The contact with this id (None: gone)."""
    return next((c for c in read(store) if c.id == contact_id), None)


def _write(store: Store, contacts: list[Contact]) -> None:
    store.put("contacts", [c.to_json() for c in contacts])
    if "next_id" not in store.data:
        store.put("next_id", max((c.id for c in contacts), default=0) + 1)


def save(store: Store, contact_id: int | None, values: dict[str, str]) -> int:
    """Write a contact's fields (a new contact when `contact_id` is None or gone); its id."""
    contacts = read(store)
    _write(store, contacts)
    texts = {k: values.get(k, "").strip() for k in FIELDS}
    if contact_id is None or all(c.id != contact_id for c in contacts):
        contact_id = int(store.number("next_id", 1))
        store.put("next_id", contact_id + 1)
        contacts.append(Contact(id=contact_id, **texts))
    else:
        contacts = [Contact(id=c.id, **texts) if c.id == contact_id else c for c in contacts]
    _write(store, contacts)
    return contact_id


def delete(store: Store, contact_id: int) -> None:
    """Delete a contact (Contacts keeps no bin)."""
    _write(store, [c for c in read(store) if c.id != contact_id])


def search(store: Store, query: str) -> list[Contact]:
    """Contacts one of whose names (first, last, company words) starts with the query."""
    q = query.strip().lower()
    if not q:
        return []
    return [c for c in read(store) if c.name.lower().startswith(q)
            or any(w.startswith(q) for w in f"{c.name} {c.company}".lower().split())]
