"""`POST /url` through the bridge: WDA opens the URL with the app `bundleId` names, so the
bridge logs that app and refuses by it (a web link handed to Phone or Shortcuts), and refuses a
FaceTime link; a URL opened the ordinary way, or with an app that only shows it, goes through."""

from __future__ import annotations

import pytest
import wda
from bridge_rig import Rig, post, refused_unsent

from phoneshell.sim import SimServer


def session_url(rig: Rig) -> str:
    return f"/session/{wda.Client(rig.bridge.url).session().session_id}/url"


def test_a_url_opened_with_a_named_app_is_logged_with_that_app(rig: Rig, sim: SimServer) -> None:
    path = session_url(rig)
    status, message = post(rig, path, {"url": "https://example.com/",
                                       "bundleId": "com.apple.Preferences"})
    assert status == 200, message
    opened = [e for e in rig.events() if e.kind == "open_url" and e.stage == "intent"][-1]
    assert opened.params == {"url": "https://example.com/", "bundle_id": "com.apple.Preferences"}
    assert sim.state()["foreground"] == "com.apple.Preferences"


@pytest.mark.parametrize(("bundle", "why"), [
    ("com.apple.mobilephone", "call someone"),
    ("com.apple.facetime", "call someone"),
    ("com.apple.shortcuts", "run one of the owner's shortcuts"),
    ("com.apple.Home", "home accessories"),
    ("com.apple.findmy", "other devices"),
])
def test_a_url_handed_to_an_app_that_acts_beyond_the_phone_is_refused(
        rig: Rig, bundle: str, why: str) -> None:
    message = refused_unsent(rig, session_url(rig),
                             {"url": "https://example.com/", "bundleId": bundle})
    assert why in message and bundle in message


def test_a_facetime_link_is_refused(rig: Rig) -> None:
    message = refused_unsent(rig, session_url(rig),
                             {"url": "https://facetime.apple.com/join#v=1&p=abc"})
    assert "call someone" in message


def test_a_bundle_id_that_is_not_a_string_is_refused(rig: Rig) -> None:
    message = refused_unsent(rig, session_url(rig),
                             {"url": "https://example.com/", "bundleId": ["com.apple.Maps"]})
    assert "'bundleId' must be a string" in message


def test_an_sms_url_only_opens_messages(rig: Rig, sim: SimServer) -> None:
    """`sms:` opens a draft at most: nothing is sent, so it is not refused."""
    status, message = post(rig, session_url(rig), {"url": "sms:5555648583"})
    assert status == 200, message
    assert sim.state()["foreground"] == "com.apple.MobileSMS"


def test_a_url_no_parser_reads_is_answered_and_prints_nothing(
        rig: Rig, capfd: pytest.CaptureFixture[str]) -> None:
    """An unclosed `[` once made the bridge's check raise: the connection closed unanswered
    and a traceback was printed at column 0 for each request. Now it is forwarded and the
    phone's WDA answers it, as for any URL it cannot read."""
    for _ in range(3):
        status, message = post(rig, session_url(rig), {"url": "https://[example.com/"})
        assert status == 500 and "'https://[example.com/' is not a valid URL" in message
    assert capfd.readouterr().err == ""
