"""Which of the owner's collections an attempt's agent may have reached, by its log
(`runner.owner` reads again only those after the attempt)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from phoneshell.audit import CUSTODY_PHASES, apps_in_front
from phoneshell.device.owned import CALENDAR, CONTACTS
from phoneshell.device.probes import CLOCK, NOTES, REMINDERS
from phoneshell.records import AuditEvent
from phoneshell.runner.owner_log import APPS, acted_in_clock, acted_on
from phoneshell.runner.owner_tabs import TABS, may_show_other_tab

OWNED = {"notes": NOTES, "reminders": REMINDERS, "alarms": CLOCK, "world_clocks": CLOCK,
         "contacts": CONTACTS, "events": CALENDAR}
"""Each collection read whole with its rows, and the app it lives in (those of one app are read
one after another, sharing its launch: `take_counts`)."""
UNSURE = frozenset({"acted_outside_bridge", "audit_forged"})
"""Evidence flags after which the log cannot say which apps the agent had in front."""


def visited(events: Iterable[AuditEvent], flags: Iterable[str] = (),
            owned: Mapping[str, str] = OWNED, run_tab: bool = False) -> frozenset[str]:
    """Of `owned`, what the owner has whose app the agent may have had in front, by its log: each
    action's app before and after, a launch's or activation's bundle id, a custody line's app
    (`audit.apps_in_front`); of Safari's tabs, when the run keeps a tab of its own in front
    (`run_tab`), only when it may have brought another to the front
    (`owner_tabs.may_show_other_tab`); every collection when
    an action of its has no logged outcome or no app, or the log is not all the bridge's or
    misses a change (`UNSURE`)."""
    events = tuple(events)
    if UNSURE & set(flags):
        return frozenset(owned)
    mine = [e for e in events if e.phase in CUSTODY_PHASES and e.stage in ("intent", "outcome")]
    answered = {e.seq for e in mine if e.stage == "outcome" and e.app_after}
    if any(e.stage == "intent" and (e.seq not in answered or not e.app_before) for e in mine):
        return frozenset(owned)
    apps = set(apps_in_front(events))
    return frozenset(name for name, app in owned.items() if app in apps
                     and (app != CLOCK or acted_in_clock(name, events))
                     and (name not in APPS or acted_on(name, events))
                     and (name != TABS or not run_tab or may_show_other_tab(events)))
