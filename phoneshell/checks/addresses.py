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
slash do not matter; a fragment is on the same page and never counts. The scheme, host and port
are read by `address_bar.split`, the simulated Safari's reading too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from phoneshell.address_bar import split

ESCAPE = re.compile(r"%([0-9A-Fa-f]{2})")
UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
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

    A URL without a scheme is taken as `https://` plus it; its scheme, host and port read as
    `address_bar.split` reads them, as the simulated Safari loads them. Whether a text typed in
    Safari's address field is loaded at all is `address_bar.sent`'s to say, not this.
    """
    got = split(url)
    if got is None:
        return None
    host = got.host.removeprefix("www.")
    path, _, query = got.rest.partition("?")
    return Address(f"{host}:{got.port}" if got.port else host, _resolve(path), _escapes(query))
