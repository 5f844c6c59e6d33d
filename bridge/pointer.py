"""Summarise a touch chain (W3C `/actions`, legacy `/wda/touch/perform`) as one tap or swipe.

A chain is reduced to where the finger went down, how far it moved while down, where it came up
and how long it stayed down. Pure: reads a request body, never the phone. A chain whose finger
never moves further than `TAP_SLOP_PT` is a tap, as iOS itself would take it. A step this
summary cannot read one way only (a coordinate that is not a number, a key that is not a string,
an action type WDA does not define) is refused (`gate.Refused`): WDA would read it some way, and
the log must not guess which.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bridge.gate import Refused, json_type

TAP_SLOP_PT = 10.0
"""How far (points) a finger may drift and still tap: UIKit's own slop is about 10 pt."""

W3C_ELEMENT_KEY = "element-6066-11e4-a52e-4f735466cecf"

# WebDriver's private-use key codes that type a character; every other special key types nothing.
_SPECIAL_KEYS = {"\ue003": "\b", "\ue006": "\n", "\ue007": "\n", "\ue004": "\t",
                 "\ue00d": " "}


@dataclass(frozen=True)
class Point:
    """A position: absolute screen points, or relative to an element when `element` is set."""

    x: float
    y: float
    element: str = ""


@dataclass(frozen=True)
class Touch:
    """One finger's path: down, furthest drift, up, and time held (seconds)."""

    down: Point
    up: Point
    moved: bool
    held_s: float


@dataclass(frozen=True)
class Chain:
    """What a whole action request did: the touches of every finger and the keys typed."""

    touches: tuple[Touch, ...]
    text: str
    fingers: int
    """How many pointer sources touched the screen (2 for a pinch)."""
    repeated: bool = False
    """Some finger touched the screen more than once (one line cannot describe it)."""


def _number(step: Mapping[str, object], key: str) -> float | None:
    value = step.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Refused(f"an action step's {key!r} must be a number, not {json_type(value)}")
    return float(value)


def _element_of(origin: object) -> str:
    if isinstance(origin, Mapping):
        for key in (W3C_ELEMENT_KEY, "ELEMENT"):
            found = origin.get(key)
            if isinstance(found, str):
                return found
        raise Refused("an action's origin names no element")
    if origin is None:
        return ""
    if isinstance(origin, str):
        return origin if origin not in ("viewport", "pointer") else ""
    raise Refused(f"an action's origin must be 'viewport', 'pointer' or an element, not "
                  f"{json_type(origin)}")


def _steps(source: Mapping[str, object]) -> list[Mapping[str, object]]:
    steps = source.get("actions")
    if not isinstance(steps, list) or not all(isinstance(s, Mapping) for s in steps):
        raise Refused("an action source's 'actions' must be a list of objects")
    return steps


class _Finger:
    """Follows one finger through its steps (mutable, local to one summary)."""

    def __init__(self) -> None:
        self.at = Point(0.0, 0.0)
        self.down: Point | None = None
        self.moved = False
        self.held_s = 0.0
        self.touches: list[Touch] = []

    def move(self, to: Point) -> None:
        self.at = to
        if self.down is not None and not self.moved:
            if to.element != self.down.element:
                self.moved = True  # relative to something else: no way to call it a tap
            else:
                self.moved = math.hypot(to.x - self.down.x, to.y - self.down.y) > TAP_SLOP_PT

    def press(self) -> None:
        if self.down is None:
            self.down, self.moved, self.held_s = self.at, False, 0.0

    def wait(self, seconds: float) -> None:
        if self.down is not None:
            self.held_s += max(0.0, seconds)

    def release(self) -> None:
        if self.down is not None:
            self.touches.append(Touch(self.down, self.at, self.moved, self.held_s))
            self.down = None

    def finish(self) -> list[Touch]:
        self.release()  # a chain that never lifts the finger still touched the screen
        return self.touches


