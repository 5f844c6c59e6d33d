"""WebDriverAgent's wire format: requests, the response envelope, W3C errors and their HTTP codes.

Facts from notes/wda-stack.md §1.3 and §4.1: every response is `{"value": V, "sessionId": S}`
(no `status`), pretty-printed, `application/json;charset=UTF-8`; errors put
`{"error", "message", "traceback"}` in `value` with the HTTP code WDA uses for that error.
facebook-wda ignores the HTTP code and reads only `value.error`, so both must be right.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from phoneshell.sim.store import JSON
from phoneshell.wda_routes import Scope, match_parts

if TYPE_CHECKING:
    from phoneshell.sim.endpoints import Endpoints

HTTP_CODES = {
    "no such element": 404, "stale element reference": 404, "no such alert": 404,
    "unknown command": 404, "invalid session id": 404,
    "invalid argument": 400, "invalid selector": 400, "invalid element state": 400,
    "invalid coordinates": 400, "element not visible": 400,
    "unknown error": 500, "session not created": 500, "unable to capture screen": 500,
    "unexpected alert open": 500, "unsupported operation": 500,
    "unknown method": 405, "timeout": 408,
}
KEYBOARD_MESSAGE = ("Error Domain=com.facebook.WebDriverAgent Code=1 \"The on-screen keyboard "
                    "must be present to send keys\" UserInfo={NSLocalizedDescription=The "
                    "on-screen keyboard must be present to send keys}")
"""WDA's message when typing with no focused field; facebook-wda keys its retry on its words."""


class WdaError(Exception):
    """A W3C error as WDA reports it (the HTTP code follows from the error name)."""

    def __init__(self, error: str, message: str) -> None:
        super().__init__(f"{error}: {message}")
        self.error = error
        self.message = message

    @property
    def http(self) -> int:
        """The HTTP status WDA sends with this error."""
        return HTTP_CODES.get(self.error, 500)




@dataclass(frozen=True)
class Request:
    """One WDA request after routing."""

    method: str
    path: str
    """The path without any /session/:sid prefix."""
    params: dict[str, str]
    """Path parameters, e.g. {"uuid": "..."} for /element/:uuid/click."""
    query: dict[str, str]
    body: dict[str, JSON]
    in_session: bool = False
    """Whether it came under /session/:sid (a session-free form has no element ids to use)."""

    def number(self, key: str) -> float:
        """A required numeric body field.

        Raises:
            WdaError: invalid argument when missing or not a number.
        """
        value = self.body.get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise WdaError("invalid argument", f"'{key}' must be a number, got {value!r}")
        return float(value)

    def text(self, key: str) -> str:
        """A required string body field.

        Raises:
            WdaError: invalid argument when missing or not a string.
        """
        value = self.body.get(key)
        if not isinstance(value, str):
            raise WdaError("invalid argument", f"'{key}' must be a string, got {value!r}")
        return value


Handler = Callable[["Endpoints", Request], JSON]


@dataclass(frozen=True)
class Route:
    """One WDA command: method, path pattern (":name" captures a segment), scope, handler."""

    method: str
    pattern: str
    handler: Handler
    scope: Scope = "session"
    write: bool = False
    """Changes the screen (taps, keys, drags, presses): the drop-writes fault ignores it."""
    parts: tuple[str, ...] = field(default=(), init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "parts", tuple(p for p in self.pattern.split("/") if p))

    def match(self, method: str, path_parts: tuple[str, ...]) -> dict[str, str] | None:
        """Path parameters if this route takes the request, else None."""
        return match_parts(self.parts, path_parts) if method == self.method else None


@dataclass(frozen=True)
class Reply:
    """What goes back over HTTP."""

    status: int
    body: bytes
    content_type: str = "application/json;charset=UTF-8"

    @classmethod
    def envelope(cls, value: JSON, session_id: str | None, status: int = 200) -> Reply:
        """WDA's JSON envelope, pretty-printed as WDA prints it."""
        data = json.dumps({"value": value, "sessionId": session_id}, indent=2,
                          ensure_ascii=False)
        return cls(status, data.encode())

    @classmethod
    def error(cls, exc: WdaError, session_id: str | None) -> Reply:
        """A W3C error in the envelope, with WDA's HTTP code."""
        value: JSON = {"error": exc.error, "message": exc.message, "traceback": ""}
        return cls.envelope(value, session_id, exc.http)
