"""What Clock has going (timers running or paused, the stopwatch off zero), watched after every
attempt whose agent acted there, whatever tasks the run holds (`runner.owner` reads them in the
same visit to Clock as the alarms, the cities and the timer's wheels).

A phone keeps a timer running and a stopwatch going after Clock is terminated: a timer an agent
started beside its task rings over later attempts and over the owner, and either one makes the
next run take it for the owner's and not score its timer or stopwatch tasks. Once only a run
holding a timer task watched running timers, and only the run's end looked at what its tasks
counted: the same agent failed with a timer task in its run and passed without one (red team
98, RT98-1). So before its first attempt every run counts both (`clock_timers`, `stopwatch`,
from the run's start counts where a task counts them), and after every attempt whose agent may
have started or reset one (Clock in front on its Timers or Stopwatch tab, by the log:
`owner_log.acted_in_clock`; a change no logged action explains) counts again, unless the task's
own counts show it as known before its agent and its teardown deleted by them, clean
(`Going.unsettled`: the timer and stopwatch tasks, which start what they grade). More than known
fails the attempt ("a timer was left running, which the task did not ask for") and, where the
run found none, is cancelled or reset: never one the owner had going when the run began, which
nothing tells from an agent's. A task that starts them and whose teardown left one running is
not failed for it here (its own checks grade it); what it left is cancelled all the same. The
owner's stopwatch found reset fails the attempt; found still off zero, it is compared by its
state, time and laps, read before the first attempt when the run found it so (`owner_stopwatch`:
reset and started again, started, stopped or given a lap fails; one started is stopped, one
stopped started again). A timer fewer ran out, or was cancelled: the owner's timers' time
left, read before the first attempt when they had one going, and the log's times tell
(`owner_countdown`: an owner's timer an agent cancelled while it had time left fails the
attempt, "the owner's running timer was cancelled"). Counts that cannot be read fail the
attempt after which they first could not be, and leave later ones not scored while they stay so
(`owner_timer.unreadable`). What an agent changed of the owner's that nothing puts back (a
reset, a timer cancelled) is kept for the run's end (`stays`), which says it stays so.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from phoneshell.checks import Need
from phoneshell.device import ProbeError, run_step, with_counts
from phoneshell.device.probes import CLOCK
from phoneshell.errors import DeviceError, StepError
from phoneshell.evidence import Evidence
from phoneshell.records import AuditEvent, Teardown
from phoneshell.runner.counts import Count, cleaned
from phoneshell.runner.owner_countdown import OwnerTimers, watch_countdowns
from phoneshell.runner.owner_stopwatch import OwnerStopwatch, watch_stopwatch
from phoneshell.runner.owner_timer import Judged, unreadable
from phoneshell.runner.rig import Rig
from phoneshell.tasks import Step, Task

TIMERS, STOPWATCH = "clock_timers", "stopwatch"
GOING = {STOPWATCH: CLOCK, TIMERS: CLOCK}
"""The counts watched, by the app they are read in (the stopwatch first: Clock's tabs from the
Alarms' and World Clock's, the Timers tab last, where the wheels are read next)."""
WHAT = {TIMERS: "the timers running or paused", STOPWATCH: "the stopwatch"}
SAID_STOPWATCH = "the owner's stopwatch ("
"""How what stays changed of the owner's stopwatch begins (`Judged.stays`)."""


def _need(name: str) -> Need:
    return Need("probe", name, "")


def _left(name: str, n: int, was: int) -> str:
    """What an agent left going: `n` found where `was` was known."""
    if name == TIMERS:
        return (f"{'a timer was' if n - was == 1 else f'{n - was} timers were'} left running, "
                f"which the task did not ask for ({n} running or paused on Clock's Timers tab, "
                f"where the run found {was or 'none'})")
    return ("the stopwatch was left going, which the task did not ask for (off zero on Clock's "
            "Stopwatch tab, where the run found it at zero)")


