"""The `delete_created` step: remove what an attempt added to a count, and nothing that was there.

A task whose agent creates something (a note, a reminder, a tab) counts it before the agent and
after capture, with its side-effect check's probe. Its teardown names the same probe:

    teardown:
    - delete_created: {probe: notes_titled, text: phoneshell benchmark}

The runner binds the attempt's two counts into the step (`with_counts`), and the step deletes as
many as the count grew by, newest first, through the app's own UI as a person would: a note or a
reminder by a swipe left and its Delete, a tab by its card's Close, checking after each that
exactly that one went. Nothing is deleted when the count did not grow, or when there is no count
from before the agent (it never ran), so what was there before is never touched. "Newest" is the
app's own order: Notes lists the most recently edited first; Reminders and Safari add new ones
last. A searched count also binds what each row it counted before the agent showed (`kept`), and
then only rows not among those go; when one of those is no longer shown as it was (an edited note
moves to the top of Notes' list), nothing is deleted and the step fails, saying so. When the count
after capture is missing, the step counts again itself. When that count left its search results up
(`run_probe`'s `leave_open`) and nothing acted since, the step starts from them; with nothing to
delete, it stops their app.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace

from phoneshell.device.alarms import (
    MAX_DELETES,
    AlarmRow,
    alarm_label,
    alarm_on,
    alarm_text,
    delete_alarms,
    flip_switch,
    swipe_to_delete,
)
from phoneshell.device.phone import Phone
from phoneshell.device.probes import (
    CLOCK,
    NOTES,
    REMINDERS,
    SAFARI,
    ProbeError,
    any_note,
    close_left_search,
    result_rows,
    row_texts,
    run_probe,
    run_rows,
    searched,
    stop_app,
    tab_count,
    tab_overview,
    titled,
)
from phoneshell.device.steps import executes, scroll_points
from phoneshell.errors import StepError
from phoneshell.registry import Registry
from phoneshell.tasks import Step
from phoneshell.tree import Element, PageSource

Readings = Mapping[tuple[str, str], tuple[int | None, int | None]]
"""(probe, text) -> (the count before the agent, the count after capture); None: not taken."""
Deleter = Callable[[Phone, Step, str, int], None]
"""Delete the `n` newest of what probe counts for `text`."""
DELETERS: Registry[Deleter] = Registry("deletable probe", "phoneshell schema --steps")
CELL = "XCUIElementTypeCell"
KEPT = "kept"
"""The option `with_counts` binds the rows of the count before the agent under (JSON)."""
MAX_SCROLLS = 20


def cleanup_counts(steps: Iterable[Step]) -> tuple[tuple[str, str], ...]:
    """The (probe, text) counts that `delete_created` steps among `steps` need taken."""
    return tuple((s.option("probe"), s.option("text")) for s in steps
                 if s.kind == "delete_created")


def with_counts(step: Step, counts: Readings,
                rows: Mapping[tuple[str, str], tuple[str, ...]] | None = None) -> Step:
    """`step` with this attempt's counts of its probe bound in, and the rows its count before
    the agent was made of when the probe lists them (`probes.ROWS`): `delete_created` uses
    them, and `clean_alarms` the alarms counted before the agent (which it spares); any other
    step comes back as it is."""
    if step.kind == "clean_alarms":
        listed = (rows or {}).get(("alarms", ""))
        return step if listed is None else replace(step, options=(
            *step.options, (KEPT, json.dumps(listed))))
    if step.kind != "delete_created":
        return step
    key = (step.option("probe"), step.option("text"))
    before, after = counts.get(key, (None, None))
    bound = tuple((k, v) for k, v in step.options if k not in ("before", "after", KEPT))
    kept = (rows or {}).get(key)
    return replace(step, options=(*bound, ("before", "" if before is None else str(before)),
                                  ("after", "" if after is None else str(after)),
                                  *(((KEPT, json.dumps(kept)),) if kept is not None else ())))


def kept_rows(step: Step) -> Counter[str] | None:
    """The rows the count before the agent was made of, if bound (`with_counts`)."""
    given = step.option(KEPT)
    return Counter(json.loads(given)) if given else None


@executes("clean_alarms")
def clean_alarms(phone: Phone, step: Step) -> None:
    """Delete artifact alarms (unnamed, one-off, switched off: `alarms.AlarmRow.is_artifact`),
    sparing every alarm whose label the attempt counted before its agent, when it counted them
    (`with_counts`): an owner's one-off alarm an agent switched off reads as an artifact, and
    is the owner's."""
    kept = kept_rows(step)
    spared = _labels(kept) if kept is not None else Counter()
    delete_alarms(phone, step, lambda row: row.is_artifact and not spared[row.label],
                  MAX_DELETES)


