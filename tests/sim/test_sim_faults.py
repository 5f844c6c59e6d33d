"""Each fault switch: at start, at runtime over HTTP and from Python, and what clients see."""

from __future__ import annotations

import time

import pytest
import wda
from lxml import etree
from wda.usbmux.exceptions import HTTPError

from phoneshell.errors import PhoneshellError
from phoneshell.sim import SimServer

SETTINGS = "com.apple.Preferences"
SPRINGBOARD = "com.apple.springboard"


def test_locked_phone_answers_but_changes_nothing(sim, client, app):
    app.app_launch(SETTINGS)
    sim.fault_on("locked")
    assert client.locked() is True
    assert client.app_current()["bundleId"] == SPRINGBOARD
    assert app(name="Flashlight").exists  # the lock screen shows
    before = client.source()
    app.tap(201, 300)
    app.swipe(201, 10, 201, 600)
    client.home()
    app.app_launch("com.apple.calculator")
    client.unlock()  # does nothing while the fault holds
    assert client.locked() is True
    assert client.source() == before
    sim.fault_off("locked")
    assert client.locked() is False
    assert client.app_current()["bundleId"] == SETTINGS


def test_locked_from_the_start():
    with SimServer(faults=["locked"]) as sim:
        client = wda.Client(sim.url)
        session = client.session()  # the client tries /wda/unlock, which does nothing
        assert client.locked() is True
        assert session.tap(100, 100).value is None


def test_drop_writes_ignores_input_but_reads_and_launches(sim, client, app):
    app.app_launch(SETTINGS)
    sim.fault_on("drop-writes")
    before = client.source()
    app(name="General").click()
    app.swipe_up()
    client.home()
    app.press("home")
    assert client.source() == before
    assert client.app_current()["bundleId"] == SETTINGS
    app.app_launch("com.apple.calculator")  # launches still work
    assert client.app_current()["bundleId"] == "com.apple.calculator"


def test_locked_session_with_a_bundle_changes_nothing(sim, client, app):
    app.app_launch(SETTINGS)
    app(name="General").click()
    pid = client.app_current()["pid"]
    sim.fault_on("locked")
    client.session(SETTINGS)  # forceAppLaunch would restart it; a locked phone launches nothing
    assert SETTINGS in sim.state()["running"]
    sim.fault_off("locked")
    front = client.app_current()
    assert (front["bundleId"], front["pid"]) == (SETTINGS, pid)
    assert client(name="About").exists  # still on the page it was on


def test_drop_writes_keeps_a_bare_session_from_going_home(sim, client, app):
    app.app_launch(SETTINGS)
    sim.fault_on("drop-writes")
    client.session()  # going home is a write, like the home button
    assert client.app_current()["bundleId"] == SETTINGS


def test_drop_writes_ignores_keys(sim, client):
    session = client.session(SETTINGS)
    session(className="SearchField").click()
    sim.fault_on("drop-writes")
    session.send_keys("Wi")
    assert session(className="SearchField").get(timeout=1).value == "Search"


def test_stale_session(sim, client, app, raw):
    sim.fault_on("stale-session")
    reply = raw("GET", f"/session/{app.session_id}/window/size")
    assert reply.status == 404 and reply.value["error"] == "invalid session id"
    assert raw("GET", "/status").json["sessionId"] is None
    with pytest.raises((RuntimeError, wda.WDAInvalidSessionIdError)):
        app.window_size()
    sim.fault_off("stale-session")
    assert client.window_size() == (402, 874)


def test_truncated_source(sim, client):
    client.app_launch(SETTINGS)
    whole = client.source()
    sim.fault_on("truncated-source")
    cut = client.source()
    assert whole.startswith(cut)
    assert 0.55 < len(cut.encode()) / len(whole.encode()) < 0.65
    with pytest.raises(etree.XMLSyntaxError):
        etree.fromstring(cut.encode())
    assert client.source(format="json")["type"] == "Application"


def test_truncated_source_in_one_app_only(sim, client):
    """A screen too big for WDA to write out: only that app's sources are cut off."""
    sim.fault_on(f"truncated-source={SETTINGS}")
    assert sim.faults.specs() == [f"truncated-source={SETTINGS}"]
    etree.fromstring(client.source().encode())  # the home screen: whole
    client.app_launch(SETTINGS)
    with pytest.raises(etree.XMLSyntaxError):
        etree.fromstring(client.source().encode())
    client.home()
    etree.fromstring(client.source().encode())


