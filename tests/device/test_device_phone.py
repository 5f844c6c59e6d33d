"""The WDA boundary: session-free reads, sessions that adopt the front app, translated errors."""

from __future__ import annotations

import json
import urllib.request

import pytest
import wda

from phoneshell.device import Phone
from phoneshell.errors import DeviceError, DeviceLocked, DeviceUnreachable
from phoneshell.sim import SimServer


def session_of(sim: SimServer) -> str | None:
    with urllib.request.urlopen(f"{sim.url}/status") as reply:
        return json.load(reply)["sessionId"]  # type: ignore[no-any-return]


def test_reads_never_create_a_session(sim: SimServer, phone: Phone) -> None:
    assert session_of(sim) is None
    assert phone.foreground().bundle_id == "com.apple.springboard"
    assert phone.source().startswith("<?xml")
    assert phone.screenshot_png().startswith(b"\x89PNG")
    assert phone.locked() is False
    assert phone.fields() == []
    assert phone.status()["ready"] is True
    assert session_of(sim) is None


def test_an_action_creates_a_session_that_keeps_the_app_in_front(sim: SimServer,
                                                                 phone: Phone) -> None:
    client = wda.Client(sim.url)
    client.app_launch("com.apple.Preferences")
    client(label="General").click()
    client.close()  # the session is gone; Settings is still on General
    assert session_of(sim) is None
    fresh = Phone(sim.url)
    fresh.drag((200, 600), (200, 590))  # needs a session: one is made, adopting Settings
    assert session_of(sim) is not None
    assert fresh.foreground().bundle_id == "com.apple.Preferences"
    assert "About" in fresh.source(), "a bare session would have sent the phone home"


def test_a_refusal_names_the_route_and_wda_message(phone: Phone) -> None:
    with pytest.raises(DeviceError) as caught:
        phone.type_keys("hello")  # nothing has focus on the home screen
    assert "POST /session/*/wda/keys" in caught.value.message
    assert "invalid element state" in caught.value.message


def test_gone_wda_is_unreachable_with_the_url(sim: SimServer, phone: Phone) -> None:
    sim.set_faults(["gone"])
    try:
        with pytest.raises(DeviceUnreachable) as caught:
            phone.foreground()
        assert sim.url in caught.value.message and "doctor" in caught.value.hint
    finally:
        sim.set_faults([])


def test_a_wda_that_rejects_every_session_is_a_device_error(sim: SimServer, phone: Phone) -> None:
    sim.set_faults(["stale-session"])
    with pytest.raises(DeviceError, match="rejected every session"):
        phone.tap(10, 10)


def test_locked_phone_is_refused_before_acting(sim: SimServer, phone: Phone) -> None:
    sim.set_faults(["locked"])
    with pytest.raises(DeviceLocked, match="is locked"):
        phone.require_unlocked()
    sim.set_faults([])
    phone.require_unlocked()
