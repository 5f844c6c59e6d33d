"""Compass points in an answer: which a heading names, and which only say what its degrees are
measured from. Pure.

iOS's Compass writes a heading as degrees and the nearest of eight points ("274° W"). An answer
names a point as the heading's when it stands as the heading's own: alone, beside or after the
number ("219° SW", "southwest", "West (274°)"). A heading *is* degrees clockwise from north, so
an answer may also say what the degrees are measured from (red team 115, RT115-2): a point that
is the object of "from", "relative to", "with respect to", "in relation to", "referenced to" or
"clockwise of" ("219 degrees from north", "126°, measured clockwise from north", "168°, facing
away from the north"), or the north of "true north", "magnetic north" or "grid north" (the
phone's own Settings > Compass > Use True North: "246° (true north)"), is that reference, no
point of the heading; so is north defined as zero ("where 0° is north", "N = 0°"), the zero
with it, no second heading. A point anywhere else is named, hedges included: "219° or maybe
north" and "SW, or N" name two.
"""

from __future__ import annotations

import re

POINTS = {"N": "north", "NE": "north east", "E": "east", "SE": "south east", "S": "south",
          "SW": "south west", "W": "west", "NW": "north west"}
"""The compass's eight points, as iOS writes them after a heading ("274° W") and in words."""

BETWEEN = {"NNE": 22.5, "ENE": 67.5, "ESE": 112.5, "SSE": 157.5, "SSW": 202.5, "WSW": 247.5,
           "WNW": 292.5, "NNW": 337.5}
"""The sixteen-point names between the eight iOS writes, by the bearing each names: an answer
may use one ("112° ESE"), and it must agree with the heading as the eight must."""

_POINT = (r"(?:(?:north|south|east|west)(?:[\s-]*(?:north|south|east|west)){0,2}"
          r"|(?-i:[NSEW]{1,3}))")
"""A point in words ("north", "north-west", "south southwest") or capital letters ("N",
"SSW"), as a reference may write it."""
_NORTH = r"(?:the\s+)?(?:(?:true|magnetic|grid|due)\s+)?(?:north|(?-i:N))"
_ZERO = r"0\s*(?:°|degrees?)?"
_REFERENCE = re.compile(
    r"(?i)(?<!\w)(?:from|relative\s+to|with\s+respect\s+to|in\s+relation\s+to|referenced\s+to"
    rf"|clockwise\s+of)\s+(?:the\s+)?(?:(?:true|magnetic|grid|due)\s+)?{_POINT}(?!\w)"
    r"|(?<!\w)(?:true|magnetic|grid)\s+(?:north|(?-i:N))(?!\w)")
"""What the degrees are measured from (the module docstring): never a point of the heading."""
_ZERO_NORTH = re.compile(rf"(?i)(?<![\w.]){_ZERO}\s*(?:=|is|being|means|at)\s*{_NORTH}(?!\w)"
                         rf"|(?<!\w){_NORTH}\s*(?:=|is|being|at)\s*{_ZERO}(?![\w.])")
"""North defined as zero ("0° = north"): beside a reading, its scale, no second heading."""


def unreferenced(text: str) -> str:
    """`text` without the points that only say what its degrees are measured from ("from
    north", "relative to true north", "(magnetic north)"), each left as a space, and without
    north defined as zero where another number stands beside it ("219°, where 0° is north";
    "0° = north" alone is a reading of 0°)."""
    def scale(zero: re.Match[str]) -> str:
        rest = text[:zero.start()] + text[zero.end():]
        return " " if any(c.isdigit() for c in rest) else zero.group(0)
    return _REFERENCE.sub(" ", _ZERO_NORTH.sub(scale, text))


def compass_point(degrees: int) -> str:
    """The point iOS's Compass writes after a heading: the nearest of the eight."""
    return list(POINTS)[round(degrees / 45) % 8]


def points_named(text: str) -> set[str]:
    """The compass points `text` names as a heading's: by their letters (in capitals, whole) or
    their names ("west", "north-west", "northwest"; any case), none a reference of the degrees
    (`unreferenced`: "219 degrees from north" names no point)."""
    text = unreferenced(text)
    spaced = re.sub(r"(?i)\b(north|south)-?(east|west)\b", r"\1 \2", text)
    found = {p for p in POINTS if re.search(rf"(?<!\w){p}(?!\w)", text)}
    for point, name in sorted(POINTS.items(), key=lambda item: -len(item[1])):
        pattern = r"(?i)\b" + name.replace(" ", r"\s+") + r"\b"
        if re.search(pattern, spaced):
            found.add(point)
            spaced = re.sub(pattern, " ", spaced)
    return found


def between_named(text: str) -> set[str]:
    """The sixteen-point names between the eight that `text` names as a heading's: by their
    letters (capitals, whole) or their words ("south-southeast", "south southeast"; any case),
    none a reference of the degrees (`unreferenced`)."""
    text = unreferenced(text)
    found = {p for p in BETWEEN if re.search(rf"(?<!\w){p}(?!\w)", text)}
    for point in BETWEEN:
        first, rest = POINTS[point[0]], POINTS[point[1:]].replace(" ", "")
        if re.search(rf"(?i)\b{first}[\s-]*{rest}\b", text):
            found.add(point)
    return found
