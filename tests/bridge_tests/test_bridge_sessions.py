"""What a new session and WDA's settings may change through the bridge, and Siri, which no one may.

WDA's settings are global and the harness adopts the session it finds: a typing speed of 1
character a second, or an event-loop delay, would slow the harness's own steps until it took
the phone for down. A new session's `initialUrl` opens a URL its line would not name. Siri can
turn Wi-Fi off, restart the phone or call people, and the log could not say what it did. Each
is refused, logged, and never reaches the phone; what Appium sends with every session (WDA's
default speed, no delay) passes. Sent over real HTTP to the simulated iPhone behind the bridge.
"""

from __future__ import annotations

import pytest
import wda
from bridge_rig import Rig, refused_unsent, sent

from phoneshell.audit import actions

SAFARI = "com.apple.mobilesafari"
CALCULATOR = "com.apple.calculator"
WIKI = "https://en.wikipedia.org/wiki/Unlogged_page"


def test_siri_is_refused(rig: Rig) -> None:
    sid = wda.Client(rig.bridge.url).session(CALCULATOR).session_id
    message = refused_unsent(rig, f"/session/{sid}/wda/siri/activate",
                             {"text": "turn off Wi-Fi"})
    assert "Siri" in message and "restart the phone" in message
    assert rig.events()[-1].params == {"route": f"/session/{sid}/wda/siri/activate",
                                       "method": "POST"}


@pytest.mark.parametrize("caps", [
    {"capabilities": {"alwaysMatch": {"initialUrl": WIKI}}},
    {"capabilities": {"alwaysMatch": {"bundleId": SAFARI},
                      "firstMatch": [{"appium:initialUrl": WIKI}]}},
    {"desiredCapabilities": {"initialUrl": WIKI}},
])
def test_a_session_that_opens_a_url_is_refused(rig: Rig, caps: dict[str, object]) -> None:
    wda.Client(rig.bridge.url).session(CALCULATOR)
    message = refused_unsent(rig, "/session", caps)
    assert "POST /session/:sid/url" in message
    assert rig.sim.state()["foreground"] == CALCULATOR


@pytest.mark.parametrize(("caps", "named"), [
    ({"maxTypingFrequency": 1}, "maxTypingFrequency"),
    ({"appium:maxTypingFrequency": 6000}, "maxTypingFrequency"),
    ({"eventloopIdleDelaySec": 30}, "eventloopIdleDelaySec"),
])
def test_a_session_that_slows_wda_is_refused_and_appiums_defaults_pass(
        rig: Rig, caps: dict[str, object], named: str) -> None:
    wda.Client(rig.bridge.url).session(CALCULATOR)
    body = {"capabilities": {"alwaysMatch": {"bundleId": SAFARI, **caps}}}
    assert named in refused_unsent(rig, "/session", body)
    assert rig.sim.state()["foreground"] == CALCULATOR
    appium = {"bundleId": SAFARI, "maxTypingFrequency": 60, "eventloopIdleDelaySec": 0,
              "shouldWaitForQuiescence": True}
    sent(rig, "/session", {"capabilities": {"alwaysMatch": appium, "firstMatch": [{}]}})
    assert rig.sim.state()["foreground"] == SAFARI
    launched = actions(rig.events())[-1]
    assert (launched.kind, dict(launched.params)) == (
        "launch", {"bundle_id": SAFARI, "via": "session"})
