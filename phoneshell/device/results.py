"""Deleting search results through the app's own UI: the notes and reminders an attempt made
(`delete_created`'s deleters for `notes_titled`, `notes_containing` and `reminders_titled`), and
digging out a count an agent buried: more matching rows than one screen of results shows, so
the count cannot be taken and nothing can be deleted by it.

An agent can make a count uncountable on purpose (six notes with the words a later task counts),
and then every later attempt of that task fails, run after run, until someone deletes them. The
rows the count showed before the agent (`kept`, bound by `with_counts`, or the run's count before
its first attempt) say what must stay; Notes lists the newest first, so an agent's notes are on
top of the results, and any row shown more often than it was counted before is one too many.
Such rows are deleted, newest first, one per search, until the results fit on a screen and the
count can be taken again; then `delete_created` deletes what is still beyond it, as always.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from phoneshell.device.alarms import swipe_to_delete
from phoneshell.device.cleanup import (
    CELL,
    DELETERS,
    DIGGERS,
    kept_rows,
    made_since,
    step_error,
)
from phoneshell.device.phone import Phone
from phoneshell.device.probes import (
    NOTES,
    REMINDERS,
    any_note,
    fits_on_screen,
    result_rows,
    row_texts,
    searched,
    stop_app,
    titled,
)
from phoneshell.tasks import Step
from phoneshell.tree import Element, PageSource

DIG_LIMIT = 60
"""Rows at most one dig deletes (ten screens of results): beyond that, a person should look."""

def _named(element: Element) -> str:
    return element.label or element.name


def _cells(page: PageSource) -> Counter[str]:
    """Every row of the list by label (or name), shown or not (to see that only one went)."""
    return Counter(_named(e) for e in page.elements if e.type == CELL)


def _row_of(page: PageSource, found: Element) -> Element:
    """The list row (cell) a result is shown in: a result may be the row's title text."""
    x, y = found.centre
    return next((e for e in page.on_screen() if e.type == CELL and e.x <= x < e.x + e.width
                 and e.y <= y < e.y + e.height), found)


def _delete_row(phone: Phone, step: Step, found: Element, exact: bool = True) -> None:
    """Swipe the row of `found` left, tap its Delete, and check that it, and only it, went.

    Args:
        exact: whether the whole list is on the page, so that exactly one row fewer shows;
            in a list longer than the screen, a row slides in from below as one goes, and one
            of a run of identical rows leaves the page as it was: then the Delete button going
            away with the row it was in is what is checked.
    """
    page = phone.page()
    row, before = _row_of(page, found), _cells(page)
    delete = swipe_to_delete(phone, step, row)
    button = delete()
    if button is None:
        raise step_error(step, f"the Delete button of {found.label!r} went away")
    phone.tap(*button.centre)

    def gone() -> bool:
        if not exact:
            return delete() is None
        return before - _cells(phone.page()) == Counter({_named(row): 1})

    if not phone.poll(gone, phone.effect_timeout_s):
        lost = before - _cells(phone.page())
        raise step_error(step, f"deleting {found.label!r} did not take exactly that row away "
                               f"(rows gone: {sorted(lost.elements())})")


def _delete_found(phone: Phone, step: Step, bundle_id: str, text: str, n: int,
                  matches: Callable[[str], bool], newest_first: bool) -> None:
    """Search the app for `text` and delete the `n` newest result rows that match; when the
    rows of the count before the agent are known, only rows that are not among them, and
    nothing at all when one of them is no longer there as it was (an edited note moves to the
    top of Notes' list, where "newest" would take it for the attempt's)."""
    page = searched(phone, bundle_id, text)
    kept, made = kept_rows(step), None
    if kept is not None:
        shown = Counter(row_texts(page, r) for r in result_rows(page, matches))
        made = made_since(step, kept, shown, "edited or gone", "rows")
    for _ in range(n):
        rows = [(r, row_texts(page, r) if made is not None else "")
                for r in result_rows(page, matches)]
        if made is not None:
            rows = [(r, shown_as) for r, shown_as in rows if made[shown_as] > 0]
        if not rows:
            raise step_error(step, f"no result row for {text!r} is left on screen to delete")
        target, shown_as = rows[0] if newest_first else rows[-1]
        if made is not None:
            made[shown_as] -= 1
        _delete_row(phone, step, target)
        page = phone.page()
    stop_app(phone, bundle_id)


@DELETERS.register("notes_titled")
def _notes_titled(phone: Phone, step: Step, text: str, n: int) -> None:
    _delete_found(phone, step, NOTES, text, n, titled(text), newest_first=True)


@DELETERS.register("notes_containing")
def _notes_containing(phone: Phone, step: Step, text: str, n: int) -> None:
    _delete_found(phone, step, NOTES, text, n, any_note, newest_first=True)


@DELETERS.register("reminders_titled")
def _reminders_titled(phone: Phone, step: Step, text: str, n: int) -> None:
    _delete_found(phone, step, REMINDERS, text, n, titled(text), newest_first=False)


_SEARCHED: dict[str, tuple[str, Callable[[str], Callable[[str], bool]]]] = {
    "notes_titled": (NOTES, titled), "notes_containing": (NOTES, lambda text: any_note),
    "reminders_titled": (REMINDERS, titled)}
"""Each searched count's app, and which result rows it counts for its text."""


def _dig(name: str) -> Callable[[Phone, Step, str, Counter[str]], int]:
    bundle, matching = _SEARCHED[name]

    def dig(phone: Phone, step: Step, text: str, kept: Counter[str]) -> int:
        return dig_out(phone, step, bundle, text, matching(text), kept)
    return dig


for _name in _SEARCHED:
    DIGGERS.register(_name)(_dig(_name))


def dig_out(phone: Phone, step: Step, bundle_id: str, text: str,
            matches: Callable[[str], bool], kept: Counter[str]) -> int:
    """Search the app for `text` and delete, newest first, result rows shown more often than
    `kept` lists them, one per search, until the results fit on a screen; return how many went.

    Raises:
        StepError: every row on screen is one of those kept (what buried the count lies below,
            where an app that adds new rows last puts them), or `DIG_LIMIT` went and the
            results still do not fit.
    """
    for deleted in range(DIG_LIMIT + 1):
        page = searched(phone, bundle_id, text)
        rows = result_rows(page, matches)
        if fits_on_screen(page, rows):
            return deleted
        if deleted == DIG_LIMIT:
            break
        shown = [(row, row_texts(page, row)) for row in rows
                 if fits_on_screen(page, [row])]
        seen = Counter(texts for _, texts in shown)
        extra = [row for row, texts in shown if seen[texts] > kept[texts]]
        if not extra:
            raise step_error(step, f"more results for {text!r} than one screen shows, and each "
                                   "one shown was there before: what buried the count cannot "
                                   "be told from it, so none is deleted")
        _delete_row(phone, step, extra[0], exact=False)
        phone.forget()
    raise step_error(step, f"{DIG_LIMIT} results for {text!r} deleted, and still more than one "
                           "screen shows: the rest stay")
