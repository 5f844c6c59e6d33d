"""The counts an attempt takes before the agent and after capture, and what the run knows of each
count on each phone between attempts.

A task that starts from none of something (`none_before`: no timer running) cannot be handed
to an agent while some are there. Whose they are decides the outcome, and the phone is the
witness, not the apps an agent's log happens to show (an agent can start a timer through Siri, or
around the bridge, without Clock ever in front of it). Each rig keeps the counts it last saw at
none on its phone (`Rig.at_none`): counted at the run's start (`count_start`, before any agent),
by an attempt's count, or by a teardown that deleted back to none. The harness never makes what
it counts, and between two counts only this run's agents act on the phone, so a count found
above none where the rig last saw none, or where the run counted none before its first attempt
(`Rig.started`, kept for the whole run and, through the run folder, across a resume:
`runner.phone_start`), is an agent's doing: that attempt fails, naming the agents that acted
since the run last counted it as it started (`changed_by`), and its teardown deletes them, so
the next attempt starts clean. One found above none that the run never saw at none (there
before the run: the owner's) makes the attempt not scored, and is left alone.

A task that starts from some of something (`some_before`: the note a search must find) is the
mirror: found at none where the rig last saw some (`Rig.at_some`), whatever task counted it
then, or where the run counted some before its first attempt, this run's agents deleted it, and
the attempt fails (nothing brings it back, so later attempts of the task fail too:
`Rig.lost`, and the start count); at none where the run never saw some, the phone lacks it
(on a real phone, make it first), and the attempt is not scored.

A count that cannot be taken before the agent makes the attempt not scored, unless the rig read
a number for it earlier in the run (`Rig.counted`; the run counts every count its tasks take
before its first attempt, `count_start`): only the run's agents have acted on the phone since,
so one of them made it uncountable, whatever the probe met (more notes than one screen shows,
`device.Overflow`; an app that no longer opens, a screen WDA cannot read, a list not there), and
the attempt fails, as every later one of the task then does. Else an agent could turn the
attempts it would fail into skips by leaving what they count unreadable, across the terminate
every probe starts with.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from phoneshell.checks import Need, needs_of
from phoneshell.checks.effects import counted, not_at_start, starts_at_none, starts_with_some
from phoneshell.checks.items import items_changed, whole_changed, whole_reading
from phoneshell.device import (
    COUNTED_IN,
    Overflow,
    ProbeError,
    cleanup_counts,
    listed_by,
    run_listed,
    run_probe,
    starts_where_counted,
)
from phoneshell.device.timers import DIALLED
from phoneshell.evidence import Evidence, ProbeReading
from phoneshell.records import Teardown
from phoneshell.runner.rig import Rig
from phoneshell.tasks import Step, Task
from phoneshell.tasks.probes import whole_of


class Count(NamedTuple):
    """One count probe's reading: the number, or None and why not; and, for a probe that lists
    what it counted (`device.listed_by`), the rows it counted (teardown deletes only rows that
    were not among them; fewer than the number: the top of a list kept most recently edited
    first)."""

    value: int | None
    why: str = ""
    rows: tuple[str, ...] | None = None
    overflow: bool = False
    """Not taken because there was more to count than the probe can read (`device.Overflow`),
    not because the phone could not be read."""


Counts = dict[Need, Count]


def take_counts(rig: Rig, needs: Iterable[Need], then: tuple[Step, ...] = ()) -> Counts:
    """Take each count probe (under whatever phase the rig is in); a failed probe gives None and
    its reason. When `then` (the teardown) begins with a step that can start where the last count
    ends (deleting what it counted, cleaning the alarm list it read), that count leaves its
    screen up for it: one launch (and one search) serve both. What each shows is noted in
    `Rig.at_none` and `Rig.at_some`."""
    counts: Counts = {}
    needs = tuple(needs)
    first = then[0] if then else None
    for n, need in enumerate(needs):
        after = needs[n + 1] if n + 1 < len(needs) else None
        # the next count is taken in the same app: it starts from where this one ends
        leave = (after is not None and need.name in COUNTED_IN
                 and COUNTED_IN.get(after.name) == COUNTED_IN[need.name]) or (
                     after is None and first is not None
                     and starts_where_counted(first, need.name, need.arg))
        try:
            if listed_by(need.name):
                listed = run_listed(rig.phone, need.name, need.arg, leave_open=leave)
                counts[need] = Count(listed.count, rows=listed.rows)
            else:
                counts[need] = Count(int(run_probe(rig.phone, need.name, need.arg, leave)))
        except ProbeError as exc:
            counts[need] = Count(None, exc.message, overflow=isinstance(exc, Overflow))
    for need, count in counts.items():
        if count.value is not None:
            rig.counted.add(need)
            # a count after an agent, before its teardown deletes what it made, says nothing
            # of where the phone stands after it (`after_teardown` says that)
            if not rig.in_turns_wake() and as_started(rig, need, count.value):
                rig.as_started[need] = len(rig.turns)
        if count.value == 0 and need in rig.at_some:
            # some were seen last, and only the run's agents acted since, whatever task counts
            # it now: they emptied it (kept for every later task that starts from some)
            rig.lost.add(need)
        rig.at_none.discard(need)
        rig.at_some.discard(need)
        if count.value == 0:
            rig.at_none.add(need)
        elif count.value:
            rig.at_some.add(need)
            rig.lost.discard(need)
    return counts


BEFORE_RESUME = "before the resume"
"""The turn a resumed run puts first for its agents before the stop (`Rig.turns`): which of
them changed a count is not known to it."""


def as_started(rig: Rig, need: Need, value: int) -> bool:
    """Whether `value` of count `need` is on the side of none the run counted it on before its
    first attempt (`Rig.started`; True when the run has no start count of it)."""
    start = rig.started.get(need)
    return start is None or (start[0] == 0) == (value == 0)


def changed_by(rig: Rig, need: Need) -> str:
    """Whose agent changed count `need` off the side of none the run started it on: the agents
    that acted since the run last counted it there (`Rig.as_started`), named by attempt."""
    agents = rig.turns[rig.as_started.get(need, 0):]
    if agents == [BEFORE_RESUME]:
        return "an earlier attempt's agent (played before the run was resumed)"
    if len(agents) == 1:
        return f"{agents[0]}'s agent"
    named = ["those played before the run was resumed" if one == BEFORE_RESUME else one
             for one in agents]
    shown = named if len(named) <= 4 else [*named[:2], "...", *named[-2:]]
    listed = f" (of {', '.join(shown)})" if shown else ""
    return f"an earlier attempt's agent{listed}"


def from_start(rig: Rig, need: Need, some: bool) -> bool:
    """Whether the run counted `need` before its first attempt (`Rig.started`) with some
    (`some`) or none of it: a start count kept for the whole run, whatever later counts saw."""
    start = rig.started.get(need)
    return start is not None and (start[0] > 0) == some


def count_start(rig: Rig, run_id: str, tasks: Iterable[Task]) -> tuple[str, Counts]:
    """Before any agent acts on the rig's phone: take every count the run's tasks take (logged
    under the run, phase `probe`), so that one an agent makes uncountable later is told from
    one that never was (`Rig.counted`), and see whether the phone is where the tasks that start
    from none or from some of one start. Return a line for the user when it is not, or a count
    cannot be taken: those tasks will not be scored while it stays so, and what an agent does to
    what was not counted is not told from the owner's doing ("" when all are where the tasks
    start); and the counts."""
    tasks = tuple(tasks)
    none = tuple(dict.fromkeys(need for task in tasks for need in starts_at_none(task.checks)))
    some = tuple(dict.fromkeys(need for task in tasks for need in starts_with_some(task.checks)))
    every = dict.fromkeys(sorted(  # an app once for all its counts (`take_counts`), a whole
        dict.fromkeys((*none, *some, *(need for task in tasks for need in counts_of(task)))),
        key=lambda need: (COUNTED_IN.get(need.name, ""),  # first: searches start from its list
                          whole_of(need.name, need.arg) is not None)))
    if not every:
        return "", {}
    with rig.under_run(run_id, "probe"):
        counts = take_counts(rig, every)
    rig.listed.update({need: count.rows for need, count in counts.items()
                       if count.rows is not None})
    rig.started.update({need: (count.value, count.rows) for need, count in counts.items()
                        if count.value is not None})
    there = [f"{counted(need)} {counts[need].value}" for need in none if counts[need].value]
    lacks = [counted(need) for need in some if counts[need].value == 0]
    unknown = [f"{counted(need)} ({count.why})" for need, count in counts.items()
               if count.value is None]
    lines = ([f"before the run the phone already has {', '.join(there)}: the tasks that start "
              "from none of these will not be scored while they stay"] if there else [])
    if lacks:
        lines.append(f"before the run the phone has no {', '.join(lacks)}: the tasks that start "
                     "from some will not be scored until it has (make it on the phone first)")
    if unknown:
        lines.append(f"could not count before the run {'; '.join(unknown)}: what an agent leaves "
                     "of it will not be told from what was there")
    return "; ".join(lines), counts


def counts_of(task: Task) -> tuple[Need, ...]:
    """The counts an attempt at `task` takes before its agent: its checks' and its
    teardown's, each count of some of a collection after the count of its whole (`wholes`)."""
    return wholes((*(n for n in needs_of(task.checks) if n.what == "probe"), *cleaned(task)))


