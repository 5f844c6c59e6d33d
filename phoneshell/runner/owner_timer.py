"""The owner's timer duration (Clock's timer wheels), watched as the owner's collections are
(`runner.owner`): blamed on the attempt that turned them, and dialled back to what the run found.

Clock reopens with the wheels where they were last set (`device.timers`), so an agent that
flicks them in a task that only looks (Go to the Timers tab) changes the owner's duration for
good, and hands the next timer task's count before its agent (`timer_dialled`, none_before)
wheels it did not dial: that attempt failed before its agent ran, and the owner was left with
another duration. So the run reads them before its first attempt (`Wheels.start`), whatever its
tasks: by a timer task's start count, else by `WHEELS` in the owner watch's visit to Clock (red
team 98: an agent that dialled 5 minutes beside the stopwatch task passed, and the next run did
not score the timer task of 5 minutes, the owner's duration taken for a leftover). After every
attempt whose agent may have turned them (Clock in front on a
page of its own that is not the alarms' or the cities': `owner_log.acted_in_clock`) the watch
reads them again, in the same visit to Clock as the alarms and cities (a tab selected, a
source), unless the task's own teardown dialled them back to that reading, clean
(`restore_timer`: `Wheels.settled`). Found otherwise, the attempt fails ("the owner's timer
duration changed: 0:10:00 -> 0:05:00") and they are dialled back to the run's reading, so the
next attempt starts from the owner's.

A timer running hides the wheels (`HIDDEN_BY`). They showed when the run began, so no timer ran
then and the harness starts none: one running after a task that does not start timers is the
attempt's agent's, left to ring over later attempts. The timers are read in the same visit
(`owner_going`, which fails the attempt for it and cancels it), and the wheels under it are
compared; where the timers could not be counted at the run's start, this watch fails the
attempt and cancels it itself. After a task that starts them, its own counts and teardown deal
with it (`counts.start_state`), as before. Wheels that cannot be read fail the attempt after
which they first could not be (losing sight fails closed), and leave later ones not scored while
they stay so (`owner_blind` does the same for collections).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from phoneshell.checks import Need
from phoneshell.device.probes import ProbeError
from phoneshell.device.timers import DIALLED, NEW_PHONE, cancel_running, dial_back
from phoneshell.errors import DeviceError, StepError
from phoneshell.evidence import Evidence
from phoneshell.records import Teardown
from phoneshell.runner.counts import Count, cleaned
from phoneshell.runner.rig import Rig
from phoneshell.tasks import Step, Task

TIMER = "timer"
"""The wheels' name among what the watch may read after an attempt (`owner_reach.visited`)."""
TIMERS = "clock_timers"
WHEELS = Need("probe", DIALLED, NEW_PHONE)
"""The count the run's start reads the wheels by when no task of the run counts them (any
duration does: what is compared is what they read, its row)."""


@dataclass(frozen=True)
class Judged:
    """What the wheels read after an attempt make of it."""

    blame: str = ""
    """Why the attempt fails ("" when it does not)."""
    line: str = ""
    """For the row (`Teardown.owner`): what changed and what was done ("" when nothing)."""
    unscored: str = ""
    """Why it cannot be scored, when it does not fail: the wheels could not be read since an
    earlier attempt, failed for it."""
    stays: str = ""
    """What stays changed of the owner's for the run's end, nothing putting it back ("the
    owner's stopwatch (00:05.00 running, ...)"; "" when nothing does)."""


def unreadable(what: str, it: str, why: str, doubt: str) -> Judged:
    """`what` (the owner's timer duration, their Safari tabs; `it`: its pronoun) could not be
    read after an attempt (`why`): failed for it when it read after the last one (`doubt` is
    ""), else not scored, since an earlier attempt, failed for it, left it unread (`doubt`): as
    `owner_blind` does for collections."""
    if doubt:
        said = (f"{what} could not be read after it ({why}), nor after {doubt}, failed for it: "
                f"what this agent did to {it} is not seen")
        return Judged(line=said, unscored=said)
    said = f"{what} could not be read after the attempt: {why}"
    return Judged(said, said)


