"""A wandering agent over the whole suite, then the reference finishes on the same phone: no
honest attempt fails for what it left, and what the runs can tell an agent changed is as it was
(Settings' switches, options and sliders, alarms, World Clock's cities, timers, the stopwatch,
Safari's tabs). Slow (three suite runs): marked `suite`, run by .ci/run."""

from __future__ import annotations

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


def test_after_a_wandering_agent_every_honest_attempt_passes_on_a_phone_put_back(
        tmp_path: Path, environments: Path) -> None:
    def run(agent: str, run_id: str) -> list[str]:
        lines: list[str] = []
        run_suite(RunOptions(paths=(str(environments),), agent=agent, device=sim.url,
                             runs_dir=tmp_path, run_id=run_id), lines.append)
        return lines

    with SimServer() as sim:
        run("solution", "first")  # the phone as a suite run leaves it
        before = kept(sim)
        said = run("wander:1:20", "wander")
        after = kept(sim)
        run("solution", "again")
    wandered = read_results(tmp_path / "wander" / "results.jsonl")
    # scored, every one: what it leaves fails its own later attempts, never turns them into
    # skips (two pass: a random walk may well open Weather, or Clock's Timers tab)
    assert not any(row.skipped for row in wandered), [r.skip_reason for r in wandered]
    assert sum(len(row.teardown.switched) for row in wandered if row.teardown) > 0, \
        "it flipped switches, and they were set back"
    assert after == before, [line for line in said if line.startswith("phone-1:")]
    rows = read_results(tmp_path / "again" / "results.jsonl")
    assert not any(row.outcome == "failed" for row in rows), \
        [(r.task_id, r.error) for r in rows if r.outcome == "failed"]
    # What a walk deletes that nothing brings back (a note notes.search looks for, as seed 1's
    # walk did before modals hid what they cover) leaves the honest attempt not scored, said
    # why, never failed for it (test_runner_overeager plays that deletion on purpose).
    assert all("the phone lacks what the task starts from" in r.skip_reason
               for r in rows if r.skipped), [r.skip_reason for r in rows if r.skipped]
