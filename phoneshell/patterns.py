"""Task-file patterns (`regex` parameters): Python `re` syntax, run on an engine that can stop.

Why this engine, and what a search may cost, is in `phoneshell.tree`'s docstring (text
matching is defined there once); this module compiles patterns, runs them within their budget
(`search`: every run of a task's pattern goes through it, since the text it runs on is often the
agent's own typing) and names their failures.
"""

from __future__ import annotations

import re
import time

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


def search(pattern: Pattern, text: str, *, whole: bool = False,
           budget_s: float = PATTERN_BUDGET_S, since: float | None = None,
           where: str = "the text") -> regex.Match[str] | None:
    """Search `text` for `pattern` (with `whole`, match all of it), stopped past its budget.

    Args:
        whole: match the whole text (`fullmatch`), not find a match anywhere in it.
        budget_s: how long the search may take in all.
        since: when the budget began (`time.monotonic()`), for searches of many texts that share
            one budget (a screen's); now when not given.
        where: what `text` is, for the message when the budget runs out.

    Raises:
        PatternTimeout: the budget ran out. The `regex` engine counts it in the process's CPU
            time, so on a machine busy with other work the search takes longer by the clock.
    """
    left = budget_s - (time.monotonic() - since) if since is not None else budget_s
    run = pattern.fullmatch if whole else pattern.search
    try:
        return run(text, timeout=max(left, 0.0))
    except TimeoutError:
        raise PatternTimeout(budget_s, where) from None