def test_slow_adds_latency_to_wda_routes_only(sim, client, raw):
    delay_s = 1.0
    sim.fault_on(f"slow={delay_s:g}")
    assert sim.faults.specs() == ["slow=1"]
    started = time.monotonic()
    client.status()
    assert time.monotonic() - started >= delay_s  # the wait comes before the answer
    started = time.monotonic()
    raw("GET", "/phoneshell/sim/faults")
    # Not slowed: it answers without waiting the delay (a whole second of margin for a loaded
    # machine, where a loopback request takes milliseconds).
    assert time.monotonic() - started < delay_s


def test_gone_refuses_connections_until_the_python_api_brings_it_back(sim):
    client = wda.Client(sim.url)
    assert client.is_ready()
    sim.fault_on("gone")
    assert client.is_ready() is False
    with pytest.raises(HTTPError):
        client.status()
    sim.fault_off("gone")
    assert client.is_ready()


def test_faults_over_the_control_route(sim, raw):
    reply = raw("POST", "/phoneshell/sim/faults", {"on": ["locked", "slow=0"]})
    assert reply.status == 200 and reply.json["faults"] == ["locked", "slow=0"]
    assert raw("GET", "/wda/locked").value is True
    assert raw("POST", "/phoneshell/sim/faults", {"off": ["locked"]}).json["faults"] == ["slow=0"]
    assert raw("POST", "/phoneshell/sim/faults", {"faults": []}).json["faults"] == []
    assert raw("GET", "/phoneshell/sim/faults").json == {"faults": []}
    bad = raw("POST", "/phoneshell/sim/faults", {"on": ["melted"]})
    assert bad.status == 400 and "unknown fault" in bad.json["error"]


def test_gone_over_the_control_route(sim, raw):
    reply = raw("POST", "/phoneshell/sim/faults", {"on": ["gone"]})
    assert reply.status == 200
    assert wda.Client(sim.url).is_ready() is False
    sim.set_faults([])
    assert wda.Client(sim.url).is_ready()


@pytest.mark.parametrize("spec", ["melted", "slow=fast", "locked=1", "slow=-1", "hiccups",
                                  "hiccups=0", "hiccups=two", "unreadable"])
def test_bad_fault_names_are_user_errors(spec):
    with pytest.raises(PhoneshellError):
        SimServer(faults=[spec])


def test_unreadable_makes_one_apps_screens_unreadable(sim, client):
    """A screen WDA chokes on: sources and screenshots fail while that app is in front."""
    sim.fault_on(f"unreadable={SETTINGS}")
    assert sim.faults.specs() == [f"unreadable={SETTINGS}"]
    client.source()  # the home screen reads
    client.app_launch(SETTINGS)
    for read in (client.source, lambda: client.source(format="json"), client.screenshot):
        with pytest.raises(wda.WDAError):
            read()
    client.home()
    client.source()


def test_screenshot_fails_refuses_screenshots_only(sim, client, raw):
    """A phone whose screenshots broke: every screenshot answers WDA's error for one XCTest could
    not take; sources still read. With a bundle id, only while that app is in front."""
    sim.fault_on("screenshot-fails")
    reply = raw("GET", "/screenshot")
    assert reply.status == 500 and reply.json["value"]["error"] == "unable to capture screen"
    assert etree.fromstring(client.source().encode()) is not None
    sim.fault_on(f"screenshot-fails={SETTINGS}")
    assert sim.faults.specs() == [f"screenshot-fails={SETTINGS}"]
    assert client.screenshot() is not None  # the home screen's is taken
    client.app_launch(SETTINGS)
    with pytest.raises(wda.WDAError):
        client.screenshot()
    client.source()


def test_hiccups_fail_the_next_reads_then_switch_themselves_off(sim, client, raw):
    """A real phone's WDA fails a read now and then and serves it a moment later: the next N
    page sources (any format) and screenshots fail, whoever asks, then the fault is off."""
    sim.fault_on("hiccups=3")
    failed = [raw("GET", "/source").json["value"]["error"],
              raw("GET", "/source?format=json").json["value"]["error"],
              raw("GET", "/screenshot").json["value"]["error"]]
    assert failed == ["unknown error", "unknown error", "unable to capture screen"]
    assert sim.faults.specs() == [] and not sim.faults.on("hiccups")
    client.source()
    client.screenshot()
