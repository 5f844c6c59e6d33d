"""WDA failing the capture's own scroll drag is the phone's, not the agent's (red team 119,
RT119-2): a drag WDA could not make is made again with a read's patience, and one it still
fails leaves the attempt not scored, naming the drag; only the bridge's own refusal of the
drag, for what it touches, fails the attempt (bd4ec32). Played through the runner and the
bridge on one simulated iPhone, whose `drag-hiccups` fault stands for the phone's: the honest
finish of a task whose row lies below Settings' first screen, then the fault."""

from __future__ import annotations

from pathlib import Path

import pytest

from phoneshell.device.capture import ScrollRefused, scroll_captures
from phoneshell.runner import open_rig
from phoneshell.runner.endstate import capture_or_blame
from phoneshell.sim import SimServer
from phoneshell.tasks import Task, load_task
from tests.runner.test_runner_read_hiccups import FinishThenFault, play

TASK = "clock.tab.alarms"  # the name `play` plays; the task is this file's own
BELOW = """id: clock.tab.alarms
name: A row below the first screen
app: com.apple.Preferences
instruction: Open Settings.
setup:
- terminate: com.apple.Preferences
- home
checks:
- kind: foreground_app
  text: com.apple.Preferences
- kind: element_exists_anywhere
  text: Privacy & Security
solution:
- open_app: Settings
teardown:
- terminate: com.apple.Preferences
"""
"""Settings' main list shows rows down to Camera: Privacy & Security is found by scrolling
only, so the capture drags."""


@pytest.fixture
def below(tmp_path: Path) -> dict[str, Task]:
    path = tmp_path / "below.yaml"
    path.write_text(BELOW, encoding="utf-8")
    return {TASK: load_task(path)}


def test_a_drag_wda_could_not_make_once_is_made_again(
        sim: SimServer, tmp_path: Path, below: dict[str, Task]) -> None:
    done = play(sim, tmp_path, below, FinishThenFault(sim, ["drag-hiccups=2"]))
    assert done.row.outcome == "passed", (done.row.skip_reason, done.row.error)
    assert sim.faults.specs() == []  # the capture dragged, and met both
    assert done.evidence is not None and any(c.role == "scroll"
                                             for c in done.evidence.captures)


def test_a_drag_wda_keeps_failing_is_not_scored_naming_it(
        sim: SimServer, tmp_path: Path, below: dict[str, Task]) -> None:
    done = play(sim, tmp_path, below, FinishThenFault(sim, ["drag-hiccups=1000"]))
    row = done.row
    assert row.outcome == "skipped" and not done.rig_down, (row.skip_reason, row.error)
    assert row.skip_reason.startswith(
        "device error: the harness's own drag scrolling the end screen, from (201, "), row
    assert "), failed at WDA (WDA at " in row.skip_reason
    assert "refused POST /session/*/wda/dragfromtoforduration: unknown error: Failed to " \
           "synthesize event" in row.skip_reason
    assert "a rig fault, not the screen the agent left" in row.skip_reason


def test_a_drag_wda_fails_is_raised_as_it_is_never_the_agents_end_state(
        sim: SimServer, tmp_path: Path) -> None:
    # the bridge's refusal (test_runner_overlays_capture) is the agent's; WDA's is not
    with open_rig(sim.url, tmp_path, effect_timeout_s=0.3) as rig:
        rig.phone.launch("com.apple.Preferences")
        xml = rig.phone.source()
        sim.set_faults(["drag-hiccups=1000"])
        with pytest.raises(ScrollRefused) as failed:
            capture_or_blame(rig.phone, lambda: scroll_captures(rig.phone, xml),
                             lambda app: False)
        sim.set_faults([])
    assert not failed.value.by_bridge and "failed at WDA" in str(failed.value)
