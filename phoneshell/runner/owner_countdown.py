"""The owner's timers, running or paused when the run began: the time each had left, read once
before the first attempt, and whether an attempt's agent stopped one (`owner_going` asks, after
an attempt whose agent acted on Clock's Timers tab). Never cancels an owner's timer; resumes or
pauses one only to put back what an agent turned.

The timers count (`clock_timers`) cannot tell a timer that ran out from one cancelled: both are
one fewer. So an agent that cancelled the owner's running timer, beside any task, passed, and the
owner's timer never rang. The log can tell, with the time: the run reads each timer's time left
before its first attempt (`read_countdowns`, only when the owner has one going: a run with none
pays nothing), and after an attempt whose agent, while an owner's timer still had time left by
then (its time left at the run's start minus the time since, more than `SLACK_S`), pressed the
timer's Cancel, Pause or Resume, or did anything on the Timers tab the log cannot show pressed
nothing else (a swipe, a hold, an action on an element it does not name, a change around the
bridge: `could_stop`, by the reading `owner_log.acted_in_clock` gives that tab), the Timers tab
is read again. A timer there in the owner's state (running, or paused at its time) that has no
more time left than theirs had is theirs; none there fails the attempt ("the owner's running
timer was cancelled"), as a changed note does, and nothing puts it back (a timer started again
is another, and rings at another time). Cancelled and started again at the wheels' duration, it
has more time left than theirs: that fails too, and the agent's timer in its place is
cancelled, as one left running where the run found none is. Found paused where it ran, it fails
as paused (it would never ring) and is resumed; found running where it stood paused, it fails
and is paused again (red team 110, RT110-3: Pause passed, and the timer was left paused). On a
phone whose clock runs (`Rig.clock_runs`) a running timer of theirs must also show no more time
left than the time since leaves it, allowing `SLACK_S`: more, it stood paused meanwhile and
rings that much later, which fails the attempt though it runs. The simulator's clock moves only
when told, so there the time left only never grows. What no press puts back (a timer
cancelled, the time one stood paused or ran) is said at the run's end as still changed
(`Judged.stays`), never as put back.

A timer that ran out by itself is never blamed: an agent that acts only after its time is up
(by the clock, allowing `SLACK_S`) is not asked about it; nor is one whose own task's count
before its agent found no timer (the owner's had run out: what it starts and stops is its own).
On a phone the time since is the phone's; the simulator's timers run on a clock that moves only
when told (`sim.apps.clock_timers`), so there a timer runs out only when a test moves it.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass

from phoneshell.device import run_step
from phoneshell.device.probes import CLOCK, ProbeError, stop_app
from phoneshell.device.timers import BUTTON, RUNNING, TIMER_TABS, open_tab
from phoneshell.errors import DeviceError, StepError
from phoneshell.records import AuditEvent
from phoneshell.runner.owner_log import acted_in_clock
from phoneshell.runner.owner_tabs import PRESSES
from phoneshell.runner.owner_timer import Judged
from phoneshell.runner.rig import Rig
from phoneshell.tasks import Step

TIMERS = "clock_timers"
SLACK_S = 3.0
"""How much time left a timer must still have had, by the clock, for an agent's action then to
be taken as one on a running timer: its countdown shows whole seconds rounded up (1 s), and a
read or a tap lands up to about a second after the log's time on a phone. Less than that, it may
have run out by itself first."""
STOPS = frozenset({"Cancel", "Pause", "Resume", "Delete"})
"""The Timers tab's controls that stop, pause, restart or delete a timer (iOS 17's list deletes
a timer's row): a press on any other that the log names stops none."""
COUNTDOWN = re.compile(r"(?:(\d{1,2}):)?(\d{1,2}):(\d{2})")
"""A timer's time left as its countdown shows it: "4:59", "1:29:59"."""


@dataclass(frozen=True)
class Countdown:
    """One timer as Clock's Timers tab shows it."""

    left_s: int
    """Its time left, in whole seconds as its countdown shows them."""
    paused: bool
    """Paused (a Resume button), else running (Pause)."""

    def __str__(self) -> str:
        return f"{clock(self.left_s)} {'paused' if self.paused else 'running'}"


