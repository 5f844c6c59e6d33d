"""Every check's detail names what the agent touched, never as '': an element with no label
and no name by its type and value (a picker wheel) or its type and page (blank space), a tap
with no element by its point (red team 141 class, RT141-2). Played with facebook-wda on the
simulated iPhone through the bridge, as an agent, and the attempt's own evidence, as the bridge
logged it, graded with the check; a back button with no title under it, which the simulator
never draws, from a hand-written log."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import lxml.html
import pytest
import wda
from attempt_rig import run_one
from audit_logs import PREFS, act, grade, log, tgt
from played_finish import Play, Played

from phoneshell.audit import Action
from phoneshell.checks.backs import way_back
from phoneshell.checks.refused import refused_press
from phoneshell.checks.tapped_names import UNRESOLVED, press_named
from phoneshell.checks.worked import key_of
from phoneshell.evidence import Evidence
from phoneshell.report.html_attempt import timeline_html
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

CLOCK = "com.apple.mobiletimer"
BLANK_PT = (200, 500)
"""Below Settings' search results for "battery", above the keyboard: an unnamed Other."""


def wheels_tapped(c: wda.Client) -> None:
    """Clock's Add Alarm sheet, each of its wheels tapped, nothing saved."""
    c.app_activate(CLOCK)
    s = c.session()
    s(className="XCUIElementTypeButton", name="Alarms").click()
    s(className="XCUIElementTypeButton", name="Add").click()
    for wheel in s(className="XCUIElementTypePickerWheel").find_elements():
        wheel.click()


def blank_tapped(c: wda.Client) -> None:
    """Settings searched for "battery", then blank space tapped instead of a result."""
    c.app_activate(PREFS)
    s = c.session()
    s(className="XCUIElementTypeSearchField").click()
    s.send_keys("battery")
    s.tap(*BLANK_PT)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory,
           suite: dict[str, Task]) -> Iterator[dict[str, Evidence]]:
    """Each finish's evidence, played once on one simulated iPhone."""
    plays: dict[str, Play] = {"wheels": wheels_tapped, "blank": blank_tapped}
    found: dict[str, Evidence] = {}
    with SimServer() as sim:
        for name, play in plays.items():
            evidence = run_one(sim, tmp_path_factory.mktemp(name),
                               suite["clock.alarm.set_time"], Played(play)).evidence
            assert evidence is not None
            found[name] = evidence
    yield found


def _blank_tap(evidence: Evidence) -> Action:
    (tap,) = [a for a in evidence.agent_actions()
              if a.kind == "tap" and (a.params.get("x"), a.params.get("y")) == BLANK_PT]
    assert tap.target is not None and not (tap.target.label or tap.target.name), tap.target
    return tap


def test_tapped_keys_lists_unnamed_wheels_by_type_and_value(
        played: dict[str, Evidence]) -> None:
    passed, detail = grade("tapped_keys", played["wheels"], keys=("7", "3", "0"))
    assert not passed
    taps = detail.partition("last taps were ")[2].partition(";")[0]
    assert "PickerWheel '" in taps and "o’clock'" in taps, detail
    assert "  " not in taps and not taps.endswith(" "), detail  # once '' each: "Add   "


def test_opened_from_search_names_blank_space_tapped_by_type_and_page(
        played: dict[str, Evidence]) -> None:
    passed, detail = grade("opened_from_search", played["blank"], text="battery",
                           result="Battery")
    assert not passed
    assert "the agent tapped Other on 'Settings', not the result" in detail, detail
    assert "''" not in detail, detail


def test_every_naming_of_a_press_names_blank_space_and_a_bare_point(
        played: dict[str, Evidence]) -> None:
    """A refused press and an unreplayable calculator press, of the same logged tap; with no
    element resolved, the point the tap was sent to."""
    tap = _blank_tap(played["blank"])
    said = refused_press(tap)
    assert said.startswith("the agent pressed Other on 'Settings' (#"), said
    assert key_of(tap) == "Other on 'Settings'"
    blind = dataclasses.replace(tap, target=None)
    assert press_named(blind) == "the point (200, 500), with no resolved target"
    assert press_named(dataclasses.replace(blind, params={})) == UNRESOLVED


def test_the_report_timeline_names_an_unnamed_wheel_by_its_value(
        played: dict[str, Evidence]) -> None:
    text = lxml.html.fromstring(
        f"<div>{timeline_html(played['wheels'].agent_actions())}</div>").text_content()
    assert "PickerWheel '" in text and "o’clock'" in text, text


def test_a_back_button_with_no_title_is_named_without_quotes() -> None:
    back = tgt("XCUIElementTypeButton", "", "BackButton")
    actions = log(act(1, "tap", PREFS, PREFS, target=back)).agent_actions()
    assert way_back(actions, PREFS).backs == ("BackButton",)
    titled = tgt("XCUIElementTypeButton", "General", "BackButton")
    actions = log(act(1, "tap", PREFS, PREFS, target=titled)).agent_actions()
    assert way_back(actions, PREFS).backs == ("BackButton 'General'",)
