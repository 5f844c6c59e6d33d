"""An agent that flips Settings switches it was not asked to (Wi-Fi off on the Wi-Fi page) leaves
a phone every later network task fails on, on a real one; one that chooses Auto-Lock's 30
seconds leaves a phone that locks in the middle of later attempts, and one that drags Text Size
leaves every later screen laid out in another size. The bridge logs which switch it tapped and
whether it was on, which option it chose and which was chosen before, which slider it moved
and where it stood; the runner sets each back after the attempt, or says why it cannot. Played
through the runner on one simulated iPhone whose state persists across attempts."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import lxml.html
import pytest
import wda

from phoneshell.agents import AgentContext, AgentResult
from phoneshell.agents.base import AGENTS
from phoneshell.agents.reference import SolutionAgent
from phoneshell.audit import actions, read_audit
from phoneshell.device import Phone, run_steps
from phoneshell.device.control_center import set_toggle
from phoneshell.device.settings_values import set_back, set_choice, set_slider, set_switch
from phoneshell.records import ResultRow
from phoneshell.runner.folder import read_results
from phoneshell.runner.run import RunOptions, run_suite
from phoneshell.sim import SimServer
from phoneshell.tasks import Step
from phoneshell.tree import Element

SETTINGS = "com.apple.Preferences"
FLIPPED = ("Ask to Join Networks", "Wi-Fi")
"""Two switches on the Wi-Fi page, in the order tapped: Wi-Fi off hides the first, so only an
undo in reverse order finds it."""


class Flipper(SolutionAgent):
    """Plays the reference finish, then taps the knob of each switch in `FLIPPED` on the screen
    it ends on, then goes to Accessibility > Motion through Settings' search and turns Reduce
    Motion on."""

    name = "flipper"

    def run(self, context: AgentContext) -> AgentResult:
        result = super().run(context)
        if context.task.app == SETTINGS:
            phone = Phone(context.wda_url)
            for label in FLIPPED:
                flip(phone, label)
            tap(phone, lambda e: e.name == "BackButton")
            tap(phone, lambda e: e.short_type == "SearchField")
            run_steps(phone, [Step("type", "Motion"), Step("tap", "Motion")])
            flip(phone, "Reduce Motion")
        return result


def tap(phone: Phone, which: Callable[[Element], bool]) -> None:
    """Tap the first element on screen that is `which`."""
    phone.tap(*next(e for e in phone.page().on_screen() if which(e)).centre)


def flip(phone: Phone, label: str) -> None:
    """Tap the knob of the switch `label` on screen."""
    row = next(e for e in phone.page().on_screen()
               if e.label == label and e.type == "XCUIElementTypeSwitch")
    phone.tap(row.x + row.width - 30, row.y + row.height // 2)


AGENTS.register("flipper")(lambda arg: Flipper())


class Chooser(SolutionAgent):
    """Plays the reference finish, then in Settings chooses Auto-Lock's 30 seconds, slides Bold
    Text's knob on, and drags Text Size's slider to its left end."""

    name = "chooser"

    def run(self, context: AgentContext) -> AgentResult:
        result = super().run(context)
        phone = Phone(context.wda_url)
        run_steps(phone, [Step("terminate", SETTINGS), Step("launch", SETTINGS),
                          Step("swipe", "down"), Step("tap", "Display & Brightness"),
                          Step("tap", "Auto-Lock"), Step("tap", "30 seconds")])
        tap(phone, lambda e: e.name == "BackButton")
        bold = next(e for e in phone.page().on_screen()
                    if e.label == "Bold Text" and e.type == "XCUIElementTypeSwitch")
        knob = (bold.x + bold.width - 40, bold.centre[1])
        phone.drag(knob, (knob[0] + 30, knob[1]))  # the thumb slid right: on
        run_steps(phone, [Step("tap", "Text Size")])
        slider = next(e for e in phone.page().on_screen() if e.short_type == "Slider")
        phone.drag(slider.centre, (slider.x + 2, slider.centre[1]))
        return result


AGENTS.register("chooser")(lambda arg: Chooser())


class Turner(SolutionAgent):
    """Plays the reference finish, then turns the phone to landscape, makes it light and
    simulates a location, through WDA's own routes (facebook-wda's orientation setter among
    them)."""

    name = "turner"

    def run(self, context: AgentContext) -> AgentResult:
        result = super().run(context)
        client = wda.Client(context.wda_url)
        session = client.session()
        with contextlib.suppress(wda.WDAError):  # Settings stays portrait: WDA says so
            session.orientation = "LANDSCAPE"
        client.http.post("/wda/device/appearance", {"name": "light"})
        session.http.post("/wda/simulatedLocation", {"latitude": 48.85, "longitude": 2.35})
        return result


AGENTS.register("turner")(lambda arg: Turner())


class Puller(SolutionAgent):
    """Plays the reference finish, then pulls Control Center down and turns Airplane Mode on
    and Wi-Fi off there: tapped, or (`slide`) slid sideways."""

    def __init__(self, slide: bool) -> None:
        super().__init__()
        self.name, self.slide = "slider" if slide else "puller", slide

    def run(self, context: AgentContext) -> AgentResult:
        result = super().run(context)
        phone = Phone(context.wda_url)
        width, _ = phone.screen_size()
        phone.drag((width * 0.9, 2), (width * 0.9, 300))
        for name in ("airplane-mode-button", "wifi-button"):
            if self.slide:  # toward the side that turns it the other way, as a knob
                toggle = next(e for e in phone.page().on_screen() if e.name == name)
                (x, y), way = toggle.centre, 1 if toggle.value == "0" else -1
                phone.drag((x - 20 * way, y), (x + 25 * way, y))
            else:
                tap(phone, lambda e, name=name: e.name == name)  # type: ignore[misc]
        return result


AGENTS.register("puller")(lambda arg: Puller(slide=False))
AGENTS.register("slider")(lambda arg: Puller(slide=True))


@pytest.mark.slow  # 2.7 s measured: the README's command stays quick
@pytest.mark.parametrize("agent", ["puller", "slider"])
def test_control_center_toggles_the_agent_flipped_are_set_back_there(
        tmp_path: Path, environments: Path, agent: str) -> None:
    with SimServer() as sim:
        rows = run(tmp_path, environments, ("calculator.arithmetic",), agent, sim)
        stored, front = switches(sim), sim.state()["foreground"]
    teardown = rows["calculator.arithmetic"].teardown
    assert teardown is not None and teardown.ok, teardown
    assert teardown.switched == ("Wi-Fi (Control Center): set back on",
                                 "Airplane Mode (Control Center): set back off")
    assert (stored.get("wifi"), stored.get("airplane")) == (True, False), stored
    assert front == "com.apple.springboard"


def test_set_toggle_flips_a_control_center_toggle_and_finds_no_other(sim: SimServer) -> None:
    phone = Phone(sim.url, effect_timeout_s=1.0)
    assert set_toggle(phone, "bluetooth-button", False) == "set"
    assert switches(sim)["bluetooth"] is False
    assert set_toggle(phone, "bluetooth-button", False) == "as was"  # off already: nothing tapped
    assert not set_toggle(phone, "no-such-button", True)
    assert switches(sim) == {"bluetooth": False}
    assert sim.state()["foreground"] == "com.apple.springboard"


@pytest.mark.slow  # 3.0 s measured: the README's command stays quick
def test_the_phones_own_state_an_agent_changed_is_set_back_to_what_the_run_found(
        tmp_path: Path, environments: Path) -> None:
    with SimServer() as sim:
        with sim.lock:
            sim.phone.appearance = "dark"  # the owner's, before the run: it stays
        rows = run(tmp_path, environments, ("settings.about.reach",), "turner", sim)
        with sim.lock:
            phone = sim.phone
            after = (phone.device_orientation, phone.appearance, phone.simulated_location)
    teardown = rows["settings.about.reach"].teardown
    assert teardown is not None and teardown.ok, teardown
    assert teardown.switched == ("location: set back to none", "appearance: set back to dark",
                                 "orientation: set back to PORTRAIT")
    assert after == ("PORTRAIT", "dark", None)


def switches(sim: SimServer) -> dict[str, object]:
    return dict(sim.state()["stores"].get(SETTINGS, {}))  # type: ignore[arg-type]


def run(tmp_path: Path, environments: Path, task_ids: tuple[str, ...], agent: str,
        sim: SimServer) -> dict[str, ResultRow]:
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    for task_id in task_ids:
        shutil.copy(environments / f"{task_id}.yaml", tasks)
    run_suite(RunOptions(paths=(str(tasks),), agent=agent, device=sim.url, runs_dir=tmp_path,
                         run_id="R"), lambda line: None)
    return {r.task_id: r for r in read_results(tmp_path / "R" / "results.jsonl")}


@pytest.mark.slow  # whole runs: 5-7 s on a busy 2-core machine
def test_the_switches_the_agent_flipped_are_set_back_where_it_flipped_them(
        tmp_path: Path, environments: Path) -> None:
    with SimServer() as sim:
        rows = run(tmp_path, environments, ("settings.wifi.switch_visible",), "flipper", sim)
        stored = switches(sim)
    row = rows["settings.wifi.switch_visible"]  # failed: it ends on Motion, not Wi-Fi
    assert row.outcome == "failed" and row.teardown is not None and row.teardown.ok, row
    assert row.teardown.switched == ("Reduce Motion: set back off", "Wi-Fi: set back on",
                                     "Ask to Join Networks: set back on")
    assert (stored.get("wifi"), stored.get("ask_to_join"), stored.get("reduce_motion")) == (
        True, True, False), stored
    html = tmp_path / "report.html"
    shown = subprocess.run([sys.executable, "-m", "phoneshell", "report", str(tmp_path / "R"),
                            "--html", str(html)], capture_output=True, text=True, timeout=300)
    assert shown.returncode == 1, shown.stderr  # made, with a failed attempt
    said = lxml.html.fromstring(html.read_bytes()).text_content()
    assert ("Settings values the agent changed: Reduce Motion: set back off; Wi-Fi: set back "
            "on; Ask to Join Networks: set back on") in said


@pytest.mark.slow  # whole runs: 5-7 s on a busy 2-core machine
def test_the_log_names_the_page_of_each_switch_tapped(tmp_path: Path,
                                                      environments: Path) -> None:
    with SimServer() as sim:
        run(tmp_path, environments, ("settings.wifi.switch_visible",), "flipper", sim)
    taps = [a.target for a in actions(read_audit(tmp_path / "R" / "audit.jsonl"))
            if a.phase == "agent" and a.target is not None and a.target.type.endswith("Switch")]
    assert [(t.label, t.page) for t in taps] == [
        ("Ask to Join Networks", "Wi-Fi"), ("Wi-Fi", "Wi-Fi"), ("Reduce Motion", "Motion")]


@pytest.mark.slow  # 2.2 s measured: the README's command stays quick
def test_an_agent_that_flips_nothing_costs_nothing(tmp_path: Path, environments: Path) -> None:
    with SimServer() as sim:
        rows = run(tmp_path, environments, ("settings.wifi.switch_visible",), "solution", sim)
    row = rows["settings.wifi.switch_visible"]
    assert row.passed and row.teardown is not None and row.teardown.switched == ()
    # (the run reads the owner's notes, reminders and Clock lists once, before its attempt)
    settings = [e for e in read_audit(tmp_path / "R" / "audit.jsonl").records
                if e.stage == "intent" and e.kind == "launch"
                and e.params.get("bundle_id") == "com.apple.Preferences"]
    assert [e.phase for e in settings] == ["agent"], "only the agent's own launch of Settings"


@pytest.mark.slow  # 4.3 s measured: the README's command stays quick
def test_an_option_chosen_and_a_slider_moved_are_set_back_to_what_they_were(
        tmp_path: Path, environments: Path) -> None:
    with SimServer() as sim:
        rows = run(tmp_path, environments, ("settings.about.reach",), "chooser", sim)
        stored = switches(sim)
    teardown = rows["settings.about.reach"].teardown
    assert teardown is not None and teardown.ok, teardown
    assert teardown.switched == ("Text Size: set back to 50%", "Bold Text: set back off",
                                 "Auto-Lock: set back to Never")
    assert (stored["auto_lock"], stored["text_size"], stored["bold_text"]) == (
        "Never", 0.5, False), stored
    moved = [a for a in actions(read_audit(tmp_path / "R" / "audit.jsonl"))
             if a.phase == "agent" and a.kind == "swipe" and a.target is not None]
    # a drag is logged with what it started on: the list it scrolled, the slider it moved
    assert [(a.target.type, a.target.label, a.target.value) for a in moved] == [
        ("XCUIElementTypeButton", "General", ""),
        ("XCUIElementTypeSwitch", "Bold Text", "0"),
        ("XCUIElementTypeSlider", "Text Size", "50%")]


def test_set_choice_and_set_slider_go_where_the_value_is_and_find_nothing_else(
        sim: SimServer) -> None:
    phone = Phone(sim.url, effect_timeout_s=1.0)
    assert set_choice(phone, "Auto-Lock", "2 minutes") == "set"  # by search: not on page 1
    assert switches(sim)["auto_lock"] == "2 minutes"
    assert set_choice(phone, "Auto-Lock", "2 minutes") == "as was"  # chosen already
    assert set_back(phone, "choice", "Record Video", "Record Video", "4K at 60 fps")
    assert set_slider(phone, "Text Size", "80%", "Text Size")
    assert switches(sim)["text_size"] == 0.8
    assert set_back(phone, "slider", "Text Size", "Text Size", "30%")
    assert switches(sim)["text_size"] == 0.3
    assert not set_choice(phone, "Auto-Lock", "Ten years")  # no such option
    assert not set_choice(phone, "No Such Page", "Never")
    assert not set_slider(phone, "Text Size", "loud", "Text Size")  # not a percentage
    assert not set_slider(phone, "Brightness", "10%", "Text Size")  # not on that page
    assert (switches(sim)["auto_lock"], switches(sim)["record_video"],
            switches(sim)["text_size"]) == ("2 minutes", "4K at 60 fps", 0.3)
    assert sim.state()["foreground"] == "com.apple.springboard"


def test_set_switch_sets_a_first_page_switch_and_finds_no_other(sim: SimServer) -> None:
    phone = Phone(sim.url, effect_timeout_s=1.0)
    assert set_switch(phone, "Airplane Mode", True)
    assert switches(sim)["airplane"] is True
    assert set_switch(phone, "Airplane Mode", False) and switches(sim)["airplane"] is False
    assert set_switch(phone, "Bluetooth", True) == "as was"  # already on: nothing tapped
    assert set_switch(phone, "Bold Text", True, "Display & Brightness")  # by its row
    assert set_switch(phone, "Low Power Mode", True, "Power Mode")  # Battery's (iOS 26)
    assert set_switch(phone, "Reduce Motion", True, "Motion")  # by search
    # a page titled like the search field ("Search"), below the first screen
    assert set_switch(phone, "Show Recent Searches", False, "Search")
    assert switches(sim)["show_recent"] is False
    assert (switches(sim)["bold_text"], switches(sim)["low_power"],
            switches(sim)["reduce_motion"]) == (True, True, True)
    assert not set_switch(phone, "Bold Text", False)  # no page logged, and none named so
    assert not set_switch(phone, "Reduce Motion", False, "Sounds & Haptics")  # not on it
    assert not set_switch(phone, "Reduce Motion", False, "No Such Page")
    assert switches(sim)["bold_text"] is True and switches(sim)["reduce_motion"] is True
    assert sim.state()["foreground"] == "com.apple.springboard"


@pytest.mark.slow  # whole runs: 5-7 s on a busy 2-core machine
def test_do_not_change_it_fails_on_what_the_runner_sets_back(tmp_path: Path,
                                                             environments: Path) -> None:
    # settings.textsize.reach: "Find the Settings screen that holds the slider for making text
    # larger. Do not change it." The chooser ends there, the slider dragged to its left end.
    task = "settings.textsize.reach"
    (tmp_path / "changed").mkdir()
    (tmp_path / "honest").mkdir()
    with SimServer() as sim:
        rows = run(tmp_path / "changed", environments, (task,), "chooser", sim)
    row = rows[task]
    assert [(c.kind, c.passed, c.detail) for c in row.checks if not c.passed] == [
        ("settings_unchanged", False, "the agent changed Auto-Lock (was Never), Bold Text (was "
                                      "off), Text Size (was 50%)")], row.checks
    assert row.teardown is not None and row.teardown.switched == (
        "Text Size: set back to 50%", "Bold Text: set back off", "Auto-Lock: set back to Never")
    with SimServer() as sim:
        row = run(tmp_path / "honest", environments, (task,), "solution", sim)[task]
    assert row.passed and row.teardown is not None and row.teardown.switched == ()
    assert [c.detail for c in row.checks if c.kind == "settings_unchanged"] == [
        "no setting changed in the agent's 4 action(s)"]
