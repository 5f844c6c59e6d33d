"""An agent's turn keeps a bounded number of trajectory frames (its task's max_steps plus
`FRAMES_SLACK`), and what the bridge writes because of it (frames, trajectory lines, audit lines)
is charged to its turn (`phoneshell.behalf`): red team 81's agent tapped an empty spot in a loop
and the bridge kept a frame a tap, outside the agent's folder, until the run's disk was full."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import wda

from bridge import Trajectory
from bridge.trajectory import FRAMES_SLACK
from phoneshell import behalf
from phoneshell.records import TrajectoryFrame, read_lines
from phoneshell.runner.rig import Rig, open_rig
from phoneshell.sim import SimServer

STEPS = 2
"""The task's budget in these tests: the turn keeps STEPS + FRAMES_SLACK frames."""


@pytest.fixture
def rig(sim: SimServer, tmp_path: Path) -> Iterator[Rig]:
    with open_rig(sim.url, tmp_path, private=True, trajectory=Trajectory(tmp_path, 200)) as made:
        yield made


def taps(rig: Rig, attempt: int, count: int) -> None:
    """An agent's turn of attempt `attempt` that taps an empty spot `count` times."""
    rig.enter("R1", "calculator.arithmetic", attempt, "agent")
    session = wda.Client(rig.bridge.grant_agent(confined=True, max_steps=STEPS)).session()
    for _ in range(count):
        session.tap(200, 470)
    rig.bridge.revoke_agent()


@pytest.mark.slow  # 2.6 s measured: the README's command stays quick
def test_frames_past_the_turns_bound_are_not_kept_and_said_once(rig: Rig,
                                                               tmp_path: Path) -> None:
    taps(rig, 1, STEPS + FRAMES_SLACK + 10)
    lines = list(read_lines(tmp_path / "R1" / "trajectory.jsonl", TrajectoryFrame))
    kept = [f for f in lines if f.file]
    assert len(kept) == STEPS + FRAMES_SLACK
    assert len(list((tmp_path / "R1" / "frames").iterdir())) == STEPS + FRAMES_SLACK
    assert [f.error for f in lines if not f.file] == [
        f"not kept: frames past this turn's {STEPS + FRAMES_SLACK} (its task's max_steps plus "
        f"{FRAMES_SLACK}, or 50 with no budget) are not kept; this action and those after it "
        "are in the audit log alone"]
    taps(rig, 2, 3)  # the next turn keeps its own
    assert len(list((tmp_path / "R1" / "frames").iterdir())) >= STEPS + FRAMES_SLACK + 4


def test_what_the_bridge_writes_for_a_turn_is_charged_to_it(rig: Rig, tmp_path: Path) -> None:
    key = ("R1", "calculator.arithmetic", 3)
    assert behalf.written(key) == 0
    taps(rig, 3, 5)
    run = tmp_path / "R1"
    frames = sum(p.stat().st_size for p in (run / "frames").iterdir())
    lines = (run / "trajectory.jsonl").stat().st_size
    audit = sum(len(line) + 1 for line in (run / "audit.jsonl").read_bytes().splitlines()
                if b'"phase":"agent"' in line.replace(b" ", b""))
    assert frames > 5 * 1000
    assert behalf.written(key) == frames + lines + audit
