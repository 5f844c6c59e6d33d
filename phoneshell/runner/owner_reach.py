"""Which of the owner's collections an attempt's agent may have reached, by its log, and which of
those its task's own counts show as they were (`runner.owner` reads again only the rest after
the attempt)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from phoneshell.audit import CUSTODY_PHASES, apps_in_front
from phoneshell.checks import Need
from phoneshell.checks.items import items_changed, whole_changed
from phoneshell.device.owned import CALENDAR, CONTACTS
from phoneshell.device.probes import CLOCK, NOTES, REMINDERS
from phoneshell.evidence import Evidence
from phoneshell.records import AuditEvent, Teardown
from phoneshell.runner.counts import cleaned
from phoneshell.runner.owner_log import APPS, acted_in_clock, acted_on
from phoneshell.runner.owner_tabs import TABS, may_show_other_tab
from phoneshell.tasks import Task

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


def settled(name: str, task: Task, evidence: Evidence | None, teardown: Teardown) -> bool:
    """Whether the task's own counts show collection `name`, after a clean teardown, as before
    its agent: counted whole after capture as it was, or grown by exactly what the teardown's
    `delete_created` steps delete (their counts grown by new items only, and every item of the
    whole still there)."""
    whole = evidence.probe(name, "") if evidence is not None else None
    if whole is None or whole.before is None or whole.after is None or \
            whole.rows_before is None or whole.rows_after is None:
        return False
    if not teardown.ok or teardown.left:
        return False
    if whole.after == whole.before and whole.rows_after == whole.rows_before:
        return True
    deleted = [r for r in evidence.probes if r.whole == name and
               Need("probe", r.name, r.arg) in cleaned(task)] if evidence is not None else []
    grown = sum((r.after or 0) - (r.before or 0) for r in deleted)
    return (0 < whole.after - whole.before == grown and not whole_changed(whole)
            and all(r.after is not None and r.before is not None and not items_changed(r, whole)
                    for r in deleted))