def wholes(needs: Iterable[Need]) -> tuple[Need, ...]:
    """`needs`, without repeats, each count of some of a collection (notes titled X) preceded
    by the count of the whole collection (every note: `tasks.probes.whole_of`): whether the
    count grew by items made or by existing ones changed into it is told by the whole
    (`checks.items`). The whole comes first, so the count a teardown deletes by is still last
    (`take_counts`)."""
    found: list[Need] = []
    for need in needs:
        whole = whole_of(need.name, need.arg)
        found += [Need("probe", *whole), need] if whole else [need]
    return tuple(dict.fromkeys(found))


def whole_name(need: Need) -> str:
    """The probe that counts the whole collection `need` counts some of ("" when none)."""
    whole = whole_of(need.name, need.arg)
    return whole[0] if whole else ""


def spared(step: Step, evidence: Evidence | None) -> str:
    """Why teardown step `step` must not delete what its count grew by ("" to run it): the
    attempt's evidence shows the growth may not be all new items (`checks.items`: an item
    counted before the agent, in the count or in its whole, is gone or no longer shown as it
    was, or the whole did not grow as much), so the rows it would take for new ones may be
    the owner's, edited. When the count could not be taken after capture (more than a screen of
    results: the step would dig), the whole alone decides. A note left behind is the safe way
    to be wrong. Only a `delete_created` whose count the evidence holds is ever spared."""
    if evidence is None or step.kind != "delete_created":
        return ""
    reading = evidence.probe(step.option("probe"), step.option("text"))
    if reading is None or reading.before is None:
        return ""
    whole = whole_reading(evidence, reading)
    what = counted(Need("probe", reading.name, reading.arg))
    if reading.after is None:
        why = whole_changed(whole) if whole is not None else ""
        return f"{what} could not be counted after capture, and none of it was deleted: " \
               f"{why}" if why else ""
    if reading.after <= reading.before:
        return ""
    why = items_changed(reading, whole)
    return (f"{what} grew by {reading.after - reading.before}, and none of it was deleted: "
            f"{why}") if why else ""


