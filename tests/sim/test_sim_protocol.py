"""The simulator speaks WDA's wire protocol: envelope, errors, sessions, and every device route."""

from __future__ import annotations

import base64
import json
import threading

import pytest
import wda

from phoneshell.sim import SimServer

SETTINGS = "com.apple.Preferences"
CALCULATOR = "com.apple.calculator"
SPRINGBOARD = "com.apple.springboard"


def test_status_envelope_is_wdas(raw):
    reply = raw("GET", "/status")
    assert reply.status == 200
    assert reply.headers["Content-Type"] == "application/json;charset=UTF-8"
    assert int(reply.headers["Content-Length"]) == len(reply.text.encode())
    assert reply.text.startswith("{\n  ")  # pretty-printed, as WDA prints it
    assert set(reply.json) == {"value", "sessionId"}  # no JSONWP "status"
    assert reply.json["sessionId"] is None
    assert reply.value["ready"] is True
    assert reply.value["os"]["version"] == "26.2"


def test_status_reports_the_active_session_at_top_level(client, app):
    assert client.status()["sessionId"] == app.session_id
    assert client.healthcheck().value is None


def test_the_health_check_presses_home_as_wda_does(client, sim):
    """WDA's handleGetHealthCheck presses Home (fb_deviceInteractionCheck): facebook-wda's
    `healthcheck()` sends the app in front away, and the simulator counts it as an input, as
    the bridge logs it (red team 84)."""
    client.session(SETTINGS)
    inputs, _ = sim.ledger()
    assert client.healthcheck().value is None
    assert client.app_current()["bundleId"] == SPRINGBOARD
    assert [e["route"] for e in sim.ledger(inputs)[1]] == ["GET /wda/healthcheck"]


def test_health_page_says_alive(raw):
    reply = raw("GET", "/health")
    assert reply.status == 200 and "I-AM-ALIVE" in reply.text
    assert reply.headers["Content-Type"].startswith("text/html")


def test_unknown_route_is_unknown_command(raw):
    reply = raw("GET", "/wda/no/such/thing")
    assert reply.status == 404
    assert reply.value["error"] == "unknown command"
    assert set(reply.value) == {"error", "message", "traceback"}


def test_session_without_bundle_leaves_the_front_app_alone(client):
    # FBSession launches nothing without a bundle id: the phone stays where it is.
    client.app_launch(SETTINGS)
    client(name="General").click()
    client.session()
    assert client.app_current()["bundleId"] == SETTINGS
    assert client(name="About").exists


def test_session_with_bundle_launches_it_afresh(client):
    session = client.session(SETTINGS)
    session(name="General").click()
    assert session(label="About").exists
    fresh = client.session(SETTINGS)
    assert client.app_current()["bundleId"] == SETTINGS
    assert not fresh(label="About").exists  # forceAppLaunch restarted it at the root list
    assert fresh.bundle_id == SETTINGS  # GET /session/:sid/ with a trailing slash


def test_new_session_replaces_the_old_one(sim, client, raw):
    first = client.session()
    second = client.session()
    assert first.session_id != second.session_id
    stale = raw("GET", f"/session/{first.session_id}/window/size")
    assert stale.status == 404
    assert stale.value["error"] == "invalid session id"
    assert stale.json["sessionId"] == second.session_id
    # The root client re-resolves the session from /status; a session client cannot.
    assert client.window_size() == (402, 874)
    with pytest.raises(RuntimeError, match="call depth"):
        first.window_size()


def test_close_ends_the_session(client, raw):
    session = client.session()
    session.close()  # DELETE /session/:sid/ (trailing slash)
    assert raw("GET", "/status").json["sessionId"] is None


def test_session_free_and_session_forms(app, raw):
    sid = app.session_id
    for path in ("/wda/activeAppInfo", "/source", "/wda/locked", "/wda/device/info",
                 "/screenshot", "/wda/screen", "/window/size", "/orientation", "/rotation"):
        assert raw("GET", path).status == 200, path
        assert raw("GET", f"/session/{sid}{path}").status == 200, path
    # WDA registers the health check and home without a session only...
    for method, path in (("GET", "/wda/healthcheck"), ("POST", "/wda/homescreen")):
        assert raw(method, path).status == 200, path
        assert raw(method, f"/session/{sid}{path}").value["error"] == "unknown command", path
    # ...and pressButton, apps/*, tap, keys and elements with one only.
    assert raw("POST", "/wda/tap", {"x": 1, "y": 1}).status == 404
    assert raw("POST", f"/session/{sid}/wda/tap", {"x": 1, "y": 1}).status == 200


