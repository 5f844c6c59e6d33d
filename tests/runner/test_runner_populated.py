"""A task's checks hold on the phone an owner really has, not only on the empty one the simulator
starts as: the reference finish still passes with notifications waiting."""

from __future__ import annotations

from pathlib import Path

import pytest
import wda

from phoneshell.agents import make_agent
from phoneshell.runner import AttemptPlan, RunOptions, open_rig, run_attempt, run_suite, tidy
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


@pytest.mark.slow  # 3.6 s measured: the README's command stays quick
def test_a_phone_left_in_landscape_is_turned_upright_for_the_run_and_back_after(
        tmp_path: Path) -> None:
    """Held sideways, the keyboard covers the rows a count reads: an honest agent's note went
    uncounted, its attempt failed and the note stayed. The run turns the phone upright for its
    attempts and back as its owner held it when it ends."""
    environments = Path(__file__).resolve().parents[2] / "environments"
    with SimServer() as sim:
        client = wda.Client(sim.url)
        client.session("com.apple.mobilesafari").orientation = "LANDSCAPE"
        client.home()
        assert client.http.get("/wda/deviceOrientation").value == "LANDSCAPE"
        lines: list[str] = []
        summary = run_suite(RunOptions(paths=(str(environments),), device=sim.url,
                                       task_globs=("notes.type_long",), runs_dir=tmp_path,
                                       run_id="R"), lines.append)
        assert [r.outcome for r in summary.rows] == ["passed"], [r.error for r in summary.rows]
        assert client.http.get("/wda/deviceOrientation").value == "LANDSCAPE"
    said = "\n".join(lines)
    assert "turned upright for the run's attempts" in said and "turned back to LANDSCAPE" in said


def test_a_phone_lying_face_up_is_left_as_it_is(tmp_path: Path) -> None:
    """A tethered phone often lies flat on the desk, which WDA names face up: its screens read
    upright, and the run neither turns it nor says it could not (the simulator cannot lie flat,
    so the rig is told it read so)."""
    with SimServer() as sim, open_rig(sim.url, tmp_path, effect_timeout_s=0.3) as rig:
        rig.device_start["orientation"] = "UIA_DEVICE_ORIENTATION_FACEUP"
        before = sum(sim.request_counts().values())
        assert tidy._upright(rig, "R") == ("", "")
        assert sum(sim.request_counts().values()) == before, "nothing sent to the phone"
        rig.device_start["orientation"] = "UIA_DEVICE_ORIENTATION_LANDSCAPERIGHT"
        held, line = tidy._upright(rig, "R")
        assert held == "UIA_DEVICE_ORIENTATION_LANDSCAPERIGHT" and "turned upright" in line
