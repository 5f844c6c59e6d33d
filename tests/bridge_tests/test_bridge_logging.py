"""Every action kind, driven by the unmodified facebook-wda client, lands in the audit log right."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import wda
from bridge_rig import CONTROL_HEADER, CONTROL_TOKEN, LOGIN, Rig, leaked, request, start_bridge
from sources import json_sources

from phoneshell.audit import Action, AuditEvent, Target, actions
from phoneshell.sim import SimServer

SETTINGS, CALCULATOR, SPRINGBOARD = "com.apple.Preferences", "com.apple.calculator", \
    "com.apple.springboard"


def tgt(kind: str, label: str = "", name: str = "", value: str = "", page: str = "") -> Target:
    """A target by its fields in order: type, label, name, value, page."""
    return Target(type=kind, label=label, name=name, value=value, page=page)


def last(rig: Rig, run_id: str = "unscoped") -> Action:
    """The last action of a run, intent joined with outcome."""
    return actions(rig.events(run_id))[-1]


def test_launch_terminate_and_the_foreground_around_them(rig: Rig) -> None:
    client = wda.Client(rig.bridge.url)
    session = client.session(SETTINGS)  # a session with a bundle launches the app
    opened = last(rig)
    assert (opened.kind, dict(opened.params)) == ("launch", {"bundle_id": SETTINGS,
                                                             "via": "session"})
    assert (opened.app_before, opened.app_after, opened.ok) == (SPRINGBOARD, SETTINGS, True)
    session.app_launch(CALCULATOR)
    launched = last(rig)
    assert (launched.kind, launched.params["bundle_id"]) == ("launch", CALCULATOR)
    assert (launched.app_before, launched.app_after) == (SETTINGS, CALCULATOR)
    assert rig.bridge.last_foreground == CALCULATOR
    session.app_terminate(CALCULATOR)
    stopped = last(rig)
    assert (stopped.kind, stopped.params["bundle_id"], stopped.ok) == (
        "terminate", CALCULATOR, True)
    sid = session.session_id
    status, _, _ = request(rig.bridge.url, "POST", f"/session/{sid}/wda/apps/activate",
                           json.dumps({"bundleId": SETTINGS}).encode())
    activated = last(rig)
    assert status == 200 and (activated.kind, activated.params["bundle_id"]) == (
        "activate", SETTINGS)


def test_intent_and_outcome_share_seq_which_strictly_increases(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    for y in (5, 6, 7):
        session.tap(300, y)
    events = rig.events()
    assert [e.stage for e in events] == ["intent", "outcome"] * 4
    seqs = [e.seq for e in events]
    assert seqs == [1, 1, 2, 2, 3, 3, 4, 4]
    intent, outcome = events[-2:]
    assert intent.ok is None and intent.app_after == "" and outcome.ok is True
    assert intent.t <= outcome.t and intent.params == outcome.params


def test_taps_carry_the_point_or_element_and_the_element_under_it(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    session(name="com.apple.settings.wifi").click()  # find + rect are reads; the tap is logged
    clicked = last(rig)
    assert (clicked.kind, clicked.params["x"], clicked.params["y"]) == ("tap", 201, 371)
    # iOS 26's Settings root: the row is a Button inside an unnamed cell.
    assert clicked.target is not None and clicked.target.type == "XCUIElementTypeButton"
    assert clicked.target.label == "Wi-Fi"
    assert [e.kind for e in rig.intents()] == ["launch", "tap"]  # find and rect: reads
    session.app_terminate(SETTINGS)  # back to the root list
    session.app_launch(SETTINGS)
    element = session(name="com.apple.settings.bluetooth").get(timeout=5)
    element.tap()  # POST element/:id/click: target from the element's rect centre
    tapped = last(rig)
    assert dict(tapped.params) == {"element": element.id, "gesture": "click"}
    assert tapped.target is not None and tapped.target.name == "com.apple.settings.bluetooth"
    session.double_tap(300, 6)
    session.tap_hold(300, 6, 0.2)
    double, hold = actions(rig.events())[-2:]
    assert (double.kind, double.params["gesture"]) == ("tap", "double_tap")
    assert dict(hold.params) == {"x": 300, "y": 6, "gesture": "touch_and_hold", "duration": 0.2}


def test_a_switch_is_logged_labelled_with_its_page_however_its_knob_is_tapped(rig: Rig,
                                                                              sim: SimServer,
                                                                              ) -> None:
    """The runner sets back the switches an agent flipped by label and page: a knob named by
    id (unlabelled) is logged as the row around it, as a tap at its point is."""
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    session(name="com.apple.settings.wifi").click()
    assert last(rig).target is not None and last(rig).target.page == "Settings"
    knob = '//XCUIElementTypeSwitch[@label="{}"]/XCUIElementTypeSwitch'
    assert [(t.type, t.label, t.value, t.page) for t in tapped_both_ways(
        rig, session(xpath=knob.format("Ask to Join Networks")),
        session(xpath=knob.format("Wi-Fi")))] == [
        ("XCUIElementTypeSwitch", "Ask to Join Networks", "1", "Wi-Fi"),
        ("XCUIElementTypeSwitch", "Wi-Fi", "1", "Wi-Fi")]
    assert sim.state()["stores"][SETTINGS] == {"ask_to_join": False, "wifi": False}


def tapped_both_ways(rig: Rig, by_id: wda.Selector, at_point: wda.Selector) -> list[Target]:
    """Tap one element by its id and another at its point; the targets logged, in that order."""
    by_id.get(timeout=5).tap()
    first = last(rig)
    at_point.click()
    second = last(rig)
    assert "element" in first.params and "x" in second.params
    return [a.target for a in (first, second) if a.target is not None]


def test_a_tap_on_an_option_is_logged_with_the_option_chosen_before(rig: Rig,
                                                                     sim: SimServer) -> None:
    """The runner sets back a Settings choice an agent changed to the option the log says was
    chosen before, whether the cell was tapped at its point or by id."""
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    session.swipe_up()
    session(label="Display & Brightness", className="Button").click()
    session(name="Auto-Lock").click()
    assert [(t.type, t.label, t.page, t.chosen) for t in tapped_both_ways(
        rig, session(name="1 minute", className="Cell"),
        session(name="5 minutes", className="Cell"))] == [
        ("XCUIElementTypeCell", "1 minute", "Auto-Lock", "Never"),
        ("XCUIElementTypeCell", "5 minutes", "Auto-Lock", "1 minute")]
    assert sim.state()["stores"][SETTINGS]["auto_lock"] == "5 minutes"


def test_typing_logs_the_text_and_the_focused_field(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    session(name="Search", className="SearchField").click()
    session.send_keys("wifi")
    typed = last(rig)
    assert dict(typed.params) == {"text": "wifi", "via": "keys"}
    assert typed.target is not None and typed.target.type == "XCUIElementTypeSearchField"
    assert typed.ok is True
    field = session(className="SearchField").get()
    field.clear_text()
    cleared = last(rig)
    assert dict(cleared.params) == {"text": "", "element": field.id, "via": "clear"}
    assert cleared.target is not None and cleared.target.value == "wifi"  # before the clear
    field.set_text("blue")
    assert dict(last(rig).params) == {"text": "blue", "element": field.id, "via": "element"}


def test_typing_after_a_read_that_shows_one_field_under_the_keyboard_costs_no_read(
        rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    session(name="Search", className="SearchField").click()
    wda.Client(rig.bridge.url).source()  # the client looks: one input, the keyboard up
    rig.sim.latency.tally.take()
    session.send_keys("wifi")
    typed = last(rig)
    assert json_sources(rig.sim) == 0  # the focus came from that look
    assert typed.target is not None and typed.target.type == "XCUIElementTypeSearchField"
    assert dict(typed.params) == {"text": "wifi", "via": "keys"}


def test_typing_after_a_json_look_that_shows_no_focus_asks_nothing_more(guarded: Rig) -> None:
    url = guarded.bridge.grant_agent(confined=True)
    session = wda.Client(url).session(SETTINGS)
    session.source()  # the launch's after
    session.source(format="json")  # no field has focus: the look says so
    guarded.sim.latency.tally.take()
    status, _, _ = request(url, "POST", f"/session/{session.session_id}/wda/keys",
                           b'{"value": ["w", "i"]}')
    assert status == 400 and json_sources(guarded.sim) == 0  # no keyboard: WDA refuses
    typed = actions(guarded.events("R"))[-1]
    assert typed.kind == "type" and typed.target is None


def test_typing_where_two_fields_show_asks_which_has_focus(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(LOGIN)
    session.tap(100, 230)  # the password field, under the user name field
    wda.Client(rig.bridge.url).source()  # two inputs: the XML cannot say which is typed into
    rig.sim.latency.tally.take()
    session.send_keys("hunter2")
    secret = last(rig)
    assert json_sources(rig.sim) == 1  # one JSON source, for the focus
    assert secret.params["text"] == "***" and secret.target is not None
    assert secret.target.type == "XCUIElementTypeSecureTextField"


def test_secure_fields_are_masked_and_the_text_never_written(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(LOGIN)
    session.tap(100, 170)  # the user name field
    session.send_keys("alice")
    user = last(rig)
    assert user.params["text"] == "alice" and user.target is not None
    session.tap(100, 230)  # the password field
    session.send_keys("hunter2")
    secret = last(rig)
    assert secret.params["text"] == "***" and secret.ok is True
    assert secret.target is not None
    assert (secret.target.type, secret.target.value) == ("XCUIElementTypeSecureTextField", "***")
    password = session(name="password").get()
    password.set_text("s3cret!")
    assert last(rig).params["text"] == "***"
    audit = rig.runs / "unscoped" / "audit.jsonl"
    assert leaked(audit, "hunter2", "s3cret") == [] and leaked(audit, "alice") != []


def test_home_buttons_swipes_urls_and_other_posts(rig: Rig) -> None:
    client = wda.Client(rig.bridge.url)
    session = client.session(SETTINGS)
    client.home()
    home = last(rig)
    assert (home.kind, dict(home.params), home.app_before, home.app_after) == (
        "home", {}, SETTINGS, SPRINGBOARD)
    session.press("home")
    assert (last(rig).kind, dict(last(rig).params)) == ("press", {"button": "home"})
    client.lock()
    client.unlock()
    locked, unlocked = actions(rig.events())[-2:]
    assert (locked.params["button"], unlocked.params["button"]) == ("lock", "unlock")
    session.app_launch(SETTINGS)
    session.swipe(200, 700, 200, 300, 0.1)
    assert dict(last(rig).params) == {"from_x": 200, "from_y": 700, "to_x": 200, "to_y": 300,
                                      "duration": 0.1, "gesture": "drag"}
    with pytest.raises(wda.WDAError):
        session.open_url("nosuchscheme:root=General")  # no app here opens it
    opened = last(rig)
    assert (opened.kind, opened.params["url"], opened.ok) == (
        "open_url", "nosuchscheme:root=General", False)
    assert "no installed app opens nosuchscheme" in opened.error
    with pytest.raises(wda.WDAError, match="copied last"):
        session.set_clipboard("copied")  # the owner's pasteboard: refused, on record
    refused = rig.events()[-1]
    assert refused.stage == "refused"
    assert str(refused.params["route"]).endswith("/wda/setPasteboard")
    session.press_duration("home", 1.0)  # performIoHidEvent: the Menu button, held 1 s
    hid = last(rig)
    assert (hid.kind, hid.params["button"], hid.ok) == ("press", "hid:12:64", True)
    assert rig.sim_state()["foreground"] == SPRINGBOARD
    client.session()  # a session without a bundle launches nothing, as FBSession does
    bare = last(rig)
    assert (bare.kind, dict(bare.params)) == ("other", {"route": "/session"})


def test_w3c_actions_are_logged_as_tap_or_swipe(rig: Rig) -> None:
    sid = wda.Client(rig.bridge.url).session(SETTINGS).session_id

    def perform(*steps: dict[str, object]) -> AuditEvent:
        body = {"actions": [{"type": "pointer", "id": "f", "parameters": {"pointerType": "touch"},
                             "actions": list(steps)}]}
        request(rig.bridge.url, "POST", f"/session/{sid}/actions", json.dumps(body).encode())
        return rig.intents()[-1]

    tap = perform({"type": "pointerMove", "x": 201, "y": 371}, {"type": "pointerDown"},
                  {"type": "pointerUp"})
    assert (tap.kind, tap.params["x"], tap.params["y"]) == ("tap", 201, 371)
    assert tap.target is not None and tap.target.label == "Wi-Fi"
    swipe = perform({"type": "pointerMove", "x": 200, "y": 700}, {"type": "pointerDown"},
                    {"type": "pointerMove", "x": 200, "y": 300, "duration": 100},
                    {"type": "pointerUp"})
    assert (swipe.kind, swipe.params["to_y"]) == ("swipe", 300)


def test_context_routes_scope_the_log_and_clear_back_to_unscoped(rig: Rig) -> None:
    base = rig.bridge.url
    body = {"run_id": "R7", "task_id": "settings.wifi", "attempt": 2, "phase": "setup"}
    status, answer = rig.control("POST", body)
    assert status == 200 and answer == body
    client = wda.Client(base)
    session = client.session(SETTINGS)
    rig.bridge.set_context("R7", "settings.wifi", 2, "agent")
    session.tap(300, 6)
    assert rig.control("GET")[1]["phase"] == "agent"
    assert rig.control("DELETE")[0] == 200
    client.home()
    scoped = rig.events("R7")
    assert [(e.phase, e.kind, e.task_id, e.attempt) for e in scoped if e.stage == "intent"] == [
        ("setup", "launch", "settings.wifi", 2), ("agent", "tap", "settings.wifi", 2)]
    (home,) = rig.intents("unscoped")
    assert (home.kind, home.run_id, home.phase, home.attempt, home.task_id) == (
        "home", "unscoped", "unscoped", 0, "")
    health = json.loads(request(base, "GET", "/phoneshell/bridge/health",
                                headers={CONTROL_HEADER: CONTROL_TOKEN})[2])["value"]
    assert health["last_foreground"] == SPRINGBOARD and health["actions_logged"] == 3
    assert health["context"]["run_id"] == "unscoped"
    status, bad = rig.control("POST", {"run_id": "../etc"})
    assert status == 400 and bad["error"] == "invalid argument"


def test_a_read_that_shows_a_change_nothing_logged_explains_is_a_custody_line(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    with rig.sim.lock:
        rig.sim.phone.launch(CALCULATOR)  # something acting outside the bridge
    assert session.app_current()["bundleId"] == CALCULATOR
    (custody,) = [e for e in rig.events() if e.stage == "custody"]
    assert (custody.app_before, custody.app_after) == (SETTINGS, CALCULATOR)
    assert custody.params["via"] == "GET /wda/activeAppInfo"
    assert "outside the bridge" in custody.error
    session.app_current()  # seen once: the same front app again is no new break
    assert [e.stage for e in rig.events()].count("custody") == 1


def test_tap_targets_can_be_switched_off_but_keys_are_always_resolved(sim: SimServer,
                                                                       tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    bridge, writer = start_bridge(sim, runs, resolve_targets=False)
    try:
        session = wda.Client(bridge.url).session(LOGIN)
        session.tap(100, 230)
        session.send_keys("pw")
        tap, keys = actions(Rig(sim, bridge, runs).events())[-2:]
        assert tap.kind == "tap" and tap.target is None
        assert keys.params["text"] == "***" and keys.target is not None
    finally:
        bridge.stop()
        writer.close()


def test_keys_with_no_focused_field_are_masked_while_a_password_field_shows(rig: Rig) -> None:
    sid = wda.Client(rig.bridge.url).session(LOGIN).session_id
    status, _, _ = request(rig.bridge.url, "POST", f"/session/{sid}/wda/keys",
                           b'{"value": ["p", "w"]}')
    refused = last(rig)
    assert status == 400 and refused.ok is False  # no keyboard: WDA refuses, as a phone does
    assert refused.params["text"] == "***" and refused.target is None


def test_the_keyboards_return_button_is_logged_as_the_keyboards(rig: Rig) -> None:
    """iOS draws Return as a Button inside the keyboard ("go" in Safari's address field): the
    log says so, tapped by id or at its point, and not for the tab overview's Done, which
    sends nothing typed."""
    session = wda.Client(rig.bridge.url).session("com.apple.mobilesafari")
    for by_id in (True, False):
        session(name="TabBarItemTitle").click()
        go = session(className="Button", name="Go").get(timeout=5)
        if by_id:
            go.tap()  # facebook-wda: tap() is by element id, click() at its centre
        else:
            session.tap(*go.bounds.center)
        logged = last(rig).target
        assert logged is not None and (logged.type, logged.label, logged.keyboard) == (
            "XCUIElementTypeButton", "go", True)
    session(name="TabOverviewButton").click()
    session(name="DoneButton").click()
    done = last(rig).target
    assert done is not None and done.label == "Done" and not done.keyboard


def test_the_keyboards_other_buttons_tapped_by_id_are_the_keyboards(rig: Rig) -> None:
    """Emoji and dictation sit on the keyboard too: tapped by id (aimed at their hit point, as
    a phone taps them), the log says so, and the field's editing goes on."""
    session = wda.Client(rig.bridge.url).session("com.apple.mobilesafari")
    session(name="TabBarItemTitle").click()
    for name in ("emoji", "dictation"):
        session(className="Button", name=name).get(timeout=5).tap()  # by element id
        logged = last(rig).target
        assert logged is not None and logged.keyboard, (name, logged)


def test_key_taps_are_masked_while_a_secure_field_has_focus(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(LOGIN)
    session.tap(100, 170)  # the user name field: its keys may be shown
    plain = session(className="Key", label="a").get(timeout=5)
    session.tap(*plain.bounds.center)
    shown = last(rig)
    assert shown.target is not None and (shown.target.type, shown.target.label) == (
        "XCUIElementTypeKey", "a")
    session.tap(100, 230)  # the password field
    for letter in "hun":  # a key by point (hit-tested in the source)
        key = session(className="Key", label=letter).get(timeout=5)
        session.tap(*key.bounds.center)
    session(className="Key", label="t").get(timeout=5).tap()  # and by element id
    keys = actions(rig.events())[-4:]
    assert [(k.kind, k.ok) for k in keys] == [("tap", True)] * 4
    masked = tgt("XCUIElementTypeKey", "***", "***", "***", "Log In")
    assert [k.target for k in keys] == [masked.model_copy(update={"keyboard": True})] * 4
    assert rig.sim.phone.focused is not None and rig.sim.phone.focused.text == "hunt"
    text = (rig.runs / "unscoped" / "audit.jsonl").read_text()
    assert all(f'"label":"{c}"' not in text for c in "hunt")


def test_typing_into_an_element_names_that_element_not_the_key_drawn_over_it(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(LOGIN)
    session.tap(100, 722)  # the PIN field: the keyboard comes up over it, and it keeps focus
    pin = session(name="pin").get(timeout=5)
    pin.set_text("4321")
    typed = last(rig)
    assert (typed.kind, typed.ok, typed.params["text"]) == ("type", True, "***")
    assert typed.target == tgt("XCUIElementTypeSecureTextField", "pin", "pin", "***", "Log In")
    user = session(name="user").get(timeout=5)
    user.set_text("alice")
    plain = last(rig)
    assert plain.params["text"] == "alice" and plain.target is not None
    assert (plain.target.type, plain.target.name) == ("XCUIElementTypeTextField", "user")
    status, _, _ = request(rig.bridge.url, "POST",
                           f"/session/{session.session_id}/element/no-such-id/value",
                           b'{"value": "hunter2"}')
    unread = last(rig)  # the element cannot be read: nothing proves it is not a password
    assert status == 404 and unread.params["text"] == "***" and unread.target is None
    audit = rig.runs / "unscoped" / "audit.jsonl"
    assert leaked(audit, "4321", "hunter2") == []
    assert leaked(audit, "alice") != []  # the check reads where a typed text would be


def test_closing_a_session_is_logged_as_terminating_its_app(rig: Rig) -> None:
    client = wda.Client(rig.bridge.url)
    session = client.session(SETTINGS)
    session.close()  # DELETE /session/:sid/: real WDA terminates the app it launched
    closed = last(rig)
    assert (closed.kind, dict(closed.params), closed.ok) == (
        "terminate", {"bundle_id": SETTINGS, "via": "delete_session"}, True)
    assert closed.app_before == SETTINGS
    status, _, _ = request(rig.bridge.url, "DELETE", f"/session/{session.session_id}")
    again = last(rig)  # the session is gone: WDA refuses, and the attempt is on record
    assert status == 404 and (again.kind, again.ok) == ("terminate", False)
    assert dict(again.params) == {"via": "delete_session"}
    bare = client.session()
    bare.close()  # a session opened with no app names none
    assert dict(last(rig).params) == {"via": "delete_session"}
    assert request(rig.bridge.url, "DELETE", f"/session/{bare.session_id}/actions")[0] == 404
    assert last(rig).seq == closed.seq + 3  # releasing held keys is not an action


def test_appium_settings_are_logged_as_other_with_the_names_changed(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    assert session.appium_settings()["snapshotMaxDepth"] == 50  # reading them is a read
    before = len(rig.intents())
    # WDA's default typing speed is let through (Appium sends it with every session)
    session.appium_settings({"mjpegServerFramerate": 5, "maxTypingFrequency": 60})
    changed = last(rig)
    assert len(rig.intents()) == before + 1
    assert (changed.kind, dict(changed.params), changed.ok) == (
        "other", {"route": "/appium/settings",
                  "settings": "mjpegServerFramerate,maxTypingFrequency"}, True)
    # one that would cut every page source short, or slow the harness's own typing, is
    # refused, logged, and never reaches WDA
    for kept in ({"snapshotMaxDepth": 2}, {"maxTypingFrequency": 1}):
        with pytest.raises(wda.WDARequestError, match=next(iter(kept))):
            session.appium_settings(kept)
    settings = session.appium_settings()
    assert (settings["snapshotMaxDepth"], settings["maxTypingFrequency"]) == (50, 60)
    refused = [e for e in rig.events() if e.stage == "refused"]
    assert [e.error.split(" change ")[0] for e in refused] == [
        "the WDA settings snapshotMaxDepth", "the WDA settings maxTypingFrequency"]


def test_a_tap_on_the_strip_below_the_keys_is_the_keyboards(rig: Rig) -> None:
    """The view holding the keyboard reaches the screen's bottom (the iOS 26 dumps): a tap
    between the globe and dictation is the keyboard's, not the tab bar's under it (a red team's
    tap in Books' search was logged as its Library tab)."""
    session = wda.Client(rig.bridge.url).session("com.apple.iBooks")
    session(label="Search", className="XCUIElementTypeButton").click()
    session(className="XCUIElementTypeSearchField").click()
    session.send_keys("Moby Dick")
    session.tap(150, 820)
    logged = last(rig).target
    assert logged is not None and logged.keyboard and logged.label != "Library", logged


@pytest.mark.parametrize(("app", "path", "point", "under"), [
    ("com.apple.reminders", ("New Reminder",), (100, 545), "Reminders, 19"),
    ("com.apple.mobiletimer", ("Alarms", "Add"), (110, 800), "Alarms"),
])
def test_a_tap_on_a_sheets_blank_area_is_not_the_control_under_the_sheet(
        rig: Rig, app: str, path: tuple[str, ...], point: tuple[int, int], under: str) -> None:
    """A page presented over a list (an unnamed Other with a navigation bar of its own) takes
    every touch in its frame: two red teams' taps on its blank area were logged as the rows
    and tab bar beneath, which the phone never touched."""
    session = wda.Client(rig.bridge.url).session(app)
    for label in path:
        session(label=label, className="XCUIElementTypeButton").get(timeout=5).click()
    session.tap(*point)
    logged = last(rig).target
    assert logged is not None and logged.label != under, logged
