"""Deleting what a run's agents left, when the run ends (`runner.tidy` says when, and what the
run listed before its first attempt to delete down to): Safari's tabs beyond the run's start,
alarms and World Clock cities not among those it listed, notes and reminders beyond the rows
its counts listed, and whatever of what it counted at none is there. Each says what went, or
why it could not; the phone's own stay."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterable, Mapping

from phoneshell.checks import Need
from phoneshell.checks.effects import counted
from phoneshell.device import (
    DIGGERS,
    SEARCHES,
    Overflow,
    ProbeError,
    alarms_to_turn,
    run_probe,
    run_rows,
    run_step,
    switch_alarms_back,
    with_counts,
)
from phoneshell.device.alarms import alarm_label
from phoneshell.device.probes import CLOCK, HIDDEN_BY
from phoneshell.device.world_clock import add_cities
from phoneshell.errors import DeviceError, StepError
from phoneshell.runner.counts import (
    Count,
    left_since_start,
    run_reading,
    take_counts,
    wholes,
)
from phoneshell.runner.rig import Rig
from phoneshell.tasks import Step
from phoneshell.xcui import SAFARI

TABS, ALARMS, CITIES = "safari_tabs", "alarms", "world_clocks"

def _delete_since(rig: Rig, run_id: str, probe: str, app: str, start: int,
                  now: Callable[[], int], rows: tuple[str, ...] | None, what: str,
                  text: str = "") -> tuple[int, str]:
    """Delete what `probe` counts (of `text`) beyond `start` (`now()` counts it, leaving its
    screen up for the deleting; `rows`: what the start count was made of), logged under the
    run, phase `teardown`: how many went, or why none could (naming `what`)."""
    with rig.under_run(run_id, "teardown"):
        try:
            count = now()
            if count <= start:
                run_step(rig.phone, Step("terminate", app))
                return 0, ""
            key = (probe, text)
            run_step(rig.phone, with_counts(
                Step("delete_created", options=(("probe", probe), ("text", text))),
                {key: (start, count)}, None if rows is None else {key: rows}))
            return count - start, ""
        except ProbeError as exc:
            return 0, f"{what} could not be counted, so they stay: {exc.message}"
        except (StepError, DeviceError) as exc:
            return 0, f"{what} could not all be removed: {exc}"


def delete_rows_left(rig: Rig, run_id: str, known: Mapping[Need, Count] | None = None) -> str:
    """Count again each count of notes or reminders the run listed before its first attempt
    (`Rig.listed`; one launch of an app for all its searches) and delete down to what it
    listed, digging out first where an agent buried it beyond counting: notes with the words a
    task counts, made where no task deletes them, would make the next run's attempts of that
    task fail, or not be scored. Say what went, or why it could not ("" when nothing was
    left). `known`: wholes the phone holds as given (`OwnerWatch.current`), not read again.
    A count of some of a whole is always read: a search finds what its whole does not list (a
    completed reminder, a note in another folder)."""
    listed = {need: rows for need, rows in rig.listed.items() if need.name in DIGGERS}
    if not listed:
        return ""
    known = known or {}
    # With the whole each counts some of, first in its app (`counts.wholes`).
    with rig.under_run(run_id, "teardown"):
        counts = {**known, **take_counts(rig, [need for need in wholes(sorted(
            listed, key=lambda n: (SEARCHES[n.name], n.name, n.arg))) if need not in known])}
    said: list[str] = []
    for need, count in counts.items():
        if need not in listed:
            continue  # a whole, read for the counts of some of it
        changed = left_since_start(rig, need, counts)
        if changed:  # the owner's notes may be among what it would take for the agents'
            said.append(changed)
            continue
        rows = listed[need]
        if count.value is not None and count.value <= len(rows) or \
                count.value is None and not count.overflow:
            if count.value is None:
                said.append(f"{counted(need)} could not be counted, so what this run's agents "
                            f"left of it stays: {count.why}")
            continue
        dug = [0]

        def now(need: Need = need, rows: tuple[str, ...] = rows, dug: list[int] = dug) -> int:
            try:
                return int(run_probe(rig.phone, need.name, need.arg, leave_open=True))
            except Overflow:
                dug[0] = DIGGERS.lookup(need.name)(rig.phone, Step("probe", need.name),
                                                   need.arg, Counter(rows))
                return int(run_probe(rig.phone, need.name, need.arg, leave_open=True))

        gone, why = _delete_since(rig, run_id, need.name, SEARCHES[need.name], len(rows), now,
                                  rows, f"{counted(need)} this run's agents left", need.arg)
        said.append(why or f"deleted {counted(need)} {gone + dug[0]} this run's agents left; "
                           f"{len(rows)} left, as the run found them")
    return "; ".join(said)


def close_tabs(rig: Rig, run_id: str, start: int) -> str:
    """Close the tabs opened since Safari had `start`; say what was done, or why it could not
    be ("" when none were opened)."""
    gone, why = _delete_since(rig, run_id, TABS, SAFARI, start,
                              lambda: int(run_probe(rig.phone, TABS, "", leave_open=True)),
                              None, "the Safari tabs this run opened")
    return why or (f"closed the {gone} Safari tab(s) this run opened; {start} open, as the run "
                   "found them" if gone else "")


def delete_alarms_left(rig: Rig, run_id: str, start: tuple[str, ...]) -> str:
    """Delete the alarms not among `start`, then turn back the switches of those that were
    (an agent that switches the owner's alarm off silences it for good); say what was done, or
    why it could not be ("" when there was nothing to do)."""
    listed: list[tuple[str, ...]] = []

    def now() -> int:
        rows = run_rows(rig.phone, ALARMS, "", leave_open=True)
        listed.append(rows)
        # by label: an owner's alarm an agent switched is not one it saved
        return len(start) + sum((Counter(map(alarm_label, rows))
                                 - Counter(map(alarm_label, start))).values())

    gone, why = _delete_since(rig, run_id, ALARMS, CLOCK, len(start), now, start,
                              "the alarms this run's agents saved")
    said = why or (f"deleted the {gone} alarm(s) this run's agents saved; {len(start)} left, as "
                   "the run found them" if gone else "")
    if why or not listed or not alarms_to_turn(start, listed[0]):
        return said
    with rig.under_run(run_id, "teardown"):
        try:
            turned = switch_alarms_back(rig.phone, start)
            back = f"turned back the switch of {len(turned)} alarm(s) an agent turned: " \
                   f"{', '.join(turned)}" if turned else ""
        except (ProbeError, StepError, DeviceError) as exc:
            back = f"the alarms an agent switched could not all be turned back: {exc}"
    return "; ".join(line for line in (said, back) if line)


def delete_cities_left(rig: Rig, run_id: str, start: tuple[str, ...]) -> str:
    """Delete World Clock's cities not among `start`, and add back those of `start` an agent
    deleted (the run listed them by name); say what was done, or why it could not be (""
    when there was nothing to do)."""
    listed: list[tuple[str, ...]] = []

    def now() -> int:
        listed.append(run_rows(rig.phone, CITIES, "", leave_open=True))
        return len(start) + len(set(listed[-1]) - set(start))

    gone, why = _delete_since(rig, run_id, CITIES, CLOCK, len(start), now, start,
                              "the World Clock cities this run's agents added")
    said = why or (f"deleted the {gone} World Clock cit{'y' if gone == 1 else 'ies'} this run's "
                   f"agents added" if gone else "")
    lost = [city for city in start if listed and city not in listed[0]]
    if lost and not why:
        with rig.under_run(run_id, "teardown"):
            try:
                add_cities(rig.phone, Step("probe", CITIES), lost)
                back = f"added back the World Clock cities an agent deleted: {', '.join(lost)}"
            except (ProbeError, StepError, DeviceError) as exc:
                back = f"the World Clock cities an agent deleted could not all be added back: {exc}"
        said = "; ".join(line for line in (said, back) if line)
    if said and not why:
        said += f"; {len(start)} left, as the run found them"
    return said


def delete_left(rig: Rig, run_id: str, needs: Iterable[Need]) -> str:
    """Count `needs` (logged under the run, phase `teardown`) and delete all of each that is
    there: they were at none before the first attempt, the harness never makes them, and only
    the run's agents acted since. Say what went, or why it could not ("" when none was
    there). Left, a timer or a stopwatch would make the next run's tasks that start from none
    of it not scored, as the owner's. The timer's wheels found at a duration counted are
    dialled back to what the run read before its first attempt (`counts.run_reading`)."""
    needs = tuple(sorted(needs, key=lambda need: (need.name, need.arg)))
    if not needs:
        return ""
    names = {need.name for need in needs}
    # what another's items hide (`HIDDEN_BY`) is counted once they are deleted
    later = tuple(n for n in needs if HIDDEN_BY.get(n.name) in names)
    first = tuple(n for n in needs if n not in later)
    return "; ".join(said for said in (_delete_counted(rig, run_id, first),
                                       _delete_counted(rig, run_id, later)) if said)


def _delete_counted(rig: Rig, run_id: str, needs: tuple[Need, ...]) -> str:
    """`delete_left` for `needs` counted together."""
    if not needs:
        return ""
    with rig.under_run(run_id, "teardown"):
        counts = take_counts(rig, needs)
    said: list[str] = []
    for need, count in counts.items():
        if count.value is None:
            said.append(f"{counted(need)} could not be counted, so what this run's agents left "
                        f"of it stays: {count.why}")
        elif count.value:
            left = f"{counted(need)} {count.value} this run's agents left"
            kept = run_reading(rig, need, count._replace(rows=None if count.rows is None else ()))
            gone, why = _delete_since(rig, run_id, need.name, "", 0,  # some there: no app stopped
                                      functools.partial(int, count.value),  # counted already
                                      kept.rows, left, need.arg)
            if gone:
                rig.at_none.add(need)
            said.append(why or f"deleted {left}")
    return "; ".join(said)


__all__ = ["ALARMS", "CITIES", "TABS", "close_tabs", "delete_alarms_left", "delete_cities_left",
           "delete_left", "delete_rows_left"]
