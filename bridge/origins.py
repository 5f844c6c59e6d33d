"""Place a touch chain's finger measured from an element at the point of the screen it lands on.

A W3C `pointerMove` whose origin is an element (Selenium's `move_to_element`, Appium's tap on an
element) and a legacy touch action's `element` name no point: WDA finds one from the element's
frame, by the rule the simulator touches by too (`phoneshell.hit_point.origin_point`): the
centre of its whole frame when x and y were sent (then moved by them), else its hit point (the
middle of the part of it that shows), never scrolled into view. Whatever is topmost there takes
the touch, which need not be the element: a row hidden under a floating search bar or cut by
its list, a row under the keyboard. So the finger is logged, aimed and refused as a touch at
that point (`Aiming._aim_at`), never as a tap on the element from its attributes (red team 84:
Settings' Camera row, under the search bar, was logged as tapped while the phone touched the
search field).

What it costs the phone: one read (the element's rect) a finger sent with x and y; its four
attributes too, and the screen when none is known, for one placed at the hit point, which only
the page's tree tells (where the element lies among the lists that cut it).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from bridge.classified import Classified, pt
from bridge.context import RunContext
from bridge.gate import Refused
from bridge.hits import element_in, hit_point
from bridge.pointer import unnamed
from bridge.targets import Rect
from phoneshell.hit_point import origin_point

if TYPE_CHECKING:
    from bridge.aiming import Aiming

PLACING = ("element", "origin", "origin_x", "origin_y")
"""The params a finger placed from an element travels with (`chains._touch_action`), replaced
by the point it lands on (`x`, `y`)."""


def placed_fingers(aiming: Aiming, context: RunContext, action: Classified) -> Classified:
    """The action with each finger placed from an element (its own and each other finger's,
    aim "origin") made the touch at the point it lands on (aim "point"); as it is when none is.

    Raises:
        Refused: the element's frame cannot be read (gone: WDA answers a stale element), it is
            empty (WDA answers it is not visible, and touches nothing), or the finger is placed
            at its hit point and no page read shows the element (`_hit`).
    """
    fingers = (action, *action.others)
    if not any(finger.aim == "origin" for finger in fingers):
        return action
    lead, *others = (_placed(aiming, context, finger) for finger in fingers)
    added = tuple(p for before, after in zip(fingers, (lead, *others), strict=True)
                  if before.aim == "origin" for p in after.points)
    return replace(lead, others=tuple(others), points=action.points + added)


def _placed(aiming: Aiming, context: RunContext, finger: Classified) -> Classified:
    """One finger (a one-finger action), placed when it is measured from an element."""
    if finger.aim != "origin":
        return finger
    element, params = finger.params.get("element"), finger.params
    rect = aiming.element_frame(finger, "a finger placed from an element")
    if rect is None:
        raise Refused(f"could not read the frame of element {element}, so where a finger "
                      "placed from it lands is unknown; find it again", 404,
                      "stale element reference")
    centred = params.get("origin") == "centre"
    hit = None if centred else _hit(aiming, context, finger, rect)
    point = origin_point((rect.x, rect.y, rect.width, rect.height), hit, centred)
    if point is None:
        raise Refused(f"element {element} has an empty frame: WDA answers that it is not "
                      "visible on the screen and touches nothing", 400, "invalid element state")
    dx, dy = (value if isinstance(value := params.get(k), (int, float)) else 0.0
              for k in ("origin_x", "origin_y"))
    x, y = pt(point[0] + dx), pt(point[1] + dy)
    kept = {k: v for k, v in params.items() if k not in PLACING}
    return replace(finger, params={"x": x, "y": y, **kept}, aim="point", points=((x, y),))


def _hit(aiming: Aiming, context: RunContext, finger: Classified,
         rect: Rect) -> tuple[float, float] | None:
    """The hit point WDA places a finger at when no x and y were sent (`hits.hit_point`, the
    simulator's too), found from the element's attributes and rect in the page known (one read
    now when none is), whether or not the page marks it visible; None when no part of it shows
    (WDA then takes its frame's centre).

    Raises:
        Refused: the element's attributes cannot be read, or no page read shows it: where its
            hit point lies (which lists cut it) only the page's tree tells.
    """
    attributes = aiming.element_attributes(finger.attribute_route)
    tree = aiming.known_tree(context) if attributes is not None else None
    line = element_in(tree, attributes, rect, hidden=True) \
        if attributes is not None and tree is not None else None
    if line is None:
        raise unnamed(f"element {finger.params.get('element')} shows in no page read, and a "
                      "finger placed from it without x and y lands at its hit point, the "
                      "middle of the part of it that shows",
                      "send x and y with it (measured from its centre), or the point on screen")
    return hit_point(tree, line, rect)
