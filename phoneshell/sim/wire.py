"""WebDriverAgent's wire format: request bodies, requests, the response envelope, W3C errors.

Facts from notes/wda-stack.md §1.3 and §4.1: every response is `{"value": V, "sessionId": S}`
(no `status`), pretty-printed, `application/json;charset=UTF-8`; errors put
`{"error", "message", "traceback"}` in `value` with the HTTP code WDA uses for that error.
facebook-wda ignores the HTTP code and reads only `value.error`, so both must be right. A body
WDA could not take (too big, not JSON, a number no double holds) is `invalid argument` before
any route sees it (`json_object`), and every number a route reads is finite (`Request.number`),
read as Foundation reads it (`double_value`: WDA's `[arguments[@"x"] doubleValue]` reads "201"
as 201, "abc" as 0, and a missing field as 0). A field a route cannot use fails as Foundation
fails on it (`unrecognized`), and a message shows a field as `%@` prints it (`described`: a
missing one is "(null)"), never as Python's repr.
"""

from __future__ import annotations

import json
import math
import re
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


MAX_BODY = 50 * 1024 * 1024
"""The largest request body taken (bytes): WDA's `maximumHTTPRequestBodySize` default."""


def json_object(raw: bytes) -> dict[str, JSON]:
    """A request body as a JSON object ({} when empty).

    Only what a phone's JSON parser reads is taken: every number finite (1e400 is infinity to
    Python, and `NaN` and `Infinity` are not JSON), nesting at most `MAX_DEPTH` deep. So no
    route ever meets a number it cannot turn into a point, or a structure too deep to print.

    Raises:
        WdaError: not JSON, not an object, or any of the above (WDA's `invalid argument`).
    """
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw, parse_float=_finite, parse_int=_finite_int,
                          parse_constant=_no_constant)
    except RecursionError as exc:
        raise WdaError("invalid argument", _TOO_DEEP) from exc
    except ValueError as exc:
        raise WdaError("invalid argument", f"the request body is not JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise WdaError("invalid argument", "the request body must be a JSON object")
    if _deeper_than(data, MAX_DEPTH):
        raise WdaError("invalid argument", _TOO_DEEP)
    return data


MAX_DEPTH = 512
"""The deepest nesting a body may have (no WDA command nests more than a few levels)."""
_TOO_DEEP = f"the request body nests objects and arrays over {MAX_DEPTH} deep"


def _finite(text: str) -> float:
    number = finite(float(text))
    if number is None:
        raise ValueError(f"{text[:40]} is not a finite number")
    return number


def _finite_int(text: str) -> int:
    number = int(text)
    if finite(number) is None:
        raise ValueError(f"{text[:40]} is not a finite number")
    return number


def _no_constant(text: str) -> JSON:
    raise ValueError(f"{text} is not a number JSON knows")


def finite(value: JSON) -> float | None:
    """A JSON number as a float; None for anything else, or a number no double holds finitely
    (infinity and NaN, which no point or duration can be)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


LEADING_NUMBER = re.compile(r"\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)


NON_FINITE_WORD = re.compile(r"\s*[+-]?(?:inf|nan)", re.ASCII | re.IGNORECASE)
"""A string whose leading number is infinity or NaN, as strtod spells them."""


def float_value(text: str) -> float:
    """A string's number as NSString's `doubleValue` (and `floatValue`) reads it: its leading
    number, ignoring what follows, and 0 when it starts with none."""
    match = LEADING_NUMBER.match(text)
    return float(match.group()) if match else 0.0


def double_value(value: JSON) -> float | None:
    """A body field as Foundation's `doubleValue` reads it: a number as it is, true as 1, a
    string's leading number (`float_value`: "201" is 201, "abc" 0); None for what has none (a
    list, an object, null: WDA would fail on it) and for a number no point can be (1e400 in a
    string is infinity)."""
    if isinstance(value, str):
        if NON_FINITE_WORD.match(value):  # CFString's scanner reads "inf" and "nan" too
            return None
        return finite(float_value(value))
    if isinstance(value, bool):
        return float(value)
    return finite(value)


def _deeper_than(value: JSON, most: int) -> bool:
    """Whether objects and arrays nest deeper than `most` (without recursing: a body is data)."""
    stack: list[tuple[dict[str, JSON] | list[JSON], int]] = []
    if isinstance(value, (dict, list)):
        stack.append((value, 1))
    while stack:
        item, depth = stack.pop()
        if depth > most:
            return True
        children = item.values() if isinstance(item, dict) else item
        stack.extend((c, depth + 1) for c in children if isinstance(c, (dict, list)))
    return False


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
        """A numeric body field, read as WDA reads it: `[arguments[key] doubleValue]`.

        A missing field is nil, and nil's doubleValue is 0 (a drag with no fromY starts at y 0);
        a string is read by `double_value` ("201" is 201, "abc" 0), true is 1.

        Raises:
            WdaError: null, a list or an object, which have no doubleValue (WDA's `unknown
                error`, `unrecognized`), or a string whose number no double holds finitely.
        """
        if key not in self.body:
            return 0.0
        value = self.body[key]
        number = double_value(value)
        if number is None:
            if isinstance(value, str):
                raise WdaError("invalid argument", f"'{key}' must be a finite number, not "
                                                   f"{described(value)}")
            raise unrecognized(value, "doubleValue")
        return number

    def text(self, key: str, selector: str = "length") -> str | None:
        """A string body field as WDA's route takes it: None for a missing one (nil, which
        each route treats as WDA does: see `described` for its messages).

        Args:
            key: the field.
            selector: the NSString method the route sends it first: a value of another type
                fails there (`unrecognized`).

        Raises:
            WdaError: the field is there but no string (null, a number, a list, an object).
        """
        if key not in self.body:
            return None
        value = self.body[key]
        if not isinstance(value, str):
            raise unrecognized(value, selector)
        return value


def objc_class(value: JSON) -> str:
    """The Foundation class NSJSONSerialization gives a JSON value (as exceptions name it)."""
    if value is None:
        return "NSNull"
    if isinstance(value, bool):
        return "__NSCFBoolean"
    if isinstance(value, (int, float)):
        return "__NSCFNumber"
    if isinstance(value, str):
        return "__NSCFString"
    if isinstance(value, list):
        return ("__NSArray0", "__NSSingleObjectArrayI")[len(value)] if len(value) < 2 \
            else "__NSArrayI"
    return "__NSDictionary0" if not value else "__NSDictionaryI"


def unrecognized(value: JSON, selector: str) -> WdaError:
    """WDA's answer when a route sends a body value a message its class lacks (`doubleValue`
    to a list, `length` to a number): Foundation raises NSInvalidArgumentException, which WDA's
    exception handler answers as `unknown error` with the exception's reason."""
    return WdaError("unknown error", f"-[{objc_class(value)} {selector}]: unrecognized selector "
                                     "sent to instance")


def described(value: JSON | None, *, missing: bool = False) -> str:
    """A body value as Foundation prints it into a message (`%@`), never as Python does.

    Args:
        value: the field's value (None for JSON null, which is NSNull: "<null>").
        missing: the field was absent: nil, which prints "(null)".
    """
    if missing:
        return "(null)"
    if value is None:
        return "<null>"
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        # NSNumber prints the shortest text that reads back, an integral value with no ".0"
        return str(int(value)) if value.is_integer() and abs(value) < 1e16 else repr(value)
    if isinstance(value, (int, str)):
        return str(value)
    # plain loops: a body may nest MAX_DEPTH deep, and each generator would double the frames
    lines: list[str] = []
    if isinstance(value, list):
        for item in value:
            lines.append(f"    {described(item)}")
        return "(\n" + ",\n".join(lines) + "\n)" if value else "(\n)"
    for key, item in value.items():
        lines.append(f"    {key} = {described(item)};")
    return "{\n" + "\n".join(lines) + "\n}" if value else "{\n}"


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


PRETTY_MAX = 16_384
"""Envelopes up to this many characters (compact) are pretty-printed, as WDA prints them all."""


@dataclass(frozen=True)
class Reply:
    """What goes back over HTTP."""

    status: int
    body: bytes
    content_type: str = "application/json;charset=UTF-8"

    @classmethod
    def envelope(cls, value: JSON, session_id: str | None, status: int = 200) -> Reply:
        """WDA's JSON envelope, pretty-printed as WDA prints it, but for a big one (a JSON page
        source): Python pretty-prints in pure Python, ten times slower than it writes compact
        JSON (20 ms on a Settings source), and no client reads the whitespace."""
        envelope = {"value": value, "sessionId": session_id}
        data = json.dumps(envelope, ensure_ascii=False)
        if len(data) <= PRETTY_MAX:
            data = json.dumps(envelope, indent=2, ensure_ascii=False)
        return cls(status, data.encode())

    @classmethod
    def error(cls, exc: WdaError, session_id: str | None) -> Reply:
        """A W3C error in the envelope, with WDA's HTTP code."""
        value: JSON = {"error": exc.error, "message": exc.message, "traceback": ""}
        return cls.envelope(value, session_id, exc.http)
