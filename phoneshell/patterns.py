"""Task-file patterns (`regex` parameters): Python `re` syntax, run on an engine that can stop.

Why this engine, and what a search may cost, is in `phoneshell.tree`'s docstring (text
matching is defined there once); this module compiles patterns and names their failures.
"""

from __future__ import annotations

import re

import regex

Pattern = regex.Pattern[str]
"""A compiled regex_on_screen pattern (`compile_pattern`)."""

PATTERN_BUDGET_S = 1.0
"""How long one regex check may search a screen, in all. The suite's patterns take well under
a millisecond on a 5,000-element source; only catastrophic backtracking comes near this."""


class PatternError(ValueError):
    """A pattern that is not valid Python `re` syntax (the message is `re`'s)."""


class PatternTimeout(Exception):
    """A search that ran past its budget: the pattern backtracks catastrophically on this text.

    Args:
        budget_s: the budget it ran past.
        where: the element and attribute it was searching, for a person.
    """

    def __init__(self, budget_s: float, where: str) -> None:
        super().__init__(f"the search took over {budget_s:g}s (at the {where}) and was stopped:"
                         " the pattern backtracks catastrophically; avoid nested repetition "
                         "such as (a+)+ or (a|a)+")
        self.budget_s = budget_s


def compile_pattern(text: str) -> Pattern:
    """Compile `text` (Python `re` syntax) for the stoppable engine.

    Raises:
        PatternError: `re` refuses it, or the engine reads it differently (its message says).
    """
    try:
        re.compile(text)
    except re.error as exc:
        raise PatternError(str(exc)) from None
    try:
        return regex.compile(text, regex.VERSION0)
    except regex.error as exc:  # valid for re, yet not for the engine: never seen, but say so
        raise PatternError(f"the regex engine refuses it ({exc})") from None
