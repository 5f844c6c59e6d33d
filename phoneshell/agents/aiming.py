"""What a tool call's arguments point at: the row an id names in the latest observation, a
point on the screen, checked against the screen's size, or a swipe's two ends. Reads the
screen's size at most; never acts on the phone. Whatever is wrong is a message for the model,
never an exception."""

from __future__ import annotations

import math
import re

from phoneshell.agents.observation import Observation, Row
from phoneshell.agents.tool_schema import Args, short_number
from phoneshell.device import Phone
from phoneshell.device.steps import scroll_points

DRAG = ("from_x", "from_y", "to_x", "to_y")
"""A swipe's points, when it drags between two instead of scrolling by a direction."""


def resolve(latest: Observation | None, ref: object) -> tuple[float, float] | str:
    """The centre of the row `ref` names in the `latest` observation, or why it names none."""
    row = row_of(latest, ref)
    return row if isinstance(row, str) else row.centre


def row_of(latest: Observation | None, ref: object) -> Row | str:
    """The row `ref` names in the `latest` observation, or why it names none."""
    if latest is None:
        return "there is no observation yet: call observe first"
    # nine digits at most: a number is never longer, and int() refuses 4,300 digits; ASCII
    # digits only: `\d` took any script's ("１.２" tapped row 1.2, red team 145)
    match = (re.fullmatch(r"\s*([0-9]{1,9})\.([0-9]{1,9})\s*", ref) if isinstance(ref, str)
             else None)
    if match is None:
        return (f"{str(ref)[:40]!r} is not an id; ids look like \"{latest.number}.3\" "
                f"(observation {latest.number}, row 3)")
    number, row_number = int(match.group(1)), int(match.group(2))
    if number > latest.number:
        return (f"there is no observation {number}: the latest is observation "
                f"{latest.number}; use an id from it")
    if number != latest.number:
        return (f"id {ref} is from observation {number}, but observation {latest.number} is "
                "the latest: an id is valid only for the observation that issued it; use "
                f"an id from observation {latest.number}")
    row = latest.row(row_number)
    if row is None:
        return (f"observation {latest.number} has no row {row_number} (its ids run "
                f"{latest.number}.1 to {latest.number}.{len(latest.rows)})")
    return row

def target(phone: Phone, latest: Observation | None, tool: str, args: Args,
           ) -> tuple[float, float] | str:
    """Where a tap or a hold lands: the centre of the row `id` names, or the point `x`, `y`;
    or why the arguments name neither."""
    at_point = "x" in args or "y" in args
    if "id" in args:
        return f"{tool}: give an id or a point (x and y), not both" if at_point \
            else resolve(latest, args["id"])
    if not at_point:
        return (f"{tool}: give the id of a row of the latest observation (\"id\": \"3.12\"), "
                "or a point on the screen (\"x\" and \"y\", in points)")
    return point(phone, tool, args, "x", "y")

def point(phone: Phone, tool: str, args: Args, x_key: str, y_key: str,
          ) -> tuple[float, float] | str:
    """The point `args[x_key]`, `args[y_key]` (numbers, as `argument_problem` checked) as it
    is sent, or why it cannot be: a coordinate missing, or off the screen as WDA gives its
    size now. `Phone` sends whole points (`round`: to the nearest, a half to the even one), so
    the point checked is the rounded one: 401.6 on a 402-wide screen is sent as 402, off it."""
    x, y = args.get(x_key), args.get(y_key)
    if not isinstance(x, (int, float)) or not isinstance(y, (int, float)):
        # `given` drops a null, and JSON has no Infinity or NaN: an MCP client sends them as
        # null, so an infinite coordinate arrives as one left out (red team 112)
        missing = x_key if y_key in args else y_key
        return (f"{tool}: {x_key} and {y_key} go together, each a finite number: {missing!r} "
                "is missing or null (a client may send an infinite number as null)")
    width, height = phone.screen_size()
    try:
        px, py = float(round(x)), float(round(y))
    except OverflowError:  # an int of hundreds of digits: off any screen
        px = py = math.inf
    if not (0 <= px < width and 0 <= py < height):
        sent = (f" (sent as whole points: ({px:g}, {py:g}))"
                if (px, py) != (x, y) and math.isfinite(px) else "")
        return (f"{tool}: ({short_number(x)}, {short_number(y)}) is off the screen{sent}: "
                f"{x_key} runs from 0 to under {width:g} and {y_key} from 0 to under "
                f"{height:g} (the screen is {width:g}x{height:g} points); nothing was done")
    return px, py


def swipe_ends(phone: Phone, args: Args) -> tuple[tuple[float, float], tuple[float, float]] | str:
    """Where a swipe starts and ends: the scroll of `direction`, or the drag from (from_x,
    from_y) to (to_x, to_y); or why the arguments give neither."""
    given = [key for key in DRAG if key in args]
    if "direction" in args and given:
        return "swipe: give a direction or a drag's points, not both"
    if "direction" in args:
        return scroll_points(phone, str(args["direction"]))
    if not given:
        return ("swipe: give a direction (up, down, left, right), or a drag from "
                "(from_x, from_y) to (to_x, to_y) in points")
    start, end = (point(phone, "swipe", args, x, y) for x, y in (DRAG[:2], DRAG[2:]))
    if isinstance(start, str):
        return start
    return end if isinstance(end, str) else (start, end)
