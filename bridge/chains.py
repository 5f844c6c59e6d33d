"""One logged action for a touch chain (W3C `/actions`, legacy touch perform): keys, one finger's
tap or swipe, or several fingers down together.

One finger's quick double or triple tap at one point (`w3c_chain.quick_taps`) is logged as WDA's
own route for it is: two taps as `doubleTap` (gesture `double_tap`), three as
`tapWithNumberOfTaps` (gesture `taps`, `taps` 3, `touches` 1), with no `duration` (neither route
reads one), so every reader counts its presses and names its gesture alike
(`presses.press_count`).

Pure, over `pointer.Chain`. What one line cannot describe is refused (`gate.Refused`): keys
with touches, and fingers that are not all down at one moment (several gestures); so is a chain
that keeps the phone busy too long (`limits.py`). Fingers down together are one gesture, logged
as the finger a control under them takes as a change, with the other fingers' own actions in
`others`, for the recorder to aim and check each.

Three or more fingers down together make iOS's editing gestures (since iOS 13): a three-finger
pinch copies (twice, cuts), a spread pastes, a swipe undoes or redoes, a tap shows the edit bar.
They reach the owner's pasteboard and the undo stack with no control under the fingers for the
log to name, so every such touch is refused, worded as the pasteboard's refusals are
(`pasteboard.FINGERS`), here for a touch chain and for `tapWithNumberOfTaps`'s numberOfTouches
(`check_fingers`): from the request alone, before the phone is asked anything. Two-finger
gestures keep their own rules (`slides.py`, the recorder's check that all fingers touch one
element).
"""

from __future__ import annotations

from dataclasses import replace

from bridge.classified import Classified, params, pt
from bridge.gate import Refused
from bridge.limits import check_gesture, check_typing
from bridge.pointer import Chain, Touch, several_gestures
from phoneshell.pasteboard import FINGERS
from phoneshell.presses import TAPS_GESTURE, first_move, turns_in_slop
from phoneshell.records import Scalar
from phoneshell.xcui import sideways


def check_fingers(fingers: int, named: str = "") -> None:
    """Refuse three or more fingers down together (the module's docstring says why).

    Args:
        named: what the message says first (the request's own count: "numberOfTouches 3: ").

    Raises:
        Refused: 403, naming how many fingers.
    """
    if fingers >= 3:
        raise Refused(f"{named}{fingers} fingers down together: {FINGERS}", 403,
                      "unsupported operation")


ORIGINS = {True: "centre", False: "hit_point"}
"""What a finger placed from an element is measured from (`pointer.Point.centred`), as the
`origin` param that travels with it until the recorder places it (`origins.py`)."""


def _touch_action(touch: Touch, gesture: str, fingers: int | None = None) -> Classified:
    """One finger's touch as a tap (it stayed within the slop) or a swipe (it moved), aimed at
    what lies where it went down (a tap placed from an element is placed on screen first, by
    the recorder: aim "origin"). A swipe logs where it first went past the slop (`first_x`,
    `first_y`): the phone takes its way from there, not from its ends (`presses.heading`: a
    row swiped left and then dragged down is a row's swipe, not a scroll); and how long the
    finger held still before that (`hold`, seconds): held long enough, it opened a context
    menu first, and lifted on the item it chose (`holds.held_slide`). A quick double or triple
    tap (`Touch.taps`) is a tap logged as WDA's route for it is (`_quick_taps`).

    Raises:
        Refused: a path that turns inside the slop, so that which way the phone takes it
            depends on how often it samples the finger (`presses.turns_in_slop`).
    """
    element = touch.down.element or None
    if touch.moved:
        if turns_in_slop(touch.points):
            raise Refused("a finger turns inside the 10 pt slop, so where it crosses the slop and "
                          "the first point sent beyond it go different ways: which way the phone "
                          "takes the swipe (a row's swipe or a scroll) depends on how often it "
                          "samples the finger, and the log could not say; move straight out of "
                          "the slop", 403, "unsupported operation")
        first = first_move(touch.points)
        first_x, first_y = (pt(c) for c in first) if first else (None, None)
        still = touch.left_slop_ms
        return Classified("swipe", params(
            from_x=pt(touch.down.x), from_y=pt(touch.down.y), to_x=pt(touch.up.x),
            to_y=pt(touch.up.y), first_x=first_x, first_y=first_y,
            duration=round(touch.held_s, 3), element=element, gesture=gesture,
            fingers=fingers, hold=None if still is None else
            round((still - touch.start_ms) / 1000.0, 3)),
            "element" if element else "from", points=touch.points)
    if touch.taps > 1:
        return _still(touch, _quick_taps(touch.taps))
    return _still(touch, params(duration=round(touch.held_s, 3), gesture=gesture,
                                fingers=fingers))


