"""The `set_picker` step: turn a picker wheel to a value by taps, as XCTest and a person do.

XCTest steps a wheel by tapping 20% of its height above or below the centre, one row per tap;
swipes overshoot on a real phone (upstream finding 15), and a value is only proven by reading
the wheel back. So each tap is followed by a read of the page source (a session-free route),
the direction comes from the numbers in the values ("7 o'clock" -> "9 o'clock": down the
wheel), a tap that overshoots is made shorter, and a wheel that stops moving at both ends, or
comes round to a value it already showed, cannot show the wanted one. Values compare whole
(never by digits alone: "9:00 AM" must not pass for "9:00 PM"), ignoring case, spacing, the
apostrophe's shape (iOS writes o’clock) and how a number is spelled ("5 minutes" for "05 minutes").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from phoneshell.device.phone import Phone
from phoneshell.device.steps import executes
from phoneshell.errors import StepError
from phoneshell.spelling import folded
from phoneshell.tasks import Step
from phoneshell.tree import Element, PageSource, shorten

WHEEL = "XCUIElementTypePickerWheel"
TAP_OFFSET = 0.2
"""Where XCTest taps to step a wheel: this share of its height off the centre."""
MIN_OFFSET = 0.05
MAX_TAPS = 150
"""Enough for any wheel of 60 rows turned the long way round, with room for corrections."""


@dataclass(frozen=True)
class WheelRead:
    """The on-screen wheels, left to right, from one read."""

    wheels: tuple[Element, ...]

    @classmethod
    def of(cls, phone: Phone) -> WheelRead:
        """Read the page source once."""
        page = PageSource.parse(phone.source())
        found = [e for e in page.on_screen() if e.type == WHEEL]
        return cls(tuple(sorted(found, key=lambda e: (e.x, e.y))))

    def summary(self) -> str:
        """"1: '9 o’clock', 2: '41 minutes', 3: 'AM'"."""
        return ", ".join(f"{i}: {shorten(w.value or w.label or '?', 30)!r}"
                         for i, w in enumerate(self.wheels, 1)) or "none"


def normalise(text: str) -> str:
    """Compare values as a person reads them, as checks do (`spelling.folded`): case, spacing
    and the shapes of apostrophes, quotes and dashes ignored."""
    return folded(text)


_PADDED = re.compile(r"\b0+(?=\d)")
_COUNTED = re.compile(r"\b(\d+) (\w+?)s\b")


def value_key(text: str) -> str:
    """A wheel value as `set_picker` compares it: `normalise`d, and a number's spelling set
    aside too, its padding and the plural of the word after it, so "5 minutes" and "1 minute"
    meet a phone's "05 minutes" and "01 minutes" (iOS pads the alarm's minute wheel as it
    draws it). Choosing a wheel by its text does not use it: "minutes" names the wheel."""
    return _COUNTED.sub(r"\1 \2", _PADDED.sub("", normalise(text)))


def _number(text: str) -> int | None:
    match = re.search(r"\d+", text)
    return int(match.group()) if match else None


def choose_wheel(read: WheelRead, spec: str, step: Step) -> int:
    """The index of the wheel `spec` names: a 1-based position, or text one wheel contains.

    Raises:
        StepError: no wheel on screen, none or several match, or the position is out of range.
    """
    if not read.wheels:
        raise StepError(f"{step.describe()}: no picker wheel on screen")
    if spec.strip().isascii() and spec.strip().isdigit():
        position = int(spec)
        if not 1 <= position <= len(read.wheels):
            raise StepError(f"{step.describe()}: there is no wheel {position}; the wheels on "
                            f"screen are {read.summary()}")
        return position - 1
    wanted = normalise(spec)
    hits = [i for i, w in enumerate(read.wheels)
            if any(wanted in normalise(t) for t in (w.label, w.name, w.value) if t)]
    if len(hits) != 1:
        what = "no wheel" if not hits else f"{len(hits)} wheels"
        raise StepError(f"{step.describe()}: {what} on screen match {spec!r}; the wheels are "
                        f"{read.summary()} (name one by its position, 1 = leftmost)")
    return hits[0]


def _turned(phone: Phone, index: int, count: int, step: Step, was: str) -> bool:
    """Whether the wheel leaves `was` within half the effect timeout (a real one animates)."""
    return phone.poll(lambda: _value(phone, index, count, step)[1] != was,
                      phone.effect_timeout_s / 2, interval_s=0.1)


def _value(phone: Phone, index: int, count: int, step: Step) -> tuple[Element, str]:
    read = WheelRead.of(phone)
    if len(read.wheels) != count:
        raise StepError(f"{step.describe()}: the picker changed while it was being turned "
                        f"(wheels now: {read.summary()})")
    wheel = read.wheels[index]
    return wheel, wheel.value


def _direction(current: str, wanted: str, fallback: int) -> int:
    have, want = _number(current), _number(wanted)
    if have is None or want is None or have == want:
        return fallback
    return 1 if want > have else -1


@executes("set_picker")
def set_picker(phone: Phone, step: Step) -> None:
    """Tap the chosen wheel towards the value until it reads it (see the module docstring)."""
    spec, wanted = step.option("wheel"), step.option("value")
    read = WheelRead.of(phone)
    index, count = choose_wheel(read, spec, step), len(read.wheels)
    wheel, current = read.wheels[index], read.wheels[index].value
    target = value_key(wanted)
    direction, offset, stuck_ends = _direction(current, wanted, 1), TAP_OFFSET, 0
    seen = {(value_key(current), direction)}
    for _ in range(MAX_TAPS):
        if value_key(current) == target:
            return
        x = wheel.x + wheel.width / 2
        y = wheel.y + wheel.height / 2 + direction * offset * wheel.height
        phone.tap(x, y)
        wheel, after = _value(phone, index, count, step)
        if after == current and _turned(phone, index, count, step, current):
            wheel, after = _value(phone, index, count, step)  # a real wheel animates first
        if after == current:
            # The end of a wheel that does not wrap (or a tap that did not take): try the
            # other way once; stuck both ways means the value is not on this wheel.
            stuck_ends += 1
            if stuck_ends >= 2:
                break
            direction = -direction
            continue
        have, now, want = _number(current), _number(after), _number(wanted)
        if (have is not None and now is not None and want is not None
                and (want - have) * (want - now) < 0 and abs(now - have) <= 12):
            # Passed over the value without wrapping: the tap moved several rows.
            offset = max(MIN_OFFSET, offset * 0.6)
        current = after
        direction = _direction(current, wanted, direction)
        key = (value_key(current), direction)
        if key in seen and value_key(current) != target:
            break  # round the whole wheel without meeting the value
        seen.add(key)
    if value_key(current) == target:
        return
    raise StepError(f"{step.describe()}: the wheel reads {current!r} and cannot be turned to "
                    f"{wanted!r}: it stopped at its ends, came round again, or ignored the taps",
                    hint="write the value as the wheel shows it, e.g. '5 min', '7 o'clock'")
