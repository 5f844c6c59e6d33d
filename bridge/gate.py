"""Admit a request once, in one canonical form, or refuse it: the log and the phone read the same.

Pure: a function of the request line, headers and body. The bridge logs what it parsed here and
forwards the same thing re-serialised (path rebuilt from its segments, query re-encoded, JSON
re-dumped), so no second reader can take the bytes another way. What it cannot parse so that
every WDA would read it alike is refused, naming what is wrong:

* a fragment (`#`), a percent-escape, a backslash, `.` or `..`, an empty segment (`//`) or a
  character outside `[A-Za-z0-9._:-]` in the path (real WDA unescapes paths; the bridge would
  log one route while the phone took another);
* a query on anything but a read; a repeated query key;
* a body that is not one JSON object in UTF-8 (NaN, Infinity and repeated keys included: JSON
  parsers disagree on them; a lone surrogate escape such as `\\ud800`, which is no character;
  a number no double holds, such as `1e400`, which Python and WDA read as infinity), a body on a
  read, a compressed body;
* a path that is not one of WDA's routes (`phoneshell.wda_routes`), and the routes no client
  may use (`FORBIDDEN`: WDA's shutdown, an app's permissions reset, Siri, the pasteboard, a
  screen recording, an accessibility audit, the battery level and the phone's location).

The body's meaning (which fields an action reads, with which types) is checked where the action
is classified (`actions.py`), which raises `Refused` the same way.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode

from phoneshell.pasteboard import OWNERS
from phoneshell.wda_routes import RouteMatch, find_route

MAX_BODY_BYTES = 1024 * 1024
"""The largest request body read; the HTTP layer refuses a longer one before reading it. What
WDA's routes take is small: the most a request may type (`limits.MAX_TYPED_CHARS`, 1,000
characters) is 15 KB even sent as a list of escaped characters, a touch chain a few KB for
each second of it, and the pasteboard (the one route that took an image) is refused."""
MAX_JSON_ITEMS = 50_000
"""The most values and keys a request body may hold, counted before it is parsed (each costs
the harness a Python object, about 100 bytes: a body of 60 MiB of `{},` once cost it 2.6 GB). A
touch chain of 5 s at one move a millisecond holds about 30,000."""
MAX_JSON_DEPTH = 64
"""How deep a request body may nest (W3C action chains are four levels deep)."""
_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"?', re.DOTALL)
"""A JSON string, escapes included (bytes: the body before it is decoded). Its closing quote is
optional, so a string left open takes the rest of the body in one match: were it required, each
`"` of `\\"\\"\\"...` would start a match that reads to the end and fails (quadratic: 80 KB
took 32 s)."""
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_SEGMENT = re.compile(r"[A-Za-z0-9._:-]+")
FORBIDDEN = {
    ("GET", "/wda/shutdown"): "would end WebDriverAgent",
    ("POST", "/wda/resetAppAuth"): "would reset an app's privacy permissions, which nothing "
                                   "sets back: later attempts would meet its permission prompts",
    ("POST", "/wda/siri/activate"): "would hand Siri a request, which can turn Wi-Fi or Airplane "
                                    "Mode off, restart the phone, or call and message people: "
                                    "the log could not say what Siri did, and nothing sets it "
                                    "back; no task needs Siri",
    ("POST", "/wda/getPasteboard"): "would read the phone's pasteboard, which holds what its "
                                    "owner copied last (a password, an address); its screens' "
                                    "Paste is refused too",
    ("POST", "/wda/setPasteboard"): f"would replace {OWNERS}, which nothing sets back (WDA "
                                    "cannot read it without showing it to whoever reads); "
                                    "its screens' Copy and Cut are refused too; type the text "
                                    "instead",
    ("POST", "/wda/video/start"): "would record the screen until something stops it, filling "
                                  "the phone's storage after the run; no task needs a "
                                  "recording (screenshots show what is on screen)",
    ("GET", "/wda/batteryInfo"): "would read the battery off the phone's back: a task that "
                                 "asks for the level is done where a person reads it (Settings "
                                 "> Battery), and the log shows that",
    ("GET", "/wda/device/location"): "would read where the phone is, the owner's location, "
                                     "which a person sees only in an app such as Maps, where "
                                     "the log shows it",
    ("POST", "/wda/performAccessibilityAudit"): "would have XCTest audit every element of the "
                                                "app in front on WDA's main thread, which "
                                                "nothing bounds: the longer the screen the "
                                                "longer, every later request waiting behind "
                                                "it; no task needs an audit (the page source "
                                                "shows every element)",
}
"""WDA routes no client of the bridge may use, and why: shutting WDA down ends every later
attempt; an app's permissions reset stay reset after the run; Siri acts on the phone (and
beyond it) by words the log cannot turn into actions; the pasteboard is the owner's, read or
replaced around the phone's own screens (its screens' Copy, Cut and Paste are refused
as the same owner's data: `lasting.outlasts_run`); a screen recording left running outlasts
the run; an accessibility audit holds WDA for as long as the screen takes to audit; the battery
level and the phone's location are facts a task may ask for, read off no screen."""
LEGACY_TAP = "/wda/tap/:uuid"
"""WDA before 6.0 tapped here; facebook-wda still falls back to it (`/wda/tap/0`) whenever
`/wda/tap` fails, so it is admitted and logged as the tap it is (WDA 16 answers it 404)."""
READ_METHODS = frozenset({"GET", "OPTIONS"})


