"""Phone state: UI state per launch, stores that outlive terminate, save, load and reset."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import urllib.request

import pytest
import wda
from cli_process import send_stop

from phoneshell.errors import PhoneshellError
from phoneshell.sim import DeviceFacts, SimServer

SETTINGS = "com.apple.Preferences"


def wifi_value(session: wda.Client) -> str:
    return session(label="Wi-Fi", className="Button").get(timeout=1).value


def switch_wifi_off(session: wda.Client) -> None:
    session(label="Wi-Fi", className="Button").click()
    # The knob inside the row-wide switch: only it toggles, as on a phone.
    session(xpath="//XCUIElementTypeSwitch[@label='Wi-Fi']/XCUIElementTypeSwitch").click()
    session(name="BackButton").click()


def test_ui_state_survives_the_background_not_terminate(client, app):
    app.app_launch(SETTINGS)
    app(name="General").click()
    client.home()
    app.app_launch(SETTINGS)  # launch of a running app activates it, as WDA does
    assert app(name="About").exists
    app.app_terminate(SETTINGS)
    app.app_launch(SETTINGS)
    assert not app(name="About").exists


def test_store_survives_terminate(client):
    session = client.session(SETTINGS)
    switch_wifi_off(session)
    session.app_terminate(SETTINGS)
    session.app_launch(SETTINGS)
    assert wifi_value(session) == "Off"
    session = client.session(SETTINGS)  # a new session restarts the app: still off
    assert wifi_value(session) == "Off"


def test_state_route(sim, client, raw):
    client.app_launch(SETTINGS)
    state = raw("GET", "/phoneshell/sim/state").json
    assert state["foreground"] == SETTINGS
    assert SETTINGS in state["running"] and state["locked"] is False
    assert state["facts"]["model_number"] == "MQ163LL/A"


def test_reset_route_boots_a_fresh_phone(sim, client, raw):
    session = client.session(SETTINGS)
    switch_wifi_off(session)
    assert sim.state()["stores"][SETTINGS] == {"wifi": False}
    reply = raw("POST", "/phoneshell/sim/reset")
    assert reply.status == 200 and reply.json["foreground"] == "com.apple.springboard"
    assert reply.json["stores"] == {} and reply.json["running"] == ["com.apple.springboard"]
    session = client.session(SETTINGS)
    assert wifi_value(session) == "HomeNet"


def test_save_and_load_state_file(tmp_path):
    path = tmp_path / "phone.json"
    with SimServer(state_file=path) as sim:
        switch_wifi_off(wda.Client(sim.url).session(SETTINGS))
    saved = json.loads(path.read_text())
    assert saved == {"version": 1, "stores": {SETTINGS: {"wifi": False}}, "clock_s": 0.0}
    with SimServer(state_file=path) as sim:
        assert wifi_value(wda.Client(sim.url).session(SETTINGS)) == "Off"


def test_a_timer_kept_in_the_state_file_runs_on_from_where_it_stood(tmp_path):
    path = tmp_path / "phone.json"
    with SimServer(state_file=path) as sim:
        sim.advance_clock(1000)  # the clock a timer's end is read on
        clock = wda.Client(sim.url).session("com.apple.mobiletimer")
        clock(name="Timers").click()
        clock(name="Start").click()  # 15 minutes, ending at 1,900 s
        sim.advance_clock(60)
    saved = json.loads(path.read_text())
    assert saved["clock_s"] == 1060.0
    with SimServer(state_file=path) as sim:
        sim.advance_clock(1)
        clock = wda.Client(sim.url).session("com.apple.mobiletimer")
        assert clock(label="13:59").exists  # not 31:39, as a clock started again at 0 would say


def test_state_file_sets_device_facts_that_survive_a_save_and_restart(tmp_path):
    path = tmp_path / "phone.json"
    path.write_text(json.dumps({"version": 1, "stores": {}, "facts": {"serial": "ABC123"}}))
    with SimServer(state_file=path):
        pass  # loads the facts, then saves on stop
    assert json.loads(path.read_text())["facts"] == {"serial": "ABC123"}
    with SimServer(state_file=path) as sim:
        assert sim.state()["facts"]["serial"] == "ABC123"
        session = wda.Client(sim.url).session(SETTINGS)
        session(name="General").click()
        session(name="About").click()
        assert session(name="SerialNumber").get(timeout=1).label == "Serial Number, ABC123"


def test_facts_given_in_python_are_saved_as_overrides(tmp_path):
    path = tmp_path / "phone.json"
    SimServer(state_file=path, facts=DeviceFacts(name="Test Phone", battery_level=0.5)).save()
    assert json.loads(path.read_text())["facts"] == {"name": "Test Phone", "battery_level": 0.5}


def test_save_route(sim, raw, tmp_path):
    target = tmp_path / "saved.json"
    # A request may not choose the file: it would write wherever the simulator's user can.
    refused = raw("POST", "/phoneshell/sim/save", {"path": str(target)})
    assert refused.status == 400 and "takes no path" in refused.json["error"]
    assert not target.exists()
    nowhere = raw("POST", "/phoneshell/sim/save")
    assert nowhere.status == 400 and "no state file" in nowhere.json["error"]
    assert raw("GET", "/phoneshell/sim/nope").status == 404


def test_the_save_route_writes_the_state_file_it_was_started_with(tmp_path):
    path = tmp_path / "phone.json"
    with SimServer(state_file=path) as sim:
        reply = urllib.request.urlopen(urllib.request.Request(
            f"{sim.url}/phoneshell/sim/save", data=b"{}", method="POST"))
        assert json.loads(reply.read())["saved"] == str(path)
    assert json.loads(path.read_text())["version"] == 1


@pytest.mark.parametrize("content", ["not json", '{"version": 9}', '{"version": 1, "stores": []}',
                                     '{"version": 1, "facts": {"scale": "big"}}',
                                     '{"version": 1, "facts": {"colour": "red"}}'])
def test_bad_state_files_are_user_errors(tmp_path, content):
    path = tmp_path / "phone.json"
    path.write_text(content)
    with pytest.raises(PhoneshellError):
        SimServer(state_file=path).start()


def test_state_persists_across_sessions_in_one_process(sim):
    first = wda.Client(sim.url).session(SETTINGS)
    switch_wifi_off(first)
    first.close()
    second = wda.Client(sim.url).session(SETTINGS)
    assert wifi_value(second) == "Off"


@pytest.mark.parametrize("taken_by", ["main", "another"])
def test_run_serves_until_terminated_and_saves(tmp_path, taken_by):
    # `phoneshell sim` as a process: it prints its URL, serves, and saves state on SIGTERM,
    # whichever of its threads takes it (its main one slept through one its server's took).
    path = tmp_path / "phone.json"
    process = subprocess.Popen([sys.executable, "-m", "phoneshell", "sim", "--port", "0",
                                "--state", str(path)], stdout=subprocess.PIPE, text=True)
    try:
        first = process.stdout.readline() if process.stdout else ""
        url = first.split(" at ")[1].split(";")[0]
        assert wda.Client(url).status()["ready"] is True
        send_stop(process, signal.SIGTERM, taken_by)
        assert process.wait(timeout=10) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        if process.stdout:
            process.stdout.close()
    assert json.loads(path.read_text())["version"] == 1
