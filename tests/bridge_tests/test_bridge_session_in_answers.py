"""The bridge's own answers carry the active session's id, as every answer of WDA's does
(FBResponseWithStatus; notes/wda-stack.md R3): a client that tracks the id from each answer
keeps its session across a refusal (red team 103, RT103-3)."""

from __future__ import annotations

import json

import wda
from bridge_rig import CONTROL_HEADER, CONTROL_TOKEN, Rig, request

SETTINGS = "com.apple.Preferences"


def _answer(base: str, method: str, path: str, body: bytes | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, dict[str, object]]:
    status, _, data = request(base, method, path, body, headers)
    envelope: dict[str, object] = json.loads(data)
    return status, envelope


def test_a_refusal_names_the_session_wda_has_active(rig: Rig) -> None:
    sid = wda.Client(rig.bridge.url).session(SETTINGS).session_id
    refusals = [
        ("GET", f"/session/{sid}/no/such/route", None),  # WDA has no such route
        ("POST", f"/session/{sid}/wda/tap", b'{"x": 1, '),  # not JSON
        ("GET", f"/session/{sid}/wda/batteryInfo", None),  # refused for what it reads
        ("POST", f"/session/{sid}/wda/performIoHidEvent",  # the side button: powers off
         json.dumps({"page": 12, "usage": 48, "duration": 0.1}).encode()),
        ("GET", "/phoneshell/sim/state", None),  # the simulator's own routes
    ]
    for method, path, body in refusals:
        status, envelope = _answer(rig.bridge.url, method, path, body)
        assert status >= 400 and "phoneshell bridge" in str(envelope["value"]), (path, envelope)
        assert envelope["sessionId"] == sid, (path, envelope)
    # the simulator (as WDA) names it in its own error to the same unknown route
    status, envelope = _answer(rig.sim.url, "GET", f"/session/{sid}/no/such/route")
    assert status == 404 and envelope["sessionId"] == sid
    # the bridge's control routes too
    status, envelope = _answer(rig.bridge.url, "GET", "/phoneshell/bridge/health", None,
                               {CONTROL_HEADER: CONTROL_TOKEN})
    assert status == 200 and envelope["sessionId"] == sid
    # a new session, made past the bridge: its first answer through the bridge tells it
    other = wda.Client(rig.sim.url).session().session_id
    assert other != sid
    wda.Client(rig.bridge.url).status()
    assert _answer(rig.bridge.url, "GET", "/nothing")[1]["sessionId"] == other
    # and once it ends, none
    assert request(rig.bridge.url, "DELETE", f"/session/{other}")[0] == 200
    assert _answer(rig.bridge.url, "GET", "/nothing")[1]["sessionId"] is None


def test_a_stranger_is_told_no_session(guarded: Rig) -> None:
    sid = wda.Client(guarded.bridge.url).session(SETTINGS).session_id
    base = guarded.bridge.base_url
    status, envelope = _answer(base, "GET", "/t/not-the-token/status")
    assert status == 401 and envelope["sessionId"] is None
    status, envelope = _answer(guarded.bridge.url, "GET", "/nothing")
    assert status == 404 and envelope["sessionId"] == sid
