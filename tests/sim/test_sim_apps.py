"""The app-model interface: the documented example app works as written, and hit-testing rules."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Any

import pytest
import wda

from phoneshell.sim import SimServer, apps, layout
from phoneshell.sim.apps import AppModel, Host, builtin_apps, register
from phoneshell.sim.phone import Phone
from phoneshell.sim.touch_paths import actionable, hit_path
from phoneshell.sim.ui import Node, Rect, Scroll


def documented_example() -> AppModel[Any]:
    """The example app of `phoneshell.sim.apps`' docstring, run as written there."""
    doc = apps.__doc__ or ""
    code = textwrap.dedent(doc.split("::\n", 1)[1].split("\nand that is all", 1)[0])
    made: list[AppModel[Any]] = []
    exec(code, {"dataclass": dataclass, "Host": Host, "Node": Node, "Rect": Rect,
                "layout": layout, "AppModel": AppModel, "register": made.append})
    return made[0]


COUNTER = documented_example()


def test_the_documented_example_app_runs():
    with SimServer(apps=[*builtin_apps(), COUNTER]) as sim:
        client = wda.Client(sim.url)
        session = client.session("com.example.counter")
        session(name="Add one").click()
        session(name="Add one").click()
        assert session(label="Count: 2").exists
        client.home()
        assert session(className="Icon", label="Counter").exists


def test_register_refuses_a_second_model_for_a_bundle():
    with pytest.raises(ValueError, match="two app models"):
        register(AppModel("com.apple.calculator", "Fake", COUNTER.new_state, COUNTER.render))


def test_springboard_is_always_installed():
    phone = Phone(apps=[COUNTER])
    assert {a.bundle_id for a in phone.apps()} == {"com.apple.springboard",
                                                   "com.example.counter"}


def test_sheet_backdrop_cancels_and_alert_backdrop_blocks():
    cancelled: list[bool] = []
    facts = Phone().facts
    sheet = layout.sheet(facts, "Share", [("Copy", lambda: None)], lambda: cancelled.append(True))
    backdrop = actionable(hit_path(sheet, 200, 100))
    assert backdrop is sheet and backdrop.on_tap is not None
    backdrop.on_tap()
    assert cancelled == [True]
    alert = layout.alert(facts, "Title", "Message", [("OK", lambda: None)])
    assert actionable(hit_path(alert, 200, 100)) is alert
    ok = actionable(hit_path(alert, 200, facts.height // 2 + 60))
    assert ok is not None and ok.label == "OK"


def test_hit_testing_rules():
    tapped: list[str] = []
    row = Node("Cell", Rect(0, 100, 400, 50), on_tap=lambda: tapped.append("row"),
               children=(Node("StaticText", Rect(10, 110, 100, 20), label="Row"),))
    under_bar = Node("Cell", Rect(0, 40, 400, 50), on_tap=lambda: tapped.append("hidden"))
    table = Node("Table", Rect(0, 60, 400, 400), scroll=Scroll(), children=(under_bar, row))
    bar = Node("NavigationBar", Rect(0, 0, 400, 60))
    overlay = Node("Other", Rect(0, 0, 400, 800))  # a plain container lets touches through
    root = Node("Application", Rect(0, 0, 400, 800), children=(bar, table, overlay))
    target = actionable(hit_path(root, 20, 115))
    assert target is row  # the text's nearest ancestor with a handler
    assert actionable(hit_path(root, 20, 45)) is None  # clipped: the list starts at y=60
    disabled = Node("Button", Rect(0, 0, 10, 10), enabled=False, on_tap=lambda: None)
    assert actionable([disabled]) is None


@pytest.mark.parametrize(("bundle_id", "taps"), [
    ("com.apple.Preferences", ()), ("com.apple.MobileAddressBook", ()),
    ("com.apple.DocumentsApp", ()), ("com.apple.mobilenotes", ()),
    ("com.apple.reminders", ()), ("com.apple.weather", ("List",)),
    ("com.apple.AppStore", ("Search",)), ("com.apple.iBooks", ("Search",)),
])
def test_every_search_row_cancels_the_same_way(client, bundle_id, taps):
    # lists.search_row makes Cancel for every list: it empties the field, the keyboard goes.
    session = client.session(bundle_id)
    for name in taps:
        session(className="Button", name=name).click()
    field = session(className="SearchField").get(timeout=1)
    placeholder = field.value
    field.click()
    session.send_keys("zq")
    assert session(className="SearchField").get(timeout=1).value == "zq"
    session(className="Button", name="Cancel").click()
    assert session(className="SearchField").get(timeout=1).value == placeholder
    assert not session(className="Keyboard").exists
    assert not session(className="Button", name="Cancel").exists

