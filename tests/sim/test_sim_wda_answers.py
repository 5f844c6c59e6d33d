"""The simulated iPhone answers as real WDA does where a client could tell them apart (red team
142): device/info's `uuid`, element ids' shape and stability, the HTTP headers, pasteboard
content types, and the answers to missing or mistyped parameters."""

from __future__ import annotations

import base64
import io
import re
import uuid
from collections.abc import Callable

import wda
from PIL import Image

from phoneshell.sim import SimServer
from tests.sim.conftest import Raw

UUID = re.compile(r"^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$")
GENERAL = "com.apple.settings.general"


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def _session(raw: Callable[..., Raw], bundle: str = "com.apple.Preferences") -> str:
    caps = {"bundleId": bundle} if bundle else {}
    reply = raw("POST", "/session", {"capabilities": {"alwaysMatch": caps}})
    return "/session/" + reply.json["sessionId"]


def test_device_info_uuid_is_a_vendor_uuid_not_the_udid(sim: SimServer) -> None:
    info = wda.Client(sim.url).device_info()
    assert UUID.match(info["uuid"]), info["uuid"]
    assert info["uuid"] != sim.phone.facts.udid
    assert sim.phone.facts.udid.split("-")[-1] not in info["uuid"]
    assert wda.Client(sim.url).device_info()["uuid"] == info["uuid"]  # it stays put


def test_element_ids_are_wda_uids_of_the_app_pid_and_stay_across_sessions(
        sim: SimServer, raw: Callable[..., Raw]) -> None:
    s = _session(raw)
    first = raw("POST", s + "/element", {"using": "accessibility id", "value": GENERAL}).value
    element_id = first["ELEMENT"]
    assert first["element-6066-11e4-a52e-4f735466cecf"] == element_id
    raw_bytes = uuid.UUID(element_id).bytes
    pid = raw("GET", "/wda/activeAppInfo").value["pid"]
    assert int.from_bytes(raw_bytes[8:12], "little") == pid
    assert raw_bytes[12:] == bytes(4)
    assert 0 < int.from_bytes(raw_bytes[:8], "little") < 10_000  # a small accessibility id
    assert element_id == element_id.upper()
    others = raw("POST", s + "/elements", {"using": "class name",
                                           "value": "XCUIElementTypeCell"}).value
    assert len({o["ELEMENT"] for o in others}) == len(others) > 1

    # a new session finds the same element under the same id (on the home screen, which no
    # session relaunches: an app launched afresh is a new process, with new ids, as on a phone)
    raw("DELETE", s)
    home = _session(raw, "")
    icon = {"using": "class name", "value": "XCUIElementTypeIcon"}
    on_home = raw("POST", home + "/element", icon).value["ELEMENT"]
    raw("DELETE", home)
    s2 = _session(raw, "")
    assert raw("POST", s2 + "/element", icon).value["ELEMENT"] == on_home
    springboard = raw("GET", "/wda/activeAppInfo").value["pid"]
    assert int.from_bytes(uuid.UUID(on_home).bytes[8:12], "little") == springboard
    assert raw("GET", f"{s2}/element/{on_home}/name").status == 200
    # the Settings id, from the first session, is no id this session handed out
    stale = raw("GET", f"{s2}/element/{element_id}/name")
    assert (stale.status, stale.value["error"]) == (404, "stale element reference")
    raw("POST", s2 + "/wda/apps/launch", {"bundleId": "com.apple.Preferences"})
    element_id = raw("POST", s2 + "/element", {"using": "accessibility id",
                                               "value": GENERAL}).value["ELEMENT"]

    # once the element has left the screen its id is stale, as before
    assert raw("POST", "/wda/homescreen").status == 200
    gone = raw("GET", f"{s2}/element/{element_id}/name")
    assert (gone.status, gone.value["error"]) == (404, "stale element reference")


def test_every_answer_carries_wda_server_and_cors_headers(raw: Callable[..., Raw]) -> None:
    for method, path in (("GET", "/status"), ("OPTIONS", "/status"), ("GET", "/nothing"),
                         ("GET", "/session/nope/source")):
        reply = raw(method, path)
        assert reply.headers["Server"] == "WebDriverAgent/1.0", (method, path)
        assert reply.headers["Access-Control-Allow-Origin"] == "*"
        assert reply.headers["Access-Control-Allow-Headers"] == "Content-Type, X-Requested-With"
        assert "Python" not in str(reply.headers)


