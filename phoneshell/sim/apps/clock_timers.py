"""Clock's Stopwatch and Timers tabs, both driven by the phone's running clock (`Host.clock_s`).

The running clock moves only when the simulator is told to advance it, so a running stopwatch
or timer reads the same on every request until then: tests are deterministic, and a harness
comparing sources does not mistake a tick for an effect.

* **Stopwatch.** The time ("00:03.50", minutes:seconds.hundredths) over two round buttons:
  "Lap" (dimmed at zero) and "Start"; while running, "Lap" and "Stop"; once stopped, "Reset"
  and "Start". Laps list below ("Lap 2, 00:01.20"), the current lap first.
* **Timers.** Idle: a picker of three wheels ("0 hours", "15 min", "0 sec"; all wrap), "Cancel"
  (dimmed) and "Start" (dimmed at 0:00), and "When Timer Ends". Running: the time left
  ("4:59", or "1:29:59" from an hour up) with "Cancel" and "Pause" ("Resume" while paused). At
  zero the timer is over and the picker shows again with the last duration.

Like a phone, Clock keeps the stopwatch and the timer in its store (`stopwatch`: since, banked,
splits; `timer`: ends, paused_left), as readings of the running clock, so both run on after
Clock is terminated and show where they stand when it is opened again. The picker's wheels come
back as they were set when Clock stopped (`wheels_kept`, `restore_wheels`: the phone keeps them
with the screen an app restores, `apps.RESTORED`); a new phone shows 15 minutes. Inferred, not
read off a phone: iOS Clock opens its Timers tab on the last duration it was set to, started or
not (a red team's report; no dump shows it), and the pessimistic model is the one a harness
must hold against: a duration an earlier attempt dialled is still there for the next. The lap
list's scroll is per launch.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from phoneshell.sim import layout, lists
from phoneshell.sim.apps import Host
from phoneshell.sim.apps.clock_alarms import BUNDLE_ID
from phoneshell.sim.store import JSON, Store
from phoneshell.sim.ui import Node, Rect, Scroll, Wheel

HOURS = tuple(f"{h} hour" if h == 1 else f"{h} hours" for h in range(24))
MINUTES = tuple(f"{m} min" for m in range(60))
SECONDS = tuple(f"{s} sec" for s in range(60))
BUTTON = 90
"""The round buttons' size in points."""
STOPWATCH_KEY, TIMER_KEY = "stopwatch", "timer"


def _reading(value: JSON) -> float | None:
    """A number from the store; None for anything else (a hand-edited state file)."""
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) \
        else None


def _record(store: Store, key: str) -> dict[str, JSON]:
    value = store.data.get(key)
    return value if isinstance(value, dict) else {}


@dataclass
class Stopwatch:
    """The stopwatch as Clock keeps it: banked time, when it was last started (None: stopped),
    and the lap splits."""

    since_s: float | None = None
    banked_s: float = 0.0
    splits: list[float] = field(default_factory=list)
    """Elapsed time at each Lap press."""

    @classmethod
    def read(cls, store: Store) -> Stopwatch:
        """The stored stopwatch (at zero when none is stored)."""
        record = _record(store, STOPWATCH_KEY)
        splits = record.get("splits")
        marks = [_reading(v) for v in splits] if isinstance(splits, list) else []
        return cls(_reading(record.get("since")), _reading(record.get("banked")) or 0.0,
                   [m for m in marks if m is not None])

    def write(self, store: Store) -> None:
        """Keep it in the store."""
        store.put(STOPWATCH_KEY, {"since": self.since_s, "banked": self.banked_s,
                                  "splits": list(self.splits)})

    def elapsed(self, now_s: float) -> float:
        """Seconds on the stopwatch at clock reading `now_s`."""
        return self.banked_s + (now_s - self.since_s if self.since_s is not None else 0.0)


@dataclass
class StopwatchState:
    """What lasts one launch: the lap list's scroll."""

    scroll: Scroll = field(default_factory=Scroll)


def stopwatch_text(seconds: float) -> str:
    """"00:03.50"; hours are added in front from an hour up."""
    hundredths = int(round(seconds * 100, 6))
    minutes, rest = divmod(hundredths, 6000)
    hours, minutes = divmod(minutes, 60)
    text = f"{minutes:02d}:{rest // 100:02d}.{rest % 100:02d}"
    return f"{hours}:{text}" if hours else text


