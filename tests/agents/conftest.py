"""The tool layer's rig for the agents' tests: the simulated iPhone behind a bridge that logs
under run R, and the tools of one attempt on it; and a rig for whole attempts (`rig`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bridge import BridgeServer
from bridge.custody import Custody
from phoneshell.agents.tools import PhoneTools
from phoneshell.runner import Rig, open_rig
from phoneshell.sim import SimServer


@pytest.fixture
def bridge(sim: SimServer, tmp_path: Path) -> Iterator[BridgeServer]:
    # the simulator's custody: a phone's would wait out its settle window before each action
    simulated = Custody(settle_s=0.0, screens_static=True)
    with BridgeServer(sim.url, runs_dir=tmp_path, custody=simulated) as server:
        server.set_context("R", "t", 1, "agent")
        yield server


@pytest.fixture
def tools(bridge: BridgeServer) -> PhoneTools:
    return PhoneTools(bridge.url, settle_s=0.3)


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    """The simulated iPhone and the harness's rig on it, for whole attempts
    (`command_attempt.attempt`)."""
    with SimServer() as sim, open_rig(sim.url, tmp_path, effect_timeout_s=0.5) as rig:
        yield rig
