"""Contacts and Calendar change as on a phone: a contact or event edited, added and deleted
(with iOS's confirming sheets), kept in the app's store; the device layer's whole reads of
them (`contacts`, `events`) see each change. Driven through the device layer over real HTTP."""

from __future__ import annotations

from phoneshell.device import Phone, run_listed, run_steps
from phoneshell.sim import SimServer
from phoneshell.tasks import Step

CONTACTS, CALENDAR = "com.apple.MobileAddressBook", "com.apple.mobilecal"


def tap(text: str, kind: str = "Button", nth: str = "") -> Step:
    step = Step.tap_on(text, kind)
    return Step("tap", text, options=(*step.options, ("nth", nth))) if nth else step


def test_a_contact_edited_discarded_added_and_deleted() -> None:
    with SimServer() as sim:
        phone = Phone(sim.url, effect_timeout_s=1.0)
        run_steps(phone, [Step("launch", CONTACTS), tap("Kate Bell", "Cell"), tap("Edit"),
                          tap("Last name", "TextField"), Step("type", "y"), tap("Cancel")])
        assert any(e.label == "Keep Editing" for e in phone.page().on_screen())
        run_steps(phone, [tap("Discard Changes")])
        assert "contacts" not in sim.state()["stores"].get(CONTACTS, {})  # nothing written
        run_steps(phone, [tap("Edit"), tap("Email", "TextField"), Step("type", "x"),
                          tap("Done"), tap("Contacts")])
        run_steps(phone, [tap("Add"), tap("First name", "TextField"), Step("type", "Zed"),
                          tap("Done"), tap("Contacts")])
        run_steps(phone, [Step("long_press", "Anna Haro"), tap("Delete Contact"),
                          tap("Delete Contact", nth="1")])
        store = sim.state()["stores"][CONTACTS]["contacts"]  # type: ignore[index]
        listed = run_listed(phone, "contacts", "")
    kate = next(c for c in store if c["first"] == "Kate")  # type: ignore[index]
    assert kate["email"] == "kate-bell@mac.comx" and kate["last"] == "Bell"
    assert listed.rows == ("John Appleseed", "Kate Bell", "Daniel Higgins Jr.", "David Taylor",
                           "Hank Zakroff", "Zed")


def test_an_event_opened_edited_added_and_deleted() -> None:
    with SimServer() as sim:
        phone = Phone(sim.url, effect_timeout_s=1.0)
        before = run_listed(phone, "events", "")
        run_steps(phone, [Step("launch", CALENDAR), tap("Dentist"), tap("Edit"),
                          tap("Title", "TextField"), Step("type", " 2"), tap("Done"),
                          tap("Delete Event"), tap("Cancel"), tap("Jan 9")])
        run_steps(phone, [tap("Add"), Step("type", "Gym"), tap("Add"),
                          tap("Lunch with Anna"), tap("Delete Event"),
                          tap("Delete Event", nth="1")])
        after = run_listed(phone, "events", "")
    day = "TUESDAY, JANUARY 9, 2024"
    assert before.count == 8 and f"{day} | Dentist | 4 PM" in (before.rows or ())
    assert after.rows is not None and after.count == 8
    assert f"{day} | Dentist 2 | 4 PM" in after.rows and f"{day} | Gym | 9 AM" in after.rows
    assert not any("Lunch with Anna" in row for row in after.rows)
