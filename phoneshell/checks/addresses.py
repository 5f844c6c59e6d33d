"""Web addresses as a browser loads them: what page an address typed or opened names. Pure.

`visited` compares the page a URL names with the page a task asks for, so two spellings of one
page must compare equal, and a spelling that names another page must not look like it. Parsed
as the WHATWG URL standard parses an `http(s)` URL, which Safari follows: tabs and line breaks
are dropped, a backslash is a slash, the host is the part after the last `@` (`user@host`),
percent-escapes in it are decoded and it is lower-cased (a trailing dot dropped), a default port
(443, 80) is dropped (a port is ASCII digits, at most 65535: more names no page), and the path's
dot segments are resolved (`/probe/four/../../nothing` is `/nothing`; `.%2e` is `..`).
Percent-escapes of unreserved characters are decoded, as RFC 3986 says they are equivalent
(`/prob%65` is `/probe`); other escapes stay, upper-cased. The scheme, `www.` and a trailing
slash do not matter; a fragment is on the same page and never counts.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from urllib.parse import unquote

SCHEME = re.compile(r"^(https?):[/\\]*", re.IGNORECASE)
OTHER_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:(?!\d)", re.IGNORECASE)
"""A scheme that is not the web's (`javascript:`, `file:`, `data:`): no page to load. A colon
followed by a digit is a port (`example.com:8080`)."""
ESCAPE = re.compile(r"%([0-9A-Fa-f]{2})")
UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
DEFAULT_PORTS = {"https": "443", "http": "80"}
PORT = re.compile(r"[0-9]*")
"""A port as WHATWG reads one: ASCII digits only (`str.isdigit` holds for digits `int` refuses,
the Ethiopic `፩`), or none."""
C0_AND_SPACE = "".join(map(chr, range(0x21)))
"""What WHATWG strips from both ends of a URL: C0 controls and the space."""
FULL_STOPS = str.maketrans({"\u3002": ".", "\uff0e": ".", "\uff61": "."})
DOTS = frozenset({".", "%2e"})
DOUBLE_DOTS = frozenset({"..", ".%2e", "%2e.", "%2e%2e"})


@dataclass(frozen=True)
class Address:
    """The page a URL names, as compared: host, path and query."""

    host: str
    """Lower-case, without `www.`, a trailing dot or a default port (another port stays:
    `example.com:8080`)."""
    path: str
    """Dot segments resolved, unreserved escapes decoded, no trailing slash ("" for the root)."""
    query: str = ""
    """After `?`, escapes normalised as in the path ("" when none)."""

    def __str__(self) -> str:
        return self.host + self.path + (f"?{self.query}" if self.query else "")

    def reaches(self, want: Address) -> bool:
        """Whether this address loads the page `want` names: a host alone names its site (any
        page of it), a host and path that page (with any query, unless `want` gives one)."""
        if self.host != want.host or not self.host:
            return False
        if not want.path and not want.query:
            return True
        return self.path == want.path and (not want.query or self.query == want.query)


def _escapes(text: str) -> str:
    """Decode escapes of unreserved characters; write the others' hex digits upper-case."""
    def one(match: re.Match[str]) -> str:
        char = chr(int(match.group(1), 16))
        return char if char in UNRESERVED else "%" + match.group(1).upper()
    return ESCAPE.sub(one, text)


def _resolve(path: str) -> str:
    """The path with its dot segments resolved (WHATWG's path state), no trailing slash."""
    kept: list[str] = []
    for segment in path.split("/")[1:]:
        low = segment.lower()
        if low in DOUBLE_DOTS:
            if kept:
                kept.pop()
        elif low not in DOTS:
            kept.append(segment)
    resolved = "/" + "/".join(kept)
    return _escapes(resolved).rstrip("/")


def parse(url: str) -> Address | None:
    """The page `url` names, or None when it names no web page (another scheme, no host).

    A URL without a scheme is taken as `https://` plus it, as Safari's address field does.
    """
    raw = "".join(c for c in url.strip(C0_AND_SPACE) if c not in "\t\n\r")
    scheme = SCHEME.match(raw)
    if scheme is None and OTHER_SCHEME.match(raw):
        return None
    name = scheme.group(1).lower() if scheme else "https"
    rest = raw[scheme.end():] if scheme else raw.lstrip("/\\")
    before, _, query = rest.split("#", 1)[0].partition("?")
    authority, slash, path = before.replace("\\", "/").partition("/")
    host = _host(unquote(authority.rpartition("@")[2]))
    hostname, colon, port = host.rpartition(":")
    if colon and PORT.fullmatch(port):
        number = _port(port)
        if number is None:
            return None  # WHATWG: a port past 65535 fails the URL
        kept = port and str(number) != DEFAULT_PORTS[name]
        host = f"{_host(hostname)}:{number}" if kept else _host(hostname)
    if not host or any(c.isspace() for c in host):
        return None
    return Address(host, _resolve(slash + path), _escapes(query))


def _port(digits: str) -> int | None:
    """The port ASCII `digits` name (leading zeros allowed), or None past 65535. At most five
    digits reach `int`, which refuses a string of thousands (an agent may send one)."""
    significant = digits.lstrip("0")
    if len(significant) > 5:
        return None
    number = int(significant or "0")
    return number if number <= 65535 else None


def _host(text: str) -> str:
    """A host as a browser maps it (UTS 46, roughly: compatibility forms folded, the other full
    stops made dots, lower case), without a trailing dot or `www.`."""
    folded = unicodedata.normalize("NFKC", text).translate(FULL_STOPS).lower()
    return folded.rstrip(".").removeprefix("www.")
