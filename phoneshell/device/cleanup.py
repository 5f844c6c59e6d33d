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
)
from phoneshell.device.phone import Phone
from phoneshell.device.probes import (
    CLOCK,
    Overflow,
    ProbeError,
    close_left_search,
    run_probe,
    run_rows,
    stop_app,
)
from phoneshell.device.safari_tabs import tab_count, tab_overview
from phoneshell.device.steps import executes, scroll_points
from phoneshell.errors import StepError
from phoneshell.registry import Registry
from phoneshell.tasks import Step
from phoneshell.xcui import SAFARI

Readings = Mapping[tuple[str, str], tuple[int | None, int | None]]
"""(probe, text) -> (the count before the agent, the count after capture); None: not taken."""
Deleter = Callable[[Phone, Step, str, int], None]
"""Delete the `n` newest of what probe counts for `text`."""
DELETERS: Registry[Deleter] = Registry("deletable probe", "phoneshell schema --steps")
Digger = Callable[[Phone, Step, str, Counter[str]], int]
"""Delete, newest first, the rows of what probe counts for `text` beyond those `kept` (counted
before), until what is left can be counted again (`results.dig_out`); return how many went."""
DIGGERS: Registry[Digger] = Registry("probe that digs out", "phoneshell schema --steps")
CELL = "XCUIElementTypeCell"
KEPT = "kept"
"""The option `with_counts` binds the rows of the count before the agent under (JSON)."""
MAX_SCROLLS = 20
ROWS_FOR = {"clean_alarms": "alarms", "restore_timer": "timer_dialled"}
"""Steps bound with the rows a count read before the agent, by the count's probe (its text is
the step's scalar): the whole alarms list, and the timer's wheels."""


def cleanup_counts(steps: Iterable[Step]) -> tuple[tuple[str, str], ...]:
    """The (probe, text) counts that `delete_created` and `restore_timer` steps among `steps`
    need taken (and that a teardown that ran clean leaves as they were before the agent)."""
    return tuple((s.option("probe"), s.option("text")) if s.kind == "delete_created"
                 else (ROWS_FOR[s.kind], s.arg) for s in steps
                 if s.kind in ("delete_created", "restore_timer"))


def with_counts(step: Step, counts: Readings,
                rows: Mapping[tuple[str, str], tuple[str, ...]] | None = None) -> Step:
    """`step` with this attempt's counts of its probe bound in, and the rows its count before
    the agent was made of when the probe lists them (`probes.ROWS`): `delete_created` uses
    them, `clean_alarms` the alarms counted before the agent (which it spares), and
    `restore_timer` what the timer's wheels read (which it dials back to); any other step
    comes back as it is."""
    if step.kind in ROWS_FOR:
        listed = (rows or {}).get((ROWS_FOR[step.kind], step.arg))
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
        try:
            now = int(after) if after else int(run_probe(phone, probe, text))
        except Overflow:
            # more than one screen of results: an agent made them, newest on top; dig down
            # to what can be counted, sparing what was counted before the agent, then go on
            kept = kept_rows(step)
            if kept is None or probe not in DIGGERS:
                raise
            DIGGERS.lookup(probe)(phone, step, text, kept)
            now = int(run_probe(phone, probe, text))
        if now > int(before):
            DELETERS.lookup(probe)(phone, step, text, now - int(before))
        else:
            close_left_search(phone)
    except ProbeError as exc:
        raise step_error(step, exc.message) from exc


def made_since(step: Step, kept: Counter[str], shown: Counter[str], how: str,
          what: str) -> Counter[str]:
    """The rows shown now that were not among those counted before the agent (`kept`).

    Raises:
        StepError: a row that was there is no longer shown as it was (`how` it can change):
            which `what` the attempt made cannot be told, and none is deleted.
    """
    changed = kept - shown
    if changed:
        raise step_error(step, f"{next(iter(changed))!r}, there before the agent, is no longer "
                               f"shown as it was ({how}), so which {what} the attempt made "
                               "cannot be told: none deleted")
    return shown - kept


def step_error(step: Step, what: str) -> StepError:
    return StepError(f"{step.describe()}: {what}")


@DELETERS.register("alarms")
def _alarms(phone: Phone, step: Step, text: str, n: int) -> None:
    """Delete the `n` alarms the list gained: labels (time, name, repeat) not among those counted
    before the agent, each a row whose label and switch were not (an owner's alarm an agent
    switched off keeps its label, and stays). Nothing goes when those rows are not known, or
    when a label counted before is no longer shown (edited or gone): then which are the
    attempt's cannot be told, and an owner's alarm is never taken for one."""
    kept = kept_rows(step)
    if kept is None:
        raise step_error(step, "the alarms counted before the agent are not known, so which "
                               "the attempt made cannot be told: none deleted")
    now = Counter(run_rows(phone, "alarms", text, leave_open=True))
    made = made_since(step, _labels(kept), _labels(now), "edited or gone", "alarms")
    new_rows = now - kept

    def wanted(row: AlarmRow) -> bool:
        return made[row.label] > 0 and new_rows[alarm_text(row)] > 0

    def took(row: AlarmRow) -> None:
        made[row.label] -= 1
        new_rows[alarm_text(row)] -= 1

    gone = delete_alarms(phone, step, wanted, min(n, sum(made.values())), took)
    if gone < n:
        raise step_error(step, f"{gone} of the {n} alarms the attempt added were found to delete")
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
                raise step_error(step, "Safari's tab overview shows no tab to close "
                                       f"({count} open)")
            if closes[-1].visible:
                break
            phone.drag(*scroll_points(phone, "down"))
            page = phone.page()
        else:
            raise step_error(step, "the newest tab's card never came on screen")
        phone.tap(*closes[-1].centre)
        left = count - 1
        if not phone.poll(lambda: tab_count(phone.page()) == left,  # noqa: B023 - used at once
                          phone.effect_timeout_s):
            raise step_error(step, f"closing the newest tab did not leave {left} open")
        page = phone.page()
    stop_app(phone, SAFARI)


__all__ = ["DELETERS", "Readings", "cleanup_counts", "delete_created", "with_counts"]
