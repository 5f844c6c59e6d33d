"""An honest model for the tasks that need more than a tap on an element's centre: a hold on a
word, a swipe in from the screen's top edge, and one picker wheel of several turned.

Like screen_script.py, it reads only what a model gets (the instruction and the latest
observation's text: its rows and the screen line) and answers with the next tool call. It
keeps no state: each call is chosen from what the screen shows now, as a careful person would
(turn a wheel a row, read it back, go on). Used by the OpenAI-compatible stand-in
(`stand-in-gestures`) and by the MCP test, so both paths play the same moves.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from agents.screen_script import TableRow, parse_table

Call = tuple[str, dict[str, object]]


def screen_size(observation: str) -> tuple[int, int]:
    """The screen's size from the observation's `screen: WxH points` line."""
    found = re.search(r"^screen: (\d+)x(\d+) points", observation, re.MULTILINE)
    if found is None:
        raise LookupError(f"no screen line in:\n{observation}")
    return int(found.group(1)), int(found.group(2))


def _rows(observation: str, kind: str, text: str = "") -> list[TableRow]:
    return [r for r in parse_table(observation) if r.type == kind and text in r.text]


def _in_app(observation: str, name: str) -> bool:
    return f"· app: {name} (" in observation.split("\n", 1)[0]


def notification_centre(observation: str) -> Call:
    """Swipe down from the top edge, on its left (the right opens Control Centre)."""
    if "Notifications" in observation and _in_app(observation, "SpringBoard"):
        return "done", {"status": "done", "summary": "pulled Notification Centre down"}
    width, height = screen_size(observation)
    return "swipe", {"from_x": width // 6, "from_y": 0, "to_x": width // 6,
                     "to_y": height * 3 // 4}


def select_word(observation: str) -> Call:
    """A new note of the word `anchor`, then a hold on the word (its first line, top left)."""
    if not _in_app(observation, "Notes"):
        return "open_app", {"name": "Notes"}
    if [r for r in _rows(observation, "MenuItem") if r.text in ("Cut", "Look Up")]:
        return "done", {"status": "done", "summary": "held the word; its menu is up"}
    views = _rows(observation, "TextView")
    if not views or "focused" not in views[0].flags:
        return "tap", {"id": next(r for r in _rows(observation, "Button", "New Note")).id}
    view = views[0]
    if "anchor" not in view.text:
        return "type", {"text": "anchor"}
    # The row gives the view's centre and size: the first word sits at its top-left corner.
    size = re.search(rf"^{re.escape(view.id)}\t.*\t(\d+)x(\d+)\t", observation, re.MULTILINE)
    assert size is not None
    left = view.centre[0] - int(size.group(1)) // 2
    top = view.centre[1] - int(size.group(2)) // 2
    return "long_press", {"x": left + 24, "y": top + 18, "seconds": 1}


TIMER = (("hour", 1), ("min", 30), ("sec", 0))
"""The wheels of clock.timer.set_hours_minutes, by a word of their value, and the number each
must read."""


def timer_wheels(observation: str) -> Call:
    """Each wheel in turn to its number: a drag along it while far off, a tap above or below
    its centre (a row at a time) when near."""
    if not _in_app(observation, "Clock"):
        return "open_app", {"name": "Clock"}
    wheels = _rows(observation, "PickerWheel")
    if not wheels:
        return "tap", {"id": next(r for r in _rows(observation, "Button", "Timers")).id}
    for unit, wanted in TIMER:
        wheel = next(w for w in wheels if unit in w.text)
        now = int(re.match(r"\d+", wheel.text).group())  # type: ignore[union-attr]
        if now == wanted:
            continue
        x, y = wheel.centre
        if abs(wanted - now) > 3:  # a drag up brings later rows in, about 30 points a row
            rows = max(-3, min(3, wanted - now))
            return "swipe", {"from_x": x, "from_y": y, "to_x": x, "to_y": y - rows * 30}
        return "tap", {"x": x, "y": y + (40 if wanted > now else -40)}
    return "done", {"status": "done", "summary": "dialled 1 h 30 min, not started"}


POLICIES: dict[str, tuple[str, Callable[[str], Call]]] = {
    "system.notifications.open": ("Bring up Notification Centre", notification_centre),
    "notes.text_select": ("Start a new note in Notes, type the word 'anchor'", select_word),
    "clock.timer.set_hours_minutes": ("On the Timers tab of the Clock app, dial", timer_wheels),
}
"""Each task's policy, found by the start of its instruction."""


def policy_for(instruction: str) -> Callable[[str], Call]:
    """The policy whose task's instruction this is."""
    for start, policy in POLICIES.values():
        if instruction.startswith(start):
            return policy
    raise LookupError(f"no policy for the instruction {instruction[:80]!r}")
