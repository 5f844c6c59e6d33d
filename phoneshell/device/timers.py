"""Clock's stopwatch and timers as counts, the `select_tab` step, and deleting what an attempt
started.

A phone keeps a timer running, and a stopwatch going, after Clock is terminated: a timer an
attempt started rings minutes later over another task, and a stopwatch left going shows "Stop"
to the next attempt's agent before it has done anything. So the tasks that start one count it
before the agent and after capture (`clock_timers`, `stopwatch`), and their teardown's
`delete_created` cancels or resets only what the count grew by; a timer or stopwatch that ran
before the attempt is left alone.

Clock also reopens on the last tab used, so a task that asks for a tab selects another in its
setup (`select_tab`), and a probe selects its own tab whatever Clock opened on. And it reopens
with the timer's wheels at the duration they were last set to (inferred: `sim.apps.clock_timers`),
so a task that asks for a duration counts the wheels at it before the agent (`timer_dialled`,
with `none_before`: an earlier attempt's dial would pass an agent that only opens Clock), and
its teardown dials them back to what that count read (`restore_timer`): the owner's duration
stays theirs, and the next attempt starts from it. Where the attempt has no reading of its own
(it found them left over, or a timer hid them), the runner binds the one the run took before its
first attempt (`runner.counts.run_reading`); a new phone's duration only when neither is known.

    clock_timers   timers running or paused: a Pause or Resume button each, on the Timers tab
    stopwatch      1 when the stopwatch is not at zero (running: Stop; stopped: Reset), else 0
    timer_dialled  1 when the idle wheels read `arg` (H:MM:SS), else 0; its row: what they read
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from phoneshell.device.alarms import restart_clock, tab_buttons
from phoneshell.device.cleanup import DELETERS, kept_rows
from phoneshell.device.phone import Phone
from phoneshell.device.probes import CLOCK, ProbeError, leaving_open, probe, stop_app
from phoneshell.device.steps import executes, run_step, still_left
from phoneshell.device.wholes import LISTS, Listed
from phoneshell.errors import DeviceError, StepError
from phoneshell.tasks import Step
from phoneshell.tree import Element, PageSource

BUTTON, WHEEL = "XCUIElementTypeButton", "XCUIElementTypePickerWheel"
TIMER_TABS = ("Timers", "Timer")
"""The tab's label: "Timers" from iOS 17, "Timer" before."""
STOPWATCH_TABS = ("Stopwatch",)
RUNNING = ("Pause", "Resume")
"""One of these per timer that is running or paused."""
NOT_AT_ZERO = ("Stop", "Reset")
"""A stopwatch running shows Stop; one stopped with time on it, Reset."""


def _fail(step: Step, what: str) -> StepError:
    return StepError(f"{step.describe()}: {what}")


def _buttons(page: PageSource, labels: tuple[str, ...]) -> list[Element]:
    return [e for e in page.on_screen() if e.type == BUTTON and e.label in labels]


def _selected(page: PageSource, labels: tuple[str, ...]) -> bool:
    """Whether the tab bar's button with one of `labels` reads selected (trait or value)."""
    return any("Selected" in e.traits or e.value == "1" for e in tab_buttons(page, labels))


def select(phone: Phone, step: Step, labels: tuple[str, ...]) -> PageSource:
    """Select the tab with one of `labels` in the app in front (nothing when it already is);
    the screen it shows.

    Raises:
        StepError: no such tab, or it did not read selected after a tap.
    """
    page = phone.page()
    if _selected(page, labels):
        return page
    tabs = tab_buttons(page, labels)
    if not tabs:
        raise _fail(step, f"no {labels[0]!r} tab on screen; it shows {page.summary()}")
    phone.tap(*tabs[0].centre)
    if not phone.poll(lambda: _selected(phone.page(), labels), phone.effect_timeout_s):
        raise _fail(step, f"tapping the {labels[0]!r} tab did not select it")
    return phone.page()


@executes("select_tab")
def _select_tab(phone: Phone, step: Step) -> None:
    select(phone, step, (step.arg,))


