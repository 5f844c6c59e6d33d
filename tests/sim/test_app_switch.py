"""Switching apps with a sideways swipe along the bottom edge, as a Face ID iPhone does.

The red team's honest agent opened Calculator, then Weather, swiped right along the home
indicator and found Weather still in front; on a phone Calculator comes back. Driven with the
unmodified facebook-wda client over HTTP; the last test runs the task through the CLI, where
the bridge's log has to show the app the swipe brought.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import wda

from phoneshell.sim import SimServer

ROOT = Path(__file__).resolve().parents[2]
CALC, WEATHER, NOTES = "com.apple.calculator", "com.apple.weather", "com.apple.mobilenotes"


def _front(client: wda.Client) -> str:
    return str(client.app_current()["bundleId"])


def _edge(app: wda.Client, rightward: bool = True) -> None:
    """A swipe along the home indicator, as the red team's agent made it."""
    height = app.window_size().height
    x0, x1 = (30, 370) if rightward else (370, 30)
    app.swipe(x0, height - 8, x1, height - 8, 0.2)


def _open(client: wda.Client, *bundles: str) -> wda.Client:
    app = client.session()
    for bundle in bundles:
        app.app_activate(bundle)
    return app


def test_swiping_right_brings_the_previous_app_and_left_goes_forward(sim: SimServer) -> None:
    client = wda.Client(sim.url)
    app = _open(client, CALC, WEATHER)
    _edge(app)
    assert _front(client) == CALC
    _edge(app, rightward=False)  # straight after: forward again
    assert _front(client) == WEATHER
    _edge(app, rightward=False)  # nothing newer than the app the run began in
    assert _front(client) == WEATHER


def test_a_run_keeps_its_order_until_the_phone_is_used(sim: SimServer) -> None:
    client = wda.Client(sim.url)
    app = _open(client, NOTES, CALC, WEATHER)  # most recent: Weather, Calculator, Notes
    _edge(app)
    client.source()  # reads do not end a run
    _edge(app)
    assert _front(client) == NOTES
    _edge(app)  # past the oldest app: nothing
    assert _front(client) == NOTES
    app.tap(200, 400)  # using Notes makes it the most recent; the others keep their order
    _edge(app)
    assert _front(client) == WEATHER
    _edge(app)
    assert _front(client) == CALC


def test_after_a_pause_in_use_swiping_right_goes_back_to_the_app_left(sim: SimServer) -> None:
    client = wda.Client(sim.url)
    app = _open(client, CALC, WEATHER)
    _edge(app)
    app.tap(200, 400)
    _edge(app)
    assert _front(client) == WEATHER
    app.tap(200, 400)
    _edge(app, rightward=False)  # the app in front is the most recent: nowhere to go
    assert _front(client) == WEATHER


def test_no_switch_from_the_home_screen_or_with_one_app(sim: SimServer) -> None:
    client = wda.Client(sim.url)
    app = _open(client, CALC)
    _edge(app)
    assert _front(client) == CALC  # no other app has run
    app.press("home")
    _edge(app)
    assert _front(client) == "com.apple.springboard"


def test_swipe_up_from_the_edge_goes_home_quick_and_to_the_switcher_held(
        sim: SimServer) -> None:
    client = wda.Client(sim.url)
    app = _open(client, CALC)
    height = app.window_size().height
    app.swipe(201, height - 4, 201, 500)
    assert _front(client) == "com.apple.springboard"
    assert not app(nameContains="card:", visible=True).exists
    app.app_activate(CALC)
    app.swipe(201, height - 4, 201, 500, 1.5)  # held: the App Switcher (test_sim_app_switcher)
    assert _front(client) == "com.apple.springboard"
    assert app(nameContains="card:", visible=True).exists


@pytest.mark.slow  # a whole run: 5-7 s on a busy 2-core machine
def test_the_detour_task_passes_when_the_agent_swipes_back(tmp_path: Path) -> None:
    agent = tmp_path / "agent.py"
    agent.write_text(
        "import os, time, wda\n"
        "c = wda.Client(os.environ['PHONESHELL_WDA_URL'])\n"
        "s = c.session()\n"
        f"s.app_activate({CALC!r}); s.app_activate({WEATHER!r})\n"
        "h = s.window_size().height\n"
        "s.swipe(30, h - 8, 370, h - 8, 0.2)\n")
    runs = tmp_path / "runs"
    done = subprocess.run(
        [sys.executable, "-m", "phoneshell", "run", "environments/multi.return_after_detour.yaml",
         "--agent", f"command:{sys.executable} {agent}", "--runs", str(runs), "--run-id", "R",
         ], capture_output=True, text=True, cwd=ROOT, timeout=300)
    rows = [json.loads(line) for line in (runs / "R" / "results.jsonl").read_text().splitlines()]
    assert rows and rows[0]["outcome"] == "passed", (done.stdout[-2000:], done.stderr[-2000:])
