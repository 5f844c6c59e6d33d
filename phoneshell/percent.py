"""How every rate phoneshell prints is written as a percentage: rounded, except that a rate
short of all never shows as 100% and a rate above none never as 0% (199 of 200 is "99.5%", but
1999 of 2000 at one decimal is "99.9%", not "100.0%"). Pure: no I/O.
"""

from __future__ import annotations

__all__ = ["percent"]


def percent(value: float | None, decimals: int = 1) -> str:
    """`value` (a fraction, 0 to 1) as a percentage with `decimals` decimals, "n/a" for None.

    Rounding moves a rate strictly between none and all no further than one step from either
    end: it is clamped to 99.9% (or 99%) below all and 0.1% (or 1%) above none, so "100%" always
    means every one and "0%" none.
    """
    if value is None:
        return "n/a"
    step = 10.0 ** -decimals
    shown = round(100 * value, decimals)
    if 0 < value < 1:
        shown = min(max(shown, step), 100 - step)
    return f"{shown:.{decimals}f}%"
