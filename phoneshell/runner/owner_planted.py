"""What an agent left in the owner's collections that the run did not find there (an item it
added, or an owner's it rewrote, that the harness could not delete: `owner_put`), and which
later attempts it may help: never taken as the owner's, it makes a later attempt whose task is
in its app, or whose agent had that app in front, not scored where it would pass (red team
141: an event titled "March" an agent added, taken as the owner's, passed calendar.month_view's
checks in every later attempt)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from phoneshell.audit import apps_in_front
from phoneshell.records import AuditEvent
from phoneshell.runner.counts import Count
from phoneshell.runner.owner_reach import OWNED
from phoneshell.tasks import Task


def left_by_agents(name: str, start: Count, now: Count, who: str) -> str | None:
    """Why collection `name`, as `now` after attempt `who`, holds rows the run did not find
    there at its `start` ("" when it holds none; None when only counted, so not told by rows:
    the blind watch decides, `owner_blind`)."""
    if start.rows is None or now.rows is None:
        return None
    added = Counter(now.rows) - Counter(start.rows)
    if not added:
        return ""
    return (f"the owner's {name} hold what the run did not find there, left by {who}'s agent "
            f"and not deleted: {', '.join(map(repr, added.elements()))}")


def found_by(planted: Mapping[str, str], task: Task, log: Iterable[AuditEvent],
             unsure: bool) -> list[str]:
    """Why an attempt of `task` cannot be scored for what `planted` says is left (by
    collection): its task is in their app, or its agent had the app in front by its `log`
    (any app when `unsure`: the log cannot say)."""
    fronted = set(apps_in_front(log))
    return [f"{why}, and this attempt's agent may have found it" for name, why
            in sorted(planted.items()) if unsure or OWNED[name] in (task.app, *fronted)]


__all__ = ["found_by", "left_by_agents"]
