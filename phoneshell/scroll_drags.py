"""Which drags WDA's scroll by direction makes (`scroll_drags`): XCUIElement+FBScrolling's
arithmetic, which the bridge (that logs a scroll as the presses it makes) and the simulated iPhone
(that plays it) share, so both see one set of drags for one request.

Pure: no I/O, imports nothing of phoneshell (the bridge and the simulator may both use it).
"""

from __future__ import annotations

import math

SCROLL_TOUCH_SHARE = 0.75
"""WDA's `FBScrollTouchProportion`: a scroll by direction drags at most this share of the frame
at a time, from a quarter of the frame's size in from the edge it moves away from."""
SCROLL_STILL_PT = 20.0
"""WDA's `FBFuzzyPointThreshold`: a scroll drag whose ends are this close on both axes is not
made (WDA skips it: no finger goes down)."""
SCROLL_VECTORS = {"up": (0.0, 1.0), "down": (0.0, -1.0), "left": (1.0, 0.0),
                  "right": (-1.0, 0.0)}
"""The finger's move per unit of `distance` for each direction of WDA's scroll, in shares of
the frame's width and height ("down" shows what is below: the finger moves up)."""
Drag = tuple[float, float, float, float]
"""A one-finger drag: where it went down (x, y) and where it lifted."""


def scroll_drags(frame: tuple[float, float, float, float], direction: str,
                 distance: float) -> list[Drag]:
    """The drags WDA's scroll by direction makes on a frame (an element's visible frame, or the
    app's for `/wda/scroll`), as XCUIElement+FBScrolling computes them: the vector is `distance`
    times the frame's size, made in steps of at most `SCROLL_TOUCH_SHARE` of it (at most 20),
    each pressing for half a second at a quarter of the frame in from the side it moves away
    from (x at 75% when it moves left, else 25%; y at 75% when it moves up, else 25%) and
    dragging the step; a step shorter than `SCROLL_STILL_PT` on both axes is skipped. The
    finger lifts inside the frame: on a button, each drag is a press of it. [] for a direction
    WDA does nothing for, an empty frame or a distance that is not finite."""
    left, top, width, height = frame
    if direction not in SCROLL_VECTORS or width <= 0 or height <= 0 \
            or not math.isfinite(distance):
        return []
    ux, uy = SCROLL_VECTORS[direction]
    dx, dy = ux * distance * width, uy * distance * height
    drags: list[Drag] = []
    for _ in range(20):  # WDA's preciseScrollAttemptsCount
        bound_x = math.floor(math.copysign(width * SCROLL_TOUCH_SHARE, dx))
        bound_y = math.floor(math.copysign(height * SCROLL_TOUCH_SHARE, dy))
        step_x = bound_x if abs(dx) > abs(bound_x) else dx
        step_y = bound_y if abs(dy) > abs(bound_y) else dy
        dx, dy = dx - step_x, dy - step_y
        x0 = left + width * (SCROLL_TOUCH_SHARE if step_x < 0 else 1 - SCROLL_TOUCH_SHARE)
        y0 = top + height * (SCROLL_TOUCH_SHARE if step_y < 0 else 1 - SCROLL_TOUCH_SHARE)
        if abs(step_x) > SCROLL_STILL_PT or abs(step_y) > SCROLL_STILL_PT:
            drags.append((x0, y0, x0 + step_x, y0 + step_y))
        if abs(dx) <= 1 and abs(dy) <= 1:
            break
    return drags