def json_type(value: object) -> str:
    """A value's JSON type, for messages that must not repeat the value (it may be a password)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "a list" if isinstance(value, list) else "an object"


class Refused(Exception):
    """A request the bridge will not forward; the message says why, for the client and the log."""

    def __init__(self, reason: str, status: int = 400, error: str = "invalid argument") -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status
        self.error = error
        """WDA's error name for the client."""


@dataclass(frozen=True)
class Canonical:
    """A request as the bridge understood it; `target` and `data` are what is forwarded."""

    method: str
    segments: tuple[str, ...]
    """The path's segments, e.g. ("session", "SID", "wda", "tap")."""
    query: tuple[tuple[str, str], ...]
    """The query's pairs (reads only)."""
    body: Mapping[str, object] | None
    """The decoded JSON object (None: no body)."""
    route: RouteMatch
    """The WDA route it takes."""

    @property
    def path(self) -> str:
        """The canonical path, without the query."""
        return "/" + "/".join(self.segments)

    @property
    def target(self) -> str:
        """The canonical request target: path and re-encoded query."""
        return self.path + ("?" + urlencode(self.query) if self.query else "")

    @property
    def data(self) -> bytes | None:
        """The body to forward: the decoded object dumped again (None: no body)."""
        if self.body is None:
            return None
        return json.dumps(self.body, ensure_ascii=False, separators=(",", ":")).encode()

    def describe(self) -> str:
        """`METHOD /path` for messages."""
        return f"{self.method} {self.target}"


def _refuse_constant(name: str) -> object:
    raise Refused(f"the body holds {name}, which JSON parsers read differently")


def _finite(text: str) -> float:
    """A JSON number with a fraction or an exponent, refused when no double holds it (`1e400`
    is infinity to Python and to WDA's doubleValue: the log could not write the number down,
    and the phone would touch no point the log names)."""
    number = float(text)
    if not math.isfinite(number):
        raise Refused(f"the body holds the number {text[:40]}, too large for a double: WDA "
                      "reads it as infinity")
    return number


def _whole(text: str) -> int:
    """A JSON integer, refused when a double cannot hold it (WDA reads numbers as doubles)."""
    number = int(text)
    if abs(number) > sys.float_info.max:
        raise Refused(f"the body holds a {len(text)}-digit integer, too large for a double: "
                      "WDA reads it as infinity")
    return number


def _no_repeats(pairs: list[tuple[str, object]]) -> dict[str, object]:
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()  # the first key met twice, in one pass (a body has many keys)
        for twice, _ in pairs:
            if twice in seen:
                break
            seen.add(twice)
        raise Refused(f"the body repeats the key {twice!r}: one parser would take the first, "
                      "another the last")
    return data


def check_size(raw: bytes) -> None:
    """Refuse a body that would cost the harness more to parse than a small multiple of its
    bytes: more than `MAX_JSON_ITEMS` values and keys, or nesting deeper than
    `MAX_JSON_DEPTH`. Counted on the bytes, before any object is built: strings are set aside
    (as JSON reads them: escapes included), and every value or key but the first follows a
    `[`, `{`, `,` or `:` outside them.

    Raises:
        Refused: too many items (413: too large to take), or too deep.
    """
    outside = _JSON_STRING.sub(b'""', raw)
    items = 1 + sum(outside.count(mark) for mark in (b"[", b"{", b",", b":"))
    if items > MAX_JSON_ITEMS:
        raise Refused(f"the body holds more than {MAX_JSON_ITEMS:,} JSON values and keys "
                      f"({items:,} at most): no WDA route takes that many; the bridge does not "
                      "parse it", 413, "invalid argument")
    depth = deepest = 0
    for mark in outside.translate(None, _NOT_BRACKETS):  # at most MAX_JSON_ITEMS of them
        depth += 1 if mark in b"[{" else -1
        deepest = max(deepest, depth)
    if deepest > MAX_JSON_DEPTH:
        raise Refused(f"the body nests deeper than {MAX_JSON_DEPTH} levels")