def _png() -> str:
    out = io.BytesIO()
    Image.new("RGB", (4, 3), (200, 10, 10)).save(out, "PNG")
    return base64.b64encode(out.getvalue()).decode()


def test_pasteboard_kinds_behave_as_uipasteboard(raw: Callable[..., Raw]) -> None:
    def put(content: str, kind: str) -> Raw:
        return raw("POST", "/wda/setPasteboard", {"content": content, "contentType": kind})

    def get(kind: str) -> str:
        return str(raw("POST", "/wda/getPasteboard", {"contentType": kind}).value)

    assert put(_b64("hello"), "plaintext").status == 200
    assert (get("url"), get("plaintext")) == ("", _b64("hello"))  # text is no URL

    refused = put(_b64("not an image"), "image")
    assert (refused.status, refused.value["error"]) == (500, "unknown error")
    assert refused.value["message"] == "No image can be parsed from the given pasteboard data"
    assert get("plaintext") == _b64("hello")  # a refused set changes nothing

    assert put(_png(), "image").status == 200
    assert get("plaintext") == ""  # the image replaced the text
    with Image.open(io.BytesIO(base64.b64decode(get("image")))) as image:
        assert (image.format, image.size) == ("PNG", (4, 3))

    assert put(_b64("https://example.com/a"), "url").status == 200
    assert get("url") == _b64("https://example.com/a")
    assert get("plaintext") == _b64("https://example.com/a")
    assert get("image") == ""
    bad_url = put(_b64("http://[example.com/"), "url")
    assert (bad_url.status, bad_url.value["message"]) == (
        500, "No URL can be parsed from the given pasteboard data")


BUTTONS = "(\n    home,\n    volumeUp,\n    volumeDown\n)"


def test_missing_and_mistyped_parameters_answer_as_wda(raw: Callable[..., Raw]) -> None:
    s = _session(raw)
    cases: list[tuple[str, str, dict[str, object], int, str, str | None]] = [
        ("POST", "/wda/pressButton", {"name": "power"}, 500, "unknown error",
         f"The button 'power' is unknown. Only the following button names are supported: "
         f"{BUTTONS}"),
        ("POST", "/wda/pressButton", {}, 500, "unknown error",
         f"The button '(null)' is unknown. Only the following button names are supported: "
         f"{BUTTONS}"),
        ("POST", "/wda/pressButton", {"name": 5}, 500, "unknown error",
         "-[__NSCFNumber lowercaseString]: unrecognized selector sent to instance"),
        ("POST", "/elements", {"value": "x"}, 400, "invalid argument",
         "Invalid locator requested: (null)"),
        ("POST", "/element", {"using": "id", "value": "nothere"}, 404, "no such element",
         "unable to find an element using 'id', value 'nothere'"),
        ("POST", "/element", {"using": "id"}, 404, "no such element",
         "unable to find an element using 'id', value '(null)'"),
        ("GET", "/element/active", {}, 404, "no such element",
         "unable to find an element using '(null)', value '(null)'"),
        ("POST", "/wda/apps/state", {}, 500, "unknown error", None),
        ("POST", "/wda/apps/launch", {"bundleId": None}, 500, "unknown error",
         "-[NSNull length]: unrecognized selector sent to instance"),
        ("POST", "/wda/dragfromtoforduration",
         {"fromX": 100, "toX": 200, "toY": 300, "duration": 0.1}, 200, "", None),
        ("POST", "/wda/dragfromtoforduration",
         {"fromX": [1], "fromY": 1, "toX": 200, "toY": 300, "duration": 0.1}, 500,
         "unknown error",
         "-[__NSSingleObjectArrayI doubleValue]: unrecognized selector sent to instance"),
    ]
    for method, path, body, status, error, message in cases:
        reply = raw(method, s + path, body if method == "POST" else None)
        assert reply.status == status, (path, body, reply.text)
        assert "None" not in reply.text and "got " not in reply.text, (path, body, reply.text)
        if error:
            assert reply.value["error"] == error, (path, body)
        if message is not None:
            assert reply.value["message"] == message, (path, body)
