"""A `tapped` check's detail names what the agent tapped, a picker wheel (no label, no name) by
its type and value, never as '' (red team 141, RT141-2). Played with facebook-wda on the
simulated iPhone through the bridge, as an agent."""

from __future__ import annotations

from pathlib import Path

import wda
from played_finish import played

from phoneshell.sim import SimServer
from phoneshell.tasks import Task

CLOCK = "com.apple.mobiletimer"


def wheels_tapped(c: wda.Client) -> None:
    """Clock's Add Alarm sheet, each of its wheels tapped, nothing saved."""
    c.app_activate(CLOCK)
    s = c.session()
    s(className="XCUIElementTypeButton", name="Alarms").click()
    s(className="XCUIElementTypeButton", name="Add").click()
    for wheel in s(className="XCUIElementTypePickerWheel").find_elements():
        wheel.click()


def test_a_negated_tapped_names_unnamed_wheels_by_type_and_value(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    row = played(sim, tmp_path, suite["clock.alarm.set_time"], wheels_tapped)
    (save,) = [c for c in row.checks if c.kind == "tapped"]
    assert save.passed, save.detail  # nothing saved: correctly absent
    tapped = save.detail.partition("the agent tapped ")[2]
    assert "PickerWheel '" in tapped and "o’clock" in tapped, save.detail
    assert "''" not in tapped, save.detail