def alarms_to_turn(start: Iterable[str], now: Iterable[str]) -> dict[str, int]:
    """How many alarms of each label to turn on (positive) or off (negative) for the list `now`
    to be switched as `start` was (`alarms` rows), of the labels it holds as many of as `start`
    did (for the others, which is which cannot be told)."""
    start, now = tuple(start), tuple(now)
    before, after = _labels(Counter(start)), _labels(Counter(now))
    on_before = Counter(alarm_label(r) for r in start if alarm_on(r))
    on_now = Counter(alarm_label(r) for r in now if alarm_on(r))
    return {label: on_before[label] - on_now[label] for label in before
            if after[label] == before[label] and on_before[label] != on_now[label]}


def switch_alarms_back(phone: Phone, start: Iterable[str]) -> tuple[str, ...]:
    """Turn each alarm's switch back to how `start` (`alarms` rows, before the run) had it, for
    each label the list holds as many alarms of as `start` did (else which is which cannot be
    told, and none of that label is touched); return the label of each alarm turned.

    Raises:
        ProbeError: the alarms could not be listed.
        StepError: a switch did not turn.
    """
    step = Step("probe", "alarms")
    turn = alarms_to_turn(start, run_rows(phone, "alarms", "", leave_open=True))
    if not turn:
        return ()
    turned: list[str] = []

    def wanted(row: AlarmRow) -> bool:
        left = turn.get(row.label, 0)
        return (left > 0 and not row.on) or (left < 0 and row.on)

    def took(row: AlarmRow) -> None:
        turn[row.label] += 1 if row.on else -1  # it was on: one fewer to turn off
        turned.append(row.label)

    delete_alarms(phone, step, wanted, sum(abs(n) for n in turn.values()), took, flip_switch)
    stop_app(phone, CLOCK)
    return tuple(turned)


@executes("delete_created")
def delete_created(phone: Phone, step: Step) -> None:
    """Delete what the count grew by since before the agent (see the module docstring)."""
    probe, text = step.option("probe"), step.option("text")
    before, after = step.option("before"), step.option("after")
    if not before:
        return  # no count before the agent: it never ran, so it made nothing
    try:
        now = int(after) if after else int(run_probe(phone, probe, text))
        if now > int(before):
            DELETERS.lookup(probe)(phone, step, text, now - int(before))
        else:
            close_left_search(phone)
    except ProbeError as exc:
        raise _fail(step, exc.message) from exc


def _made(step: Step, kept: Counter[str], shown: Counter[str], how: str,
          what: str) -> Counter[str]:
    """The rows shown now that were not among those counted before the agent (`kept`).

    Raises:
        StepError: a row that was there is no longer shown as it was (`how` it can change):
            which `what` the attempt made cannot be told, and none is deleted.
    """
    changed = kept - shown
    if changed:
        raise _fail(step, f"{next(iter(changed))!r}, there before the agent, is no longer shown "
                          f"as it was ({how}), so which {what} the attempt made cannot be told: "
                          "none deleted")
    return shown - kept


def _fail(step: Step, what: str) -> StepError:
    return StepError(f"{step.describe()}: {what}")


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


