"""Trajectory capture in the bridge: a frame at the start of the agent's turn and after each of
its actions, tied to the action's audit seq, scaled down; nothing for the harness's own phases;
a frame that cannot be kept never fails the action. Each frame is the harness's own read: the
agent can neither see nor start one, and it never looks like a change custody must explain."""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
import wda
from PIL import Image

from bridge import Trajectory
from phoneshell.audit import read_audit
from phoneshell.records import TrajectoryFrame, chain_of, read_lines
from phoneshell.runner.rig import Rig, open_rig
from phoneshell.sim import SimServer

PX = 300
CALCULATOR = "com.apple.calculator"


@pytest.fixture
def trajectory(tmp_path: Path) -> Trajectory:
    return Trajectory(tmp_path, PX)


@pytest.fixture
def rig(sim: SimServer, tmp_path: Path, trajectory: Trajectory) -> Iterator[Rig]:
    with open_rig(sim.url, tmp_path, private=True, trajectory=trajectory) as made:
        yield made


def frames(runs: Path, run_id: str = "R1") -> list[TrajectoryFrame]:
    lines = read_lines(runs / run_id / "trajectory.jsonl", TrajectoryFrame)
    assert lines.problems == () and lines.torn == ""
    return list(lines)


def play(rig: Rig, run_id: str = "R1") -> wda.Session:
    """Setup and the agent's turn of one attempt, as the runner plays them: the agent drives
    through a URL of its own, confined."""
    harness = wda.Client(rig.bridge.url)
    rig.enter(run_id, "calculator.arithmetic", 1, "setup")
    harness.home()  # the harness's setup: no frame
    rig.enter(run_id, "calculator.arithmetic", 1, "agent")
    session = wda.Client(rig.bridge.grant_agent(confined=True)).session(CALCULATOR)
    session.tap(55, 588)  # the 4 key
    return session


def test_each_agent_action_has_a_frame_named_by_its_seq(rig: Rig, tmp_path: Path) -> None:
    play(rig)
    rig.bridge.revoke_agent()
    rig.enter("R1", "calculator.arithmetic", 1, "check")
    wda.Client(rig.bridge.url).home()  # the harness's capture: no frame
    agent = [e for e in read_audit(tmp_path / "R1" / "audit.jsonl").records
             if e.phase == "agent" and e.stage == "outcome"]
    taken = frames(tmp_path)
    assert [f.kind for f in taken] == ["start"] + ["action"] * len(agent)
    assert [f.seq for f in taken[1:]] == [e.seq for e in agent]
    assert taken[-1].foreground == CALCULATOR
    assert {(f.run_id, f.task_id, f.attempt) for f in taken} == {
        ("R1", "calculator.arithmetic", 1)}
    for frame in taken:
        data = (tmp_path / "R1" / frame.file).read_bytes()
        image = Image.open(io.BytesIO(data))
        assert image.format == "PNG" and max(image.size) == PX
        assert image.size == (frame.width, frame.height)
        assert frame.sha256 == hashlib.sha256(data).hexdigest()


def test_the_lines_are_chained_as_written(rig: Rig, tmp_path: Path,
                                         trajectory: Trajectory) -> None:
    play(rig)
    path = tmp_path / "R1" / "trajectory.jsonl"
    assert trajectory.chain_state("R1") == chain_of(path.read_bytes())
    with path.open("a") as other:  # a line the bridge did not write
        other.write('{"v": 1}\n')
    wda.Client(rig.bridge.grant_agent(confined=True)).home()
    head, lines, end = trajectory.chain_state("R1")
    data = path.read_bytes()
    assert end == len(data) and lines == len(data.splitlines()) - 1
    assert (head, lines, end) != chain_of(data)  # so the run's seal will not match the file


def test_a_frame_is_the_harness_read_and_never_a_custody_change(rig: Rig, sim: SimServer,
                                                                tmp_path: Path) -> None:
    session = play(rig)
    counts, reads = sim.request_counts(), rig.bridge.recorder.own_reads
    for _ in range(3):
        session.tap(55, 588)
    grew = sim.request_counts()
    assert rig.bridge.recorder.own_reads - reads == 6  # the source and the frame, each action
    assert grew["GET /screenshot"] - counts.get("GET /screenshot", 0) == 3
    events = read_audit(tmp_path / "R1" / "audit.jsonl").records
    assert [e for e in events if e.stage == "custody"] == []
    assert all(e.kind != "other" for e in events)  # no read of the bridge's own is logged


def test_the_agent_can_neither_start_a_frame_nor_change_the_turn(rig: Rig,
                                                                 tmp_path: Path) -> None:
    play(rig)
    agent_url = rig.bridge.grant_agent(confined=True)
    before = len(frames(tmp_path))
    reply = requests.post(f"{agent_url}/phoneshell/bridge/context", timeout=10,
                          json={"run_id": "R1", "task_id": "x", "attempt": 2, "phase": "agent"})
    assert reply.status_code in (401, 403)
    assert len(frames(tmp_path)) == before
    assert rig.bridge.context.task_id == "calculator.arithmetic"


def test_a_frame_that_cannot_be_kept_never_fails_the_action(rig: Rig, tmp_path: Path) -> None:
    (tmp_path / "R2").mkdir()
    (tmp_path / "R2" / "frames").write_text("not a folder")  # the disk refuses the frame
    rig.enter("R2", "t", 1, "agent")
    wda.Client(rig.bridge.grant_agent(confined=True)).home()
    taken = frames(tmp_path, "R2")
    assert taken[-1].kind == "action" and taken[-1].file == "" and taken[-1].sha256 == ""
    assert "no screenshot" in taken[-1].error
    outcome = read_audit(tmp_path / "R2" / "audit.jsonl").records[-1]
    assert outcome.stage == "outcome" and outcome.ok is True


def test_capture_is_off_unless_asked(sim: SimServer, tmp_path: Path) -> None:
    with open_rig(sim.url, tmp_path, private=True) as plain:
        plain.enter("R3", "t", 1, "agent")
        wda.Client(plain.bridge.grant_agent(confined=True)).home()
    assert (tmp_path / "R3" / "audit.jsonl").exists()
    assert not (tmp_path / "R3" / "trajectory.jsonl").exists()
