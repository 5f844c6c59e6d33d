"""A task's checks hold on the phone an owner really has, not only on the empty one the simulator
starts as: the reference finish still passes with notifications waiting."""

from __future__ import annotations

from pathlib import Path

from phoneshell.agents import make_agent
from phoneshell.runner import AttemptPlan, open_rig, run_attempt
from phoneshell.sim import SimServer
from phoneshell.tasks import Task


def test_notification_centre_is_found_with_notifications_waiting(
        tmp_path: Path, suite: dict[str, Task]) -> None:
    task = suite["system.notifications.open"]
    with SimServer() as sim, open_rig(sim.url, tmp_path, effect_timeout_s=0.3) as rig:
        sim.notify("com.apple.MobileSMS", "Mom", "Call me when you land")
        sim.notify("com.apple.mobilecal", "Dentist", "Tomorrow at 9:00")
        done = run_attempt(AttemptPlan("R", tmp_path / "R", task, 1), rig,
                           make_agent("solution")).row
        assert done.outcome == "passed", [c.detail for c in done.checks]
        idle = run_attempt(AttemptPlan("R", tmp_path / "R", task, 2), rig,
                           make_agent("null")).row
        assert idle.outcome == "failed", "the home screen is no Notification Centre"
