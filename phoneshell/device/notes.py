"""The `clean_notes` step: delete the notes runs left behind, found by Notes' own search.

Tasks that type into a new note leave one behind each run, and the attack test leaves more;
the count probes read one screen of search results, so a pile of them makes every later count
refuse (notes/upstream-phoneshell.md: clean up what a run creates, or the device drifts). Only
what WDA offers is used, so it runs the same on a real phone: Notes restarted, its search
field given the text, then per read the top result (the newest: Notes sorts by date edited) is
swiped left and its Delete tapped, until only the `keep` oldest remain. Each delete is checked
against a fresh read (one result fewer); a delete that does not take stops the step. With
`exact`, only notes that hold the text and nothing else go: the row's title is the text and its
second line says "No additional text", as Notes writes it for a note of one line.
"""

from __future__ import annotations

from phoneshell.device.phone import Phone
from phoneshell.device.probes import fresh_app, has_search_field, search_steps
from phoneshell.device.steps import executes, run_steps
from phoneshell.errors import StepError
from phoneshell.tasks import Step
from phoneshell.tree import Element
from phoneshell.xcui import NOTES

MAX_DELETES = 40
NO_RESULTS = ("no results", "no notes")
ONE_LINE = "no additional text"
"""What Notes' list shows under the title of a note with nothing after its first line."""
SWIPE_FROM, SWIPE_TO = 0.8, 0.2
"""Where the delete swipe starts and ends, as shares of the row's width."""


def _results(phone: Phone, exact: str = "") -> list[Element]:
    """The result rows, top first; with `exact`, only rows of a note that is just that text."""
    page = phone.page()
    rows = sorted((e for e in page.on_screen() if e.type == "XCUIElementTypeCell"
                   and e.label.strip().lower() not in NO_RESULTS), key=lambda e: e.y)
    if not exact:
        return rows
    # the row's second line, at whatever depth the row holds it (iOS 26 nests it in a view)
    one_line = [e for e in page.on_screen() if e.label.strip().lower().endswith(ONE_LINE)]
    return [r for r in rows if r.label.strip().lower() == exact.strip().lower()
            and any(page.holds(r, e) for e in one_line)]


def _delete_top(phone: Phone, step: Step, rows: list[Element], exact: str) -> None:
    """Swipe the top result left and tap its Delete; confirm one result fewer."""
    top = rows[0]
    y = top.y + top.height / 2
    phone.drag((top.x + top.width * SWIPE_FROM, y), (top.x + top.width * SWIPE_TO, y))
    found: list[Element] = []

    def delete_shown() -> bool:
        page = phone.page()
        found[:] = [e for e in page.on_screen() if e.type == "XCUIElementTypeButton"
                    and e.label == "Delete"]
        return bool(found)

    if not phone.poll(delete_shown, phone.effect_timeout_s):
        raise StepError(f"{step.describe()}: swiping the note {top.label!r} showed no Delete")
    phone.tap(*found[0].centre)
    if not phone.poll(lambda: len(_results(phone, exact)) < len(rows), phone.effect_timeout_s):
        raise StepError(f"{step.describe()}: the note {top.label!r} was not deleted")


@executes("clean_notes")
def clean_notes(phone: Phone, step: Step) -> None:
    """Delete the newest notes Notes' search finds for the text, keeping the `keep` oldest."""
    text = step.arg or step.option("text")
    keep = int(step.option("keep", "0"))
    exact = text if step.option("exact") == "yes" else ""
    fresh_app(phone, NOTES, *search_steps(text), ready=has_search_field)
    for _ in range(MAX_DELETES):
        rows = _results(phone, exact)
        if len(rows) <= keep:
            break
        _delete_top(phone, step, rows, exact)
    else:
        raise StepError(f"{step.describe()}: more than {MAX_DELETES} notes to delete")
    run_steps(phone, [Step("terminate", NOTES)])
