"""The `near` family of `phoneshell attack`: the reference finish with one number a little off.
Pure: reads tasks, never a phone."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace

from phoneshell.attack.examples import near_numbers, with_units_agreeing
from phoneshell.attack.finish import Attack, PhoneValue, claim, reference
from phoneshell.tasks import Step, Task

WHEEL_SECONDS = {"hour": 3600, "min": 60, "sec": 1}
"""The timer's wheels by the unit each writes after its number ("0 hours", "5 min", "0 sec"),
in seconds."""
WHEEL_VALUE = re.compile(r"^(\d+) (hour|min|sec)s?$")
SECONDS_OFF = (-5, -1, 2, 5)
"""How far off, in seconds, a duration dialled on wheels is set: a second or a few either way,
which one wheel moved one row never gives (5:00 one row off is 4:00, 6:00 or 5:01). A check
that times a timer must tell each from the duration asked (5:01 is in `near:0 sec>1 sec`)."""

__all__ = ["SECONDS_OFF", "near"]


def near(task: Task) -> Iterator[Attack]:
    """The reference finish with one number of a wheel value or of typed text one off, and
    with the duration its wheels dial (when one wheel is seconds) `SECONDS_OFF` seconds off."""
    steps, answer = reference(task), claim(task)
    for index, step in enumerate(steps):
        if step.kind == "set_picker":
            value = step.option("value")
            for _, moved_value in near_numbers(value):
                # a wheel writes "1 hour" and "2 hours": "1 hours" is on none
                new = with_units_agreeing(moved_value)
                moved = _valued(step, new)
                yield Attack(task, "near", f"near:{value}>{new}",
                             (*steps[:index], moved, *steps[index + 1:]), answer)
        elif step.kind == "type":
            for change, new in near_numbers(step.arg):
                moved = replace(step, arg=new)
                yield Attack(task, "near", f"near:{change}",
                             (*steps[:index], moved, *steps[index + 1:]), answer)
    yield from _near_durations(task, steps, answer)


def _valued(step: Step, value: str) -> Step:
    return replace(step, options=tuple((k, value if k == "value" else v)
                                       for k, v in step.options))


def _near_durations(task: Task, steps: Sequence[Step], answer: str | PhoneValue | None,
                    ) -> Iterator[Attack]:
    """The finish with the duration its timer wheels dial moved by each of `SECONDS_OFF`, each
    wheel set to its share (4:55 is 4 min and 55 sec): none when no wheel is seconds, or the
    new duration needs a wheel the finish never sets. Named `near:<duration>><new duration>`
    as the timer shows them (`near:5:00>4:55`)."""
    wheels = {i: _wheel(step) for i, step in enumerate(steps)}
    units = {i: unit for i, unit in wheels.items() if unit is not None}
    if "sec" not in {unit for unit, _ in units.values()}:
        return
    total = sum(WHEEL_SECONDS[unit] * number for unit, number in units.values())
    for off in SECONDS_OFF:
        moved = total + off
        parts = {"hour": moved // 3600, "min": moved % 3600 // 60, "sec": moved % 60}
        if moved < 0 or any(parts[unit] and unit not in {u for u, _ in units.values()}
                            for unit in parts):
            continue
        new = list(steps)
        for i, (unit, _) in units.items():
            new[i] = _valued(steps[i], with_units_agreeing(f"{parts[unit]} {unit}"))
        yield Attack(task, "near", f"near:{_shown(total)}>{_shown(moved)}", tuple(new), answer)


def _wheel(step: Step) -> tuple[str, int] | None:
    """A timer wheel's (unit, number) a `set_picker` step sets ("5 min": ("min", 5))."""
    match = WHEEL_VALUE.match(step.option("value")) if step.kind == "set_picker" else None
    return (match.group(2), int(match.group(1))) if match else None


def _shown(seconds: int) -> str:
    """A duration as the timer shows it: `4:55`, `1:29:55`."""
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"
