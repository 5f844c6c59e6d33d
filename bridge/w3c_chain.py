"""Read a W3C actions body (`POST /actions`) into a touch chain (`pointer.Chain`): each pointer
source's touch, followed by `pointer.Finger`, and the text its key sources type.

A pointer that goes down again after it lifted is a second touch: WDA starts another event path
at the pointer's last position for every pointerDown but the one right after the first move, at
that pointerDown's time. A finger whose touches are quick taps at one point is one gesture, a
double or triple tap (`quick_taps`), as Selenium's and Appium's `double_click` send it (move,
down, up, down, up; pauses between) and as iOS takes it: a double tap selects the word in a text
being edited. It is read as one touch of `taps` 2 or 3, which `chains.py` logs as WDA's own
`doubleTap` or `tapWithNumberOfTaps` is logged (red team 107: the bridge refused it as two
gestures, and notes.text_select's honest double tap failed where a phone passes).

Pure: reads a request body, never the phone. Only chains that WDA (`FBW3CActionsSynthesizer`),
the simulator and this reading take alike are admitted; besides a finger's own refusals
(`pointer.py`), these are refused (`gate.Refused`), never guessed:

* a finger that touches more than once other than as one quick double or triple tap: taps at
  different points, a move while down, a touch held as long as a long press, a pause between
  taps longer than a double tap's (`presses.DOUBLE_TAP_S`), four taps or more, or any second
  touch while another finger touches too (several gestures in one request);

* a pointer that moves while up, but right before it goes down: WDA starts a touch at a
  pointer's first move (`initForTouchAtPoint`), so a move that is not followed by its
  pointerDown is a touch the summary would not see;
* a `pointerCancel` (WDA drops the item before it; the spec cancels the touch), a duration on
  pointerDown or pointerUp (WDA adds it to the finger's clock; the spec gives them none);
* a move that sends one of x and y, or a viewport move that sends neither (WDA answers "Both
  'x' and 'y' options should be set");
* a key that is not a string, an unknown source or action type.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise

from bridge.gate import Refused
from bridge.pointer import (
    Chain,
    Finger,
    Point,
    Touch,
    origin_element,
    several_gestures,
    step_duration_ms,
    step_number,
)
from phoneshell.holds import LONG_PRESS_S
from phoneshell.presses import DOUBLE_TAP_S
from phoneshell.typed_keys import KeyRun, KeysRefused, in_time_order, key_source

MOST_QUICK_TAPS = 3
"""The most taps one finger's quick run may hold and be one gesture: a triple tap (iOS selects a
paragraph). A person makes no quadruple tap; `tapWithNumberOfTaps` is the route for more."""


def _steps(source: Mapping[str, object]) -> list[Mapping[str, object]]:
    steps = source.get("actions")
    if not isinstance(steps, list) or not all(isinstance(s, Mapping) for s in steps):
        raise Refused("an action source's 'actions' must be a list of objects")
    return steps


def _w3c_move(finger: Finger, step: Mapping[str, object], then: object) -> None:
    sent_x, sent_y = step_number(step, "x"), step_number(step, "y")
    origin = step.get("origin", "viewport")
    if (sent_x is None) != (sent_y is None) or (origin == "viewport" and sent_x is None):
        raise Refused("Both 'x' and 'y' options should be set for a pointerMove (WDA refuses "
                      "one alone, and a viewport move without them)")
    x, y, element = sent_x or 0.0, sent_y or 0.0, origin_element(origin)
    at = finger.at
    to = Point(at.x + x, at.y + y, at.element, at.centred) if origin == "pointer" \
        else Point(x, y, element, centred=bool(element) and sent_x is not None)
    if finger.down is not None:
        finger.move(to, step_duration_ms(step))
    elif then == "pointerDown" and finger.touches and to == finger.at:
        pass  # back to where it lifted, to tap there again (`quick_taps` judges the taps)
    elif then == "pointerDown":
        finger.place(to)
    else:
        finger.place(to)  # a second touch is named as such first
        raise Refused("a pointer moves without going down right after: WDA starts a touch at "
                      "a pointer's first move, so put its pointerDown right after the move to "
                      "where it touches")
    finger.wait(step_duration_ms(step))


def _w3c_pointer(steps: Sequence[Mapping[str, object]]) -> Finger:
    """Follow one W3C pointer's steps (`finish` then gives its touches, `clock_ms` its length)."""
    finger = Finger()
    for index, step in enumerate(steps):
        kind = step.get("type")
        before = steps[index - 1].get("type") if index else None
        if kind == "pointerMove":
            then = steps[index + 1].get("type") if index + 1 < len(steps) else None
            _w3c_move(finger, step, then)
        elif kind in ("pointerDown", "pointerUp"):
            if step_duration_ms(step):
                raise Refused(f"a {kind} with a duration: WDA waits it out, the W3C spec gives "
                              f"{kind} none; use a pause")
            if kind == "pointerUp":
                finger.release()
                continue
            if before != "pointerMove" and not finger.touches:
                raise Refused("a pointerDown must come right after the move to where it "
                              "touches (WDA touches at that move)")
            finger.press()
        elif kind == "pause":
            finger.wait(step_duration_ms(step))
        elif kind == "pointerCancel":
            raise Refused("a pointerCancel: WDA drops the step before it, the W3C spec cancels "
                          "the touch; send the chain without it")
        else:
            raise Refused(f"unknown pointer action type {kind!r:.40}")
    return finger


