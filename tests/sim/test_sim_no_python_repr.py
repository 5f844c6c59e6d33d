"""No answer of the simulated iPhone prints a value as Python would (None, True, ['a'], {'a':
1}, 'quoted'): WDA's Objective-C prints a body field as `%@` does ("(null)", "<null>", "(\n
a\n)"), or fails on it as Foundation fails (unrecognized selector), so a Python repr in an error
message tells a client it is talking to no phone. Every request goes over raw HTTP, with each
field missing, null, a list and an object.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
import wda

from tests.sim.conftest import Raw
from tests.sim.test_sim_clock import CLOCK, open_add_sheet, wheels

MISSING = object()
ODD_VALUES: dict[str, Any] = {"missing": MISSING, "null": None, "list": ["a", 1],
                              "empty list": [], "object": {"a": None}, "bool": True}
"""Values no route can use as a number or a name (MISSING: the field left out)."""

PYTHONIC = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|\bgot |\['|\[\]|\{'|'\]|': |\[\d")
"""What only Python prints: None/True/False, "got ", and list or dict reprs with quotes."""

ROUTES: dict[str, tuple[str, dict[str, Any], str]] = {
    "wheel offset": ("/wda/pickerwheel/WHEEL/select", {"order": "next"}, "offset"),
    "wheel maxAttempts": ("/wda/pickerwheel/WHEEL/select",
                          {"order": "next", "value": "nowhere"}, "maxAttempts"),
    "wheel order": ("/wda/pickerwheel/WHEEL/select", {}, "order"),
    "wheel value": ("/wda/pickerwheel/WHEEL/select", {"order": "next", "maxAttempts": 1},
                    "value"),
    "scroll distance": ("/wda/scroll", {"direction": "down"}, "distance"),
    "settings number": ("/appium/settings", {}, "settings.snapshotMaxDepth"),
    "settings orientation": ("/appium/settings", {}, "settings.screenshotOrientation"),
    "settings point": ("/appium/settings", {}, "settings.activeAppDetectionPoint"),
    "taps": ("/wda/tapWithNumberOfTaps", {"numberOfTouches": 1}, "numberOfTaps"),
    "audit types": ("/wda/performAccessibilityAudit", {}, "auditTypes.0"),
    "rotation": ("/rotation", {"y": 0, "z": 0}, "x"),
    "notification type": ("/wda/expectNotification", {"name": "n", "timeout": 0}, "type"),
    "get pasteboard": ("/wda/getPasteboard", {}, "contentType"),
    "set pasteboard": ("/wda/setPasteboard", {"content": ""}, "contentType"),
    "session firstMatch": ("/session", {"capabilities": {}}, "capabilities.firstMatch.0"),
    "session alwaysMatch": ("/session", {"capabilities": {}}, "capabilities.alwaysMatch"),
}
"""Each route that reads a field into a message: the path (WHEEL: a picker wheel's id), the
rest of the body, and where the odd value goes (dotted: inside an object or a list)."""


def _placed(base: dict[str, Any], where: str, value: Any) -> dict[str, Any]:
    """`base` with `value` at the dotted place `where` (left out when it is MISSING)."""
    body = {k: (dict(v) if isinstance(v, dict) else v) for k, v in base.items()}
    *outer, last = where.split(".")
    holder: Any = body
    for i, key in enumerate(outer):
        if key not in holder:
            holder[key] = [] if (outer + [last])[i + 1].isdigit() else {}
        holder = holder[key]
    if value is MISSING:
        return body
    if isinstance(holder, list):
        holder.append(value)
    else:
        holder[last] = value
    return body


@pytest.fixture
def clock(client: wda.Client) -> wda.Client:
    """A session on Clock with the new alarm's wheels showing."""
    session = client.session(CLOCK)
    open_add_sheet(session)
    return session


@pytest.mark.parametrize("odd", ODD_VALUES, ids=ODD_VALUES)
@pytest.mark.parametrize("route", ROUTES, ids=ROUTES)
def test_no_answer_prints_a_python_repr(clock: wda.Client, raw: Callable[..., Raw], route: str,
                                        odd: str) -> None:
    path, base, where = ROUTES[route]
    path = path.replace("WHEEL", str(wheels(clock)[1].id))
    full = path if path == "/session" else f"/session/{clock.session_id}{path}"
    body = _placed(base, where, ODD_VALUES[odd])
    reply = raw("POST", full, body)
    assert reply.json is not None, reply.text
    value = reply.value
    if isinstance(value, dict) and "error" in value:
        assert not PYTHONIC.search(value["message"]), (body, value)


def test_the_messages_print_fields_as_wda_does(clock: wda.Client,
                                               raw: Callable[..., Raw]) -> None:
    s = f"/session/{clock.session_id}"
    wheel = f"{s}/wda/pickerwheel/{wheels(clock)[1].id}/select"
    order = raw("POST", wheel, {}).value["message"]
    assert "'(null)' was given instead" in order  # nil prints "(null)"
    nulls = raw("POST", wheel, {"order": None}).value
    assert (nulls["error"], nulls["message"]) == (
        "unknown error", "-[NSNull lowercaseString]: unrecognized selector sent to instance")
    offset = raw("POST", wheel, {"order": "next", "offset": [1]}).value
    assert offset["message"] == ("-[__NSSingleObjectArrayI doubleValue]: unrecognized "
                                 "selector sent to instance")
    far = raw("POST", wheel, {"order": "next", "offset": "0.9x"}).value["message"]
    assert "'0.9x' was given instead" in far
    # "0.5x" reads as 0.5, as NSString's doubleValue reads it
    assert raw("POST", s + "/wda/scroll", {"direction": "down", "distance": "0.5x"}).status == 200
    rotation = raw("POST", s + "/rotation", {"x": 1, "y": 0, "z": 0}).value["message"]
    assert rotation.startswith("(\n    1,\n    0,\n    0\n) rotation is not supported")
    caps = raw("POST", "/session", {"capabilities": {"firstMatch": [{"appium:platformName": 1}]}})
    assert "(\n    platformName\n) are standard" in caps.value["message"]