def uncountable(before: Counts, counted_before: frozenset[Need]) -> str:
    """Why an earlier attempt's agent is to blame for the counts `before` could not take that
    the rig read a number for earlier in the run (`counted_before`), whatever stopped the probe;
    "" when none. Only its agents acted on the phone since (a rig that stopped answering raises
    before this, `RIG_DOWN`): a count the run could read and now cannot is their doing, and a
    rule that let some reasons off (only "too many to read" blamed) left an agent every other
    way to have an attempt it would fail not scored."""
    spoiled = [need for need, count in before.items()
               if count.value is None and need in counted_before]
    return "; ".join(
        f"{counted(need)} could not be counted before the agent ({before[need].why}), where "
        "this run counted it on this phone earlier, and only its agents have acted on it "
        "since: an earlier attempt's agent made it uncountable (its teardown deletes down to "
        "what the run counted first, where it can tell)" for need in spoiled)


def dig_from_start(rig: Rig, before: Counts) -> Counts:
    """`before`, with each count that could not be taken replaced by what the run counted before
    its first attempt (`Rig.listed`), for the teardown to delete down to: what buried or hid it
    is the agents', and the next attempt must find the phone as the run did."""
    return {need: Count(len(rig.listed[need]), rows=rig.listed[need])
            if count.value is None and need in rig.listed else count
            for need, count in before.items()}


def left_since_start(rig: Rig, need: Need, now: Counts) -> str:
    """Why what this run's agents left of count `need` (counted again `now`, with its whole)
    must stay when the run ends ("" when it may be deleted): compared with the count before the
    run's first attempt (`Rig.started`) as an attempt's teardown compares with its count before
    the agent (`spared`), since an attempt's teardown that left a changed owner's note leaves
    it for the run's end to find."""
    whole = whole_of(need.name, need.arg)
    start, count = rig.started.get(need), now.get(need)
    if whole is None or start is None or count is None:
        return ""
    whole_need = Need("probe", *whole)
    was, found = rig.started.get(whole_need), now.get(whole_need)
    reading = ProbeReading(name=need.name, arg=need.arg, before=start[0], after=count.value,
                           rows_before=start[1], rows_after=count.rows, whole=whole[0])
    whole_read = ProbeReading(
        name=whole[0], before=was[0] if was else None, after=found.value if found else None,
        rows_before=was[1] if was else None, rows_after=found.rows if found else None,
        error="not counted before the run" if was is None else found.why if found else "")
    if count.value is None:  # buried beyond counting: the whole alone can tell
        why = whole_changed(whole_read)
    else:
        why = items_changed(reading, whole_read) if count.value > start[0] else ""
    return f"{counted(need)} this run's agents left stays: {why}" if why else ""


