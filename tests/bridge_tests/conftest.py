"""Fixtures: the simulated iPhone in-process and a bridge on 127.0.0.1:0 in front of it.

Both are stopped in `finally`. Each test gets its own runs folder and audit writer, so seq and
files never leak between tests. Helpers live in `bridge_rig.py`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# The suite's pythonpath is tests/ (whose conftest is `conftest`): put this folder on it too, so
# the bridge tests can import their helpers by a name of their own.
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bridge_rig import (  # noqa: E402
    CONTROL_TOKEN,
    LOGIN_APP,
    Rig,
    runner_bridge,
    start_bridge,
)

from phoneshell.sim import SimServer  # noqa: E402
from phoneshell.sim.apps import builtin_apps  # noqa: E402


@pytest.fixture
def sim() -> Iterator[SimServer]:
    """A simulated iPhone with the built-in apps and the login form."""
    server = SimServer(apps=[*builtin_apps(), LOGIN_APP])
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
def rig(sim: SimServer, tmp_path: Path) -> Iterator[Rig]:
    """The simulator with a bridge (targets resolved, context routes on) in front of it."""
    runs = tmp_path / "runs"
    bridge, writer = start_bridge(sim, runs, control_token=CONTROL_TOKEN)
    try:
        yield Rig(sim, bridge, runs)
    finally:
        bridge.stop()
        writer.close()


@pytest.fixture
def guarded(sim: SimServer, tmp_path: Path) -> Iterator[Rig]:
    """A bridge as the runner starts one: its own token, a control token, context R/t/1/agent
    (grant the agent its URL in the test: `guarded.bridge.grant_agent()`)."""
    with runner_bridge(sim, tmp_path) as rig:
        yield rig