def left_key(labels: tuple[str, ...]) -> str:
    """What a count that leaves Clock on the tab with one of `labels` tells `Phone.leave`."""
    return f"{CLOCK} {labels[0].lower()}"


def open_tab(phone: Phone, step: Step, labels: tuple[str, ...]) -> PageSource:
    """Clock restarted on the tab with one of `labels`; or, when a count left that tab up
    (`Phone.leave`) and nothing acted since, that tab, once a fresh read shows it still is."""
    page = still_left(phone, left_key(labels), CLOCK, lambda p: _selected(p, labels))
    if page is not None:
        return page
    restart_clock(phone, step)
    return select(phone, step, labels)


def _count(phone: Phone, name: str, labels: tuple[str, ...],
           counted: Callable[[PageSource], int]) -> int:
    page = open_tab(phone, Step("probe", name), labels)
    found = counted(page)
    if leaving_open():
        phone.leave(left_key(labels))  # the cleanup after may start from this tab
    else:
        stop_app(phone, CLOCK)
    return found


def _running_timers(page: PageSource) -> int:
    """One per Pause or Resume button; none only when the idle picker shows instead (a tab
    showing neither is not read as "no timer": a timer left running would ring mid-run).

    Raises:
        ProbeError: the tab shows neither.
    """
    found = len(_buttons(page, RUNNING))
    if not found and not any(e.type == WHEEL for e in page.on_screen()):
        raise ProbeError("Clock's Timers tab shows neither a running timer (Pause, Resume) nor "
                         f"the timer picker; it shows {page.summary()}")
    return found


def _stopwatch_going(page: PageSource) -> int:
    """1 when a Stop or Reset button shows; 0 only when Start shows without them.

    Raises:
        ProbeError: the tab shows none of Start, Stop and Reset.
    """
    if _buttons(page, NOT_AT_ZERO):
        return 1
    if not _buttons(page, ("Start",)):
        raise ProbeError("Clock's Stopwatch tab shows none of Start, Stop and Reset; it shows "
                         f"{page.summary()}")
    return 0


@probe("clock_timers")
def clock_timers(phone: Phone, arg: str) -> int:
    """Timers running or paused: the Pause and Resume buttons on Clock's Timers tab."""
    return _count(phone, "clock_timers", TIMER_TABS, _running_timers)


@probe("stopwatch")
def stopwatch(phone: Phone, arg: str) -> int:
    """1 when Clock's stopwatch is not at zero (a Stop or Reset button shows), else 0."""
    return _count(phone, "stopwatch", STOPWATCH_TABS, _stopwatch_going)


def _tap_until(phone: Phone, step: Step, label: str, done: Callable[[PageSource], bool]) -> None:
    found = _buttons(phone.page(), (label,))
    if not found or not found[0].enabled:
        raise _fail(step, f"no {label!r} button to tap; Clock shows {phone.page().summary()}")
    phone.tap(*found[0].centre)
    if not phone.poll(lambda: done(phone.page()), phone.effect_timeout_s):
        raise _fail(step, f"tapping {label!r} did not do it; Clock shows {phone.page().summary()}")


@DELETERS.register("clock_timers")
def _cancel_timers(phone: Phone, step: Step, text: str, n: int) -> None:
    """Cancel `n` timers, one Cancel at a time, each checked gone (one running or paused timer
    fewer) before the next."""
    _cancel(phone, step, open_tab(phone, step, TIMER_TABS), n)
    stop_app(phone, CLOCK)  # as every deleter leaves its app: the run's end tidies by them too


def _cancel(phone: Phone, step: Step, page: PageSource, n: int) -> PageSource:
    """Cancel `n` timers from the Timers tab `page` shows; what it shows after."""
    for _ in range(n):
        running = len(_buttons(page, RUNNING))
        if not running:
            raise _fail(step, "no running or paused timer left to cancel")
        _tap_until(phone, step, "Cancel", _fewer_than(running))
        page = phone.page()
    return page


def _fewer_than(running: int) -> Callable[[PageSource], bool]:
    return lambda page: len(_buttons(page, RUNNING)) < running