def _quick_taps(taps: int) -> dict[str, Scalar]:
    """The params a quick run of `taps` taps is logged with (the module's docstring says why)."""
    if taps == 2:
        return {"gesture": "double_tap"}
    return {"gesture": TAPS_GESTURE, TAPS_GESTURE: taps, "touches": 1}


def _still(touch: Touch, how: dict[str, Scalar]) -> Classified:
    """A touch that stayed within the slop as a tap at where it went down, with `how` it
    tapped (its gesture, and its duration or counts)."""
    down = touch.down
    if down.element:  # placed on screen by the recorder (`origins.placed_fingers`) before aimed
        return Classified("tap", params(element=down.element, origin=ORIGINS[down.centred],
                                        origin_x=pt(down.x), origin_y=pt(down.y), **how),
                          "origin")
    return Classified("tap", params(x=pt(down.x), y=pt(down.y), **how), "point",
                      points=touch.points)


def _lead(fingers: list[Classified]) -> Classified:
    """The finger a multi-finger gesture is logged as: one that taps, else one that slides
    sideways, else the first. What a control under the fingers takes as a change comes first
    (a switch flips at a tap or a sideways slide, not at a scroll), so the set-back finds it."""
    taps = [f for f in fingers if f.kind == "tap"]
    sideways_ones = [f for f in fingers if sideways(f.params)]
    return (taps or sideways_ones or fingers)[0]


def chain_action(chain: Chain, gesture: str) -> Classified:
    """One action for a whole touch chain: keys, one finger's tap or swipe, or several fingers
    down together (logged as its lead finger, the others in `others`).

    A chain one line cannot describe is refused: keys with touches (the touches could move the
    focus to a password field before the keys are typed), or fingers that are not all down at
    one moment (one lifts before another goes down: several gestures, each landing on what the
    one before left on screen), or three or more down together (`check_fingers`). A finger that
    touches twice is refused where it is read, unless it made one quick double or triple tap
    (`w3c_chain.quick_taps`). So is a chain that plays longer than a gesture
    may, or types more than a request may (`limits`).
    """
    check_gesture("its steps, pauses included,", chain.length_ms / 1000.0)
    if chain.text and chain.touches:
        raise Refused("the actions both touch and type: send the touches and the keys as two "
                      "requests, so each is logged as what it is")
    if chain.text:
        check_typing(chain.text, None)
        return Classified("type", params(text=chain.text, via=gesture), "focus")
    if not chain.touches:
        return Classified("other")  # pauses only: nothing touched, still logged
    if chain.fingers == 1:
        return _touch_action(chain.touches[0], gesture)
    if not chain.together:
        raise several_gestures(f"the {chain.fingers} fingers are not all down at one moment "
                               "(one lifts before another goes down)")
    check_fingers(chain.fingers)
    fingers = [_touch_action(t, "multi_touch", chain.fingers) for t in chain.touches]
    lead = _lead(fingers)
    return replace(lead, others=tuple(f for f in fingers if f is not lead),
                   points=tuple(p for t in chain.touches for p in t.points))
