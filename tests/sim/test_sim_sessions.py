"""Session lifetime: ending or replacing a session terminates its app, as WDA's FBSession kill does.

WDA remembers the session's app under test and its `shouldTerminateApp` capability (default
true); deleting the session, or creating a new one (which kills the old one first), terminates
that app. `forceAppLaunch: false` brings a running app forward with its state: that is how the
harness (phoneshell/device/phone.py `_session`) adopts the app in front without disturbing it.
"""

from __future__ import annotations

from typing import Any

import wda

from phoneshell.sim import SimServer

SETTINGS = "com.apple.Preferences"
CALCULATOR = "com.apple.calculator"
SPRINGBOARD = "com.apple.springboard"
ADOPT = {"forceAppLaunch": False, "shouldTerminateApp": False, "shouldWaitForQuiescence": False}
"""The capabilities the harness adds to the front app's bundle id to adopt it."""


def running(sim: SimServer) -> list[str]:
    return sim.state()["running"]


def new_session(raw, **caps: Any) -> str:
    """POST /session with W3C capabilities, as the harness sends them; return the id."""
    reply = raw("POST", "/session", {"capabilities": {"alwaysMatch": caps}})
    assert reply.status == 200, reply.json
    return reply.json["sessionId"]


def open_general(client: wda.Client) -> int:
    """Settings in front on its General page (through a session without an app); its pid."""
    client.app_launch(SETTINGS)
    client(name="General").click()
    assert client(name="About").exists
    return client.app_current()["pid"]


def test_deleting_a_session_terminates_its_app(sim, client):
    session = client.session(SETTINGS)
    assert SETTINGS in running(sim)
    session.close()
    assert SETTINGS not in running(sim)
    assert client.app_current()["bundleId"] == SPRINGBOARD


def test_replacing_a_session_terminates_its_app(sim, client):
    client.session(SETTINGS)
    client.session(CALCULATOR)
    assert SETTINGS not in running(sim)
    assert client.app_current()["bundleId"] == CALCULATOR


def test_should_terminate_app_false_keeps_it_running(sim, client, raw):
    sid = new_session(raw, bundleId=SETTINGS, shouldTerminateApp=False)
    assert raw("DELETE", f"/session/{sid}").status == 200
    assert SETTINGS in running(sim)
    new_session(raw, bundleId=SETTINGS, shouldTerminateApp=False)
    client.session(CALCULATOR)  # replaced: still not terminated
    assert SETTINGS in running(sim)


def test_a_session_without_an_app_terminates_nothing(sim, client):
    session = client.session()
    session.app_launch(SETTINGS)
    session.close()
    assert SETTINGS in running(sim)


def test_the_harness_adopts_the_front_app_in_its_state(sim, client, raw):
    pid = open_general(client)
    client.close()  # a session without an app: nothing is terminated
    new_session(raw, bundleId=SETTINGS, **ADOPT)
    front = client.app_current()  # forceAppLaunch false activates: same process, same page
    assert (front["bundleId"], front["pid"]) == (SETTINGS, pid)
    assert client(name="About").exists
    client.session()  # an agent's own session replaces the harness's: the app lives on
    assert SETTINGS in running(sim)
    client.app_launch(SETTINGS)
    assert client.app_current()["pid"] == pid and client(name="About").exists


def test_force_app_launch_false_brings_a_background_app_forward(client, raw):
    pid = open_general(client)
    client.home()
    new_session(raw, bundleId=SETTINGS, forceAppLaunch=False)
    front = client.app_current()
    assert (front["bundleId"], front["pid"]) == (SETTINGS, pid)
    assert client(name="About").exists


def test_the_old_session_ends_before_the_new_one_launches(sim, client, raw):
    # WDA kills the old session first: its app is terminated, then the new session's launch
    # starts it afresh (ending the old session last would kill the app just launched).
    session = client.session(SETTINGS)
    session(name="General").click()
    new_session(raw, bundleId=SETTINGS, **ADOPT)
    assert client.app_current()["bundleId"] == SETTINGS
    assert client(name="com.apple.settings.general").exists  # the root list: a fresh start
