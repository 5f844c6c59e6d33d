"""What a request carried that the log does not show stays out of WDA's echoed error messages."""

from __future__ import annotations

import base64

from bridge.targets import MASK, mask_echoes


def test_typed_text_and_pasteboard_content_are_masked_where_wda_echoes_them() -> None:
    body = {"value": list("hunter2"), "text": "swordfish",
            "content": base64.b64encode(b"correct horse").decode()}
    message = ("invalid element state: cannot type 'hunter2' (or 'swordfish') into a disabled "
               f"field; pasteboard {body['content']} = correct horse")
    masked = mask_echoes(message, body, {"via": "keys"})
    assert "hunter2" not in masked and "swordfish" not in masked
    assert "correct horse" not in masked and body["content"] not in masked
    assert masked.startswith("invalid element state: cannot type '***'")


def test_what_the_log_shows_and_the_protocols_own_words_stay() -> None:
    body = {"bundleId": "com.apple.Preferences", "actions": [
        {"type": "pointer", "id": "finger1", "parameters": {"pointerType": "mouse"}}]}
    message = "Only pointer type 'touch' is supported. 'mouse' is given instead for 'finger1'"
    assert mask_echoes(message, body, {"bundle_id": "com.apple.Preferences"}) == message
    message = "The application 'com.apple.Preferences' is not installed"
    assert mask_echoes(message, body, {"bundle_id": "com.apple.Preferences"}) == message


def test_a_secret_is_masked_however_short() -> None:
    body = {"value": ["4", "2"]}
    assert mask_echoes("cannot type '42'", body, {"text": MASK}, secret="42") == \
        f"cannot type '{MASK}'"
    assert mask_echoes("cannot type '42'", body, {"text": "42"}) == "cannot type '42'"
