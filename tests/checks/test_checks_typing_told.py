"""A task that grades how the agent typed (typed_into, a search opened from its results) says
so in its instruction: an agent told only to "look up" a place may run the search by URL
(maps://?q=..., x-web-search://), as iOS does, and fail on a check it was never told of (a red
team's honest agent did, on maps.search_place and safari.search.web)."""

from __future__ import annotations

from phoneshell.tasks import Task

GRADES_TYPING = ("typed_into", "opened_from_search", "opened_via_spotlight")
"""Check kinds that pass only on typing into a field (not negated)."""
NAMES_THE_FIELD = ("type ", "search field", "address bar", "its search", "the search in",
                   "spotlight")
"""Phrases by which an instruction tells the agent to type, or names the field it grades."""


def test_every_task_that_grades_typing_tells_the_agent_where(suite: dict[str, Task]) -> None:
    graded = [t for t in suite.values()
              if any(c.kind in GRADES_TYPING and not c.negate for c in t.checks)]
    assert len(graded) >= 8
    untold = [t.id for t in graded
              if not any(p in t.instruction.lower() for p in NAMES_THE_FIELD)]
    assert not untold, f"instructions that never say to type, nor into what: {untold}"
