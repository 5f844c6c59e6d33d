"""Probes: harness procedures that read a count or a value off the phone through its own UI.

Side-effect checks compare a count taken before the agent with one taken after capture
(`notes_titled`: notes whose title is X); answer checks compare the agent's answer with a value
the device shows (`settings_value`: the Model Number row). A probe works the same on the
simulated iPhone and on a real one, because it only taps, types and reads as a person would.

Each probe starts its app fresh (terminate, launch), so what the agent left on screen cannot
hide anything, and stops it again when done, unless a count may leave its screen up for the step
after it (`run_probe`'s `leave_open`, `starts_where_counted`: the teardown's `delete_created`
starts from the search results, `clean_alarms` from an alarm list that fit one screen). A probe that
cannot read its answer raises `ProbeError` with the reason; the check that needed it then fails
closed.

This module runs probes and holds the counts taken in Notes' own search and the alarms count;
the value probes live in `value_probes`, the Safari tabs count in `safari_tabs`, other counts
beside what they count (`reminders`, `wholes`, `owned`, `timers`, `world_clock`).
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from typing import TypeVar

from phoneshell.device.alarms import ALARMS_LEFT, alarm_label, alarm_text, open_alarms, read_alarms
from phoneshell.device.phone import Phone
from phoneshell.device.steps import (
    back_until,
    run_steps,
    screen_signature,
    scroll_points,
    still_left,
)
from phoneshell.errors import RIG_DOWN, DeviceError, PhoneshellError, StepError
from phoneshell.registry import Registry
from phoneshell.tasks import Step
from phoneshell.tasks.probes import PROBES
from phoneshell.tree import Element, PageSource
from phoneshell.xcui import NOTES as NOTES  # re-exported: the probed apps are named here

REMINDERS = "com.apple.reminders"
CLOCK = "com.apple.mobiletimer"
SEARCH_FIELD, STATIC_TEXT = "XCUIElementTypeSearchField", "XCUIElementTypeStaticText"
SEARCHED = " searched "
"""What `searched` tells `Phone.leave`: the bundle id, this, the text."""
LISTED = " list"
"""What a whole-collection count that leaves its app's list up tells `Phone.leave`, after the
bundle id: a search in the same app starts from that list (`wholes`)."""
SCROLLS = 6


class ProbeError(PhoneshellError):
    """A probe could not read what it was asked for; the message says why."""


class Overflow(ProbeError):
    """A count found more than it can read (rows beyond one screen of results, identical rows
    across a scroll, a list longer than it scrolls): the phone holds too much of what is
    counted, where any other `ProbeError` says the phone could not be read."""


Reader = Callable[[Phone, str], "int | str"]
READERS: Registry[Reader] = Registry("probe", "phoneshell schema --probes")
RowReader = Callable[[Phone, str], tuple[str, ...]]
"""What a count that counts result rows counted: each row as it shows (`row_texts`)."""
ROWS: Registry[RowReader] = Registry("row-counting probe", "phoneshell schema --probes")
T = TypeVar("T")


def probe(name: str) -> Callable[[Reader], Reader]:
    """Register the decorated function as the procedure of probe `name` (which must exist)."""
    PROBES.lookup(name)
    return READERS.register(name)


_LEAVE_OPEN: ContextVar[bool] = ContextVar("leave_open", default=False)
"""Whether the probe running now may leave its search up (`run_probe`'s `leave_open`)."""


def run_probe(phone: Phone, name: str, arg: str, leave_open: bool = False) -> int | str:
    """Run probe `name` for `arg`; a count probe returns an int, a value probe a string.

    Args:
        leave_open: a count may leave its screen up (`Phone.leave`) for the next step, which
            starts from it if nothing acted in between (`starts_where_counted`), instead of
            stopping its app.

    Raises:
        ProbeError: the probe could not read its answer (the message says why).
    """
    return running(phone, name, arg, leave_open, READERS.lookup(name))


def run_rows(phone: Phone, name: str, arg: str, leave_open: bool = False) -> tuple[str, ...]:
    """Run count probe `name` (one in `ROWS`) for `arg`, returning each row it counted as the
    row shows (`row_texts`): the count, and what it was made of. See `run_probe`."""
    return running(phone, name, arg, leave_open, ROWS.lookup(name))


def running(phone: Phone, name: str, arg: str, leave_open: bool,
            read: Callable[[Phone, str], T]) -> T:
    """Run probe `name`'s reader `read` for `arg`, its device and step errors as `ProbeError`
    (see `run_probe`)."""
    token = _LEAVE_OPEN.set(leave_open)
    try:
        with phone.keeping_reads():
            return read(phone, arg)
    except RIG_DOWN:
        raise  # the rig, not the probe: the caller stops
    except (StepError, DeviceError) as exc:
        raise ProbeError(f"probe {name}({arg!r}): {exc.message}") from exc
    finally:
        _LEAVE_OPEN.reset(token)


def fresh_app(phone: Phone, bundle_id: str, *steps: Step,
              ready: Callable[[PageSource], bool] | None = None) -> PageSource:
    """Start an app from scratch, run steps in it, and return the screen. An app reopens where
    it stopped (iOS state restoration: Reminders in a list, Notes perhaps in a note); with
    `ready`, the screen the steps start from, it is first taken back there (`back_until`)."""
    run_steps(phone, [Step("terminate", bundle_id), Step("launch", bundle_id)])
    if ready is not None:
        back_until(phone, ready)
    run_steps(phone, list(steps))
    return phone.page()


def has_search_field(page: PageSource) -> bool:
    """Whether the screen shows a search field: where an app's own search starts."""
    return any(e.type == SEARCH_FIELD for e in page.on_screen())


def stop_app(phone: Phone, bundle_id: str) -> None:
    run_steps(phone, [Step("terminate", bundle_id)])


NO_RESULTS = ("no results", "no matches")


def titled(title: str) -> Callable[[str], bool]:
    """Whether a result row's label is `title`, but for outer spaces and its first letter's
    case: iOS capitalises the first letter of a note or reminder by itself, and nothing else.
    'COLLECT PARCEL' is another title than 'collect parcel'."""
    want = _first_folded(title.strip())
    return lambda label: _first_folded(label.strip()) == want


def _first_folded(text: str) -> str:
    return text[:1].lower() + text[1:]


def any_note(label: str) -> bool:
    """Every row of Notes' search: it matches title and text alike, so each result contains
    what was searched for."""
    return bool(label.strip())


def result_rows(page: PageSource, matches: Callable[[str], bool], cells_only: bool = False,
                ) -> list[Element]:
    """Result rows whose label matches: cells, or, in lists without cells (Reminders), the
    titles themselves. A cell and the title text inside it count once."""
    shown = [e for e in page.on_screen() if e.label.strip().lower() not in NO_RESULTS]
    cells = [e for e in shown if e.type == "XCUIElementTypeCell" and matches(e.label)]
    if cells or cells_only:
        return cells
    return [e for e in shown if e.type == "XCUIElementTypeStaticText" and matches(e.label)]


def fits_on_screen(page: PageSource, rows: list[Element]) -> bool:
    """Whether search results end above where the screen stops showing them: the top of the
    keyboard the page lists, or the screen's bottom when none shows (rows under either may
    hide more). Read from the page, so it holds however the phone is held: in landscape the
    keyboard covers half of a 402-point-tall screen, and no share of the height says where."""
    if not rows:
        return True
    end = max(r.y + r.height for r in rows)
    tops = [e.y for e in page.on_screen() if e.short_type == "Keyboard"]
    # a row ending right at the keyboard leaves the next one under it, listed on screen; one
    # ending right at the bottom may have the next starting below it, listed nowhere
    return end <= min(tops) if tops else end < page.height


def _counted(page: PageSource, rows: list[Element], what: str) -> int:
    """How many rows; refuses when they might run on below what the screen shows."""
    if not fits_on_screen(page, rows):
        raise Overflow(f"more {what} than one screen shows; cannot count them")
    return len(rows)


def search_steps(text: str) -> tuple[Step, Step]:
    """Tap the app's search field and type `text`: the field found by its type, since a note or
    a reminder titled "Search" (runs leave those) shares its text."""
    return Step.tap_on("Search", "SearchField"), Step("type", text)


def searched(phone: Phone, bundle_id: str, text: str) -> PageSource:
    """The results of an app's own search field for `text`, from a fresh start; or, when a
    count left them up (`run_probe`'s `leave_open`) and nothing acted since, those, once a read
    shows the app in front with `text` in its search field; or, when it left the same app's
    results for another text up, those cleared (the field's "Clear text") and `text` typed in
    their place: one launch serves a run of searches (the counts a run takes at its start)."""
    key = f"{bundle_id}{SEARCHED}{text}"
    left = still_left(phone, key, bundle_id, lambda p: _searching(p, text))
    if left is not None:
        # still up for the step after, as when typed: two counts may read one search (every
        # reminder titled X, then the open ones) before the teardown deletes from it
        phone.leave(key)
        return left
    other = phone.left()
    before = other.partition(SEARCHED)[2] if other.startswith(f"{bundle_id}{SEARCHED}") else ""
    if before and still_left(phone, other, bundle_id, lambda p: _searching(p, before)):
        run_steps(phone, [Step.tap_on("Clear text", "Button"), Step("type", text)])
        page = phone.page()
    elif other == f"{bundle_id}{LISTED}" and still_left(phone, other, bundle_id, _search_field):
        run_steps(phone, search_steps(text))  # the whole list a count left up (`wholes`)
        page = phone.page()
    else:
        page = fresh_app(phone, bundle_id, *search_steps(text), ready=has_search_field)
    phone.leave(key)
    return page


def _searching(page: PageSource, text: str) -> bool:
    return any(e.type == SEARCH_FIELD and e.value == text for e in page.on_screen())


def _search_field(page: PageSource) -> bool:
    """Whether the app's search field shows, empty (its placeholder as its value)."""
    return any(e.type == SEARCH_FIELD and e.value in ("", e.label) for e in page.on_screen())


SEARCHES = {"notes_titled": NOTES, "notes_containing": NOTES, "reminders_titled": REMINDERS,
            "open_reminders_titled": REMINDERS}
"""The counts taken in an app's own search field, by the app."""
COUNTED_IN = {**SEARCHES, "notes": NOTES, "reminders": REMINDERS, "alarms": CLOCK,
              "clock_timers": CLOCK, "stopwatch": CLOCK, "world_clocks": CLOCK,
              "timer_dialled": CLOCK}
"""The counts that may leave their app up for the next count in it, by the app: consecutive
counts in one app share its launch (a search cleared and typed again, or typed into the list
a whole count left: `searched`; another of Clock's tabs selected: `alarms.restart_clock`)."""


HIDDEN_BY = {"timer_dialled": "clock_timers"}
"""Counts that read none while another count's items are there (a timer running or paused
takes the wheels' place): their none proves nothing while the other is not none, and they are
counted again after what hides them is deleted."""


def leaving_open() -> bool:
    """Whether the count running now may leave its screen up (`run_probe`'s `leave_open`)."""
    return _LEAVE_OPEN.get()


def done_searching(phone: Phone, bundle_id: str) -> None:
    """Stop the app a search ran in, unless the probe may leave its results up."""
    if not leaving_open():
        stop_app(phone, bundle_id)


def starts_where_counted(step: Step, name: str, arg: str) -> bool:
    """Whether teardown step `step` can start where count `name`(`arg`) ends, when the count
    leaves its screen up (`run_probe`'s `leave_open`): the `delete_created` of what that count
    counted starts from its search results, `clean_alarms` from the `alarms` list."""
    if step.kind == "delete_created":
        return (step.option("probe"), step.option("text")) == (name, arg)
    return step.kind == "clean_alarms" and name == "alarms"


def close_left_search(phone: Phone) -> None:
    """Stop the app whose search results a count left up, if they are still up: nothing to
    delete came of them, and an app reopens on a search typed into it. A plain screen a count
    left (a Clock tab) stays for the next step, which may start from it (`clean_alarms` after
    the alarms count) or stops the app. What was left is named by its bundle id first."""
    left = phone.left()
    if SEARCHED in left:
        stop_app(phone, left.split(" ", 1)[0])


def row_texts(page: PageSource, row: Element) -> str:
    """What a result row shows, as one string: the texts inside it (a note's title, then its
    date and first words), or its label when it holds none. Two notes with one title differ
    here, and an edited note differs from what it was."""
    inside = [e.label for e in page.on_screen() if e.type == STATIC_TEXT and e.label
              and page.holds(row, e)]
    return " | ".join(inside) if inside else row.label


def rows_titled(phone: Phone, bundle_id: str, title: str, what: str,
                keep: Callable[[PageSource, Element], bool] | None = None) -> tuple[str, ...]:
    """Search results whose title is `title` (`titled`), up to one screen of them (the rows
    `keep` leaves out count toward that screen too: they are on it); with `keep`, only the
    rows it keeps (it may raise `ProbeError` for a row it cannot judge)."""
    page = searched(phone, bundle_id, title)
    rows = result_rows(page, titled(title))
    _counted(page, rows, f"{what} titled {title!r}")
    kept = [r for r in rows if keep is None or keep(page, r)]
    done_searching(phone, bundle_id)
    return tuple(row_texts(page, r) for r in kept)


@ROWS.register("notes_titled")
def notes_titled_rows(phone: Phone, arg: str) -> tuple[str, ...]:
    """Notes whose title (first line) is `arg` (`titled`): searched for in Notes' own search
    field, counted in the results (up to one screen of them)."""
    return rows_titled(phone, NOTES, arg, "notes")


@ROWS.register("notes_containing")
def notes_containing_rows(phone: Phone, arg: str) -> tuple[str, ...]:
    """Notes whose title or text contains `arg`: every row Notes' own search finds for it (up to
    one screen of them)."""
    page = searched(phone, NOTES, arg)
    rows = result_rows(page, any_note, cells_only=True)
    _counted(page, rows, f"notes with {arg!r}")
    done_searching(phone, NOTES)
    return tuple(row_texts(page, r) for r in rows)


@probe("notes_titled")
def notes_titled(phone: Phone, arg: str) -> int:
    """How many `notes_titled_rows` finds."""
    return len(notes_titled_rows(phone, arg))


@probe("notes_containing")
def notes_containing(phone: Phone, arg: str) -> int:
    """How many `notes_containing_rows` finds."""
    return len(notes_containing_rows(phone, arg))


def scrolled_down(phone: Phone) -> bool:
    """Scroll down one step; whether anything moved."""
    before = screen_signature(phone)
    start, end = scroll_points(phone, "down")
    phone.drag(start, end)
    return phone.poll(lambda: screen_signature(phone) != before, 1.0)


def merge_scrolled(seen: list[str], shown: list[str]) -> list[str]:
    """Add a scrolled read's rows to what was seen, joined where the end of `seen` is the start
    of `shown`, so two alarms with the same time on one screen count twice.

    Raises:
        ProbeError: identical rows span the scroll, so more than one join fits and the count
            would be a guess.
    """
    fits = [k for k in range(min(len(seen), len(shown)), 0, -1) if seen[-k:] == shown[:k]]
    if len(fits) > 1:
        raise Overflow(f"identical rows ({shown[0]!r}) run across a scroll; cannot tell how "
                       "many there are")
    return seen + shown[fits[0] if fits else 0:]


@ROWS.register("alarms")
def alarms_rows(phone: Phone, arg: str) -> tuple[str, ...]:
    """Alarms in Clock's Alarms list (rows with their switch, read as the cleanup step reads
    them), each as `alarm_text` shows it, scrolling through the list; with `arg`, only rows
    whose label contains it."""
    step = Step("probe", "alarms")
    open_alarms(phone, step)
    view = read_alarms(phone, step)
    seen = [alarm_text(r) for r in view.rows]
    if view.ends and _LEAVE_OPEN.get():
        # the whole list on one screen, not moved: the cleanup after may start from it
        phone.leave(ALARMS_LEFT)
        return _labelled(seen, arg)
    for _ in range(SCROLLS):
        # The source shows where the list ends; only a list ending just at the screen's edge
        # is dragged to find out (and then nothing moving means the end).
        if view.ends or not scrolled_down(phone):
            break
        view = read_alarms(phone, step)
        seen = merge_scrolled(seen, [alarm_text(r) for r in view.rows])
    else:
        raise Overflow(f"the alarm list is longer than {SCROLLS} screens; cannot count it")
    stop_app(phone, CLOCK)
    return _labelled(seen, arg)


def _labelled(rows: list[str], arg: str) -> tuple[str, ...]:
    """The rows whose label (before the switch) contains `arg`, ignoring case."""
    return tuple(r for r in rows if arg.lower() in alarm_label(r).lower())


@probe("alarms")
def alarms(phone: Phone, arg: str) -> int:
    """How many `alarms_rows` lists."""
    return len(alarms_rows(phone, arg))
