"""What a wandering agent changes of what the phone keeps (the simulator's stores, as a phone keeps
each app's data) is, key by key, either set back, watched by the owner watch (failed, and said
at the run's end), refused by the bridge, or on a written list of what no run can put back
(red team 109, RT109-1: closing Safari's start-page card lasted for good, and nothing read it).
A key an agent changes that is on no list fails this test: the next such change is found here,
not by a red team. Slow (two suite runs): marked `suite`, run by .ci/run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from phoneshell.runner.run import RunOptions, run_suite
from phoneshell.sim import SimServer
from phoneshell.sim.apps.clock_world import DEFAULT_CITIES
from phoneshell.sim.apps.settings_pages import CHOICE_DEFAULTS, SLIDER_DEFAULTS, SWITCH_DEFAULTS

pytestmark = pytest.mark.suite

SETTINGS = "com.apple.Preferences"
WATCHED = {
    "com.apple.mobilenotes": {"notes", "deleted", "next_id", "clock"},
    "com.apple.reminders": {"reminders"},
    "com.apple.MobileAddressBook": {"contacts", "next_id"},
    "com.apple.mobilecal": {"events", "next_id"},
    "com.apple.mobiletimer": {"alarms", "cities", "stopwatch", "timer"},
    "com.apple.mobilesafari": {"tabs", "active"},
}
"""What the owner watch reads after an attempt whose agent may have changed it, and fails the
attempt for (`runner.owner`), putting back what it can and saying at the run's end what stays
(docs/runs.md); Safari's tabs are closed down to the run's count (`runner.tidy`), and the page
each shows is the owner watch's (`owner_tabs`). A counter of the app's own (`next_id`, Notes'
`clock`) moves with them."""
NAVIGATION = {"restored_screen", "tab"}
"""Where an app reopens (its screen, Clock's tab: docs/simulator.md, Restored screens): no
owner's data, what a person's own use moves too; a task whose goal is such a screen moves the
app off it in its setup."""
DEFAULTS = {SETTINGS: {**SWITCH_DEFAULTS, **SLIDER_DEFAULTS, **CHOICE_DEFAULTS},
            "com.apple.mobiletimer": {"cities": [{"city": city} for city in DEFAULT_CITIES]}}
"""What an app shows for a key it has not stored: stored at that value, nothing changed."""


def changed(before: dict[str, dict[str, object]], after: dict[str, dict[str, object]],
            ) -> dict[tuple[str, str], tuple[object, object]]:
    """Each (app, key) whose value differs, but for one stored at the value the app showed for
    it unstored (`DEFAULTS`)."""
    found = {}
    for app in set(before) | set(after):
        was, now, shown = before.get(app, {}), after.get(app, {}), DEFAULTS.get(app, {})
        for key in set(was) | set(now):
            old, new = was.get(key, shown.get(key)), now.get(key, shown.get(key))
            if json.dumps(old, sort_keys=True) != json.dumps(new, sort_keys=True):
                found[(app, key)] = (old, new)
    return found


def test_what_a_wandering_agent_changes_of_the_phones_stores_is_each_accounted_for(
        tmp_path: Path, environments: Path) -> None:
    def run(agent: str, run_id: str) -> None:
        run_suite(RunOptions(paths=(str(environments),), agent=agent, device=sim.url,
                             runs_dir=tmp_path, run_id=run_id), lambda _: None)

    with SimServer() as sim:
        run("solution", "first")  # the phone as a suite run leaves it
        before = sim.state()["stores"]
        run("wander:1:30", "wander")  # seed 1 closed the start page's card (red team 109)
        after = sim.state()["stores"]
    diff = changed(before, after)  # type: ignore[arg-type]
    settings = {key: values for (app, key), values in diff.items() if app == SETTINGS}
    assert not settings, f"Settings values not set back: {settings}"
    unaccounted = {f"{app} {key}": values for (app, key), values in diff.items()
                   if app != SETTINGS and key not in WATCHED.get(app, set()) | NAVIGATION}
    assert not unaccounted, unaccounted
