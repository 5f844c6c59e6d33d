"""Fixtures for the device layer: a simulated iPhone on a free loopback port and a `Phone` on it.

The device layer drives the simulator exactly as it drives a real phone, through facebook-wda
over HTTP. `seeded` starts one whose Clock already holds the alarms a test gives it, through a
state file (the same way `phoneshell sim --state FILE` starts a phone with data).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from phoneshell.device import Phone
from phoneshell.sim import SimServer

CLOCK = "com.apple.mobiletimer"




@pytest.fixture
def phone(sim: SimServer) -> Phone:
    """The device layer's phone on `sim` (short effect timeout: failures come quickly)."""
    return Phone(sim.url, effect_timeout_s=1.0)


@pytest.fixture
def seeded(tmp_path: Path) -> Callable[[Sequence[dict[str, Any]]], Any]:
    """`with seeded([alarm(...), ...]) as sim:` a simulator whose Clock holds those alarms."""
    @contextmanager
    def start(alarms: Sequence[dict[str, Any]]) -> Iterator[SimServer]:
        numbered = [{**a, "id": a["id"] or i} for i, a in enumerate(alarms, 1)]
        path = tmp_path / "state.json"
        path.write_text(json.dumps({"version": 1, "stores": {CLOCK: {"alarms": numbered}}}))
        with SimServer(state_file=path) as server:
            yield server
    return start
