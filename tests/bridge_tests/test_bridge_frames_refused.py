"""A trajectory frame WDA refuses is asked again for a moment, and a turn whose frames still fail
says so once on the bridge's log, which the run prints (red team 105, RT105-4: a turn's failed
screenshots were said nowhere). Driven as a confined agent's turn with facebook-wda through the
bridge, the simulator's faults standing for the phone's."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
import wda

from bridge import Trajectory
from phoneshell.records import TrajectoryFrame, read_lines
from phoneshell.runner.rig import Rig, open_rig
from phoneshell.sim import SimServer


@pytest.fixture
def rig(sim: SimServer, tmp_path: Path) -> Iterator[Rig]:
    with open_rig(sim.url, tmp_path, private=True, trajectory=Trajectory(tmp_path, 200)) as made:
        yield made


def turn(rig: Rig, sim: SimServer, runs: Path, fault: str, taps: int) -> list[TrajectoryFrame]:
    """A turn that opens a session, then meets `fault` and taps an empty spot `taps` times:
    the trajectory's lines."""
    rig.enter("R1", "calculator.arithmetic", 1, "agent")
    session = wda.Client(rig.bridge.grant_agent(confined=True, max_steps=taps)).session()
    sim.set_faults([fault])
    try:
        for _ in range(taps):
            session.tap(200, 470)
    finally:
        rig.bridge.revoke_agent()
        sim.set_faults([])
    return list(read_lines(runs / "R1" / "trajectory.jsonl", TrajectoryFrame))


def test_a_screenshot_refused_for_a_moment_still_makes_its_frame(rig: Rig, sim: SimServer,
                                                                 tmp_path: Path) -> None:
    frames = turn(rig, sim, tmp_path, "hiccups=2", 2)
    assert [f.kind for f in frames] == ["start", "action", "action", "action"]
    assert all(f.file and not f.error for f in frames), [f.error for f in frames]


@pytest.mark.slow  # 2.5 s measured: the README's command stays quick
def test_a_turn_whose_screenshots_fail_says_so_once(rig: Rig, sim: SimServer, tmp_path: Path,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="bridge"):
        frames = turn(rig, sim, tmp_path, "screenshot-fails", 2)
    failed = [f for f in frames if not f.file]
    assert len(failed) == 2 and all("unable to capture screen" in f.error for f in failed)
    said = [r.getMessage() for r in caplog.records if r.name == "bridge"]
    assert len(said) == 1, said
    assert said[0].startswith(f"trajectory: calculator.arithmetic attempt 1: the frame after "
                              f"#{failed[0].seq} has no screenshot: ")
    assert "trajectory.jsonl" in said[0]