def decode_body(raw: bytes) -> dict[str, object] | None:
    """The body as one JSON object (None when empty).

    Raises:
        Refused: too large to parse (`check_size`), not UTF-8, not JSON, not an object,
            ambiguous (NaN, repeated keys, a number no double holds), too deep, or holding a
            lone surrogate.
    """
    if not raw.strip():
        return None
    check_size(raw)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Refused(f"the body is not UTF-8 ({exc.reason} at byte {exc.start})") from None
    try:
        data = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite,
                          parse_int=_whole, object_pairs_hook=_no_repeats)
    except RecursionError:
        raise Refused("the body nests too deep") from None
    except ValueError as exc:
        raise Refused(f"the body is not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise Refused(f"the body must be a JSON object, not {type(data).__name__}")
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        # A JSON escape of half a UTF-16 pair ("\ud800") decodes to no character: it cannot
        # be logged or forwarded as UTF-8, and WDA would read it some way of its own.
        raise Refused("the body holds a lone surrogate escape (such as \\ud800), half of a "
                      "character: it is not text; send whole characters") from None
    return data


def split_target(target: str) -> tuple[tuple[str, ...], str]:
    """The path's segments and the raw query of a request target.

    Raises:
        Refused: a fragment, escape, dot segment, empty segment or odd character in the path.
    """
    if not target.startswith("/"):
        raise Refused(f"the request target {target[:80]!r} is not a path")
    if "#" in target:
        raise Refused("the path has a fragment ('#'): WDA and the bridge would read different "
                      "routes")
    path, _, query = target.partition("?")
    if path != "/" and path.endswith("/"):
        path = path[:-1]  # WDA's routes carry no trailing slash; forward them without it
    segments = tuple(path.split("/")[1:]) if path != "/" else ()
    for segment in segments:
        if segment in ("", ".", ".."):
            raise Refused(f"the path {path[:120]!r} has an empty or dot segment")
        if not _SEGMENT.fullmatch(segment):
            raise Refused(f"the path segment {segment[:60]!r} holds a character outside "
                          "[A-Za-z0-9._:-] (an escape or a separator WDA would read otherwise)")
    return segments, query


def _query(raw: str) -> tuple[tuple[str, str], ...]:
    if not raw:
        return ()
    try:
        pairs = parse_qsl(raw, keep_blank_values=True, strict_parsing=True)
    except ValueError as exc:
        raise Refused(f"the query {raw[:80]!r} is malformed ({exc})") from None
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise Refused(f"the query {raw[:80]!r} repeats a key")
    return tuple(pairs)


def admit(method: str, target: str, headers: Mapping[str, str], raw: bytes) -> Canonical:
    """Parse one request into its canonical form.

    Args:
        method: the request method as sent.
        target: the request target (path and query) with any token prefix removed.
        headers: the request headers (names in any case).
        raw: the whole body.

    Raises:
        Refused: the request cannot be read one way only, or is not a WDA route.
    """
    lowered = {k.lower(): v for k, v in headers.items()}
    if lowered.get("content-encoding", "identity").lower() != "identity":
        raise Refused("the body is compressed (Content-Encoding); send it plain")
    segments, raw_query = split_target(target)
    body = decode_body(raw)
    query = _query(raw_query)
    if query and method != "GET":
        raise Refused(f"{method} with a query: only reads take one")
    if method in READ_METHODS or method == "DELETE":
        if body:
            raise Refused(f"a body on {method}: WDA ignores it, so it would be logged unread")
        body = None
    elif method == "POST" and body is None:
        body = {}  # WDA reads an empty body as no arguments
    route = find_route(method, segments)
    if (route is None and method == "POST" and len(segments) == 5 and segments[0] == "session"
            and segments[2:4] == ("wda", "tap")):
        route = RouteMatch(method, LEGACY_TAP, segments[1], {"uuid": segments[4]})
    if route is None:
        raise Refused(f"{method} {'/' + '/'.join(segments)} is not a WebDriverAgent route",
                      status=404, error="unknown command")
    if (method, route.pattern) in FORBIDDEN:
        raise Refused(f"{method} {route.pattern} {FORBIDDEN[method, route.pattern]}; the bridge "
                      "does not forward it", status=403, error="unsupported operation")
    return Canonical(method, segments, query, body, route)
