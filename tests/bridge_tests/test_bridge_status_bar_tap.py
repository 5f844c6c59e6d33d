"""A tap on the status bar through the bridge (Fixer F's left-out of red team 95, RT95-2): once
General (or any Settings page) was scrolled, its rows lay under the bar in the page source, and
the bridge took the tap at (201, 20) for a press of every unnamed Other under the point, got
mixed Settings roles and refused it. A phone scrolls the list to its top there (the simulator
does: sim/status_bar_tap.py). The tap is logged as the status bar's, and only where nothing of
the app takes it; facebook-wda through a guarded bridge in front of the simulated iPhone."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest
import wda
from bridge_rig import Rig
from test_bridge_settings_allow import _at

from bridge.status_bar import STATUS_BAR_PT
from phoneshell.audit import actions
from phoneshell.sim import SimServer
from phoneshell.sim.apps.settings import SettingsState
from phoneshell.sim.windows import STATUS_BAR_HEIGHT
from phoneshell.xcui import SETTINGS
from tests.cli_process import ROOT, run_one


def _offset(sim: SimServer) -> float:
    """How far Settings' page in front is scrolled (points)."""
    with sim.lock:
        state = sim.phone.running_state(SETTINGS)
        assert isinstance(state, SettingsState)
        lists = [n for n in sim.phone.screen().nodes if n.scroll is not None]
        return max(n.scroll.offset for n in lists if n.scroll is not None)


def _refused(rig: Rig) -> list[str]:
    return [e.error or "" for e in rig.events("R") if e.stage == "refused"]


def test_a_status_bar_tap_on_a_scrolled_page_scrolls_it_to_the_top(guarded: Rig) -> None:
    session: wda.Session = _at(guarded, "general")
    session.swipe(200, 700, 200, 250, 0)
    assert _offset(guarded.sim) > 100
    session.tap(201, 20)
    assert _refused(guarded) == []
    assert _offset(guarded.sim) == 0
    tap = [a for a in actions(guarded.events("R")) if a.kind == "tap"][-1]
    assert tap.target is not None and tap.target.type == "XCUIElementTypeStatusBar"
    assert tap.target.label == "scrolls to top"


def test_the_strip_is_the_simulators() -> None:
    assert STATUS_BAR_PT == STATUS_BAR_HEIGHT


def test_a_bar_over_rows_scrolled_under_it_is_judged_as_the_bar(guarded: Rig) -> None:
    """The class of RT95-2's left-out: a touch on a navigation bar's blank space in a scrolled
    page was judged as every unnamed view under the point, the rows' too, and refused."""
    session: wda.Session = _at(guarded, "general")
    session.swipe(200, 700, 200, 250, 0)
    bar = session(className="NavigationBar").get(timeout=5).bounds
    session.tap(bar.x + bar.width * 0.7, bar.y + bar.height - 4)
    assert _refused(guarded) == []


def test_in_landscape_the_strip_is_the_apps(guarded: Rig) -> None:
    session = wda.Client(guarded.bridge.grant_agent()).session("com.apple.mobilecal")
    session.orientation = "LANDSCAPE"  # Settings keeps to portrait on an iPhone
    session.tap(300, 20)
    tap = [a for a in actions(guarded.events("R")) if a.kind == "tap"][-1]
    assert tap.target is None or tap.target.type != "XCUIElementTypeStatusBar"


@pytest.mark.slow
def test_a_run_that_taps_the_status_bar_in_a_scrolled_page_passes(tmp_path: Path) -> None:
    """Fixer F's repro: General opened and scrolled, the status bar tapped, then on."""
    agent = tmp_path / "agent.py"  # outside the runs folder, which agents never see
    agent.write_text(
        "import json, os, wda\n"
        "c = wda.Client(os.environ['PHONESHELL_WDA_URL'])\n"
        "s = c.session('com.apple.Preferences')\n"
        "s(name='com.apple.settings.general').get(timeout=3).tap()\n"
        "s.swipe(200, 700, 200, 250, 0)\n"
        "s.tap(201, 20)\n"
        "s(label='Software Update').get(timeout=3).tap()\n"
        "print(json.dumps({'status': 'done'}))\n")
    row = run_one(tmp_path / "runs", "top", str(ROOT / "environments"), "--task",
                  "settings.software_update.reach", "--agent",
                  f"command:{shlex.quote(sys.executable)} {shlex.quote(str(agent))}")
    assert row["outcome"] == "passed", row["checks"]
