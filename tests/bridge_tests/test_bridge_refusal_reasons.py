"""A refusal says the true reason, and a masked error still names what it names (red team 139,
RT139-1..4): a pressButton name that is no button is said to be none, not a lasting button; the
IOHID refusal never names as admitted a button the bridge then refuses; a URL handed to an app
reads "where it would ..."; a typed text masked in WDA's error never garbles an element id."""

from __future__ import annotations

import json

import pytest
import wda
from bridge_rig import Rig, post, refused_unsent, request

from phoneshell.outreach import CALLING_APPS, ELSEWHERE_APPS
from phoneshell.xcui import SETTINGS

LASTING = "the volume buttons, the Action button or the Camera Control"


def _sid(rig: Rig) -> str:
    return str(wda.Client(rig.bridge.url).session(SETTINGS).session_id)


@pytest.mark.parametrize("name", ["home ", " home", "home\x00", "\uff28\uff2f\uff2d\uff25",
                                  "homescreen", "lock", "power", ""])
def test_a_name_that_is_no_button_is_refused_as_none(rig: Rig, name: str) -> None:
    message = refused_unsent(rig, f"/session/{_sid(rig)}/wda/pressButton", {"name": name})
    assert "no button WDA's pressButton knows" in message, message
    assert LASTING not in message, message


@pytest.mark.parametrize("name", ["volumeUp", "VOLUMEDOWN", "action", "Camera"])
def test_a_lasting_button_is_refused_for_what_it_changes(rig: Rig, name: str) -> None:
    message = refused_unsent(rig, f"/session/{_sid(rig)}/wda/pressButton", {"name": name})
    assert LASTING in message and "no button" not in message, message


@pytest.mark.parametrize("usage", [233, 234, 4, 205])
def test_the_iohid_refusal_names_as_admitted_only_what_is_admitted(rig: Rig, usage: int) -> None:
    sid = _sid(rig)
    message = refused_unsent(rig, f"/session/{sid}/wda/performIoHidEvent",
                             {"page": 12, "usage": usage, "duration": 0.1})
    admitted = message.split(" admitted")[0]
    assert "12:64" in admitted and "12:48" not in admitted, message
    # what it names as refused is refused, as it says
    status, refusal = post(rig, f"/session/{sid}/wda/performIoHidEvent",
                           {"page": 12, "usage": 48, "duration": 0.1})
    assert status == 403 and "side button" in refusal, refusal


@pytest.mark.parametrize("bundle_id", sorted(CALLING_APPS | set(ELSEWHERE_APPS)))
def test_a_url_handed_to_an_app_is_refused_in_a_sentence(rig: Rig, bundle_id: str) -> None:
    message = refused_unsent(rig, f"/session/{_sid(rig)}/url",
                             {"url": "https://example.com", "bundleId": bundle_id})
    assert f"to {bundle_id}, where it would " in message, message


@pytest.mark.parametrize("typed", ["1", "0", "4", "-", "e"])
def test_a_stale_id_in_a_typing_error_stays_whole(rig: Rig, typed: str) -> None:
    sid = _sid(rig)
    status, _, reply = request(rig.bridge.url, "POST", f"/session/{sid}/element", json.dumps(
        {"using": "class chain", "value": "**/XCUIElementTypeSwitch"}).encode())
    assert status == 200, reply
    element = json.loads(reply)["value"]["ELEMENT"]
    sid = _sid(rig)  # a new session: the id is stale, its target unknown, the text kept secret
    status, message = post(rig, f"/session/{sid}/element/{element}/value", {"value": [typed]})
    assert status == 404 and element in message, message
    outcome = [e for e in rig.events() if e.stage == "outcome"][-1]
    assert outcome.params.get("element") == element
    assert element in outcome.error, outcome.error
