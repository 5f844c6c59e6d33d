"""Clock's stopwatch and timers as counts, the `select_tab` step, and deleting what an attempt
started.

A phone keeps a timer running, and a stopwatch going, after Clock is terminated: a timer an
attempt started rings minutes later over another task, and a stopwatch left going shows "Stop"
to the next attempt's agent before it has done anything. So the tasks that start one count it
before the agent and after capture (`clock_timers`, `stopwatch`), and their teardown's
`delete_created` cancels or resets only what the count grew by; a timer or stopwatch that ran
before the attempt is left alone.

Clock also reopens on the last tab used, so a task that asks for a tab selects another in its
setup (`select_tab`), and a probe selects its own tab whatever Clock opened on.

    clock_timers  timers running or paused: a Pause or Resume button each, on the Timers tab
    stopwatch     1 when the stopwatch is not at zero (running: Stop; stopped: Reset), else 0
"""

from __future__ import annotations

from collections.abc import Callable

from phoneshell.device.alarms import restart_clock, tab_buttons
from phoneshell.device.cleanup import DELETERS
from phoneshell.device.phone import Phone
from phoneshell.device.probes import CLOCK, ProbeError, leaving_open, probe, stop_app
from phoneshell.device.steps import executes, still_left
from phoneshell.errors import StepError
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
    page = open_tab(phone, step, TIMER_TABS)
    for _ in range(n):
        running = len(_buttons(page, RUNNING))
        if not running:
            raise _fail(step, "no running or paused timer left to cancel")
        _tap_until(phone, step, "Cancel", _fewer_than(running))
        page = phone.page()
    stop_app(phone, CLOCK)  # as every deleter leaves its app: the run's end tidies by them too


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
