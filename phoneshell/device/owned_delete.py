"""Deleting calendar events and contacts by the rows the owner watch read of them (`owned`), as
a person would: an event from Calendar's search (its row, "Delete Event", then "Delete Event"
again in the sheet that asks), a contact from Contacts' search (its card, Edit, "Delete
Contact", then "Delete Contact" in the sheet). The owner watch deletes with these only what an
attempt's agent added (`runner.owner_put`), never a row the run found there.

Each row is found again by what it showed when read (an event's day heading, title and time; a
contact's name), after its title or name is typed into the app's search, which narrows the list
to one screen. Nothing is deleted that does not show as read: the step raises instead.
"""

from __future__ import annotations

from collections.abc import Iterable

from phoneshell.device.owned import CALENDAR, CONTACTS, SEARCH, TABLE, _bottom, _headed, _plain
from phoneshell.device.phone import Phone
from phoneshell.device.probes import fresh_app, has_search_field, search_steps, stop_app
from phoneshell.device.steps import run_steps
from phoneshell.device.wholes import _whole_rows
from phoneshell.errors import StepError
from phoneshell.tasks import Step
from phoneshell.tree import Element, PageSource

BUTTON = "XCUIElementTypeButton"


def _row(page: PageSource, read: str, headed: bool) -> Element | None:
    """The row of `page`'s list that shows as `read` (headed by its section's heading when
    `headed`, as `owned.events_listed` reads it), or None."""
    rows = _whole_rows(page, _bottom(page))
    texts = _headed(page, rows, []) if headed else _plain(page, rows)
    return next((row for row, text in zip(rows, texts, strict=True) if text == read), None)


def _confirm(phone: Phone, action: str, what: str) -> None:
    """Tap `action` on the page, then `action` again in the sheet it raises (the page's own
    button of that name stays under the sheet, so the sheet's is picked by where it is)."""
    run_steps(phone, [Step.tap_on(action, "Button")])

    def sheet_button() -> Element | None:
        page = phone.page()
        return next((e for e in page.on_screen() if e.type == BUTTON and e.label == action
                     and page.inside(e, "Sheet")), None)

    if not phone.poll(lambda: sheet_button() is not None, phone.effect_timeout_s):
        raise StepError(f"deleting {what}: no sheet asked to {action!r}")
    button = sheet_button()
    assert button is not None  # polled above
    phone.tap(*button.centre)


def _delete_one(phone: Phone, app: str, query: str, read: str, what: str,
                opening: tuple[Step, ...], headed: bool, then: tuple[Step, ...],
                action: str) -> None:
    # Calendar's search opens with its field focused (a tap on it changes nothing); Contacts'
    # list has the field at its top
    typing = (Step("type", query),) if opening else search_steps(query)
    page = fresh_app(phone, app, *opening, *typing, ready=None if opening else has_search_field)
    row = _row(page, read, headed)
    if row is None:
        raise StepError(f"deleting {what}: no row shows {read!r} after searching {query!r}; "
                        f"it shows {page.summary()}")
    phone.tap(*row.centre)
    run_steps(phone, list(then))
    _confirm(phone, action, what)
    def gone_from(page: PageSource) -> bool:  # back on the list, without the row
        return any(e.type == TABLE for e in page.on_screen()) and _row(page, read, headed) is None

    gone = phone.poll(lambda: gone_from(phone.page()), phone.effect_timeout_s)
    stop_app(phone, app)
    if not gone:
        raise StepError(f"deleting {what}: {read!r} still shows after {action!r}")


def delete_events(phone: Phone, rows: Iterable[str]) -> None:
    """Delete the events read as `rows` ("day heading | title | time"), one each."""
    for read in rows:
        parts = read.split(" | ")
        title = parts[1] if len(parts) > 2 else parts[0]
        _delete_one(phone, CALENDAR, title, read, f"the event {read!r}", (SEARCH,), True, (),
                    "Delete Event")


def delete_contacts(phone: Phone, rows: Iterable[str]) -> None:
    """Delete the contacts read as `rows` (each its name, as its row shows it), one each."""
    for read in rows:
        _delete_one(phone, CONTACTS, read.split(" | ")[0], read, f"the contact {read!r}", (),
                    False, (Step.tap_on("Edit", "Button"),), "Delete Contact")


__all__ = ["delete_contacts", "delete_events"]
