"""Values an attack puts where a check looks: strings a regex accepts, the candidate answers a
probe could read, and numbers one off. Pure: reads patterns and text, never a task or a phone.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable, Iterator
from typing import Any

with warnings.catch_warnings():
    # The stdlib's own regex parser: public as `sre_parse`, which 3.11 deprecates in favour of
    # the private `re._parser`; the module and its data are the same in both.
    warnings.simplefilter("ignore", DeprecationWarning)
    import sre_constants as c
    import sre_parse

BRANCHES = 3
"""How many alternatives of a pattern get an example of their own."""
_CATEGORY: dict[Any, str] = {
    c.CATEGORY_DIGIT: "0", c.CATEGORY_NOT_DIGIT: "a", c.CATEGORY_SPACE: " ",
    c.CATEGORY_NOT_SPACE: "a", c.CATEGORY_WORD: "a", c.CATEGORY_NOT_WORD: " "}
_POINTS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def _render(items: Iterable[tuple[Any, Any]], branch: int) -> str:
    """One string the parsed pattern accepts, taking alternative `branch` where it can."""
    out: list[str] = []
    for op, arg in items:
        if op is c.LITERAL:
            out.append(chr(arg))
        elif op is c.NOT_LITERAL:
            out.append("x" if arg != ord("x") else "y")
        elif op is c.ANY:
            out.append(" ")
        elif op is c.IN:
            out.append(_one_of(arg))
        elif op is c.CATEGORY:
            out.append(_CATEGORY.get(arg, "a"))
        elif op is c.BRANCH:
            options = arg[1]
            out.append(_render(options[min(branch, len(options) - 1)], branch))
        elif op is c.SUBPATTERN:
            out.append(_render(arg[-1], branch))
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT):
            low, _, item = arg
            out.append(_render(item, branch) * int(low))
    return "".join(out)


def _one_of(items: list[tuple[Any, Any]]) -> str:
    """A character a `[...]` set accepts."""
    if items and items[0][0] is c.NEGATE:
        return "x"
    op, arg = items[0]
    if op is c.LITERAL:
        return chr(arg)
    if op is c.RANGE:
        return chr(arg[0])
    return _CATEGORY.get(arg, "a")


def regex_examples(pattern: str) -> list[str]:
    """Short strings `pattern` accepts (one per alternative, up to `BRANCHES`), each checked
    against the pattern; [] for one this parser cannot follow."""
    try:
        parsed = sre_parse.parse(pattern).data
        compiled = re.compile(pattern)
    except (re.error, OverflowError, RecursionError):
        return []
    found: list[str] = []
    for branch in range(BRANCHES):
        example = _render(parsed, branch).strip()
        if example and example not in found and compiled.search(example):
            found.append(example)
    return found


def compass_headings() -> Iterator[str]:
    """Every heading Compass can show, each with its point: `0° N` ... `274° W` ... `359° N`."""
    for degrees in range(360):
        yield f"{degrees}° {_POINTS[round(degrees / 45) % 8]}"


def near_numbers(text: str) -> list[tuple[str, str]]:
    """`text` with one of its numbers moved one down or one up: (what changed, the new text).

    "5 min" gives ("5>4", "4 min") and ("5>6", "6 min"); negative results are left out.
    """
    found: list[tuple[str, str]] = []
    for match in re.finditer(r"\d+", text):
        number = int(match.group(0))
        for moved in (number - 1, number + 1):
            if moved < 0:
                continue
            new = f"{text[:match.start()]}{moved}{text[match.end():]}"
            found.append((f"{number}>{moved}", new))
    return found


UNITS = ("hour", "minute", "second")
"""Units iOS writes in the singular after 1 and in the plural after any other number: the
timer's hour wheel reads "1 hour", "0 hours"; the alarm's minute wheel "1 minute", "2 minutes"
(the timer's "min" and "sec" never change)."""


def with_units_agreeing(text: str) -> str:
    """`text` with each of `UNITS` agreeing with the number before it: "1 hours" is "1 hour",
    "0 hour" is "0 hours"."""
    def agree(match: re.Match[str]) -> str:
        number, unit = match.group(1), match.group(2)
        return f"{number} {unit}" if int(number) == 1 else f"{number} {unit}s"
    return re.sub(rf"\b(\d+) ({'|'.join(UNITS)})s?\b", agree, text)


def near_words(text: str) -> list[str]:
    """Look-alikes of a word or code: a digit moved one, a last letter changed, a plural."""
    variants = [new for _, new in near_numbers(text)[:4]]
    if text[-1:].isalpha():
        last = text[-1]
        swap = "B" if last.upper() == "A" else "A"
        variants.append(text[:-1] + (swap if last.isupper() else swap.lower()))
        variants.append(text + ("S" if last.isupper() else "s"))
    return [v for v in dict.fromkeys(variants) if v != text]