def clock(seconds: float) -> str:
    """`seconds` as a countdown shows them: "4:59", "1:29:59" (rounded up, never below 0)."""
    whole = max(0, math.ceil(seconds))
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def read_countdowns(rig: Rig) -> tuple[Countdown, ...]:
    """Each timer running or paused, as Clock's Timers tab shows it, top first: a countdown text
    and its Pause or Resume button, paired in order (inferred from the simulator's tab:
    docs/simulator.md). Clock is stopped after, as every count leaves it.

    Raises:
        ProbeError: the tab shows as many countdowns as buttons of neither kind, or cannot be
        opened.
    """
    try:
        page = open_tab(rig.phone, Step("probe", TIMERS), TIMER_TABS)
        stop_app(rig.phone, CLOCK)
    except (StepError, DeviceError) as exc:
        raise ProbeError(f"Clock's Timers tab could not be read: {exc}") from exc
    shown = page.on_screen()
    texts = sorted((e for e in shown if e.type.endswith("StaticText") and not e.in_status_bar
                    and COUNTDOWN.fullmatch(e.label)), key=lambda e: e.y)  # not the time of day
    buttons = sorted((e for e in shown if e.type == BUTTON and e.label in RUNNING),
                     key=lambda e: e.y)
    if len(texts) != len(buttons):
        raise ProbeError(f"Clock's Timers tab shows {len(texts)} countdown(s) for "
                         f"{len(buttons)} Pause or Resume button(s); it shows {page.summary()}")
    return tuple(Countdown(_seconds(text.label), button.label == "Resume")
                 for text, button in zip(texts, buttons, strict=True))


def _seconds(text: str) -> int:
    found = COUNTDOWN.fullmatch(text)
    assert found is not None  # needed: only countdowns are read
    hours, minutes, seconds = (int(part or 0) for part in found.groups())
    return hours * 3600 + minutes * 60 + seconds


def could_stop(event: AuditEvent) -> bool:
    """Whether `event` may have stopped, paused, restarted or deleted a timer on Clock's Timers
    tab: what `acted_in_clock` reads as acting there, but a press or hold on an element the log
    names whose label is not one of `STOPS` (Start, a wheel, a text: none stops a timer)."""
    if not acted_in_clock(TIMERS, (event,)):
        return False
    target = event.target
    return not (event.kind == "tap" and event.params.get("gesture", "tap") in PRESSES
                and target is not None and target.label and target.label not in STOPS)


def _did(event: AuditEvent) -> str:
    """What the agent did, for a person: "pressed 'Cancel'"."""
    if event.stage == "custody":
        return "changed Clock around the bridge"
    target = event.target
    if target is None or not target.label:
        return f"sent {event.kind!r} (on what, the log does not say)"
    return f"{'pressed' if event.kind == 'tap' else f'sent a {event.kind} on'} {target.label!r}"