def test_app_lifecycle(client, app):
    assert app.app_state(SETTINGS).value == 1
    app.app_launch(SETTINGS)
    assert app.app_state(SETTINGS).value == 4
    app.app_activate(CALCULATOR)
    assert app.app_state(SETTINGS).value == 3
    assert client.app_current()["bundleId"] == CALCULATOR
    # The active apps: the one in front first, then SpringBoard, which is always active.
    assert [a["bundleId"] for a in app.app_list()] == [CALCULATOR, SPRINGBOARD]
    assert app.app_terminate(SETTINGS).value is True
    assert app.app_terminate(SETTINGS).value is False
    assert app.app_state(SETTINGS).value == 1


def test_launching_an_unknown_app_is_an_invalid_argument(app, raw):
    # XCTest raises its missing-application exception, which WDA answers as invalid argument.
    with pytest.raises(wda.WDARequestError) as caught:
        app.app_launch("com.example.missing")
    assert caught.value.value["error"] == "invalid argument"
    assert "'com.example.missing' is not installed" in caught.value.value["message"]
    reply = raw("POST", "/session", {"capabilities": {"alwaysMatch": {
        "bundleId": "com.example.missing"}}})
    assert (reply.status, reply.value["error"]) == (500, "session not created")


def test_activate_route_and_app_info(app, raw):
    sid = app.session_id
    assert raw("POST", f"/session/{sid}/wda/apps/activate", {"bundleId": SETTINGS}).status == 200
    info = raw("GET", "/wda/activeAppInfo").value
    assert info["bundleId"] == SETTINGS and info["name"] == ""
    assert info["processArguments"] == {"args": [], "env": {}}


def test_home_and_press_buttons(sim, client, app, raw):
    app.app_launch(SETTINGS)
    client.home()
    assert client.app_current()["bundleId"] == SPRINGBOARD
    app.app_launch(SETTINGS)
    app.press("home")
    assert client.app_current()["bundleId"] == SPRINGBOARD
    volume = sim.state()["volume"]
    app.press("volumeUp")
    assert sim.state()["volume"] == volume + 1
    app.press("volumeDown")
    app.press("volumeDown")
    assert sim.state()["volume"] == volume - 1
    bad = raw("POST", f"/session/{app.session_id}/wda/pressButton", {"name": "power"})
    assert bad.status == 500 and bad.value["error"] == "unknown error"
    # WDA looks the name up lower-cased (XCUIDevice+FBHelpers fb_pressButton:error:)
    raw("POST", f"/session/{app.session_id}/wda/pressButton", {"name": "VOLUMEUP"})
    assert sim.state()["volume"] == volume
    app.app_launch(SETTINGS)
    raw("POST", f"/session/{app.session_id}/wda/pressButton", {"name": "Home"})
    assert client.app_current()["bundleId"] == SPRINGBOARD


def test_buttons_pressed_as_iohid_events(sim, client, app, raw):
    """WDA plays any IOHID event (page, usage) XCTest is given; the phone acts on its buttons:
    consumer page 0x0C, Menu (home), Volume Increment and Decrement, Power (locks)."""
    def hid(page, usage):
        reply = raw("POST", f"/session/{app.session_id}/wda/performIoHidEvent",
                    {"page": page, "usage": usage, "duration": 0.005})
        assert reply.status == 200 and reply.value is None

    app.app_launch(SETTINGS)
    hid(0x0C, 0x40)
    assert client.app_current()["bundleId"] == SPRINGBOARD
    volume = sim.state()["volume"]
    hid(0x0C, 0xE9)
    assert sim.state()["volume"] == volume + 1
    hid(0x0C, 0xEA)
    hid(7, 4)  # a keyboard's "a" with no field to take it: played, nothing happens
    assert sim.state()["volume"] == volume and client.locked() is False
    hid(0x0C, 0x30)
    assert client.locked() is True


def test_an_accessibility_audit_finds_nothing_and_refuses_unknown_types(app, raw):
    route = f"/session/{app.session_id}/wda/performAccessibilityAudit"
    for body in ({}, {"auditTypes": []}, {"auditTypes": ["XCUIAccessibilityAuditTypeContrast",
                                                         "XCUIAccessibilityAuditTypeAll"]}):
        reply = raw("POST", route, body)
        assert reply.status == 200 and reply.value == [], body
    bad = raw("POST", route, {"auditTypes": ["Contrast"]})  # WDA wants the full name
    assert bad.status == 400 and bad.value["error"] == "invalid argument"
    assert "'Contrast' is not known" in bad.value["message"]


