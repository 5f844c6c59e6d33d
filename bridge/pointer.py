"""Summarise a touch chain (W3C `/actions`, legacy `/wda/touch/perform`) as one tap or swipe.

A chain is reduced to where the finger went down, how far it moved while down, where it came up
and how long it stayed down. Pure: reads a request body, never the phone. A chain whose finger
never moves further than `TAP_SLOP_PT` is a tap, as iOS itself would take it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

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


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _element_of(origin: object) -> str:
    if isinstance(origin, Mapping):
        for key in (W3C_ELEMENT_KEY, "ELEMENT"):
            found = origin.get(key)
            if isinstance(found, str):
                return found
    return origin if isinstance(origin, str) and origin not in ("viewport", "pointer") else ""


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


def _w3c_pointer(steps: Sequence[object]) -> list[Touch]:
    finger = _Finger()
    for step in steps:
        if not isinstance(step, Mapping):
            continue
        kind = step.get("type")
        duration_s = (_number(step.get("duration")) or 0.0) / 1000.0  # W3C durations are ms
        if kind == "pointerMove":
            x, y = _number(step.get("x")) or 0.0, _number(step.get("y")) or 0.0
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
    return finger.finish()


def _w3c_keys(steps: Sequence[object]) -> str:
    typed = []
    for step in steps:
        if isinstance(step, Mapping) and step.get("type") == "keyDown":
            value = step.get("value")
            if isinstance(value, str):
                typed.append(value if value < "\ue000" or value > "\uf8ff"
                             else _SPECIAL_KEYS.get(value, ""))
    return "".join(typed)


def summarise_w3c(body: Mapping[str, object]) -> Chain:
    """Summarise a W3C actions body (`POST /actions`)."""
    touches: list[Touch] = []
    text, fingers = "", 0
    sources = body.get("actions")
    for source in sources if isinstance(sources, list) else []:
        if not isinstance(source, Mapping) or not isinstance(source.get("actions"), list):
            continue
        steps: list[object] = source["actions"]
        if source.get("type") == "pointer":
            found = _w3c_pointer(steps)
            touches.extend(found)
            fingers += bool(found)
        elif source.get("type") == "key":
            text += _w3c_keys(steps)
    return Chain(tuple(touches), text, fingers)


def _legacy_point(options: Mapping[str, object], finger: _Finger) -> Point:
    x, y = _number(options.get("x")), _number(options.get("y"))
    element = _element_of(options.get("element"))
    if x is None and y is None and not element:
        return finger.at
    return Point(x or 0.0, y or 0.0, element)


def _legacy_chain(steps: Sequence[object]) -> list[Touch]:
    finger = _Finger()
    for step in steps:
        if not isinstance(step, Mapping):
            continue
        options = step.get("options")
        opts: Mapping[str, object] = options if isinstance(options, Mapping) else {}
        action = step.get("action")
        if action in ("press", "longPress", "tap"):
            finger.move(_legacy_point(opts, finger))
            finger.press()
            if action == "longPress":
                finger.wait((_number(opts.get("duration")) or 500.0) / 1000.0)
            if action == "tap":
                finger.release()
        elif action == "moveTo":
            finger.move(_legacy_point(opts, finger))
        elif action == "wait":
            finger.wait((_number(opts.get("ms")) or 0.0) / 1000.0)
        elif action == "release":
            finger.release()
    return finger.finish()


def summarise_legacy(body: Mapping[str, object], multi: bool) -> Chain:
    """Summarise an Appium TouchAction body (`/wda/touch/perform`, `/wda/touch/multi/perform`)."""
    chains = body.get("actions")
    if not isinstance(chains, list):
        return Chain((), "", 0)
    groups: list[object] = chains if multi else [chains]
    touches: list[Touch] = []
    fingers = 0
    for group in groups:
        if isinstance(group, list):
            found = _legacy_chain(group)
            touches.extend(found)
            fingers += bool(found)
    return Chain(tuple(touches), "", fingers)
