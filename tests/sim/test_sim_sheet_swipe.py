"""Every page sheet the simulator builds is dismissed by a downward swipe, as iOS's are (red team
44: Clock's Add Alarm and city chooser ignored one, and an agent that dismissed the sheet the
iPhone way stayed stuck behind it, since what a sheet covers takes no touch). The swipe does
what the sheet's Cancel does: Clock's close without saving; Reminders' New Reminder, once
something was typed, asks first (Discard Changes), as iOS does for a sheet holding changes.
Driven through facebook-wda; a guard fails when a page sheet is built that this file does not
open."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import pytest
import wda

import phoneshell.sim
from phoneshell.sim import SimServer

CLOCK, REMINDERS = "com.apple.mobiletimer", "com.apple.reminders"
SIM = Path(phoneshell.sim.__file__).parent


def _shows(app: wda.Client, **query: str) -> bool:
    """Whether an element the query finds is on screen (not covered by a modal)."""
    return any(e.visible for e in app(**query).find_elements())


def _add_alarm(app: wda.Client) -> None:
    app(label="Alarms", className="Button").get(timeout=5).click()
    app(label="Add", className="Button").get(timeout=5).click()


def _edit_alarm(app: wda.Client) -> None:
    _add_alarm(app)
    app(label="Save", className="Button").get(timeout=5).click()
    cell = next(c for c in app(className="Cell").find_elements() if ":" in c.label)
    cell.click()


def _choose_city(app: wda.Client) -> None:
    app(label="World Clock", className="Button").get(timeout=5).click()
    app(label="Add", className="Button").get(timeout=5).click()


def _new_reminder(app: wda.Client) -> None:
    app(label="New Reminder", className="Button").get(timeout=5).click()


Opener = Callable[[wda.Client], None]
SHEETS: dict[str, tuple[str, Opener, dict[str, str], dict[str, str]]] = {
    # module that builds it: (app, how to open it, what shows on it, what it covers)
    "clock_alarms.py:Add": (CLOCK, _add_alarm, {"name": "Add Alarm"}, {"name": "Alarms"}),
    "clock_alarms.py:Edit": (CLOCK, _edit_alarm, {"name": "Edit Alarm"}, {"name": "Alarms"}),
    "clock_world.py": (CLOCK, _choose_city, {"label": "Choose a City."},
                       {"name": "World Clock", "className": "NavigationBar"}),
    "reminders_sheet.py": (REMINDERS, _new_reminder, {"name": "New Reminder",
                                                      "className": "NavigationBar"},
                           {"name": "Lists", "className": "NavigationBar"}),
}


def _building_page_sheets() -> set[str]:
    """The modules of the simulator that call `layout.page_sheet`."""
    found = set()
    for path in SIM.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute | ast.Name) \
                    and getattr(node.func, "attr", getattr(node.func, "id", "")) == "page_sheet":
                found.add(path.name)
    return found


def test_every_page_sheet_the_simulator_builds_is_swiped_here() -> None:
    assert _building_page_sheets() == {name.split(":")[0] for name in SHEETS}


@pytest.mark.parametrize("sheet", sorted(SHEETS))
@pytest.mark.parametrize("start", ["top", "middle"])
def test_a_downward_swipe_dismisses_the_page_sheet(sim: SimServer, sheet: str,
                                                   start: str) -> None:
    """From its navigation bar (or title), and from its content where that takes no drag of
    its own: the page behind takes touches again."""
    bundle, opener, on_sheet, behind = SHEETS[sheet]
    app = wda.Client(sim.url).session(bundle)
    opener(app)
    assert _shows(app, **on_sheet) and not _shows(app, **behind)
    before = sim.state()["stores"]
    y = 96 if start == "top" else 560  # the bar (or title) of every sheet; a row, low down
    app.swipe(200, y, 200, 840, 0.3)
    assert not _shows(app, **on_sheet) and _shows(app, **behind)
    assert sim.state()["stores"] == before  # as Cancel: nothing saved, nothing deleted


def test_a_swipe_down_that_turns_a_wheel_leaves_the_sheet(sim: SimServer) -> None:
    app = wda.Client(sim.url).session(CLOCK)
    _add_alarm(app)
    wheel = app(className="PickerWheel").get(timeout=5)
    before = wheel.value
    x, y = wheel.bounds.center
    app.swipe(x, y - 60, x, y + 60, 0.3)
    assert _shows(app, name="Add Alarm") and wheel.value != before


def test_a_swiped_sheet_holding_changes_asks_first_as_its_cancel_does(sim: SimServer) -> None:
    app = wda.Client(sim.url).session(REMINDERS)
    _new_reminder(app)
    app.send_keys("collect parcel")
    app.swipe(200, 80, 200, 800, 0.3)
    assert _shows(app, label="Discard Changes", className="Button")
    app.swipe(200, 80, 200, 800, 0.3)  # the question takes the swipe: still asking
    app(label="Keep Editing", className="Button").get(timeout=5).click()
    assert _shows(app, name="New Reminder", className="NavigationBar")
    app.swipe(200, 80, 200, 800, 0.3)
    app(label="Discard Changes", className="Button").get(timeout=5).click()
    assert _shows(app, name="Lists", className="NavigationBar")
