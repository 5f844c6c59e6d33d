"""A wandering agent over the whole suite, then the reference finishes on the same phone, played
once for the tests below (three suite runs, about 100 s): no honest attempt fails for what it
left; what the runs can tell an agent changed is as it was (Settings' switches, options and
sliders, alarms, World Clock's cities, timers, the stopwatch, Safari's tabs); and what it
changed of what the phone keeps (the simulator's stores, as a phone keeps each app's data) is,
key by key, either set back, watched by the owner watch (failed, and said at the run's end),
refused by the bridge, or on a written list of what no run can put back (red team 109, RT109-1:
closing Safari's start-page card lasted for good, and nothing read it). A key an agent changes
that is on no list fails here: the next such change is found here, not by a red team. Marked
`suite`, run by .ci/run."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from phoneshell.runner.folder import read_results
from phoneshell.runner.run import RunOptions, run_suite
from phoneshell.sim import SimServer
from phoneshell.sim.apps.clock_world import DEFAULT_CITIES
from phoneshell.sim.apps.settings_pages import CHOICE_DEFAULTS, SLIDER_DEFAULTS, SWITCH_DEFAULTS

pytestmark = pytest.mark.suite

def kept(sim: SimServer) -> dict[str, object]:
    stores = sim.state()["stores"]
    clock = stores.get("com.apple.mobiletimer", {})
    watch = clock.get("stopwatch", {})  # type: ignore[union-attr]
    settings = {**SWITCH_DEFAULTS, **SLIDER_DEFAULTS, **CHOICE_DEFAULTS,
                **stores.get("com.apple.Preferences", {})}  # type: ignore[dict-item]
    return {"settings": settings,
            "alarms": clock.get("alarms", []),  # type: ignore[union-attr]
            "cities": clock.get("cities") or [  # type: ignore[union-attr]
                {"city": city} for city in DEFAULT_CITIES],
            "timer running": (clock.get("timer") or {}).get("ends") is not None,  # type: ignore[union-attr]
            "stopwatch going": watch.get("since") is not None or bool(watch.get("banked")),
            "tabs": len(stores.get("com.apple.mobilesafari", {}).get("tabs", [])),  # type: ignore[union-attr]
            }


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


@dataclass(frozen=True)
class Walk:
    """The runs (first, wander, again) under `runs`, and the phone around the wander."""

    runs: Path
    said: list[str]
    """The wander run's lines."""
    kept_before: dict[str, object]
    kept_after: dict[str, object]
    stores_before: dict[str, dict[str, object]]
    stores_after: dict[str, dict[str, object]]


@pytest.fixture(scope="module")
def walk(tmp_path_factory: pytest.TempPathFactory, environments: Path) -> Walk:
    """Seed 1's walk (20 actions an attempt) between two runs of the reference finishes."""
    runs = tmp_path_factory.mktemp("runs")

    def run(agent: str, run_id: str) -> list[str]:
        lines: list[str] = []
        run_suite(RunOptions(paths=(str(environments),), agent=agent, device=sim.url,
                             runs_dir=runs, run_id=run_id), lines.append)
        return lines

    with SimServer() as sim:
        run("solution", "first")  # the phone as a suite run leaves it
        kept_before, stores_before = kept(sim), sim.state()["stores"]
        said = run("wander:1:20", "wander")  # seed 1 closed the start page's card (RT109)
        kept_after, stores_after = kept(sim), sim.state()["stores"]
        run("solution", "again")
    return Walk(runs, said, kept_before, kept_after, stores_before, stores_after)


def test_after_a_wandering_agent_every_honest_attempt_passes_on_a_phone_put_back(
        walk: Walk) -> None:
    wandered = read_results(walk.runs / "wander" / "results.jsonl")
    # scored, every one: what it leaves fails its own later attempts, never turns them into
    # skips (two pass: a random walk may well open Weather, or Clock's Timers tab)
    assert not any(row.skipped for row in wandered), [r.skip_reason for r in wandered]
    assert sum(len(row.teardown.switched) for row in wandered if row.teardown) > 0, \
        "it flipped switches, and they were set back"
    assert walk.kept_after == walk.kept_before, [
        line for line in walk.said if line.startswith("phone-1:")]
    rows = read_results(walk.runs / "again" / "results.jsonl")
    assert not any(row.outcome == "failed" for row in rows), \
        [(r.task_id, r.error) for r in rows if r.outcome == "failed"]
    # What a walk deletes that nothing brings back (a note notes.search looks for, as seed 1's
    # walk did before modals hid what they cover) leaves the honest attempt not scored, said
    # why, never failed for it (test_runner_overeager plays that deletion on purpose).
    assert all("the phone lacks what the task starts from" in r.skip_reason
               for r in rows if r.skipped), [r.skip_reason for r in rows if r.skipped]


def test_what_a_wandering_agent_changes_of_the_phones_stores_is_each_accounted_for(
        walk: Walk) -> None:
    diff = changed(walk.stores_before, walk.stores_after)
    settings = {key: values for (app, key), values in diff.items() if app == SETTINGS}
    assert not settings, f"Settings values not set back: {settings}"
    unaccounted = {f"{app} {key}": values for (app, key), values in diff.items()
                   if app != SETTINGS and key not in WATCHED.get(app, set()) | NAVIGATION}
    assert not unaccounted, unaccounted
