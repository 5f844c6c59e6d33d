"""Which apps the runner stops after an agent's turn, read from hand-written audit logs: never
SpringBoard or WDA, never what the teardown stops already, and an app seen only by a custody
line too; and which Settings values (switches, options, sliders) it sets back, to what."""

from __future__ import annotations

from audit_logs import CALC, PREFS, SAFARI, SB, act

from phoneshell.audit import Target, apps_in_front
from phoneshell.changes import Changed, changed_settings
from phoneshell.records import AuditEvent
from phoneshell.runner.aftermath import agent_broke_rig, left_running
from phoneshell.tasks import Step, Task

WDA = "com.facebook.WebDriverAgentRunner.xctrunner"
MAPS = "com.apple.Maps"


def task(*stops: str) -> Task:
    return Task(id="t", name="t", instruction="x", app=CALC, checks=(),
                teardown=tuple(Step("terminate", app) for app in stops))


def stopped(events: list[AuditEvent], *stops: str) -> list[str]:
    return [s.arg for s in left_running(task(*stops), apps_in_front(events))]


def test_apps_the_agent_had_in_front_beyond_the_teardown_are_stopped() -> None:
    events = [*act(1, "launch", SB, PREFS, bundle_id=PREFS), *act(2, "tap", PREFS, SAFARI),
              *act(3, "launch", SAFARI, CALC, bundle_id=CALC)]
    assert stopped(events, CALC) == [PREFS, SAFARI], "in the order first seen"
    assert stopped(events, CALC, PREFS, SAFARI) == []


def test_springboard_wda_and_other_phases_are_never_stopped() -> None:
    events = [*act(1, "launch", SB, WDA, bundle_id=WDA), *act(2, "home", WDA, SB),
              *act(3, "launch", SB, MAPS, phase="setup", bundle_id=MAPS),
              *act(4, "launch", SB, SAFARI, phase="probe", bundle_id=SAFARI)]
    assert stopped(events) == [], "WDA is the rig; setup and probes are the harness's own"


def test_an_app_only_a_custody_line_saw_is_stopped_too() -> None:
    # the agent reached the phone around the bridge: no action, but capture saw Maps in front
    custody = AuditEvent(v=1, run_id="r", task_id="t", attempt=1, phase="check", seq=5, t=5.0,
                         kind="other", stage="custody", app_before=CALC, app_after=MAPS)
    assert stopped([*act(1, "launch", SB, CALC, bundle_id=CALC), custody], CALC) == [MAPS]


def knob(label: str, on: bool, page: str) -> Target:
    return Target(type="XCUIElementTypeSwitch", label=label, value="1" if on else "0", page=page)


def test_switches_the_agent_tapped_go_back_to_where_the_attempt_found_them() -> None:
    events = [*act(1, "tap", PREFS, PREFS, phase="setup", target=knob("Wi-Fi", True, "Wi-Fi")),
              *act(2, "tap", PREFS, PREFS, phase="setup", target=knob("Zoom", False, "Zoom")),
              *act(3, "tap", PREFS, PREFS, target=knob("Wi-Fi", False, "Wi-Fi")),
              *act(4, "tap", PREFS, PREFS, target=knob("Wi-Fi", True, "Wi-Fi")),
              *act(5, "tap", PREFS, PREFS, target=knob("Bold Text", False, "Display")),
              *act(6, "tap", PREFS, PREFS, target=knob("Bold Text", True, "Display")),
              *act(7, "tap", CALC, CALC, target=knob("Bold Text", True, "Display")),
              *act(8, "tap", PREFS, PREFS, phase="teardown", target=knob("Siri", True, "Siri"))]
    # Wi-Fi: as before the setup flipped it (on); Zoom: only the setup tapped it (the task's
    # own business); Bold Text: its first tap in Settings; another app's switch, and the
    # teardown's, are not the agent's
    assert changed_settings(events) == (Changed("switch", "Wi-Fi", "Wi-Fi", "1"),
                                        Changed("switch", "Bold Text", "Display", "0"))


def test_options_sliders_and_slid_switches_go_back_to_what_they_were() -> None:
    def option(label: str, chosen: str) -> Target:
        return Target(type="XCUIElementTypeCell", label=label, page="Auto-Lock", chosen=chosen)

    slider = Target(type="XCUIElementTypeSlider", label="Text Size", value="50%",
                    page="Text Size")
    moved = slider.model_copy(update={"value": "83%"})
    events = [*act(1, "tap", PREFS, PREFS, target=option("1 minute", "Never")),
              *act(2, "swipe", PREFS, PREFS, target=slider),
              *act(3, "tap", PREFS, PREFS, target=option("5 minutes", "1 minute")),
              *act(4, "type", PREFS, PREFS, target=moved, text="0.2"),
              # a plain row (no list of options), and a list with no page named: nothing
              *act(5, "tap", PREFS, PREFS, target=Target(type="XCUIElementTypeCell",
                                                         label="General", page="Settings")),
              *act(6, "tap", PREFS, PREFS, target=option("Never", "x").model_copy(
                  update={"page": ""})),
              # a switch's thumb slid sideways flips it; a scroll that starts on its row does not
              *act(7, "swipe", PREFS, PREFS, target=knob("Bold Text", False, "Display"),
                   from_x=340, from_y=300, to_x=370, to_y=302),
              *act(8, "swipe", PREFS, PREFS, target=knob("Zoom", False, "Zoom"),
                   from_x=200, from_y=600, to_x=200, to_y=200)]
    assert changed_settings(events) == (Changed("choice", "Auto-Lock", "Auto-Lock", "Never"),
                                        Changed("slider", "Text Size", "Text Size", "50%"),
                                        Changed("switch", "Bold Text", "Display", "0"))
    assert [c.shown for c in changed_settings(events)] == ["Never", "50%", "off"]