def test_lock_and_unlock(client):
    assert client.locked() is False
    client.lock()
    assert client.locked() is True
    assert client.app_current()["bundleId"] == SPRINGBOARD
    client.unlock()
    assert client.locked() is False


def test_geometry_routes(app):
    assert app.window_size() == (402, 874)
    assert app.scale == 3
    assert app.orientation == "PORTRAIT"
    info = app.device_info()
    assert info["name"] == "iPhone" and info["isSimulator"] is False
    assert app.battery_info() == {"level": 0.87, "state": 1}


def test_settings_does_not_turn(app, raw):
    app.app_launch(SETTINGS)
    reply = raw("POST", f"/session/{app.session_id}/orientation", {"orientation": "LANDSCAPE"})
    assert (reply.status, reply.value) == (500, {"error": "unknown error", "traceback": "",
                                                 "message": "Unable To Rotate Device"})
    assert app.orientation == "PORTRAIT" and app.window_size() == (402, 874)


def test_appium_settings_round_trip(app):
    assert app.appium_settings()["snapshotMaxDepth"] == 50
    assert app.appium_settings({"snapshotMaxDepth": 30})["snapshotMaxDepth"] == 30
    assert app.appium_settings()["snapshotMaxDepth"] == 30


def test_keys_without_focus_fail_like_wda(app, raw):
    reply = raw("POST", f"/session/{app.session_id}/wda/keys", {"value": ["h", "i"]})
    assert reply.status == 400
    assert reply.value["error"] == "invalid element state"
    assert "keyboard must be present to send keys" in reply.value["message"]
    # facebook-wda recognises WDA's words (send_keys retries on them, sleeping 2 s in all).
    with pytest.raises(wda.WDAKeyboardNotPresentError):
        app._session_http.post("/wda/keys", {"value": ["h", "i"]})


def test_bad_requests_are_invalid_arguments(app, raw):
    sid = app.session_id
    missing = raw("POST", f"/session/{sid}/wda/tap", {"x": 10})
    assert missing.status == 400 and missing.value["error"] == "invalid argument"
    garbled = raw("POST", f"/session/{sid}/wda/tap", data=b"{not json")
    assert garbled.status == 400 and garbled.value["error"] == "invalid argument"
    fmt = raw("GET", "/source?format=yaml")
    assert fmt.status == 400 and fmt.value["error"] == "invalid argument"


def test_screenshot_route_is_base64_png(raw):
    value = raw("GET", "/screenshot").value
    assert "\n" not in value and not value.startswith("data:")
    assert base64.b64decode(value).startswith(b"\x89PNG\r\n\x1a\n")


def test_open_url_goes_to_the_app_for_the_scheme(probe_sim):
    client = wda.Client(probe_sim.url)
    session = client.session()
    session.open_url("probe://example.com/")
    assert client.app_current()["bundleId"] == "com.example.probe"
    assert session(name="page-url").get(timeout=1).label == "probe://example.com/"


def test_open_url_without_an_app_for_it(app, raw):
    reply = raw("POST", f"/session/{app.session_id}/url", {"url": "nosuchapp://example.com"})
    assert reply.status == 500 and reply.value["error"] == "unknown error"


def test_alerts(probe_sim):
    client = wda.Client(probe_sim.url)
    session = client.session("com.example.probe")
    assert session.alert.exists is False
    with pytest.raises(wda.WDARequestError) as caught:
        session.alert.text  # noqa: B018 - the property makes the request
    assert caught.value.value["error"] == "no such alert"
    session(name="Show Alert").click()
    assert session.alert.exists
    assert session.alert.text == "Allow Access?\nThe probe wants to know."
    assert session.alert.buttons() == ["Cancel", "Allow"]
    session.tap(100, 222)  # "Show Alert" is behind the backdrop: nothing happens
    assert session.alert.exists
    session.alert.accept()
    assert session.alert.exists is False
    state = probe_sim.phone.running_state("com.example.probe")
    assert state.answers == ["Allow"]
    session(name="Show Alert").click()
    session.alert.dismiss()
    assert state.answers == ["Allow", "Cancel"]


def test_server_answers_in_parallel(sim):
    # Many clients at once: the lock serialises work on the phone without deadlock.
    errors: list[BaseException] = []

    def poll() -> None:
        try:
            for _ in range(5):
                json.dumps(wda.Client(sim.url).source(format="json"))
        except BaseException as exc:  # noqa: BLE001 - reported by the assert below
            errors.append(exc)

    threads = [threading.Thread(target=poll) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_url_names_the_bound_port():
    with SimServer() as server:
        assert server.url.startswith("http://127.0.0.1:")
        assert not server.url.endswith(":0")
        assert wda.Client(server.url).is_ready()
