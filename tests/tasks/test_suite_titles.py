"""The shipped suite names a page by its whole title: a check that reads a navigation bar by a
substring passes on every page whose title holds the words (Accessibility's Display & Text Size
for "Display", its Keyboards & Typing for "Keyboard", reached through Settings' own search)."""

from __future__ import annotations

import re

from phoneshell.tasks import Task


def test_every_title_check_reads_the_whole_title(suite: dict[str, Task]) -> None:
    loose = [f"{t.id}: {c.label()}" for t in suite.values() for c in t.checks
             if c.has("type") and c.text_of("type") == "NavigationBar" and not (
                 c.kind == "regex_on_screen" and re.fullmatch(r"\^[^^$|]+\$", c.text))]
    assert loose == []