def _w3c_keys(source: Mapping[str, object]) -> tuple[list[KeyRun], float]:
    """What a W3C key source types, and how long it plays (ms), by the simulator's own planner
    (`phoneshell.typed_keys.key_source`): WDA types the values of the key ups (keys held
    together type in the order they are let go), each read by `w3c_key`.

    Raises:
        Refused: WDA would refuse the source (its message).
    """
    try:
        return key_source(source)
    except KeysRefused as exc:
        raise Refused(str(exc)) from exc


def quick_taps(taps: Sequence[Touch]) -> Touch:
    """One finger's touches as one quick double or triple tap at one point (a touch of `taps`
    2 or 3, from its first press to its last lift), as iOS takes them and the simulator plays
    them (`sim/taps.py`): each a tap that never moved while down, all at the very point the
    first went down (a W3C finger presses again where it is, and may move back only to where
    it lifted), none held as long as a long press (`holds.LONG_PRESS_S`), each down again
    within `presses.DOUBLE_TAP_S` of the lift before. At one point, the taps land on what the
    log names, unless the first took the phone to another screen, where iOS drops the rest.

    Raises:
        Refused: any other run of touches: several gestures, each to be sent on its own.
    """
    first = taps[0]
    why = ""
    if len(taps) > MOST_QUICK_TAPS:
        why = f"it taps {len(taps)} times; a double or triple tap is one gesture, more are not"
    elif any(t.moved or t.up != t.down or len(set(t.points)) > 1 for t in taps):
        why = "it moves while down"
    elif any(t.down != first.down for t in taps):
        why = "its taps land at different points"
    elif held := [t for t in taps if t.held_s >= LONG_PRESS_S]:
        why = (f"a tap is held {held[0].held_s * 1000:g} ms, and one held {LONG_PRESS_S:g} s is a "
               "long press")
    elif gaps := [b.start_ms - a.end_ms for a, b in pairwise(taps)
                  if b.start_ms - a.end_ms > DOUBLE_TAP_S * 1000]:
        why = (f"it lifts {gaps[0]:g} ms before it goes down again, and a double tap's taps are "
               f"at most {DOUBLE_TAP_S * 1000:g} ms apart")
    if why:
        raise several_gestures(f"a finger touches the screen more than once, not as one quick "
                               f"double or triple tap at one point ({why})")
    return Touch(first.down, first.down, False, first.start_ms, taps[-1].end_ms, first.points,
                 taps=len(taps))


def _one_each(fingers: Sequence[tuple[Touch, ...]]) -> list[Touch]:
    """Each touching finger's one touch: a finger that touched more than once is one quick run
    of taps (`quick_taps`) when it alone touches.

    Raises:
        Refused: a finger touches more than once and not as one quick run, or while another
            finger touches too (each is its own gesture: WDA plays them side by side).
    """
    touching = [touches for touches in fingers if touches]
    if len(touching) == 1 and len(touching[0]) > 1:
        return [quick_taps(touching[0])]
    if any(len(touches) > 1 for touches in touching):
        raise several_gestures("a finger touches the screen more than once while another "
                               "finger touches too")
    return [touches[0] for touches in touching]


def summarise_w3c(body: Mapping[str, object]) -> Chain:
    """Summarise a W3C actions body (`POST /actions`).

    Raises:
        Refused: a source or step that cannot be read one way only, or a finger that touches
            more than once other than as one quick double or triple tap (`quick_taps`).
    """
    fingers: list[tuple[Touch, ...]] = []
    typing: list[list[KeyRun]] = []
    length_ms = 0.0
    sources = body.get("actions")
    if not isinstance(sources, list):
        raise Refused("'actions' must be a list of input sources")
    for source in sources:
        if not isinstance(source, Mapping):
            raise Refused("an input source must be an object")
        steps = _steps(source)
        if source.get("type") == "pointer":
            finger = _w3c_pointer(steps)
            fingers.append(finger.finish())
            length_ms = max(length_ms, finger.clock_ms)
        elif source.get("type") == "key":
            runs, played = _w3c_keys(source)
            typing.append(runs)
            length_ms = max(length_ms, played)
        elif source.get("type") != "none":  # WDA refuses a "none" source: nothing is played
            raise Refused(f"unknown input source type {source.get('type')!r:.40}")
    # the text in the order the phone types it: the sources side by side, by time
    text = "".join(run.text for run in in_time_order(typing))
    return Chain(tuple(_one_each(fingers)), text, length_ms)


