"""The statistics reports print: a Wilson 95% interval for a pass rate, and the exact sign test
for two agents on the same tasks. Both count one unit, the task: repeats of a task are not
independent trials. Pure arithmetic, exact where it can be (no SciPy).
"""

from __future__ import annotations

import math

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""
ALPHA = 0.05
"""The significance level comparisons are read at."""


def wilson(passed: int, scored: int, z: float = Z95,
           trials: int | None = None) -> tuple[float, float] | None:
    """Wilson score interval for `passed` successes out of `scored` trials (95% by default).

    Unlike the normal approximation it stays inside [0, 1] and is not zero-width at 0/n or n/n,
    which is where small benchmark runs often sit.

    Args:
        passed: successes.
        scored: attempts scored.
        z: the normal quantile of the interval's level.
        trials: how many of the attempts are independent (default all): repeats of one task
            are not (an agent that passes a task tends to pass it again), so a run with
            `--repeat` counts its distinct tasks, the interval as wide as one attempt of each.

    Returns:
        (low, high) as fractions, or None when nothing was scored (no rate exists).

    Raises:
        ValueError: counts out of range.
    """
    if scored < 0 or not 0 <= passed <= scored:
        raise ValueError(f"need 0 <= passed <= scored, got {passed}/{scored}")
    if scored == 0:
        return None
    p = passed / scored
    n = scored if trials is None else max(1, min(trials, scored))
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = (z / (1 + z2 / n)) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    low, high = max(0.0, centre - half), min(1.0, centre + half)
    # At 0/n and n/n the exact bound is 0 or 1; keep float noise from moving it.
    return (0.0 if passed == 0 else low, 1.0 if passed == scored else high)


def sign_test(ahead_a: int, ahead_b: int) -> float:
    """Two-sided exact sign test p-value from the tasks where two agents differ.

    Under "no difference" each such task is a fair coin, so the count that went A's way is
    Binomial(ahead_a + ahead_b, 1/2); the p-value doubles the smaller tail, capped at 1. With
    one attempt per task a task where they differ is a discordant pair, and this is McNemar's
    exact test.

    Args:
        ahead_a: tasks where A did better.
        ahead_b: tasks where B did better.

    Raises:
        ValueError: a negative count.
    """
    if ahead_a < 0 or ahead_b < 0:
        raise ValueError(f"counts must not be negative, got {ahead_a}, {ahead_b}")
    n = ahead_a + ahead_b
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(ahead_a, ahead_b) + 1))
    return min(1.0, 2 * tail / (1 << n))


def min_differing(alpha: float = ALPHA) -> int:
    """The fewest tasks where the agents differ that can ever give p < alpha (all of them one
    way): 6 at 0.05."""
    n = 1
    while sign_test(n, 0) >= alpha:
        n += 1
    return n