@dataclass
class Going:
    """Clock's timers and stopwatch for a run: as the run found them, and as last known."""

    start: dict[str, int] = field(default_factory=dict)
    """Each count as read before the run's first attempt (never updated; none: not watched)."""
    known: dict[str, int] = field(default_factory=dict)
    """Each as last known: what an attempt is compared with."""
    doubt: dict[str, str] = field(default_factory=dict)
    """Counts found unreadable, and the attempt after which they first were, failed for it."""
    owners: OwnerTimers | None = None
    """The owner's timers' time left before the first attempt, when they had one going and it
    could be read (`watch_owners`)."""
    stopwatch: OwnerStopwatch | None = None
    """The owner's stopwatch's time, state and laps, when it was off zero before the first
    attempt and could be read (`watch_owners`); None again once found reset or unreadable."""
    lost: list[str] = field(default_factory=list)
    """What an agent changed of the owner's timers and stopwatch that nothing puts back, for
    the run's end (`stays`)."""

    def __post_init__(self) -> None:
        self.known = self.known or dict(self.start)

    def watch_owners(self, rig: Rig) -> str:
        """Before the first attempt (under the rig's context), when the run found a timer going:
        each one's time left (`owner_countdown`); when it found the stopwatch off zero, its
        time, state and laps (`owner_stopwatch`); a line for the user for what cannot be read.
        A run that found neither reads nothing."""
        lines = []
        if self.start.get(TIMERS):
            self.owners, line = watch_countdowns(rig)
            lines.append(line)
        if self.start.get(STOPWATCH):
            self.stopwatch, line = watch_stopwatch(rig)
            lines.append(line)
        return "; ".join(line for line in lines if line)

    @property
    def owned(self) -> dict[str, str]:
        """The counts watched, by their app (`owner_reach.visited` decides which to read)."""
        return {name: GOING[name] for name in GOING if name in self.start}

    def unsettled(self, names: frozenset[str], task: Task, evidence: Evidence | None,
                  teardown: Teardown) -> list[str]:
        """Of the counts watched among `names` (those the agent may have changed:
        `owner_reach.visited`), in `GOING`'s order, those to read after the attempt: all but
        one the task's own counts read as known before its agent, and its teardown deleted by
        clean (`delete_created`)."""
        def settled(name: str) -> bool:
            read = evidence.probe(name, "") if evidence is not None else None
            return (_need(name) in cleaned(task) and read is not None
                    and read.before == self.known[name] and teardown.ok and not teardown.left
                    and name not in self.doubt)
        return [name for name in self.owned if name in names and not settled(name)]

    def judge(self, rig: Rig, task: Task, found: Mapping[str, Count], who: str,
              log: Iterable[AuditEvent] = (), evidence: Evidence | None = None,
              ) -> list[Judged]:
        """Each count as read after attempt `who` (`found`), compared with what is known: failed
        for what was left going, cancelled or reset where the run found none; and, by the
        attempt's log (`log`) and its task's own counts (`evidence`), for an owner's timer its
        agent stopped (`owner_countdown`)."""
        judged = [self._judge(rig, task, name, count, who) for name, count in found.items()]
        if STOPWATCH in found and found[STOPWATCH].value and self.stopwatch is not None:
            watched, still = self.stopwatch.judge(rig, log, who)
            self.stopwatch = self.stopwatch if still else None
            judged.append(watched)
        timers = found[TIMERS].value if TIMERS in found else None
        if timers is not None and self.owners is not None:
            read = evidence.probe(TIMERS, "") if evidence is not None else None
            owners, strangers = self.owners.judge(rig, timers, log,
                                                  read.before if read is not None else None, who)
            if strangers:  # none of the owner's runs now: the agent's, as where the run found none
                done = self._delete(rig, TIMERS, strangers)
                owners = Judged(owners.blame, f"{owners.line}; the timer running in its place: "
                                              f"{done}")
            judged.append(owners)
        for one in judged:
            if one.stays.startswith(SAID_STOPWATCH):  # the stopwatch as last left: one line
                self.lost = [what for what in self.lost if not what.startswith(SAID_STOPWATCH)]
            self.lost += [one.stays] if one.stays else []
        return judged

    def _judge(self, rig: Rig, task: Task, name: str, found: Count, who: str) -> Judged:
        if found.value is None:
            judged = unreadable(WHAT[name], "them" if name == TIMERS else "it", found.why,
                                self.doubt.get(name, ""))
            self.doubt.setdefault(name, who)
            return judged
        self.doubt.pop(name, None)
        was, self.known[name] = self.known[name], found.value
        if found.value < was:  # a timer runs out by itself; a stopwatch is reset by a press
            if name == STOPWATCH and self.start[name]:
                said = ("the owner's stopwatch, off zero when the run began, was reset: nothing "
                        "puts its time back")
                self.stopwatch = None  # theirs is gone: nothing of it is left to compare
                return Judged(said, said, stays=f"{SAID_STOPWATCH}reset, its time lost)")
            return Judged()
        if found.value == was:
            return Judged()
        left = _left(name, found.value, was)
        blame = "" if _need(name) in cleaned(task) else left  # the task's own checks grade it
        if self.start[name]:
            return Judged(blame, f"{left}; none was {'cancelled' if name == TIMERS else 'reset'}: "
                                 "nothing tells it from the owner's")
        return Judged(blame, f"{left}; {self._delete(rig, name, found.value)}")

    def _delete(self, rig: Rig, name: str, n: int) -> str:
        """Cancel the `n` timers, or reset the stopwatch, where the run found none: what was
        done."""
        step = with_counts(Step("delete_created", options=(("probe", name), ("text", ""))),
                           {(name, ""): (0, n)})
        try:
            run_step(rig.phone, step)
        except (ProbeError, StepError, DeviceError) as exc:
            return f"putting it back failed: {exc}"
        self.known[name] = 0
        rig.at_none.add(_need(name))  # the next count of it finds none: a deleter checks each
        rig.at_some.discard(_need(name))
        return ("cancelled it" if n == 1 else "cancelled them") if name == TIMERS else "reset it"

    def stays(self, rig: Rig) -> str:
        """What stays going that an agent left, after the run's end deleted what it counted at
        none (`leftovers.delete_left` notes those it deleted in `Rig.at_none`), and what it
        changed of the owner's that nothing puts back (`lost`); "" for none."""
        return ", ".join([*(f"{WHAT[name]} ({self.known[name]}, not {self.start[name]})"
                            for name in self.start if self.known[name] > self.start[name]
                            and not (self.start[name] == 0 and _need(name) in rig.at_none)),
                          *self.lost])

    @property
    def at_none(self) -> frozenset[Need]:
        """The counts the run found at none: what of them is there when it ends, its agents
        left (`tidy.PhoneTidy.none_at_start`)."""
        return frozenset(_need(name) for name, n in self.start.items() if n == 0)


__all__ = ["GOING", "Going"]
