"""Input no phone could act on answers WDA's errors: the simulator never drops a connection.

Numbers JSON can spell but no double holds (1e400 is infinity to Python; `NaN` and `Infinity`
are not JSON at all), bodies too big or too deep, a Content-Length that is no length, and
queries that would run for ages each answer an error, and the phone answers the next request
as before. Every request goes over raw HTTP, as any client could send it.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable
from typing import Any

import pytest
import wda

from phoneshell.sim import SimServer

NON_FINITE = {"inf": "Infinity", "-inf": "-Infinity", "nan": "NaN", "1e400": "1e400",
              "-1e400": "-1e400", "huge integer": "1" + "0" * 400}
"""How a client can write a number no double holds (the JSON text sent)."""
POINT = '{"x": V, "y": 300}'
ROUTE_FAMILIES = {
    "tap": ("/wda/tap", POINT),
    "element tap": ("/wda/element/EL/tap", POINT),
    "double tap": ("/wda/doubleTap", POINT),
    "touch and hold": ("/wda/touchAndHold", '{"x": 100, "y": 300, "duration": V}'),
    "taps": ("/wda/tapWithNumberOfTaps", '{"numberOfTaps": V, "numberOfTouches": 1}'),
    "drag": ("/wda/dragfromtoforduration",
             '{"fromX": V, "fromY": 300, "toX": 100, "toY": 300, "duration": 0.1}'),
    "drag by velocity": ("/wda/pressAndDragWithVelocity",
                         '{"fromX": 100, "fromY": V, "toX": 100, "toY": 300, "velocity": 1}'),
    "swipe": ("/wda/swipe", '{"x": V, "y": 300, "direction": "up"}'),
    "scroll": ("/wda/scroll", '{"direction": "down", "distance": V}'),
    "pinch": ("/wda/pinch", '{"scale": V, "velocity": 1}'),
    "rotate": ("/wda/rotate", '{"rotation": V, "velocity": 1}'),
    "w3c move": ("/actions", '{"actions": [{"type": "pointer", "id": "f", "parameters": '
                             '{"pointerType": "touch"}, "actions": [{"type": "pointerMove", '
                             '"x": V, "y": 300}, {"type": "pointerDown"}, '
                             '{"type": "pointerUp"}]}]}'),
    "w3c pause": ("/actions", '{"actions": [{"type": "pointer", "id": "f", "parameters": '
                              '{"pointerType": "touch"}, "actions": [{"type": "pointerMove", '
                              '"x": 100, "y": 300}, {"type": "pointerDown"}, '
                              '{"type": "pause", "duration": V}, {"type": "pointerUp"}]}]}'),
    "orientation": ("/orientation", '{"orientation": V}'),
    "rotation": ("/rotation", '{"x": V, "y": 0, "z": 0}'),
    "location": ("/wda/simulatedLocation", '{"latitude": V, "longitude": 0}'),
    "slider value": ("/element/EL/value", '{"value": V}'),
    "picker wheel": ("/wda/pickerwheel/EL/select", '{"order": "next", "offset": V}'),
    "settings": ("/appium/settings", '{"settings": {"snapshotMaxDepth": V}}'),
}
"""Each family of routes that reads a number, with a body whose V is replaced."""

Raw = Callable[..., Any]


@pytest.fixture
def session(client: wda.Client) -> wda.Client:
    return client.session("com.apple.Preferences")


def _element(session: wda.Client) -> str:
    return str(session(className="Cell").get(timeout=1).id)


def _alive(raw: Raw) -> None:
    assert raw("GET", "/status").status == 200


@pytest.mark.parametrize("number", NON_FINITE.values(), ids=NON_FINITE.keys())
@pytest.mark.parametrize("family", ROUTE_FAMILIES, ids=ROUTE_FAMILIES)
def test_a_number_no_double_holds_is_an_invalid_argument(session, raw, family, number):
    path, body = ROUTE_FAMILIES[family]
    path = path.replace("EL", _element(session))
    reply = raw("POST", f"/session/{session.session_id}{path}",
                data=body.replace("V", number).encode())
    assert reply.status == 400 and reply.value["error"] == "invalid argument", reply.text
    _alive(raw)


@pytest.mark.parametrize("text", ["inf", "-inf", "nan", "1e400"])
def test_numbers_read_from_strings_must_be_finite_too(session, raw, text):
    sid = session.session_id
    scroll = raw("POST", f"/session/{sid}/wda/scroll", {"direction": "down", "distance": text})
    assert scroll.status == 400 and scroll.value["error"] == "invalid argument"
    setting = raw("POST", f"/session/{sid}/appium/settings",
                  {"settings": {"snapshotMaxDepth": text}})
    assert setting.status == 400 and setting.value["error"] == "invalid argument"
    _alive(raw)


def test_the_control_routes_refuse_them_too(raw):
    reply = raw("POST", "/phoneshell/sim/clock", data=b'{"advance": 1e400}')
    assert reply.status == 400 and "finite" in reply.json["error"]


def test_finite_moves_that_add_up_past_a_double_are_refused(session, raw):
    move = {"type": "pointerMove", "origin": "pointer", "x": 1e308, "y": 0}
    actions = [{"type": "pointerMove", "x": 1e308, "y": 300}, move, {"type": "pointerDown"},
               {"type": "pointerUp"}]
    reply = raw("POST", f"/session/{session.session_id}/actions", {"actions": [
        {"type": "pointer", "id": "f", "parameters": {"pointerType": "touch"},
         "actions": actions}]})
    assert reply.status == 400 and reply.value["error"] == "invalid argument"


def test_huge_but_finite_numbers_still_work(session, raw):
    sid = session.session_id
    for path, body in (("/wda/tap", {"x": 1e308, "y": -1e308}),
                       ("/wda/dragfromtoforduration",
                        {"fromX": 1e308, "fromY": 300, "toX": -1e308, "toY": 300}),
                       ("/wda/scroll", {"direction": "down", "distance": 1e308})):
        assert raw("POST", f"/session/{sid}{path}", body).status == 200


def test_a_tap_count_that_would_never_end_is_refused(session, raw):
    reply = raw("POST", f"/session/{session.session_id}/wda/tapWithNumberOfTaps",
                {"numberOfTaps": 1e300, "numberOfTouches": 1})
    assert reply.status == 400 and reply.value["error"] == "invalid argument"


@pytest.mark.parametrize("depth", [600, 200_000])
def test_bodies_nested_too_deep_are_refused(raw, depth):
    reply = raw("POST", "/wda/homescreen", data=b'{"a": ' + b"[" * depth + b"]" * depth + b"}")
    assert reply.status == 400 and reply.value["error"] == "invalid argument"
    _alive(raw)


def test_a_deep_but_allowed_body_is_read(session, raw):
    deep: Any = "x"
    for _ in range(500):
        deep = [deep]
    reply = raw("POST", f"/session/{session.session_id}/appium/settings",
                {"settings": {"defaultActiveApplication": deep}})
    assert reply.status == 200


def test_a_body_over_wdas_limit_is_refused(sim: SimServer, raw):
    data = b'{"value": "' + b"a" * (50 * 1024 * 1024) + b'"}'
    with socket.create_connection((sim.host, sim.port), timeout=30) as conn:
        conn.sendall(b"POST /wda/homescreen HTTP/1.1\r\nHost: x\r\nContent-Type: "
                     b"application/json\r\nContent-Length: %d\r\n\r\n" % len(data) + data)
        status, text = _answer(conn)
    assert status == 400 and "exceeds the configured limit" in text
    _alive(raw)


@pytest.mark.parametrize("length", ["abc", "-5", "\u00b2", "9" * 5000])
def test_a_content_length_that_is_no_length_is_refused(sim: SimServer, length):
    with socket.create_connection((sim.host, sim.port), timeout=10) as conn:
        conn.sendall(f"POST /wda/homescreen HTTP/1.1\r\nHost: x\r\nContent-Length: {length}"
                     "\r\n\r\n{}".encode())
        status, text = _answer(conn)
    assert status == 400 and json.loads(text)["value"]["error"] == "invalid argument"


def _answer(conn: socket.socket) -> tuple[int, str]:
    """The HTTP answer on a connection (the server closes it after one): (status, body)."""
    data = b""
    while chunk := conn.recv(65536):
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body.decode()


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_a_regex_that_backtracks_for_ages_fails_in_seconds(client, raw):
    notes = client.session("com.apple.mobilenotes")
    notes(label="New Note").click()
    notes.send_keys("a" * 60)  # "(a|aa)+c" tries every way of cutting it: 2^60 of them
    start = time.monotonic()
    reply = raw("POST", f"/session/{notes.session_id}/elements",
                {"using": "predicate string", "value": "value MATCHES '(a|aa)+c'"})
    assert time.monotonic() - start < 10
    assert reply.status == 400 and reply.value["error"] == "invalid selector"
    _alive(raw)


def test_an_element_id_of_ten_thousand_characters_is_stale(session, raw):
    reply = raw("POST", f"/session/{session.session_id}/element/{'a' * 10_000}/click", {})
    assert reply.status == 404 and reply.value["error"] == "stale element reference"


def test_many_first_match_entries_are_read_once_each(raw):
    always = {f"k{i}": i for i in range(20_000)}
    start = time.monotonic()
    reply = raw("POST", "/session", {"capabilities": {
        "alwaysMatch": always, "firstMatch": [{"k0": 1}] * 20_000}})
    assert time.monotonic() - start < 5
    assert reply.status == 500 and reply.value["error"] == "session not created"
