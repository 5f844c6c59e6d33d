"""Clock (com.apple.mobiletimer): World Clock, Alarms, Stopwatch and Timers behind a tab bar.

The tab bar's buttons are "World Clock", "Alarms", "Stopwatch" and "Timers" (iOS 17 and later
spell the last "Timers"); the selected one has "Selected" among its traits and value "1", as on
iOS. Like a phone, Clock reopens on the last tab used, even after a terminate (kept in its store
as `tab`); a new phone opens on World Clock, the first tab. It also opens with the timer's
wheels as they were set when it stopped (`keep`, `restore`: iOS state restoration, as Files'
tab; inferred, see `clock_timers`). The tabs live in their own
modules: `clock_world`, `clock_alarms` (with the Add/Edit Alarm sheet and its time picker),
`clock_timers` (stopwatch and timers, driven by the phone's running clock) and `clock_lists`
(swipe-to-delete rows shared by World Clock and Alarms). Cities, alarms, the stopwatch, the
timer, the tab and the wheels are kept in Clock's store; everything else is per launch.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from phoneshell.sim import layout
from phoneshell.sim.apps import AppModel, Drag, Host, register
from phoneshell.sim.apps import clock_alarms as alarms
from phoneshell.sim.apps import clock_timers as timers
from phoneshell.sim.apps import clock_world as world
from phoneshell.sim.ui import Handler, Node

BUNDLE_ID = alarms.BUNDLE_ID
Tab = Literal["World Clock", "Alarms", "Stopwatch", "Timers"]
TABS: tuple[Tab, ...] = ("World Clock", "Alarms", "Stopwatch", "Timers")
TAB_KEY = "tab"


@dataclass
class ClockState:
    """Each tab's UI state (the selected tab is in the store)."""

    world: world.WorldState = field(default_factory=world.WorldState)
    alarms: alarms.AlarmsState = field(default_factory=alarms.AlarmsState)
    stopwatch: timers.StopwatchState = field(default_factory=timers.StopwatchState)
    timer: timers.TimerState = field(default_factory=timers.TimerState)


def selected(host: Host) -> Tab:
    """The tab Clock shows: the last one chosen (World Clock on a new phone)."""
    kept = host.store(BUNDLE_ID).text(TAB_KEY)
    return next((t for t in TABS if t == kept), TABS[0])


def render(state: ClockState, host: Host) -> Node:
    """The selected tab over the tab bar, and a sheet over both when one is open."""
    sheet: Node | None = None
    tab = selected(host)
    if tab == "World Clock":
        body, sheet = world.screen(state.world, host), world.sheet(state.world, host)
    elif tab == "Alarms":
        body, sheet = alarms.screen(state.alarms, host), alarms.sheet(state.alarms, host)
    elif tab == "Stopwatch":
        body = timers.stopwatch(state.stopwatch, host)
    else:
        body = timers.timers(state.timer, host)

    def choose(tab: Tab) -> Handler:
        def pick() -> None:
            host.store(BUNDLE_ID).put(TAB_KEY, tab)
        return pick

    f = host.facts
    tab_bar = layout.tab_bar(f, [(t, choose(t)) for t in TABS], TABS.index(tab))
    # The sheet comes last: it is drawn over the tab and the tab bar and takes their touches,
    # while what it covers stays in the page source, as on a real phone.
    kids = [*body, tab_bar] + ([sheet] if sheet is not None else [])
    return layout.screen(f, kids, key=f"clock:{tab}")


def on_drag(state: ClockState, host: Host, drag: Drag) -> bool:
    """Swipes on list rows (delete); other drags scroll lists and turn wheels as usual."""
    tab = selected(host)
    if tab == "Alarms":
        return alarms.swipe_row(state.alarms, host, drag)
    if tab == "World Clock":
        return world.swipe_row(state.world, host, drag)
    return False


def keep(state: ClockState) -> str:
    """What Clock saves of its screen as it stops: the timer's wheels."""
    return timers.wheels_kept(state.timer)


def restore(state: ClockState, kept: str) -> None:
    """Open with the timer's wheels as `keep` saved them."""
    timers.restore_wheels(state.timer, kept)


APP = register(AppModel(BUNDLE_ID, "Clock", ClockState, render, on_drag=on_drag, keep=keep,
                        restore=restore))