@DELETERS.register("stopwatch")
def _reset_stopwatch(phone: Phone, step: Step, text: str, n: int) -> None:
    """Stop the stopwatch if it runs, then reset it to zero."""
    page = open_tab(phone, step, STOPWATCH_TABS)
    if _buttons(page, ("Stop",)):
        _tap_until(phone, step, "Stop", lambda p: not _buttons(p, ("Stop",)))
        page = phone.page()
    if _buttons(page, ("Reset",)):  # stopped at once, a stopwatch may read zero already
        _tap_until(phone, step, "Reset", lambda p: not _buttons(p, NOT_AT_ZERO))
    stop_app(phone, CLOCK)


DIALLED = "timer_dialled"
UNITS = ("hour", "min", "sec")
"""How each wheel's value names its unit ("0 hours", "1 hour", "15 min", "0 sec"): the set_picker
wheel each is found by, hours first."""


def _duration(text: str) -> tuple[int, int, int] | None:
    """(hours, minutes, seconds) of "H:MM:SS", or None when `text` is not one."""
    parts = text.strip().split(":")
    if len(parts) != 3 or not all(p.isascii() and p.isdigit() for p in parts):
        return None
    h, m, s = (int(p) for p in parts)
    return (h, m, s) if m < 60 and s < 60 else None


def _dial(page: PageSource) -> str | None:
    """What the Timers tab's idle wheels read, as "H:MM:SS"; None when a timer running or
    paused shows in their place.

    Raises:
        ProbeError: the tab shows neither, or wheels whose values name no unit of a timer.
    """
    wheels = sorted((e for e in page.on_screen() if e.type == WHEEL), key=lambda e: e.x)
    if not wheels:
        _running_timers(page)  # raises when no timer shows either
        return None
    found: dict[str, int] = {}
    for wheel in wheels:
        words = wheel.value.split()
        unit = next((u for u in UNITS if len(words) == 2 and words[1].startswith(u)), None)
        if unit is None or not (words[0].isascii() and words[0].isdigit()) or unit in found:
            break
        found[unit] = int(words[0])
    if len(wheels) != len(UNITS) or len(found) != len(UNITS):
        raise ProbeError("Clock's Timers tab shows wheels that are not a timer's hours, minutes "
                         f"and seconds: {', '.join(repr(w.value) for w in wheels)}")
    return f"{found['hour']}:{found['min']:02d}:{found['sec']:02d}"


@LISTS.register(DIALLED)
def timer_dialled_listed(phone: Phone, arg: str) -> Listed:
    """1 when Clock's Timers tab shows its wheels at `arg` (H:MM:SS), else 0 (another
    duration, or a timer running or paused in their place: the `clock_timers` count's case);
    and its row, what the wheels read whether counted or not (none when they do not show), for
    `restore_timer` to dial back to."""
    want = _duration(arg)
    if want is None:
        raise ProbeError(f"probe {DIALLED}: {arg!r} is not a duration written H:MM:SS "
                         "(e.g. 0:05:00)")
    page = open_tab(phone, Step("probe", DIALLED), TIMER_TABS)
    reading = _dial(page)
    if leaving_open():
        phone.leave(left_key(TIMER_TABS))  # the timers count after it starts from this tab
    else:
        stop_app(phone, CLOCK)
    if reading is None:
        return Listed(0, ())
    return Listed(int(_duration(reading) == want), (reading,))


@probe(DIALLED)
def timer_dialled(phone: Phone, arg: str) -> int:
    """1 when Clock's Timers tab shows its wheels at `arg` (H:MM:SS), else 0."""
    return timer_dialled_listed(phone, arg).count


def wheel_values(reading: str) -> tuple[str, str, str]:
    """The wheels' values that read "H:MM:SS", as the timer's wheels write them."""
    h, m, s = (int(p) for p in reading.split(":"))
    return (f"{h} hour" if h == 1 else f"{h} hours", f"{m} min", f"{s} sec")


NEW_PHONE = "0:15:00"
"""The duration a new phone's wheels show: what they are dialled to when they read the duration
counted and no reading is known, neither the attempt's before its agent nor the run's before its
first attempt (the runner binds that one where the attempt has none: `runner.counts`)."""


