"""Compass points in an answer: which a heading names, and which only say what its degrees are
measured from. Pure.

iOS's Compass writes a heading as degrees and the nearest of eight points ("274° W"). An answer
names a point as the heading's when it stands as the heading's own: alone, beside or after the
number ("219° SW", "southwest", "West (274°)"). A heading *is* degrees clockwise from north, so
an answer may also say what the degrees are measured from (red team 115, RT115-2): north as the
object of "from", "relative to", "with respect to", "in relation to", "referenced to" or
"clockwise of" ("219 degrees from north", "126°, measured clockwise from north toward east",
"168°, facing away from the north"), or the north of "true north", "magnetic north" or "grid
north" (the phone's own Settings > Compass > Use True North: "246° (true north)"), is that
reference, no point of the heading; so is a mark defined by its bearing beside a reading (red
team 119, RT119-1: "North is at 0°", "with 0° as north", "(0° north, 90° east)"), its number
with it, unless a word of its clause offers it as another reading ("219°, or north at 0°"). A
point anywhere else is named, hedges included: "219° or maybe north", "from the west" and "SW,
or N" name points.
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

_NORTH = r"(?:the\s+)?(?:(?:true|magnetic|grid|due)\s+)?(?:north|(?-i:N))"
_REFERENCE = re.compile(
    r"(?i)(?<!\w)(?:from|relative\s+to|with\s+respect\s+to|in\s+relation\s+to|referenced\s+to"
    rf"|clockwise\s+of)\s+{_NORTH}(?!\w)(?:\s*,?\s*(?:(?:going|counting|turning)\s+)?"
    r"(?:clockwise|eastwards?|towards?\s+(?:the\s+)?(?:east|(?-i:E)))(?!\w))?"
    r"|(?<!\w)(?:true|magnetic|grid)\s+(?:north|(?-i:N))(?!\w)")
"""What the degrees are measured from (the module docstring): north only, and the way they
turn after it ("from north toward east"); "from the west" names a point."""

_MARKS = {_NORTH: 0, r"(?:due\s+)?(?:east|(?-i:E))": 90, r"(?:due\s+)?(?:south|(?-i:S))": 180,
          r"(?:due\s+)?(?:west|(?-i:W))": 270}
"""The compass's four marks at the bearings that define them: north is 0°, east 90°."""
_IS = (r"(?:=|(?<!\w)(?:is|equals|means|marks|corresponds\s+to|(?:is\s+)?(?:defined|taken"
       r"|counted|set)\s+(?:as|at)|is\s+at)(?!\w))")
"""The words that define a mark by its bearing ("north is at 0°", "0° = north")."""
_AS = r"(?:as|being|for|at)(?!\w)"
"""The same after "with", "where", "taking" or "using" ("with 0° as north")."""


def _marked(point: str, bearing: int, copula: str) -> str:
    """`point` stated to stand at `bearing`, either first, with `copula` between them."""
    angle = rf"(?<![\w.]){bearing}(?!\d|\.\d)\s*(?:°|º|˚|degrees?(?!\w))?"
    return rf"{point}(?!\w)\s*{copula}\s*{angle}|(?<!\w){angle}\s*{copula}\s*{point}(?!\w)"


_DEFINED = re.compile("(?i)" + "|".join(
    rf"{_marked(p, b, _IS)}|(?<!\w)(?:with|where|taking|using)\s+(?:{_marked(p, b, _AS)})"
    for p, b in _MARKS.items()))
_ITEM = {b: _marked(p, b, rf"(?:{_IS}|:)?") for p, b in _MARKS.items()}
_ITEMS = "|".join(_ITEM.values())
_LEGEND = re.compile(rf"(?i)\(\s*(?=(?:[^()]*\W)?(?:{_ITEM[0]}))(?:{_ITEMS})"
                     rf"(?:\s*(?:[,;/]|and)\s*(?:{_ITEMS}))+\s*\)")
"""A mark defined ("where north is 0°", "with 0° as north", "E = 90°"), or marks listed in
brackets with north's zero ("(0° north, 90° east)"): the scale of a reading beside them."""
_OFFERED = re.compile(r"(?i)(?<!\w)(?:or|nor|either|unless|maybe|perhaps|possibly|probably"
                      r"|otherwise|alternatively|else|instead)(?!\w)")
"""Words that offer a mark as another reading ("219°, or north is 0°", "north is 0°, or
219°")."""
_CLAUSE = re.compile(r"[\d!?;()\[\]]|\.(?!\d)")
"""Where the clause around a mark ends: a number, a bracket or a sentence's end."""


def unreferenced(text: str) -> str:
    """`text` without the points that only say what its degrees are measured from ("from
    north", "relative to true north", "(magnetic north)"), each left as a space, and without
    a mark's definition ("where north is 0°", "(0° N, 90° E)") where another number stands
    beside it ("0° = north" alone is a reading of 0°) and no word in its clause offers it as
    another reading ("219°, or north is 0°" names 0°)."""
    def scale(mark: re.Match[str]) -> str:
        before, after = text[:mark.start()], text[mark.end():]
        cut = max((m.end() for m in _CLAUSE.finditer(before)), default=0)
        end = next((m.start() for m in _CLAUSE.finditer(after)), len(after))
        clause = before[cut:] + " " + after[:end]
        if any(c.isdigit() for c in before + after) and not _OFFERED.search(clause):
            return " "
        return mark.group(0)
    for pattern in (_LEGEND, _DEFINED):
        text = pattern.sub(scale, text)
    return _REFERENCE.sub(" ", text)


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
