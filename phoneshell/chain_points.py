"""How WDA's touch chains read a point's coordinate: THE rule, shared by the simulated iPhone
(`sim.actions`, which plays a W3C `/actions` touch there) and the bridge (`bridge.pointer`, which
logs and refuses a chain's touch by that point), so that the two never place one touch at two
points (red team 139: a W3C tap at y=185.999999 was logged, and played, on the row above the
edge at 186, while a phone touches the row below it).

WDA's FBW3CActionsSynthesizer (a pointerMove's `x` and `y`, from the viewport, an element or the
pointer alike) and FBAppiumActionsSynthesizer (a legacy touch action's `x` and `y`) build each
point with `CGPointMake(x.floatValue, y.floatValue)`: the JSON number rounded to a 32-bit float,
which is then added to its origin in CGFloat (a double). Every other route WDA reads a point on
(`/wda/tap`, `/wda/dragfromtoforduration`, `/wda/touchAndHold`...) reads it with doubleValue,
the number as sent; and a chain's durations are doubles too.

Pure: no I/O, imports nothing of phoneshell.
"""

from __future__ import annotations

import math
import struct


def chain_coordinate(value: float) -> float:
    """A touch chain's coordinate as WDA reads it (NSNumber's floatValue): the nearest 32-bit
    float to `value` (ties to even), as C's conversion gives it; infinity, signed, past the
    largest one (about 3.4e38), where WDA's point is no point of any screen."""
    try:
        single: float = struct.unpack("<f", struct.pack("<f", float(value)))[0]
    except OverflowError:  # past a float's range (or an int past a double's)
        return math.inf if value > 0 else -math.inf
    return single