@executes("restore_timer")
def restore_timer(phone: Phone, step: Step) -> None:
    """Dial Clock's timer wheels back to what the `timer_dialled` count of duration `step.arg`
    read before the agent (its row, bound in by the runner as the alarms are for
    `clean_alarms`; the run's reading before its first attempt where the attempt has none),
    each wheel that reads otherwise turned back (`set_picker`), then checked. Nothing when the
    count was not taken (the agent never ran); see `dial_back`."""
    dial_back(phone, step, step.arg, kept_rows(step))


@DELETERS.register(DIALLED)
def _dial_off(phone: Phone, step: Step, text: str, n: int) -> None:
    """What `delete_created` (and the run's end, `runner.leftovers.delete_left`) does with
    wheels found at `text`: dial them back to what was counted before (the run's end binds
    what the run read before its first attempt), else off `text`."""
    dial_back(phone, step, text, kept_rows(step) or Counter())


def dial_back(phone: Phone, step: Step, goal: str, kept: Counter[str] | None) -> str | None:
    """Dial the wheels to the reading in `kept` (the count's row before the agent, or the
    run's); with none there (no reading is known), only wheels that read `goal` are dialled, to
    a new phone's duration (`NEW_PHONE`; 0:10:00 when that is `goal`): the owner's is lost, and
    the wheels must not hand the task to the next attempt. Nothing when `kept` is None (no
    count before the agent: it never ran). What the wheels read before (None: a timer showed).

    Raises:
        StepError: a timer runs in place of wheels to dial, or they did not come to read it.
    """
    if kept is None:
        return None
    want = next(iter(kept), None)
    if want is not None and _duration(want) is None:
        raise _fail(step, f"the wheels before the agent read {want!r}, not a duration")
    page = open_tab(phone, step, TIMER_TABS)
    found = now = _dial_or_fail(page, step, want is not None)
    if want is None and now is not None and _duration(now) == _duration(goal):
        want = NEW_PHONE if goal != NEW_PHONE else "0:10:00"
    if now is not None and want is not None and now != want:
        for unit, was, value in zip(UNITS, wheel_values(now), wheel_values(want), strict=True):
            if was != value:
                _turn_wheel(phone, unit, was, value)
        now = _dial_or_fail(phone.page(), step, True)
        if now != want:
            raise _fail(step, f"the wheels read {now} after dialling back to {want}")
    stop_app(phone, CLOCK)
    return found


def cancel_running(phone: Phone, step: Step) -> str:
    """Cancel every timer running or paused (what hides the wheels: `HIDDEN_BY`), each checked
    gone; what the wheels read then. Clock is stopped after, as every deleter leaves it.

    Raises:
        StepError: a timer would not cancel, or the wheels did not show after.
    """
    page = open_tab(phone, step, TIMER_TABS)
    page = _cancel(phone, step, page, len(_buttons(page, RUNNING)))
    reading = _dial_or_fail(page, step, True)
    stop_app(phone, CLOCK)
    assert reading is not None  # needed: `_dial_or_fail` raised otherwise
    return reading


def _turn_wheel(phone: Phone, unit: str, was: str, value: str) -> None:
    """Turn the wheel that reads `was` to `value`: by WDA's element value (XCTest turns it, two
    requests however many rows), else, when WDA refuses it, by taps a row at a time
    (`set_picker`: a read after each), as a person would."""
    try:
        phone.set_value_of("PickerWheel", "value", was, value)
    except DeviceError:
        run_step(phone, Step("set_picker", options=(("wheel", unit), ("value", value))))


def _dial_or_fail(page: PageSource, step: Step, needed: bool) -> str | None:
    """What the wheels read; None when a timer shows in their place and they are not
    `needed`."""
    try:
        now = _dial(page)
    except ProbeError as exc:
        raise _fail(step, exc.message) from exc
    if now is None and needed:
        raise _fail(step, "a timer runs in place of the wheels: they cannot be dialled back")
    return now
