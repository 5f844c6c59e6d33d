"""A source an agent asks for with WDA's options (red team 116, RT116-1) reaches it as WDA
writes it, through the bridge, and is never taken for the screen: a source wrapped in
`<AppiumAUT>` or with attributes left out digests differently from the same screen read whole,
so taking it for one would log a change no action explains (a false custody break) and could
stand as an action's outcome (`bridge.observe.from_read` reads plain reads only). Over
facebook-wda and raw HTTP."""

from __future__ import annotations

import json

import wda
from bridge_rig import Rig, request

from bridge.observe import from_xml
from phoneshell.audit import actions, custody_breaks
from phoneshell.xcui import SETTINGS


def test_a_scoped_or_trimmed_read_passes_through_and_is_no_actions_after(guarded: Rig) -> None:
    url = guarded.bridge.grant_agent()
    session = wda.Client(url).session(SETTINGS)
    session(id="com.apple.settings.general").click()
    status, _, body = request(url, "GET", "/source?scope=AppiumAUT&excluded_attributes=name")
    scoped = json.loads(body)["value"]
    assert status == 200 and scoped.startswith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<AppiumAUT>\n  <XCUIElementTypeApplication ')
    assert ' name="' not in scoped
    status, _, body = request(url, "GET", "/source?format=json&excluded_attributes=visible")
    assert status == 200 and "isVisible" not in json.loads(body)["value"]
    _, _, body = request(guarded.sim.url, "GET", "/source")  # the phone itself, read whole
    plain = from_xml(json.loads(body)["value"])
    guarded.bridge.revoke_agent()
    guarded.bridge.recorder.settle()
    tap = actions(guarded.events("R"))[-1]
    assert (tap.app_after, tap.screen_after) == (SETTINGS, plain.screen)
    assert tap.screen_after not in (from_xml(scoped).screen, "")
    assert not custody_breaks(guarded.events("R"))