def _delete_row(phone: Phone, step: Step, found: Element) -> None:
    """Swipe the row of `found` left, tap its Delete, and check that it, and only it, went."""
    page = phone.page()
    row, before = _row_of(page, found), _cells(page)
    button = swipe_to_delete(phone, step, row)()
    if button is None:
        raise _fail(step, f"the Delete button of {found.label!r} went away")
    phone.tap(*button.centre)

    def gone() -> bool:
        return before - _cells(phone.page()) == Counter({_named(row): 1})

    if not phone.poll(gone, phone.effect_timeout_s):
        lost = before - _cells(phone.page())
        raise _fail(step, f"deleting {found.label!r} did not take exactly that row away (rows "
                          f"gone: {sorted(lost.elements())})")


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
        made = _made(step, kept, shown, "edited or gone", "rows")
    for _ in range(n):
        rows = [(r, row_texts(page, r) if made is not None else "")
                for r in result_rows(page, matches)]
        if made is not None:
            rows = [(r, shown_as) for r, shown_as in rows if made[shown_as] > 0]
        if not rows:
            raise _fail(step, f"no result row for {text!r} is left on screen to delete")
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


@DELETERS.register("alarms")
def _alarms(phone: Phone, step: Step, text: str, n: int) -> None:
    """Delete the `n` alarms the list gained: labels (time, name, repeat) not among those counted
    before the agent, each a row whose label and switch were not (an owner's alarm an agent
    switched off keeps its label, and stays). Nothing goes when those rows are not known, or
    when a label counted before is no longer shown (edited or gone): then which are the
    attempt's cannot be told, and an owner's alarm is never taken for one."""
    kept = kept_rows(step)
    if kept is None:
        raise _fail(step, "the alarms counted before the agent are not known, so which the "
                          "attempt made cannot be told: none deleted")
    now = Counter(run_rows(phone, "alarms", text, leave_open=True))
    made = _made(step, _labels(kept), _labels(now), "edited or gone", "alarms")
    new_rows = now - kept

    def wanted(row: AlarmRow) -> bool:
        return made[row.label] > 0 and new_rows[alarm_text(row)] > 0

    def took(row: AlarmRow) -> None:
        made[row.label] -= 1
        new_rows[alarm_text(row)] -= 1

    gone = delete_alarms(phone, step, wanted, min(n, sum(made.values())), took)
    if gone < n:
        raise _fail(step, f"{gone} of the {n} alarms the attempt added were found to delete")
    stop_app(phone, CLOCK)


def _labels(rows: Counter[str]) -> Counter[str]:
    """Alarm rows by label alone, their switches left out (`alarm_label`)."""
    found: Counter[str] = Counter()
    for row, times in rows.items():
        found[alarm_label(row)] += times
    return found


@DELETERS.register("safari_tabs")
def _safari_tabs(phone: Phone, step: Step, text: str, n: int) -> None:
    """Close the `n` newest tabs: the last cards of the overview, scrolled to when needed."""
    page = tab_overview(phone)
    for _ in range(n):
        count = tab_count(page)
        for _scroll in range(MAX_SCROLLS):
            closes = [e for e in page.elements if e.type.endswith("Button") and e.label == "Close"]
            if not closes:
                raise _fail(step, f"Safari's tab overview shows no tab to close ({count} open)")
            if closes[-1].visible:
                break
            phone.drag(*scroll_points(phone, "down"))
            page = phone.page()
        else:
            raise _fail(step, "the newest tab's card never came on screen")
        phone.tap(*closes[-1].centre)
        left = count - 1
        if not phone.poll(lambda: tab_count(phone.page()) == left,  # noqa: B023 - used at once
                          phone.effect_timeout_s):
            raise _fail(step, f"closing the newest tab did not leave {left} open")
        page = phone.page()
    stop_app(phone, SAFARI)


__all__ = ["DELETERS", "Readings", "cleanup_counts", "delete_created", "with_counts"]