def test_control_center_toggles_the_agent_tapped_go_back_by_their_names() -> None:
    def toggle(name: str, label: str, on: bool) -> Target:
        return Target(type="XCUIElementTypeSwitch", label=label, name=name,
                      value="1" if on else "0")

    events = [*act(1, "tap", SB, SB, target=toggle("wifi-button", "Wi-Fi, HomeNet", True)),
              *act(2, "tap", SB, SB, target=toggle("wifi-button", "Wi-Fi, Off", False)),
              *act(3, "tap", SB, SB, target=toggle("airplane-mode-button", "Airplane Mode",
                                                      False)),
              # a switch of another name on SpringBoard, and one in an app: not Control Center's
              *act(4, "tap", SB, SB, target=toggle("something-else", "Something", True)),
              *act(5, "tap", CALC, CALC, target=toggle("wifi-button", "Wi-Fi", True))]
    changed = changed_settings(events)
    assert changed == (Changed("control", "wifi-button", "", "1"),
                       Changed("control", "airplane-mode-button", "", "0"))
    assert [(c.title, c.shown) for c in changed] == [("Wi-Fi (Control Center)", "on"),
                                                     ("Airplane Mode (Control Center)", "off")]
    assert Changed("switch", "Wi-Fi", "Wi-Fi", "1").shown == "on"


def test_a_control_that_takes_the_rig_down_is_the_agents_doing_when_it_got_through() -> None:
    # the bridge refuses these; one that reached the phone (its outcome ok) is the agent's
    slider = Target(type="XCUIElementTypeSlider", label="slide to power off", value="0%")
    refused = AuditEvent(v=1, run_id="r", task_id="t", attempt=1, phase="agent", seq=2, t=2.0,
                         kind="swipe", stage="refused", target=slider, ok=False,
                         error="it would power the phone off")
    through = act(3, "swipe", SB, SB, target=slider, from_x=30, from_y=130, to_x=370, to_y=130)
    unanswered = act(3, "swipe", SB, None, target=slider)  # the phone went off mid-request
    assert agent_broke_rig((*act(1, "tap", PREFS, PREFS), refused)) == ""
    for sent in (through, unanswered):
        assert agent_broke_rig((*act(1, "tap", PREFS, PREFS), *sent)) == (
            "the agent acted on 'slide to power off' (#3 swipe): it would power the phone off")
    harness = act(4, "swipe", SB, SB, phase="teardown", target=slider)
    assert agent_broke_rig(tuple(harness)) == "", "only the agent's own actions count"


def test_the_power_button_named_by_its_hid_numbers_is_a_lock_however_they_are_written() -> None:
    """WDA reads an IOHID page and usage with unsignedIntValue: 12.0 and 48.4 are 12 and 48, the
    side button (the bridge now refuses fractions; an older log may hold them)."""
    for button in ("hid:12:48", "hid:12.0:48.0", "hid:12:48.4", "hid:12.9:48"):
        found = agent_broke_rig(tuple(act(1, "press", CALC, CALC, button=button)))
        assert found == f"the agent locked the phone (#1 press {button})", button
    for button in ("hid:12:64", "hid:7:48", "hid:x:48", "hid:12", "volumeUp"):
        assert agent_broke_rig(tuple(act(1, "press", CALC, CALC, button=button))) == "", button


def test_a_command_wda_was_still_running_when_the_bridge_stopped_waiting_is_the_agents() -> None:
    """WDA runs one command at a time: while the agent's runs on, the harness's reads time out
    and the rig looks down; the log shows whose command that was."""
    intent, done = act(5, "tap", CALC, CALC, duration=900.0)
    busy = done.model_copy(update={"ok": False, "error": "no answer from WDA at http://phone "
                                                         "to POST /wda/touchAndHold: timed out"})
    assert agent_broke_rig((intent, busy)) == (
        "the agent's #5 tap kept WDA busy past the bridge's wait (no answer from WDA at "
        "http://phone to POST /wda/touchAndHold: timed out)")
    refused = done.model_copy(update={"ok": False, "error": "invalid element state"})
    assert agent_broke_rig((intent, refused)) == "", "an error WDA answered with is not it"
    theirs = [e.model_copy(update={"phase": "teardown"}) for e in (intent, busy)]
    assert agent_broke_rig(tuple(theirs)) == "", "only the agent's own actions count"