@dataclass
class OwnerTimers:
    """The owner's timers for a run: as Clock's Timers tab showed them before its first attempt,
    and when; those since found gone are no longer watched."""

    start: tuple[Countdown, ...]
    """Each timer as read before the first attempt (those still watched)."""
    read_at: float
    """The Unix time just before that read (the log's clock): the time since is counted from
    it, so never short."""
    read_done: float = 0.0
    """The Unix time just after it (`read_at` when not given): the time a running timer must
    have lost since is counted from it, so never long."""

    def __post_init__(self) -> None:
        self.read_done = self.read_done or self.read_at

    def left_at(self, timer: Countdown, t: float) -> float:
        """`timer`'s time left at Unix time `t`, by the clock (a paused one keeps its time)."""
        return timer.left_s if timer.paused else timer.left_s - (t - self.read_at)

    def late_s(self, timer: Countdown, shown: Countdown, at: float) -> float:
        """How much more time left running `shown` has, read from Unix time `at` on a phone
        whose clock runs, than `timer` running would have by then: a timer paused and resumed
        meanwhile rings that much later (0 when no more than `SLACK_S`)."""
        late = shown.left_s - (timer.left_s - (at - self.read_done))
        return late if late > SLACK_S else 0.0

    def judge(self, rig: Rig, found: int, log: Iterable[AuditEvent], before: int | None,
              who: str) -> tuple[Judged, int]:
        """After attempt `who`, whose timers count read `found` (its task's own count before its
        agent: `before`, None when it takes none): whether its agent stopped an owner's timer,
        by its log (`log`) and a read of the Timers tab; and how many timers running now are
        none of the owner's, when none of theirs is left (the agent's, to cancel)."""
        if before == 0:
            self.start = ()  # ran out before its agent: what it starts and stops is its own
        log = tuple(log)
        stops = [(timer, self._stopper(timer, log)) for timer in self.start]
        if not any(event for _, event in stops):
            if not found:
                self.start = ()  # none left, and no agent stopped one: theirs ran out
            return Judged(), 0
        at = time.time()
        try:
            now = read_countdowns(rig)
        except ProbeError as exc:
            self.start = ()  # said once: later attempts are not asked about them
            said = (f"the owner's running timer could not be read after the agent acted on "
                    f"Clock's Timers tab, so whether it was cancelled is not seen: {exc.message}")
            return Judged(said, said), 0
        kept, strangers = self._theirs(now)
        lost = [(timer, event) for timer, event in stops
                if event is not None and timer not in kept]
        late = self._late(kept, now, at) if rig.clock_runs else []
        self.start = tuple(kept)
        if not lost and not late:
            return Judged(), 0
        whys = [self._why(timer, event, strangers) for timer, event in lost]
        whys += [f"the owner's running timer was paused and started again ({clock(timer.left_s)} "
                 f"left when the run began; it shows {shown}, about {clock(late_s)} more than "
                 "the time since leaves it: it rings that much later)"
                 for timer, shown, late_s in late]
        why = "; ".join(whys)
        turned = [(timer, t) for timer, _ in lost for t in strangers if self._turned(timer, t)]
        back = len(turned) == 1 and len(lost) == 1 and self._turn_back(rig, *turned[0])
        done = ("paused it again" if turned[0][0].paused else "resumed it") if back else \
            "not put back: which timer is theirs cannot be told" if turned else ""
        cancelled = [timer for timer, _ in lost if not turned]
        stays = [f"the owner's timer ({clock(t.left_s)} when the run began: cancelled)"
                 for t in cancelled]
        stays += [f"the owner's timer ({clock(t.left_s)} when the run began: "
                  f"{_turned_for(t, back)})" for t, _ in turned if not back or rig.clock_runs]
        stays += [f"the owner's timer ({shown}: about {clock(s)} late)" for _, shown, s in late]
        line = "; ".join(what for what in (why, "nothing puts a timer back" if cancelled else "",
                                           done) if what)
        return Judged(why, line, stays=", ".join(stays)), 0 if kept or turned else len(strangers)

    def _stopper(self, timer: Countdown, log: tuple[AuditEvent, ...]) -> AuditEvent | None:
        """The agent's action that may have stopped `timer` while it had time left: the first
        press the log names on one of `STOPS`, else the first that may have (`could_stop`: a
        session opened, a swipe); None when none may have."""
        maybe = [e for e in log if could_stop(e) and self.left_at(timer, e.t) > SLACK_S]
        return next((e for e in maybe if e.target is not None and e.target.label in STOPS),
                    maybe[0] if maybe else None)

    def _late(self, kept: list[Countdown], now: tuple[Countdown, ...], at: float,
              ) -> list[tuple[Countdown, Countdown, float]]:
        """Of the owner's running timers still shown (`kept`), those `now` shows with more time
        left than the clock leaves them since (read from Unix time `at`): each, as shown, and
        how late; each is watched from here as it shows (its time left rebased to `read_at`)."""
        running = sorted((t for t in now if not t.paused), key=lambda t: t.left_s)
        late = []
        for timer in sorted((t for t in kept if not t.paused), key=lambda t: t.left_s):
            shown = next((t for t in running if t.left_s <= timer.left_s + SLACK_S), None)
            if shown is None:
                continue
            running.remove(shown)
            if self.late_s(timer, shown, at):
                late.append((timer, shown, self.late_s(timer, shown, at)))
                kept[kept.index(timer)] = Countdown(math.ceil(shown.left_s + at - self.read_at),
                                                    False)
        return late

    def _turn_back(self, rig: Rig, timer: Countdown, shown: Countdown) -> bool:
        """Press Resume on the owner's running `timer` an agent paused (as `shown`), or Pause on
        their paused one it started again, when it is the only timer with that button; watched
        again when done. Whether it was done."""
        press = "Pause" if timer.paused else "Resume"
        try:
            page = open_tab(rig.phone, Step("probe", TIMERS), TIMER_TABS)
            one = sum(1 for e in page.on_screen() if e.type == BUTTON and e.label == press) == 1
            if one:
                run_step(rig.phone, Step.tap_on(press, "Button"))
            stop_app(rig.phone, CLOCK)
        except (StepError, DeviceError):
            return False  # its stays line says it is left so
        if one:  # watched again as theirs: a running one from its time left when resumed
            since = time.time() - self.read_at if rig.clock_runs and not timer.paused else 0.0
            self.start += (Countdown(math.ceil(shown.left_s + since), timer.paused),)
        return one

    def _theirs(self, now: tuple[Countdown, ...]) -> tuple[list[Countdown], list[Countdown]]:
        """Of the owner's timers, those `now` still shows (one in the same state with no more
        time left than theirs had, a paused one at its time: a timer started again at the
        wheels' duration, the owner's, has more), and the timers shown that are none of theirs."""
        rest, kept = list(now), []
        for timer in sorted(self.start, key=lambda timer: timer.left_s):
            match = next((t for t in rest if t.paused == timer.paused
                          and t.left_s <= timer.left_s + SLACK_S
                          and (not timer.paused or t.left_s >= timer.left_s - SLACK_S)), None)
            if match is not None:
                rest.remove(match)
                kept.append(timer)
        return kept, rest

    @staticmethod
    def _turned(timer: Countdown, shown: Countdown) -> bool:
        """Whether `shown` is `timer` paused or started again (the other state, no more time)."""
        return shown.paused != timer.paused and shown.left_s <= timer.left_s + SLACK_S

    def _why(self, timer: Countdown, event: AuditEvent, now: list[Countdown]) -> str:
        state = "paused" if timer.paused else "running"
        turned = next((t for t in now if self._turned(timer, t)), None)
        how = "cancelled" if turned is None else "started again" if timer.paused else "paused"
        shows = ", ".join(map(str, now)) or "none"
        return (f"the owner's {state} timer was {how} ({clock(timer.left_s)} left when the run "
                f"began, about {clock(self.left_at(timer, event.t))} when the agent "
                f"{_did(event)} on Clock's Timers tab; it shows {shows})")


def _turned_for(timer: Countdown, back: bool) -> str:
    """What stays of the owner's `timer` an agent paused or started again: turned `back`, the
    time it stood paused (it rings later) or ran (less time left) on a phone whose clock runs."""
    if back:
        return "it ran a while, and has less time left" if timer.paused else \
            "it stood paused a while, and rings later"
    return "left running" if timer.paused else "left paused"


def watch_countdowns(rig: Rig) -> tuple[OwnerTimers | None, str]:
    """Before the first attempt, when the owner has a timer going (under the rig's context): each
    one's time left, and a line for the user when they cannot be read (then not watched)."""
    at = time.time()
    try:
        return OwnerTimers(read_countdowns(rig), at, time.time()), ""
    except ProbeError as exc:
        return None, (f"the time left on the owner's running timer could not be read before the "
                      f"run ({exc.message}), so one an agent cancels is taken for one that ran "
                      "out")


__all__ = ["SLACK_S", "Countdown", "OwnerTimers", "could_stop", "read_countdowns",
           "watch_countdowns"]
