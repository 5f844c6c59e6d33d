"""What WDA's answer to an action says: whether it was accepted (with its error), and the id of
the session it made. Pure."""

from __future__ import annotations

import json

from bridge.upstream import Reply

ERROR_TEXT_MAX = 500
"""How much of an error the log keeps."""


def outcome_of(reply: Reply) -> tuple[bool, str]:
    """Whether WDA accepted the request, and its error text when it did not.

    WDA reports errors in `value.error` (with a 4xx/5xx status); a legacy non-zero `status`
    is a failure too, although facebook-wda would let it pass.
    """
    value = reply.json_value()
    if isinstance(value, dict) and value.get("error"):
        text = f"{value.get('error')}: {value.get('message', '')}".strip(": ")
        return False, text[:ERROR_TEXT_MAX]
    if reply.status >= 400:
        return False, f"HTTP {reply.status} {reply.reason}: {reply.body[:200]!r}"
    return True, ""


def session_id_of(reply: Reply) -> str:
    """The id of the session a `POST /session` reply created ("" when it names none)."""
    value = reply.json_value()
    found = value.get("sessionId") if isinstance(value, dict) else None
    if not isinstance(found, str) or not found:
        try:
            envelope = json.loads(reply.body)
        except ValueError:
            return ""
        found = envelope.get("sessionId") if isinstance(envelope, dict) else None
    return found if isinstance(found, str) else ""