@dataclass
class Wheels:
    """The owner's timer duration for a run: as the run found it, and as last known."""

    need: Need
    """A `timer_dialled` count of the run's (its duration is a task's, or `WHEELS`'; its row,
    what the wheels read, is what is compared)."""
    start: str
    """What the wheels read before the run's first attempt ("0:10:00"): what they are dialled
    back to."""
    known: str = ""
    """What they read as last known: what an attempt is compared with (the run's reading, unless
    dialling back failed)."""
    doubt: str = ""
    """The attempt after which they were first found unreadable, failed for it ("" when they
    read since)."""

    def __post_init__(self) -> None:
        self.known = self.known or self.start

    def settled(self, task: Task, evidence: Evidence | None, teardown: Teardown) -> bool:
        """Whether the task's teardown dialled the wheels back to what this watch knows and
        checked them (each `restore_timer`, bound with that reading before the agent), clean:
        no read needed."""
        steps = [s for s in task.teardown if s.kind == "restore_timer"]
        if not steps or evidence is None or not teardown.ok or teardown.left or self.doubt:
            return False
        return all((read := evidence.probe(DIALLED, s.arg)) is not None
                   and read.rows_before == (self.known,) for s in steps)

    def judge(self, rig: Rig, task: Task, found: Count, who: str, timers_judged: bool = False,
              ) -> Judged:
        """The wheels as read after attempt `who` (`found`, the count `need`): compared with what
        is known, failed for a change or a timer left running, and dialled back. `timers_judged`:
        the timers were read in the same visit, and what ran was judged and cancelled there
        (`owner_going`): the wheels under them are read and compared."""
        if found.value is None:
            judged = unreadable("the owner's timer duration", "it", found.why, self.doubt)
            self.doubt = self.doubt or who
            return judged
        self.doubt = ""
        reading = found.rows[0] if found.rows else None
        if reading == self.known:
            return Judged()
        if reading is None and not timers_judged and Need("probe", TIMERS, "") in cleaned(task):
            return Judged(line="a timer its teardown did not cancel hides the owner's timer "
                               "wheels: not compared (the task's own counts see it)")
        hid, step = reading is None and not timers_judged, Step("probe", DIALLED)
        whys = ["a timer was left running in place of the owner's timer wheels"] if hid else []
        try:
            reading = reading or cancel_running(rig.phone, step)
            if reading != self.known:
                whys.append(f"the owner's timer duration changed: {self.known} -> {reading}")
            turned = reading != self.start
            if turned:
                dial_back(rig.phone, step, self.need.arg, Counter([self.start]))
            done = "; ".join(what for what in ("cancelled it" if hid else "", f"dialled back "
                                               f"to {self.start}" if turned else "") if what)
            self.known = self.start
        except (ProbeError, StepError, DeviceError) as exc:
            done = f"putting it back failed: {exc}"
            self.known = reading or self.known  # later attempts are compared with what stays
        blame = "; ".join(whys)
        return Judged(blame, f"{blame}; {done}" if done else blame)

    def end(self, rig: Rig, run_id: str) -> str:
        """At the run's end: dial the wheels back to the run's reading once more when they were
        last known otherwise (logged under the run, phase `teardown`); what stays changed ("" for
        nothing), for the run's summary."""
        if self.known == self.start and not self.doubt:
            return ""
        with rig.under_run(run_id, "teardown"):
            try:
                dial_back(rig.phone, Step("probe", DIALLED), self.need.arg, Counter([self.start]))
            except (ProbeError, StepError, DeviceError) as exc:
                return (f"the timer duration ({self.known if not self.doubt else 'unread'}, not "
                        f"{self.start}: {exc})")
        self.known, self.doubt = self.start, ""
        return ""


def watch_wheels(counted: Mapping[Need, Count]) -> Wheels | None:
    """Before the first attempt: the owner's timer duration, from the run's start counts of the
    wheels (`counted`); None when none read them, or a timer hid them."""
    read = sorted(((need, count.rows[0]) for need, count in counted.items()
                   if need.name == DIALLED and count.rows), key=lambda read: read[0].arg)
    return Wheels(read[0][0], read[0][1]) if read else None


__all__ = ["TIMER", "WHEELS", "Judged", "Wheels", "unreadable", "watch_wheels"]
