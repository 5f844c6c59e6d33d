"""How every rate phoneshell prints is written as a percentage, and how a bound is: a rate's ties
round half up (1/8 is "13%", 1/16 "6.3%"), except that a rate short of all never shows as 100%
and a rate above none never as 0% (199 of 200 is "99.5%", but 1999 of 2000 at one decimal is
"99.9%", not "100.0%"). A bound (an interval's end, an "at least") is rounded away from what it
claims, a lower bound down and an upper bound up, so the printed number is as true a bound as
the exact one (2/3 as an "at least" is "66%", never "67%"), and takes the decimals it needs to
show it is not 0% or 100% (a lower bound of 0.0018% is "0.001%"). Pure: no I/O.
"""

from __future__ import annotations

from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, Decimal
from typing import Literal

__all__ = ["Side", "bound", "percent"]

Side = Literal["low", "high"]
"""Which end a bound is: "low" (a lower bound, an "at least") or "high" (an upper bound)."""

MOST_DECIMALS = 12
"""A bound closer than this many decimals to 0% or 100% is printed as "<" or ">" that step."""


def _rounded(value: float, decimals: int, rounding: str = ROUND_HALF_UP) -> Decimal:
    """`value` (a fraction) in percent, rounded to `decimals` decimals (ties half up unless
    told). The float's shortest repr is the decimal it was meant to be (37.5/100 = 0.375 is one;
    100 * 0.285 is 28.499999999999996 in floats, which would round 28.5% down, and 0.57 would
    floor to 56.9%)."""
    return (Decimal(repr(value)) * 100).quantize(Decimal(1).scaleb(-decimals), rounding)


def percent(value: float | None, decimals: int = 1) -> str:
    """`value` (a fraction, 0 to 1) as a percentage with `decimals` decimals, "n/a" for None.

    Ties round half up, away from zero. Rounding moves a rate strictly between none and all no
    further than one step from either end: it is clamped to 99.9% (or 99%) below all and 0.1%
    (or 1%) above none, so "100%" always means every one and "0%" none. A rate printed as a
    bound ("at least") is no rate: use `bound`.
    """
    if value is None:
        return "n/a"
    step = Decimal(1).scaleb(-decimals)
    shown = _rounded(value, decimals)
    if 0 < value < 1:
        shown = min(max(shown, step), 100 - step)
    return f"{shown:.{decimals}f}%"


def bound(value: float, side: Side, decimals: int = 1) -> str:
    """A bound (a fraction) in percent, without the sign, rounded away from what it claims: a
    lower bound down, an upper bound up (a Wilson low of 0.56554 is "56.5", not "56.6", which
    would print an interval narrower than the true one). `decimals` decimals, and more when
    fewer would show a bound above 0 as 0 or one below 1 as 100, rounded either way (a bound is
    not moved as a rate is: "0.1" for 0.0018% would put it 50 times too high, and an upper
    bound of 0.028% is "0.03", not "0.1")."""
    rounding = ROUND_FLOOR if side == "low" else ROUND_CEILING
    places = decimals
    while places < MOST_DECIMALS:
        shown = _rounded(value, places, rounding)
        if all((at > 0 or value == 0) and (at < 100 or value == 1)
               for at in (shown, _rounded(value, places))):
            return f"{shown:.{places}f}"
        places += 1
    step = Decimal(1).scaleb(-MOST_DECIMALS)
    return f"<{step:f}" if value < 0.5 else f">{100 - step:f}"
