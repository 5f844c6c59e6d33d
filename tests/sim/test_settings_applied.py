"""WDA settings the bridge lets a client change take effect as on a phone, never "stored, not
applied": with `shouldUseCompactResponses` off, a find answers each of
`elementResponseAttributes` beside the ids (WDA's FBDictionaryResponseWithElement), set by
`appium/settings` or by the session's capabilities."""

from __future__ import annotations

from phoneshell.xcui import SETTINGS

GENERAL = {"using": "id", "value": "com.apple.settings.general"}


def test_compact_responses_off_answer_the_listed_attributes(client, raw):
    session = client.session(SETTINGS)
    sid = session.session_id
    plain = raw("POST", f"/session/{sid}/element", GENERAL).value
    assert set(plain) == {"ELEMENT", "element-6066-11e4-a52e-4f735466cecf"}
    session.appium_settings({"shouldUseCompactResponses": False,
                             "elementResponseAttributes": "type,label,rect,attribute/UID,bogus"})
    full = raw("POST", f"/session/{sid}/element", GENERAL).value
    general = session(id="com.apple.settings.general").get(timeout=5)  # facebook-wda still finds
    assert full["ELEMENT"] == general.id == full["attribute/UID"]
    assert (full["type"], full["label"]) == ("XCUIElementTypeButton", "General")
    assert full["rect"] == dict(zip(("x", "y", "width", "height"), general.bounds, strict=True))
    assert "bogus" not in full  # WDA leaves out a field it has no rule for
    listed = raw("POST", f"/session/{sid}/elements", GENERAL).value
    assert listed == [full]


def test_a_sessions_capabilities_set_them_too(client, raw):
    reply = raw("POST", "/session", {"capabilities": {"alwaysMatch": {
        "bundleId": SETTINGS, "shouldUseCompactResponses": False,
        "elementResponseAttributes": "name,text,enabled,displayed,selected"}}})
    sid = reply.value["sessionId"]
    found = raw("POST", f"/session/{sid}/element", GENERAL).value
    assert {k: found[k] for k in ("name", "text", "enabled", "displayed", "selected")} == {
        "name": "XCUIElementTypeButton", "text": "General", "enabled": True, "displayed": True,
        "selected": False}
    again = raw("POST", f"/session/{client.session().session_id}/element", GENERAL).value
    assert "name" not in again  # a new session starts from WDA's defaults
