"""Trajectory capture in the bridge: a frame at the start of the agent's turn and after each of
its actions, tied to the action's audit seq, scaled down; nothing for the harness's own phases;
a frame that cannot be kept never fails the action."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
import wda
from PIL import Image

from bridge.audit_log import AuditWriter
from bridge.proxy import BridgeServer
from phoneshell.audit import read_audit
from phoneshell.records import TrajectoryFrame, read_lines
from phoneshell.sim import SimServer

PX = 300


@pytest.fixture
def bridge(sim: SimServer, tmp_path: Path) -> Iterator[BridgeServer]:
    writer = AuditWriter(tmp_path)
    with BridgeServer(sim.url, runs_dir=tmp_path, writer=writer, trajectory_px=PX) as server:
        yield server
    writer.close()


def frames(runs: Path, run_id: str = "R1") -> list[TrajectoryFrame]:
    lines = read_lines(runs / run_id / "trajectory.jsonl", TrajectoryFrame)
    assert lines.problems == () and lines.torn == ""
    return list(lines)


def test_each_agent_action_has_a_frame_named_by_its_seq(bridge: BridgeServer,
                                                         tmp_path: Path) -> None:
    client = wda.Client(bridge.url)
    bridge.set_context("R1", "calculator.arithmetic", 1, "setup")
    client.home()  # the harness's setup: no frame
    bridge.set_context("R1", "calculator.arithmetic", 1, "agent")
    session = client.session("com.apple.calculator")
    session.tap(55, 588)  # the 4 key
    bridge.set_context("R1", "calculator.arithmetic", 1, "check")
    client.home()  # the harness's capture: no frame
    agent = [e for e in read_audit(tmp_path / "R1" / "audit.jsonl").records
             if e.phase == "agent" and e.stage == "outcome"]
    taken = frames(tmp_path)
    assert [f.kind for f in taken] == ["start"] + ["action"] * len(agent)
    assert [f.seq for f in taken[1:]] == [e.seq for e in agent]
    assert taken[-1].foreground == "com.apple.calculator"
    assert {(f.run_id, f.task_id, f.attempt) for f in taken} == {
        ("R1", "calculator.arithmetic", 1)}
    for frame in taken:
        image = Image.open(io.BytesIO((tmp_path / "R1" / frame.file).read_bytes()))
        assert image.format == "PNG" and max(image.size) == PX
        assert image.size == (frame.width, frame.height)


def test_a_frame_that_cannot_be_kept_never_fails_the_action(bridge: BridgeServer,
                                                            tmp_path: Path) -> None:
    (tmp_path / "R2").mkdir()
    (tmp_path / "R2" / "frames").write_text("not a folder")  # the disk refuses the frame
    bridge.set_context("R2", "t", 1, "agent")
    wda.Client(bridge.url).home()
    taken = frames(tmp_path, "R2")
    assert taken[-1].kind == "action" and taken[-1].file == ""
    assert "no screenshot" in taken[-1].error
    outcome = read_audit(tmp_path / "R2" / "audit.jsonl").records[-1]
    assert outcome.stage == "outcome" and outcome.ok is True


def test_capture_is_off_unless_asked(sim: SimServer, tmp_path: Path) -> None:
    writer = AuditWriter(tmp_path)
    with BridgeServer(sim.url, runs_dir=tmp_path, writer=writer) as plain:
        plain.set_context("R3", "t", 1, "agent")
        wda.Client(plain.url).home()
    writer.close()
    assert (tmp_path / "R3" / "audit.jsonl").exists()
    assert not (tmp_path / "R3" / "trajectory.jsonl").exists()
