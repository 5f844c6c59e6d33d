"""How long one request may keep the phone busy, how much it may type, and where it may touch.

Pure. WDA runs its commands one at a time on its main thread, so a request that plays for
minutes (a hold of 900 s, a drag at a crawl, a W3C pause with a finger down, typing a novel at
WDA's 60 characters a second) keeps every later request waiting behind it: the harness's next
read times out, takes the phone for down, and the attempt is not scored (a skip the agent
chose) and the run stops. So the bridge refuses (403, logged `refused`, the limit named) any
request that would keep the phone busy longer than a person's gesture or a task's typing needs:

* `MAX_GESTURE_S` for a gesture, however it is timed: a hold's or a press's `duration`, a drag's
  press, hold and travel at its velocity, a swipe, pinch or rotation at its velocity, a touch
  chain from its first step to its last (pauses included, with a finger down or not), a button
  held, an app sent to the background by `deactivateApp`; and a wait on the phone
  (`expectNotification`'s `timeout`, 60 s when it sends none);
* `MAX_TYPED_CHARS` characters typed by one request at WDA's default speed (`TYPING_PER_S`),
  or as long as they take at a `frequency` the request sets.

Where a touch lands is checked against the screen by the recorder, which knows it
(`Aiming.off_screen`, with `SCREEN_SLACK_PT`).
"""

from __future__ import annotations

import math

from bridge.gate import Refused

MAX_GESTURE_S = 5.0
"""The longest gesture a request may ask for, in seconds. A person's long press is about 1 s
(iOS opens a context menu after 0.5 s), a slow drag or a careful slider move a few seconds, and
WDA's own `deactivateApp` waits 3 s by default; 5 s leaves room for all of them and keeps the
phone far from the harness's 60 s read timeout."""
TYPING_PER_S = 60.0
"""WDA's default `maxTypingFrequency`: characters typed a second (the harness never changes
it, and the bridge refuses a client's change: `xcui.PINNED_SETTINGS`)."""
MAX_TYPED_CHARS = 1000
"""The most characters one request may type at `TYPING_PER_S` (about 17 s on a phone). The
suite's longest `type` step is 54 characters and a task's text a sentence or two; longer text
goes in several requests, each of which lets the harness's reads through in between."""
MAX_TYPING_S = MAX_TYPED_CHARS / TYPING_PER_S
"""How long one request may type for, whatever its `frequency`."""
LONGEST_TRAVEL_PT = 1100.0
"""A bound on how far a swipe or a drag between elements travels, in points: the diagonal of
the largest iPhone screen (a Pro Max, 440 x 956 pt, is 1,052 pt corner to corner). What travels
at a velocity is timed over it when the request does not name both ends."""
MAX_TAPS = 10
"""The most taps one `tapWithNumberOfTaps` may ask for: a person taps at most three times in one
gesture (a triple tap), and XCTest plays each tap in turn."""
MAX_SCROLL_DISTANCE = 3.0
"""The most list lengths one `scroll` may ask for: WDA scrolls a `distance` over 1 in several
drags, each taking about as long as one scroll (a real phone took 7.35 s for one)."""
SCREEN_SLACK_PT = 2.0
"""How far off the screen a touch may name a point and still be taken as on it: facebook-wda's
`swipe_left` starts at x == width, one point past the last column of the screen."""

BUSY = ("WDA plays one command at a time, so every later request, the harness's included, "
        "would wait behind it and the phone would be taken for down")


def too_long(what: str, seconds: float) -> Refused:
    """The refusal of a gesture that would keep the phone busy for `seconds`."""
    return Refused(f"{what} would keep the phone busy for {seconds:,.3g} s, and {BUSY}; the "
                   f"bridge allows gestures of up to {MAX_GESTURE_S:g} s (a long press is about "
                   "1 s, a slow drag a few)", 403, "unsupported operation")


def check_gesture(what: str, seconds: float | None) -> None:
    """Refuse a gesture that plays longer than `MAX_GESTURE_S` (None: untimed).

    Raises:
        Refused: it plays longer.
    """
    if seconds is not None and not seconds <= MAX_GESTURE_S:
        raise too_long(what, seconds)


def check_wait(what: str, seconds: float) -> None:
    """Refuse a request that waits on the phone (WDA's main thread) longer than a gesture may
    play: the harness's reads would wait behind it just the same.

    Raises:
        Refused: it would wait longer than `MAX_GESTURE_S`.
    """
    if not seconds <= MAX_GESTURE_S:
        raise Refused(f"{what} for {seconds:,g} s would keep the phone busy, and {BUSY}; the "
                      f"bridge allows waits of up to {MAX_GESTURE_S:g} s", 403,
                      "unsupported operation")


def travel_s(velocity: float | None, distance_pt: float = LONGEST_TRAVEL_PT) -> float:
    """How long a gesture that travels `distance_pt` at `velocity` (points, or scale or radians,
    a second) takes: 0 for no velocity or 0 (XCTest's default speed)."""
    if not velocity:
        return 0.0
    return abs(distance_pt) / abs(velocity)


def check_paced(what: str, amount: float | None, velocity: float | None) -> None:
    """Refuse a pinch or a rotation whose `amount` (scale change, radians) at `velocity` a
    second takes longer than `MAX_GESTURE_S`, or has no velocity to take it at.

    Raises:
        Refused: it plays longer, or forever.
    """
    if amount and not velocity:
        raise Refused(f"{what} with no velocity: XCTest cannot time it; give one", 403,
                      "unsupported operation")
    check_gesture(what, travel_s(velocity, amount or 0.0))


def typing_s(chars: int, frequency: float | None) -> float:
    """How long WDA takes to type `chars` characters at the request's `frequency` (characters a
    second, as WDA reads it: a whole number, 0 for its default; a negative one wraps round to a
    huge unsigned number, which types at once)."""
    whole = math.trunc(frequency) if frequency is not None else 0
    per_s = TYPING_PER_S if whole == 0 else math.inf if whole < 0 else whole
    return chars / per_s


def check_typing(text: str, frequency: float | None) -> None:
    """Refuse typing that holds more than `MAX_TYPED_CHARS` characters, or that takes longer at
    the request's `frequency` than they take at WDA's default.

    Raises:
        Refused: too much, or too slow.
    """
    seconds = typing_s(len(text), frequency)
    if len(text) <= MAX_TYPED_CHARS and seconds <= MAX_TYPING_S:
        return
    raise Refused(f"typing {len(text):,} characters would keep the phone busy for "
                  f"{seconds:,.3g} s, and {BUSY}; the bridge types at most "
                  f"{MAX_TYPED_CHARS:,} characters a request at WDA's {TYPING_PER_S:g} a second "
                  f"(about {MAX_TYPING_S:.0f} s): send longer text in several requests", 403,
                  "unsupported operation")


def outside(points: tuple[tuple[float, float], ...], x: float, y: float, width: float,
            height: float) -> tuple[tuple[float, float], ...]:
    """The points that lie off the screen (x, y, width, height), beyond `SCREEN_SLACK_PT`."""
    slack = SCREEN_SLACK_PT
    return tuple(p for p in points if not (x - slack <= p[0] <= x + width + slack
                                           and y - slack <= p[1] <= y + height + slack))
