"""The `countdown` check: a timer started at a duration, by the final screen and the log's times.
Pure.

A running timer's screen shows what is left, not what it was started at: 4:00 may be a
five-minute timer a minute in or a four-minute one just started. The audit log says when the
agent's tap on Start was asked and answered, the evidence when the final screen was read; the
durations those times allow (`_durations`) must hold the one asked for.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from phoneshell.audit import Action
from phoneshell.checks.how import labelled
from phoneshell.checks.implied import Same
from phoneshell.checks.kind import Check, Finding, check_kind
from phoneshell.checks.path import IN_APP, PAGE, place, placed, unwatched
from phoneshell.checks.tapped_names import press_named
from phoneshell.evidence import Capture, Evidence
from phoneshell.params import Param, ParamValue
from phoneshell.presses import TAPS_GESTURE, touch_words
from phoneshell.tree import Element, PageSource
from phoneshell.xcui import SPRINGBOARD

DURATION = Param("text", "str", "The duration the countdown was started at, as the timer shows "
                                "it: `5:00`, `1:30:00`.", required=True)
START = Param("start", "str", "The label of the control that starts it (default Start).",
              default="Start")
SLACK = Param("slack_s", "int", "The most seconds after the tap on `start` was asked that the "
                                "timer may have started, where the log does not say when WDA "
                                "answered the tap (older logs; default 3): a phone slow to "
                                "perform a tap.",
              minimum=1, default=3)
ROUNDING_S = 1.0
"""The timer shows whole seconds: what it shows is within a second of what is left, rounded
either way (iOS does not say which)."""
COUNTDOWN = re.compile(r"^(?:(\d+):)?(\d{1,2}):(\d{2})$")


def seconds(shown: str) -> int | None:
    """A countdown as a timer shows it ("4:59", "1:29:59") in seconds; None if it is not one."""
    match = COUNTDOWN.match(shown.strip())
    if match is None:
        return None
    hours, minutes, secs = (int(g) if g else 0 for g in match.groups())
    return hours * 3600 + minutes * 60 + secs


MERIDIEM = re.compile(r"^[ap]\.?\s?m\.?$", re.IGNORECASE)
"""AM or PM, as a time of day shows it beside its digits ("AM", "p.m.")."""


ZERO_HOUR = re.compile(r"^0\d:\d{2}$")
"""A 24-hour time of day before ten ("04:41"): a countdown never writes its leading field with a
zero ("4:41", "14:59", "1:04:59")."""


def _time_of_day(page: PageSource, element: Element, text: str) -> bool:
    """Whether a countdown-like text is a time of day: beside an AM or PM in its own row or
    group (World Clock's "4:41" "AM", an alarm's "9:41" "AM"), or in a row labelled with it
    and AM or PM ("Sydney, 4:41 AM"), or a 24-hour phone's, which has no AM or PM, before ten
    ("04:41")."""
    if ZERO_HOUR.match(text):
        return True
    for other in page.elements:
        if other.parent == element.parent and other is not element and \
                MERIDIEM.match(other.label.strip() or other.value.strip()):
            return True
    row = page.holder(element, "Cell")
    return row is not None and re.search(rf"(?<![\d:]){re.escape(text)}\s?[AaPp]\.?[Mm]\b",
                                         row.label) is not None


def _started(actions: Sequence[Action], check: Check) -> Action | None:
    """The agent's last press on `start` in `app`, on `page` (when given): the Start of the
    timer's own page, not the Stopwatch's. A touch the phone may or may not have taken as a
    press (`Action.presses` None) is one too, and so is one that may or may not have reached the
    phone (`Action.acted` None): whether it started the timer is `_untold`."""
    start, app = check.text_of("start") or "Start", check.text_of("app")
    taps = [a for a in actions if a.kind == "tap" and a.acted is not False and a.presses != 0
            and (not app or a.app_before == app) and labelled(a, start) and placed(a, check)]
    return taps[-1] if taps else None


def _untold(action: Action, did: str) -> str:
    """Why what a touch did to the timer cannot be told: it may or may not have reached the
    phone, the phone may or may not have taken it as a press, or it pressed a number of times
    the log does not hold."""
    if action.acted is None:
        return f"{action.untold()}: it may or may not have {did}"
    what = f" on {press_named(action)}"
    if action.params.get("gesture") == TAPS_GESTURE and TAPS_GESTURE not in action.params:
        return f"a multi-tap{what} {did} a number of times the log does not hold"
    return (f"#{action.seq} {touch_words(action.params)}{what} may or may not have {did} (a "
            "touch the phone may or may not take as a press)")


PAUSE, RESUME = "Pause", "Resume"
"""The running countdown's button, and the paused one's."""


def _toggles(action: Action, since: Action, check: Check) -> bool:
    """Whether an action is a press of the countdown's Pause or Resume after `since`: in
    SpringBoard (its Live Activity) anywhere, in `app` on `page` (when given)."""
    app = check.text_of("app")
    if action.t <= since.t or action.presses == 0 or action.acted is False or \
            not (labelled(action, PAUSE) or labelled(action, RESUME)):
        return False
    if action.app_before == SPRINGBOARD:
        return True
    return (not app or action.app_before == app) and placed(action, check)


def _paused_for(actions: Sequence[Action], since: Action, check: Check, until: float,
                ) -> tuple[float, bool, str]:
    """The seconds the countdown started by `since` stood paused before `until`, whether it was
    still paused then, and why that cannot be told ("" when it can).

    The timer has one button that redraws itself Pause or Resume, and so does its Live Activity
    on the lock screen and in the Dynamic Island (SpringBoard's): every press of either, in
    `app` on `page` or in SpringBoard, toggles it, whatever label the log saw (a double tap on
    Pause pauses and resumes: `Action.presses`). A touch the phone may or may not have taken as
    a press (two fingers), or a multi-tap whose count the log does not hold, cannot be counted."""
    paused_at: float | None = None
    stood = 0.0
    for action in actions:
        if not _toggles(action, since, check):
            continue
        if action.presses is None or action.acted is None:
            return stood, paused_at is not None, _untold(action, "toggled the timer")
        for _ in range(action.presses):
            if paused_at is None:
                paused_at = action.t
            else:
                stood += max(0.0, action.t - paused_at)
                paused_at = None
    if paused_at is not None:
        return stood + max(0.0, until - paused_at), True, ""
    return stood, False, ""


class Bounds(NamedTuple):
    """When, by the log's own times, the timer started and the final screen was read."""

    start_from: float
    """The tap on Start was asked then (its intent line): the timer started no sooner."""
    start_by: float
    """WDA answered it (the phone had done it): `Action.answered_t`, else its outcome line, at
    most `slack_s` after `start_from` in a log that does not say when WDA answered."""
    read_from: float
    """The capture began then (`Evidence.captured_at`), or the agent's last action was asked
    then, whichever came later: the capture follows the agent's turn."""
    read_by: float
    """The final source's stamp (`Capture.taken_at`): it had been read."""
    stood: float
    """Seconds the timer stood paused meanwhile (`_paused_for`)."""


def _bounds(tap: Action, actions: Sequence[Action], evidence: Evidence, final: Capture,
            stood: float, slack_s: int) -> Bounds:
    """The log's times for the timer's start and the final read (`Bounds`). The phone had
    started it by the time WDA answered the tap (`Action.answered_t`, or the outcome line's
    time where that was written at the answer). A log that does not say when WDA answered
    (written before the bridge kept it) has only the outcome line of a tap whose read after
    was put off (docs/audit-log.md), written at the first whole read after the answer, which
    may come long after: a timer taken as started then would pass a longer one left to run
    down, so there the start is taken no later than `slack_s` after the tap was asked, the
    most a tap the phone is slow to perform may take (XCTest waits for the app to go idle
    first). The read came after the capture began and after every action of the agent's was
    asked."""
    if tap.answered_t is not None:
        start_by = tap.answered_t
    else:
        start_by = min(tap.outcome_t if tap.outcome_t is not None else tap.t, tap.t + slack_s)
    read_from = min(max(evidence.captured_at, *(a.t for a in actions)), final.taken_at)
    return Bounds(tap.t, max(tap.t, start_by), read_from, final.taken_at, stood)


def _durations(left: int, bounds: Bounds | None) -> tuple[float, float]:
    """The durations a timer showing `left` seconds may have been started at (None: on a
    phone whose clock stands still, nothing elapsed). It ran from its start to the read, less
    the time it stood paused: at least from `start_by` to `read_from`, at most from
    `start_from` to `read_by`; and the display shows whole seconds, rounded either way (iOS
    does not say which), a second either side. On a still clock the countdown shows the
    duration dialled, and the second under what it shows is the rounding a running phone's
    display may take (a timer one second longer always lands in a running phone's window)."""
    if bounds is None:
        return left - ROUNDING_S, float(left)
    ran_least = max(0.0, bounds.read_from - bounds.start_by - bounds.stood)
    ran_most = max(0.0, bounds.read_by - bounds.start_from - bounds.stood)
    return left + ran_least - ROUNDING_S, left + ran_most + ROUNDING_S


def _no_duration(values: dict[str, ParamValue]) -> tuple[str, str] | None:
    """A `text` that is no duration as a timer shows one, as (field, problem), read at load:
    such a check could never pass."""
    text = str(values.get("text", ""))
    return None if seconds(text) is not None else (
        "text", f"needs `text` as the timer shows a duration (5:00, 1:30:00), not {text!r}")


@check_kind("countdown", family="path", params=(DURATION, START, IN_APP, PAGE, SLACK),
            negatable=False, implied_by=Same(), invalid=_no_duration)
def countdown(check: Check, evidence: Evidence) -> Finding:
    """Passes when a countdown shows on the final screen (a StaticText like `4:57`, not a time
    of day: beside AM or PM, or in a row labelled with the time and AM or PM) and the durations
    it may have been started at, by the log's times (`_durations`: the timer ran between the
    agent's last tap on `start`, on `page` when given, and the screen being read), hold `text`:
    the timer was started at that duration, and runs. A four-minute timer just started and a
    six-minute one left to run down a minute both fail a five-minute check; so does one paused
    (a Resume button on the final screen, or a tap on Pause the log shows no Resume after), and
    the time it stood paused is not time it ran."""
    want = seconds(check.text)
    final = evidence.final
    if want is None:
        return Finding(False, f"{check.text!r} is not a duration like 5:00")
    if final is None:
        return Finding(False, "no page source was captured", unproven="no page source")
    start = check.text_of("start") or "Start"
    tap = _started(evidence.agent_actions(), check)
    # a time of day reads like a countdown ("4:41" in World Clock): it never counts as one
    shown = [(e, left) for e, texts in final.source.shown_texts("StaticText")
             for _, t in texts if (left := seconds(t)) is not None
             and not _time_of_day(final.source, e, t.strip())]
    if tap is None:
        return Finding(False, f"the agent never tapped {start!r}{place(check)}",
                       unproven=unwatched(evidence))
    if tap.presses is None or tap.acted is None:
        return Finding(False, f"{_untold(tap, 'started the timer')}: when the countdown "
                              "started cannot be told")
    if not shown:
        return Finding(False, f"no countdown on the final screen; it shows "
                              f"{final.source.summary()}")
    stood, still, untold = _paused_for(evidence.agent_actions(), tap, check, final.taken_at)
    if untold:
        return Finding(False, f"{untold}: how long the countdown ran cannot be told")
    if still or any(e.label == RESUME for e in final.source.on_screen()
                    if e.type == "XCUIElementTypeButton"):
        return Finding(False, f"the countdown is paused on the final screen (the agent "
                              f"{'paused it' if still else 'left Resume showing'}): a timer "
                              "set off runs")
    # a phone whose clock stands still (the simulator) shows the countdown where it started
    bounds = None if "clock_still" in evidence.flags else \
        _bounds(tap, evidence.agent_actions(), evidence, final, stood, check.int_of("slack_s"))
    since = 0.0 if bounds is None else max(0.0, final.taken_at - tap.t - stood)
    for element, left in shown:
        low, high = _durations(left, bounds)
        if low <= want <= high:
            return Finding(True, f"{element.label or element.value!r} left {since:.1f}s after "
                                 f"{start!r}: started at {left + since:.0f}s, wanted {want}s")
    element, left = shown[0]
    low, high = _durations(left, bounds)
    return Finding(False, f"{element.label or element.value!r} left {since:.1f}s after "
                          f"{start!r}: started at about {left + since:.0f}s, wanted {want}s "
                          f"({check.text}; it may have started at {low:.1f}-{high:.1f}s)")