def _w3c_pointer(steps: Sequence[Mapping[str, object]]) -> list[Touch]:
    finger = _Finger()
    for step in steps:
        kind = step.get("type")
        duration_s = (_number(step, "duration") or 0.0) / 1000.0  # W3C durations are ms
        if kind == "pointerMove":
            x, y = _number(step, "x") or 0.0, _number(step, "y") or 0.0
            origin = step.get("origin", "viewport")
            if origin == "pointer":
                finger.move(Point(finger.at.x + x, finger.at.y + y, finger.at.element))
            else:
                finger.move(Point(x, y, _element_of(origin)))
            finger.wait(duration_s)
        elif kind == "pointerDown":
            finger.press()
        elif kind == "pointerUp":
            finger.release()
        elif kind == "pause":
            finger.wait(duration_s)
        elif kind != "pointerCancel":
            raise Refused(f"unknown pointer action type {kind!r:.40}")
    return finger.finish()


def _w3c_keys(steps: Sequence[Mapping[str, object]]) -> str:
    typed = []
    for step in steps:
        kind, value = step.get("type"), step.get("value")
        if kind in ("keyDown", "keyUp") and not isinstance(value, str):
            raise Refused(f"a key action's value must be a string, not {json_type(value)}")
        if kind not in ("keyDown", "keyUp", "pause"):
            raise Refused(f"unknown key action type {kind!r:.40}")
        if kind == "keyDown" and isinstance(value, str):
            typed.append(value if value < "\ue000" or value > "\uf8ff"
                         else _SPECIAL_KEYS.get(value, ""))
    return "".join(typed)


def summarise_w3c(body: Mapping[str, object]) -> Chain:
    """Summarise a W3C actions body (`POST /actions`).

    Raises:
        Refused: a source or step that cannot be read one way only.
    """
    touches: list[Touch] = []
    text, fingers, repeated = "", 0, False
    sources = body.get("actions")
    if not isinstance(sources, list):
        raise Refused("'actions' must be a list of input sources")
    for source in sources:
        if not isinstance(source, Mapping):
            raise Refused("an input source must be an object")
        steps = _steps(source)
        if source.get("type") == "pointer":
            found = _w3c_pointer(steps)
            touches.extend(found)
            fingers += bool(found)
            repeated = repeated or len(found) > 1
        elif source.get("type") == "key":
            text += _w3c_keys(steps)
        elif source.get("type") != "none":
            raise Refused(f"unknown input source type {source.get('type')!r:.40}")
    return Chain(tuple(touches), text, fingers, repeated)


def _legacy_point(options: Mapping[str, object], finger: _Finger) -> Point:
    x, y = _number(options, "x"), _number(options, "y")
    element = _element_of(options.get("element"))
    if x is None and y is None and not element:
        return finger.at
    return Point(x or 0.0, y or 0.0, element)


def _legacy_chain(steps: Sequence[object]) -> list[Touch]:
    finger = _Finger()
    for step in steps:
        if not isinstance(step, Mapping):
            raise Refused("a touch action must be an object")
        options = step.get("options", {})
        if not isinstance(options, Mapping):
            raise Refused("a touch action's 'options' must be an object")
        action = step.get("action")
        if action in ("press", "longPress", "tap"):
            finger.move(_legacy_point(options, finger))
            finger.press()
            if action == "longPress":
                finger.wait((_number(options, "duration") or 500.0) / 1000.0)
            if action == "tap":
                finger.release()
        elif action == "moveTo":
            finger.move(_legacy_point(options, finger))
        elif action == "wait":
            finger.wait((_number(options, "ms") or 0.0) / 1000.0)
        elif action == "release":
            finger.release()
        else:
            raise Refused(f"unknown touch action {action!r:.40}")
    return finger.finish()


def summarise_legacy(body: Mapping[str, object], multi: bool) -> Chain:
    """Summarise an Appium TouchAction body (`/wda/touch/perform`, `/wda/touch/multi/perform`)."""
    chains = body.get("actions")
    if not isinstance(chains, list):
        raise Refused("'actions' must be a list")
    groups: list[object] = chains if multi else [chains]
    touches: list[Touch] = []
    fingers, repeated = 0, False
    for group in groups:
        if not isinstance(group, list):
            raise Refused("each finger's touch actions must be a list")
        found = _legacy_chain(group)
        touches.extend(found)
        fingers += bool(found)
        repeated = repeated or len(found) > 1
    return Chain(tuple(touches), "", fingers, repeated)