def stopwatch(state: StopwatchState, host: Host) -> list[Node]:
    """The Stopwatch tab."""
    f, now, store = host.facts, host.clock_s, host.store(BUNDLE_ID)
    watch = Stopwatch.read(store)
    elapsed = watch.elapsed(now)
    running = watch.since_s is not None

    def start() -> None:
        watch.since_s = host.clock_s
        watch.write(store)

    def stop() -> None:
        watch.banked_s, watch.since_s = watch.elapsed(host.clock_s), None
        if not watch.banked_s:
            # Stopped with no time on it (the clock moves only when told, a phone's always
            # does): it is at zero, as after a reset, and keeps no laps it could not show.
            watch.splits = []
        watch.write(store)

    def lap() -> None:
        watch.splits.append(watch.elapsed(host.clock_s))
        watch.write(store)

    def reset() -> None:
        watch.banked_s, watch.splits = 0.0, []
        watch.write(store)

    shown = stopwatch_text(elapsed)
    width = min(f.width - 32, layout.text_width(shown, 76))
    display = layout.text(shown, Rect((f.width - width) // 2, 200, width, 96))
    left = Rect(24, 420, BUTTON, BUTTON)
    right = Rect(f.width - 24 - BUTTON, 420, BUTTON, BUTTON)
    if running:
        buttons = [layout.button("Lap", left, lap), layout.button("Stop", right, stop)]
    elif elapsed > 0:
        buttons = [layout.button("Reset", left, reset), layout.button("Start", right, start)]
    else:
        buttons = [layout.button("Lap", left, None, enabled=False),
                   layout.button("Start", right, start)]
    rows = []
    if elapsed > 0:
        marks = [0.0, *watch.splits, elapsed]
        laps = [(i, marks[i] - marks[i - 1]) for i in range(1, len(marks))]
        rows = [lists.Row(f"Lap {i}", detail=stopwatch_text(t)) for i, t in reversed(laps)]
    top = 540
    viewport = Rect(0, top, f.width, f.height - layout.TAB_BAR_HEIGHT - top)
    laps_table = lists.table(state.scroll, viewport, [lists.Section(tuple(rows))],
                              key="laps", frame=lists.under_bars(f, top))
    return [display, *buttons, laps_table]


@dataclass
class Timer:
    """The timer as Clock keeps it: when a running one ends, or how long a paused one has left
    (neither: no timer, or it is over)."""

    ends_s: float | None = None
    """The clock reading at which the running timer reaches zero."""
    paused_left_s: float | None = None

    @classmethod
    def read(cls, store: Store) -> Timer:
        """The stored timer (none when none is stored)."""
        record = _record(store, TIMER_KEY)
        return cls(_reading(record.get("ends")), _reading(record.get("paused_left")))

    def write(self, store: Store) -> None:
        """Keep it in the store."""
        store.put(TIMER_KEY, {"ends": self.ends_s, "paused_left": self.paused_left_s})

    def left_s(self, now_s: float) -> float | None:
        """Seconds left on a running or paused timer; None when none is set or it is over."""
        if self.paused_left_s is not None:
            return self.paused_left_s
        if self.ends_s is not None and self.ends_s > now_s:
            return self.ends_s - now_s
        return None


@dataclass
class TimerState:
    """What lasts one launch: the duration wheels."""

    hours: Wheel = field(default_factory=lambda: Wheel(HOURS, 0, wrap=True))
    minutes: Wheel = field(default_factory=lambda: Wheel(MINUTES, 15, wrap=True))
    seconds: Wheel = field(default_factory=lambda: Wheel(SECONDS, 0, wrap=True))

    def duration_s(self) -> int:
        """What the wheels are set to, in seconds."""
        return self.hours.index * 3600 + self.minutes.index * 60 + self.seconds.index


def wheels_kept(state: TimerState) -> str:
    """The wheels as Clock saves them when it stops: "H:MM:SS" ("0:15:00")."""
    return f"{state.hours.index}:{state.minutes.index:02d}:{state.seconds.index:02d}"


def restore_wheels(state: TimerState, kept: str) -> None:
    """Set a new launch's wheels to what `wheels_kept` saved (anything else: left at 15 min)."""
    parts = kept.split(":")
    if len(parts) != 3 or not all(p.isascii() and p.isdigit() for p in parts):
        return
    h, m, s = (int(p) for p in parts)
    if h < len(HOURS) and m < len(MINUTES) and s < len(SECONDS):
        state.hours.index, state.minutes.index, state.seconds.index = h, m, s


def countdown_text(seconds: float) -> str:
    """"4:59" (whole seconds, rounded up, as the timer shows them); "1:29:59" from an hour."""
    whole = math.ceil(round(seconds, 6))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def timers(state: TimerState, host: Host) -> list[Node]:
    """The Timers tab: the picker while idle, the countdown while running or paused."""
    f, store = host.facts, host.store(BUNDLE_ID)
    timer = Timer.read(store)
    left = timer.left_s(host.clock_s)

    def keep(ends_s: float | None, paused_left_s: float | None) -> None:
        Timer(ends_s, paused_left_s).write(store)

    def start() -> None:
        keep(host.clock_s + state.duration_s(), None)

    def cancel() -> None:
        keep(None, None)

    def pause() -> None:
        keep(None, timer.left_s(host.clock_s))

    def resume() -> None:
        if timer.paused_left_s is not None:
            keep(host.clock_s + timer.paused_left_s, None)

    nav = layout.nav_bar(f, "Timers", large=True)
    left_button = Rect(24, 430, BUTTON, BUTTON)
    right_button = Rect(f.width - 24 - BUTTON, 430, BUTTON, BUTTON)
    if left is None:
        body = [layout.picker(Rect(16, 180, 370, 216),
                              [(state.hours, Rect(36, 180, 100, 216)),
                               (state.minutes, Rect(151, 180, 100, 216)),
                               (state.seconds, Rect(266, 180, 100, 216))]),
                layout.button("Cancel", left_button, None, enabled=False),
                layout.button("Start", right_button, start, enabled=state.duration_s() > 0)]
    else:
        shown = countdown_text(left)
        width = min(f.width - 32, layout.text_width(shown, 76))
        paused = timer.paused_left_s is not None
        body = [layout.text(shown, Rect((f.width - width) // 2, 220, width, 96)),
                layout.button("Cancel", left_button, cancel),
                layout.button("Resume", right_button, resume) if paused
                else layout.button("Pause", right_button, pause)]
    ends = lists.cell(lists.Row("When Timer Ends", detail="Radar", chevron=True,
                                  on_tap=_nothing), Rect(lists.ROW_X, 560, lists.ROW_WIDTH,
                                                         lists.ROW_HEIGHT))
    return [nav, *body, ends]


def _nothing() -> None:
    """The sound picker is a page the simulator does not model."""