def cleaned(task: Task) -> tuple[Need, ...]:
    """The counts the task's teardown deletes by (`delete_created`), in teardown order."""
    return tuple(Need("probe", *count) for count in cleanup_counts(task.teardown))


def run_reading(rig: Rig, need: Need, count: Count) -> Count:
    """`count` of `need`, with the reading the run took before its first attempt (`Rig.started`)
    for its rows where it has none and its rows are what a setting reads, not items: the
    timer's wheels (`timer_dialled`, whatever duration it counts), which a timer running hid or
    an earlier attempt's agent left at the duration counted. What a put-back dials them to
    (`restore_timer`, `delete_left`), never a default while the run's is known."""
    if need.name != DIALLED or count.rows:
        return count
    read = next((rows for was, (_, rows) in rig.started.items() if was.name == DIALLED and rows),
                None)
    return count if read is None else count._replace(rows=read)


class Leftover(Exception):
    """The phone is not in the task's start state, by this run's agents' doing: the attempt fails
    (the message says why), and `counts` are the counts its teardown deletes by (none before
    the agent for those left over: everything found goes)."""

    def __init__(self, message: str, counts: Counts) -> None:
        super().__init__(message)
        self.counts = counts


def start_state(rig: Rig, task: Task, before: Counts, seen_none: frozenset[Need],
                seen_some: frozenset[Need] = frozenset()) -> str:
    """Why the phone is not where the task starts, by `before` ("" when it is).

    Raises:
        Leftover: what is there was counted at none on this phone earlier in the run
            (`seen_none`, as it stood before these counts), or what is gone was counted there
            (`seen_some`): the agents' doing.
    """
    found = not_at_start(task.checks, lambda need: before[need].value if need in before else None)
    if not found:
        return ""
    above = {need for need, count in found if count}
    gone = {need for need, count in found if not count}
    what = "; ".join(f"{counted(need)} counted {count} before the agent, where the task starts "
                     f"from {'none' if count else 'some'}" for need, count in found)
    at_start_none = {need for need in above if from_start(rig, need, some=False)}
    at_start_some = {need for need in gone if from_start(rig, need, some=True)}
    if above <= seen_none | at_start_none and gone <= seen_some | rig.lost | at_start_some:
        deleted = set(cleaned(task))
        fates = ([("its teardown deletes them" if above <= deleted
                   else "nothing in its teardown deletes them")] if above else [])
        if gone:
            fates.append("nothing brings back what was deleted")
        # what stays is still the agents' doing, for the attempts that find it next
        rig.at_none.update(above - deleted)
        rig.lost.update(gone)
        seen, did = (("none", "left them") if not gone else ("some", "deleted them") if not above
                     else ("them where the task starts", "did this"))
        whom = sorted(dict.fromkeys(changed_by(rig, need) for need in above | gone))
        started = "; ".join(f"{counted(need)} {rig.started[need][0]}"
                            for need in sorted(above | gone, key=lambda n: (n.name, n.arg))
                            if need in rig.started)
        raise Leftover(
            f"{what}: this run counted {seen} on this phone earlier"
            f"{f' (before its first attempt: {started})' if started else ''}, and only its "
            f"agents have acted on it since, so {' or '.join(whom)} {did} "
            f"({'; '.join(fates)})",
            {need: run_reading(rig, need, Count(0, rows=() if count.rows is not None else None)
                               if need in above else count)
             for need, count in before.items()})
    why = []
    if above:
        why.append("this run has not seen none of them on this phone since they could have come "
                   "(there before the run, or left where a teardown could not delete them), so "
                   "they are left alone")
    if gone:
        why.append("this run has not seen any on this phone: the phone lacks what the task "
                   "starts from (on a real phone, make it first)")
    return f"{what}: the phone is not in the task's start state, and {'; and '.join(why)}"


def after_teardown(rig: Rig, task: Task, before: Counts, teardown: Teardown) -> None:
    """A teardown that ran clean deleted back to the count before the agent: note each count it
    deleted by as that one was (what the attempt made, counted after it, is gone: a note a
    create task made and its teardown deleted was never the phone's to lose)."""
    if not teardown.ok or teardown.left:  # what it left is still there
        return
    for need in cleaned(task):
        value = before[need].value if need in before else None
        if value and need in rig.lost:  # emptied after the count before the agent: its agent
            continue  # deleted what was there, and a teardown brings none of it back
        if value is not None:
            if as_started(rig, need, value):
                rig.as_started[need] = len(rig.turns)
            rig.at_none.discard(need)
            rig.at_some.discard(need)
            (rig.at_some if value else rig.at_none).add(need)
