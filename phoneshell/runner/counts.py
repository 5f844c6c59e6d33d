"""The counts an attempt takes before the agent and after capture, and what the run knows of each
count on each phone between attempts.

A task that starts from none of something (`none_before`: no timer running) cannot be handed
to an agent while some are there. Whose they are decides the outcome, and the phone is the
witness, not the apps an agent's log happens to show (an agent can start a timer through Siri, or
around the bridge, without Clock ever in front of it). Each rig keeps the counts it last saw at
none on its phone (`Rig.at_none`): counted at the run's start (`count_start`, before any agent),
by an attempt's count, or by a teardown that deleted back to none. The harness never makes what
it counts, and between two counts only this run's agents act on the phone, so a count found
above none where the rig last saw none is an agent's doing: that attempt fails and its teardown
deletes them, so the next attempt starts clean. One found above none that the rig never saw at
none (there before the run: the owner's; or a teardown that could not delete it) makes the
attempt not scored, and is left alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from phoneshell.checks import Need
from phoneshell.checks.effects import counted, not_at_start, starts_at_none
from phoneshell.device import (
    ROWS,
    ProbeError,
    cleanup_counts,
    run_probe,
    run_rows,
    starts_where_counted,
)
from phoneshell.records import Teardown
from phoneshell.runner.rig import Rig
from phoneshell.tasks import Step, Task


class Count(NamedTuple):
    """One count probe's reading: the number, or None and why not; and, for a probe that counts
    rows (`ROWS`), the rows it counted (teardown deletes only rows that were not among them)."""

    value: int | None
    why: str = ""
    rows: tuple[str, ...] | None = None


Counts = dict[Need, Count]


def take_counts(rig: Rig, needs: Iterable[Need], then: tuple[Step, ...] = ()) -> Counts:
    """Take each count probe (under whatever phase the rig is in); a failed probe gives None and
    its reason. When `then` (the teardown) begins with a step that can start where the last count
    ends (deleting what it counted, cleaning the alarm list it read), that count leaves its
    screen up for it: one launch (and one search) serve both. What each shows is noted in
    `Rig.at_none`."""
    counts: Counts = {}
    needs = tuple(needs)
    first = then[0] if then else None
    for n, need in enumerate(needs):
        leave = (n == len(needs) - 1 and first is not None
                 and starts_where_counted(first, need.name, need.arg))
        try:
            if need.name in ROWS:
                rows = run_rows(rig.phone, need.name, need.arg, leave_open=leave)
                counts[need] = Count(len(rows), rows=rows)
            else:
                counts[need] = Count(int(run_probe(rig.phone, need.name, need.arg, leave)))
        except ProbeError as exc:
            counts[need] = Count(None, exc.message)
    for need, count in counts.items():
        if count.value == 0:
            rig.at_none.add(need)
        else:  # some, or not known
            rig.at_none.discard(need)
    return counts


def count_start(rig: Rig, run_id: str, tasks: Iterable[Task]) -> str:
    """Before any agent acts on the rig's phone: count what the run's tasks start from none of
    (logged under the run, phase `probe`). Return a line for the user when some are there
    already, or cannot be counted: those tasks will not be scored while they stay, and what an
    agent leaves of what was not counted is not told from the owner's ("" when all are at
    none)."""
    needs = tuple(dict.fromkeys(need for task in tasks for need in starts_at_none(task.checks)))
    if not needs:
        return ""
    rig.enter(run_id, "", 0, "probe")
    try:
        counts = take_counts(rig, needs)
    finally:
        rig.bridge.clear_context()
    there = [f"{counted(need)} {count.value}" for need, count in counts.items() if count.value]
    unknown = [f"{counted(need)} ({count.why})" for need, count in counts.items()
               if count.value is None]
    lines = ([f"before the run the phone already has {', '.join(there)}: the tasks that start "
              "from none of these will not be scored while they stay"] if there else [])
    if unknown:
        lines.append(f"could not count before the run {'; '.join(unknown)}: what an agent leaves "
                     "of it will not be told from what was there")
    return "; ".join(lines)


def cleaned(task: Task) -> tuple[Need, ...]:
    """The counts the task's teardown deletes by (`delete_created`), in teardown order."""
    return tuple(Need("probe", *count) for count in cleanup_counts(task.teardown))


class Leftover(Exception):
    """The phone is not in the task's start state, by this run's agents' doing: the attempt fails
    (the message says why), and `counts` are the counts its teardown deletes by (none before
    the agent for those left over: everything found goes)."""

    def __init__(self, message: str, counts: Counts) -> None:
        super().__init__(message)
        self.counts = counts


def start_state(rig: Rig, task: Task, before: Counts, seen_none: frozenset[Need]) -> str:
    """Why the phone is not where the task starts, by `before` ("" when it is).

    Raises:
        Leftover: what is there was counted at none on this phone earlier in the run
            (`seen_none`, as it stood before these counts): an agent's.
    """
    found = not_at_start(task.checks, lambda need: before[need].value if need in before else None)
    if not found:
        return ""
    what = "; ".join(f"{counted(need)} counted {count} before the agent, where the task starts "
                     "from none" for need, count in found)
    if all(need in seen_none for need, _ in found):
        deleted = set(cleaned(task))
        spoiled = {need for need, _ in found}
        fate = ("its teardown deletes them" if spoiled <= deleted
                else "nothing in its teardown deletes them")
        # what stays is still the agents' doing, for the attempts that find it next
        rig.at_none.update(spoiled - deleted)
        raise Leftover(
            f"{what}: this run counted none on this phone earlier, and only its agents have "
            f"acted on it since, so an earlier attempt's agent left them ({fate})",
            {need: Count(0, rows=() if count.rows is not None else None)
             if need in spoiled else count for need, count in before.items()})
    return (f"{what}: the phone is not in the task's start state, and this run has not seen "
            "none of them on this phone since they could have come (there before the run, or "
            "left where a teardown could not delete them), so they are left alone")


def after_teardown(rig: Rig, task: Task, before: Counts, teardown: Teardown) -> None:
    """A teardown that ran clean deleted back to the count before the agent: note those at
    none."""
    if not teardown.ok:
        return
    for need in cleaned(task):
        if need in before and before[need].value == 0:
            rig.at_none.add(need)
