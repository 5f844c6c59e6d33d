"""Read a W3C actions body (`POST /actions`) into a touch chain (`pointer.Chain`): each pointer
source's touch, followed by `pointer.Finger`, and the text its key sources type.

Pure: reads a request body, never the phone. Only chains that WDA (`FBW3CActionsSynthesizer`),
the simulator and this reading take alike are admitted; besides a finger's own refusals
(`pointer.py`), these are refused (`gate.Refused`), never guessed:

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

from bridge.gate import Refused
from bridge.pointer import (
    Chain,
    Finger,
    Point,
    Touch,
    origin_element,
    step_duration_ms,
    step_number,
)
from phoneshell.typed_keys import KeyRun, KeysRefused, in_time_order, key_source


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
    elif then == "pointerDown":
        finger.place(to)
    else:
        finger.place(to)  # a second touch is named as such first
        raise Refused("a pointer moves without going down right after: WDA starts a touch at "
                      "a pointer's first move, so put its pointerDown right after the move to "
                      "where it touches")
    finger.wait(step_duration_ms(step))


def _w3c_pointer(steps: Sequence[Mapping[str, object]]) -> Finger:
    """Follow one W3C pointer's steps (`finish` then gives its touch, `clock_ms` its length)."""
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
            if before != "pointerMove" and finger.touch is None:
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


def summarise_w3c(body: Mapping[str, object]) -> Chain:
    """Summarise a W3C actions body (`POST /actions`).

    Raises:
        Refused: a source or step that cannot be read one way only, or a finger that touches
            more than once.
    """
    touches: list[Touch] = []
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
            found, length_ms = finger.finish(), max(length_ms, finger.clock_ms)
            touches.extend([found] if found is not None else [])
        elif source.get("type") == "key":
            runs, played = _w3c_keys(source)
            typing.append(runs)
            length_ms = max(length_ms, played)
        elif source.get("type") != "none":  # WDA refuses a "none" source: nothing is played
            raise Refused(f"unknown input source type {source.get('type')!r:.40}")
    # the text in the order the phone types it: the sources side by side, by time
    text = "".join(run.text for run in in_time_order(typing))
    return Chain(tuple(touches), text, length_ms)


