"""Turning the phone: apps that rotate on an iPhone lay out on the turned screen, the rest stay
portrait and WDA says it could not rotate."""

from __future__ import annotations

import pytest
from lxml import etree

from phoneshell.sim.apps import builtin_apps

ROTATING = sorted(a.bundle_id for a in builtin_apps() if a.rotates)
IOS_ROTATES = sorted([
    "com.apple.calculator", "com.apple.mobilesafari", "com.apple.mobilenotes",
    "com.apple.reminders", "com.apple.mobilecal", "com.apple.MobileAddressBook",
    "com.apple.DocumentsApp", "com.apple.Maps", "com.apple.iBooks"])
"""The modelled apps that turn to landscape on an iPhone."""
STILL = sorted(a.bundle_id for a in builtin_apps() if not a.rotates)


def test_the_apps_that_rotate_are_the_ones_ios_rotates():
    assert ROTATING == IOS_ROTATES


@pytest.mark.parametrize("bundle", ROTATING)
def test_an_app_that_rotates_lays_out_on_the_turned_screen(client, raw, bundle):
    s = client.session(bundle)
    for turned in ("LANDSCAPE", "UIA_DEVICE_ORIENTATION_LANDSCAPERIGHT"):
        assert raw("POST", f"/session/{s.session_id}/orientation",
                   {"orientation": turned}).status == 200
        assert raw("GET", "/orientation").value == "LANDSCAPE"
        root = etree.fromstring(raw("GET", "/source").value.encode())
        assert (root.get("width"), root.get("height")) == ("874", "402")
        visible = [n for n in root.iter() if n.get("visible") == "true"]
        assert all(int(n.get("x")) < 874 and int(n.get("y")) < 402 for n in visible[:50])
        assert raw("GET", "/wda/screen").value["statusBarSize"] == {"width": 0, "height": 0}
    assert raw("GET", f"/session/{s.session_id}/rotation").value == {"x": 0, "y": 0, "z": 90}
    assert raw("POST", "/rotation", {"x": 0, "y": 0, "z": 0}).status == 200
    assert s.window_size() == (402, 874)


@pytest.mark.parametrize("bundle", STILL)
def test_an_app_that_does_not_rotate_stays_portrait(client, raw, bundle):
    s = client.session(bundle)
    reply = raw("POST", "/orientation", {"orientation": "LANDSCAPE"})
    assert (reply.status, reply.value["message"]) == (500, "Unable To Rotate Device")
    assert raw("GET", "/orientation").value == "PORTRAIT"
    assert raw("GET", "/wda/deviceOrientation").value == "LANDSCAPE"  # the phone did turn
    assert s.window_size() == (402, 874)


def test_nothing_turns_upside_down_or_face_up(client, raw):
    s = client.session("com.apple.mobilesafari")
    upside = raw("POST", "/orientation",
                 {"orientation": "UIA_DEVICE_ORIENTATION_PORTRAIT_UPSIDEDOWN"})
    assert upside.value["error"] == "unknown error"
    face_up = raw("POST", f"/session/{s.session_id}/rotation", {"x": 90, "y": 0, "z": 0})
    assert face_up.value["error"] == "invalid element state"
    odd = raw("POST", "/rotation", {"x": 1, "y": 2, "z": 3})
    assert (odd.status, odd.value["error"]) == (400, "invalid argument")
    assert raw("POST", "/orientation", {"orientation": "DIAGONAL"}).status == 500


def test_the_keyboard_is_shorter_in_landscape(client, raw):
    s = client.session("com.apple.mobilesafari")
    raw("POST", "/orientation", {"orientation": "LANDSCAPE"})
    s(name="TabBarItemTitle").click()
    keyboard = s(className="Keyboard").get(timeout=2).bounds
    assert (keyboard.y, keyboard.height, keyboard.width) == (202, 200, 874)
    s.send_keys("example.com\n")
    assert client.app_current()["bundleId"] == "com.apple.mobilesafari"
