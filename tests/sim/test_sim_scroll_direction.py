"""WDA's scroll by direction is its drags, played as drags (red team 116, RT116-4).

XCUIElement+FBScrolling drags inside the element's visible frame (`scroll_drags`); whatever lies
under each drag takes it, as under `/wda/swipe`. The simulator used to scroll only a list at or
around the element by a whole screen: on the app (or a Window above Settings' list) the scroll
answered 200 and moved nothing, and on a 52 pt row it paged the list by 620 pt where a phone
moves it by the row's height times the distance. facebook-wda against the simulator, and the
CLI with an honest command agent."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import wda
from cli_process import run_one

from phoneshell.scroll_drags import scroll_drags
from phoneshell.sim import SimServer
from tests.sim.conftest import Raw

HERE = Path(__file__).parent
SETTINGS = "com.apple.Preferences"
CALCULATOR = "com.apple.calculator"


def _y(session: wda.Session, label: str) -> int:
    return int(session(label=label, className="StaticText").get(timeout=5).bounds.y)


@pytest.mark.parametrize("container", ["XCUIElementTypeApplication", "XCUIElementTypeWindow",
                                       None])
def test_a_scroll_on_the_app_or_a_container_scrolls_the_list_under_it(
        sim: SimServer, raw: Callable[..., Raw], container: str | None) -> None:
    session = wda.Client(sim.url).session(SETTINGS)
    camera = _y(session, "Camera")
    for _ in range(12):
        if container is None:  # the app's own route, as Appium's `mobile: scroll` sends it
            scroll = raw("POST", f"/session/{session.session_id}/wda/scroll",
                         {"direction": "down"})
            assert scroll.status == 200
        else:
            session(xpath=f"//{container}").get(timeout=5).scroll("down")
    developer = session(name="com.apple.settings.developer", className="Button")
    assert developer.get(timeout=5).visible is True  # the list's end, as on a phone
    for _ in range(12):
        session(xpath="//XCUIElementTypeApplication").get(timeout=5).scroll("up")
    assert _y(session, "Camera") == camera  # and back to its top


@pytest.mark.parametrize("distance", [1.0, 2.0, 0.5])
def test_a_rows_scroll_moves_the_list_by_its_height_times_the_distance(
        sim: SimServer, distance: float) -> None:
    """General's row is 52 pt tall: WDA drags 39 pt at most at a time and skips a step under
    20 pt, so 1.0 moves the list 39 pt, 2.0 104 pt, 0.5 (26 pt) 26 pt."""
    session = wda.Client(sim.url).session(SETTINGS)
    row = session(label="General", className="Button").get(timeout=5)
    frame = row.bounds
    camera = _y(session, "Camera")
    row.scroll("down", distance)
    drags = scroll_drags((frame.x, frame.y, frame.width, frame.height), "down", distance)
    moved = sum(from_y - to_y for _, from_y, _, to_y in drags)
    assert moved == {1.0: 39, 2.0: 104, 0.5: 26}[distance]
    assert camera - _y(session, "Camera") == moved
    assert session(name="com.apple.settings.general").exists  # no row opened


def test_a_scroll_on_a_screen_with_no_list_moves_nothing(sim: SimServer,
                                                         raw: Callable[..., Raw]) -> None:
    session = wda.Client(sim.url).session(CALCULATOR)
    page = session.source()
    app = session(xpath="//XCUIElementTypeApplication").get(timeout=5)
    for direction in ("down", "up", "left", "right"):
        app.scroll(direction)  # WDA answers 200: facebook-wda raises on anything else
        assert raw("POST", f"/session/{session.session_id}/wda/scroll",
                   {"direction": direction}).status == 200
    assert session.source() == page


@pytest.mark.slow  # a whole run: 5-7 s on a busy 2-core machine
def test_an_agent_scrolling_the_app_by_direction_reaches_settings_end(tmp_path: Path) -> None:
    """`phoneshell run` with a command agent that scrolls the Application element down until
    the page stops changing: on a phone its drags scroll Settings' list to the end."""
    script = shlex.quote(str(HERE / "app_scroll_agent.py"))
    agent = f"command:{shlex.quote(sys.executable)} {script}"
    row = run_one(tmp_path, "scroll", "environments", "--task", "settings.scroll.to_bottom",
                  "--agent", agent)
    assert row["outcome"] == "passed", row
