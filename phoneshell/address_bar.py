"""What Safari does with a text sent from its address field: loads a URL, searches its words, or
cannot open it; and how a URL's scheme, host and port read. Pure, standard library only.

One rule for both sides (red team 96, RT96-2): the simulated Safari plays it (`sim/apps/safari*`)
and the checks grade by it (`visited`, `page_shown`, `checks/addresses`), so a text the simulator
searched for is never graded as a page loaded. Where a phone's behaviour is not verified the rule
takes the side that grades no visit: a text it calls a search is never a visit.

Typed without a scheme, a text is an address only when its host is written as hosts are:
- labels of ASCII letters, digits and hyphens (any case: Safari lower-cases a host), or letters
  of another script already in their normal form (an IDN, `bücher.de`), at least two labels
  joined by dots, or `localhost`; an optional port of ASCII digits (at most 65535), then `/`,
  `?` or `#` and anything without a space. Known: Safari loads `example.com`, `EXAMPLE.com/a`,
  `localhost:8080`, and searches for words with a space or a single word without a dot.
- Searched (unverified on a phone; taken so no visit is graded that might have been a search):
  a trailing dot (`example.com.`), a percent-escape in the host (`example%2Ecom`: no dot is
  typed), full-width letters or ideographic full stops (`ｅｘａｍｐｌｅ.com`, `example。com`:
  a phone's UTS 46 mapping may load example.com, or its heuristic may search), userinfo
  (`user@example.com`, which reads as an e-mail address), a backslash or any other character in
  the host, an empty label, and a port that is not ASCII digits or is past 65535.
With `http://` or `https://` typed, the text is a URL and loads as the WHATWG URL standard reads
it, as WebKit does: the host is the part after the last `@`, percent-escapes in it decoded,
compatibility forms folded (NFKC) and the other full stops made dots, lower-cased, a trailing dot
dropped; a backslash is a slash; a port is ASCII digits, a default one dropped. Another scheme
typed with `://` (`ftp://`, `file://`) is not opened: Safari cannot open it. Any text with a
space inside is searched.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Literal
from urllib.parse import unquote

SCHEME = re.compile(r"^(https?):[/\\]*", re.IGNORECASE)
"""A web scheme as WHATWG reads one: any slashes or backslashes after it."""
OTHER_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:(?!\d)", re.IGNORECASE)
"""A scheme that is not the web's (`javascript:`, `file:`, `data:`): no page to load. A colon
followed by a digit is a port (`example.com:8080`)."""
TYPED_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*://", re.IGNORECASE)
"""A scheme typed in full (`ftp://`): an address Safari tries, whatever the scheme."""
DEFAULT_PORTS = {"https": "443", "http": "80"}
PORT = re.compile(r"[0-9]*")
"""A port as WHATWG reads one: ASCII digits only (`str.isdigit` holds for digits `int` refuses,
the Ethiopic `፩`), or none."""
C0_AND_SPACE = "".join(map(chr, range(0x21)))
"""What WHATWG strips from both ends of a URL: C0 controls and the space."""
FULL_STOPS = str.maketrans({"\u3002": ".", "\uff0e": ".", "\uff61": "."})
FORBIDDEN = frozenset("#%/:<>?@[\\]^|")
"""WHATWG's forbidden domain code points (besides controls and spaces): a host holding one, after
its escapes are decoded, fails the URL (an IPv6 literal among them, which no task needs)."""
LABEL_ASCII = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")
PATH_START = re.compile(r"[/?#]")

Does = Literal["load", "search", "cannot", "nothing"]


@dataclass(frozen=True)
class Sent:
    """What Safari does with a text sent from its address field."""

    does: Does
    """`load` a URL, `search` the words with the search engine, `cannot` open it (an error
    page), or `nothing` (an empty field)."""
    url: str = ""
    """For `load`: the URL, with `https://` before a text typed without a scheme; for
    `cannot`: the text."""
    words: str = ""
    """For `search`: the words, as typed (ends stripped)."""


@dataclass(frozen=True)
class Url:
    """An http(s) URL as WHATWG reads it, split."""

    scheme: Literal["http", "https"]
    host: str
    """Decoded, mapped and lower-cased, without a trailing dot (`www.` kept)."""
    port: str
    """ASCII digits without leading zeros, "" for none or the scheme's default."""
    rest: str
    """The path and query as written (a backslash in the path made a slash), no fragment."""

    @property
    def site(self) -> str:
        """The host and its port, when not the default: `example.com:8080`."""
        return f"{self.host}:{self.port}" if self.port else self.host


def host_of(text: str) -> str:
    """A host as a browser maps it (UTS 46, roughly: escapes decoded, compatibility forms
    folded, the other full stops made dots, lower case), without a trailing dot."""
    folded = unicodedata.normalize("NFKC", unquote(text)).translate(FULL_STOPS).lower()
    return folded.rstrip(".")


def split(url: str) -> Url | None:
    """`url` read as WHATWG reads an http(s) URL (`https://` when it has no scheme), or None
    when it names no web page: another scheme, no host, a space in the host, a bad port."""
    raw = "".join(c for c in url.strip(C0_AND_SPACE) if c not in "\t\n\r")
    scheme = SCHEME.match(raw)
    if scheme is None and OTHER_SCHEME.match(raw):
        return None
    name: Literal["http", "https"] = "http" if scheme and scheme.group(1).lower() == "http" \
        else "https"
    rest = raw[scheme.end():] if scheme else raw.lstrip("/\\")
    before, mark, after = rest.split("#", 1)[0].partition("?")
    authority, slash, path = before.replace("\\", "/").partition("/")
    host = host_of(authority.rpartition("@")[2])
    port = ""
    hostname, colon, digits = host.rpartition(":")
    if colon and PORT.fullmatch(digits):
        number = _port(digits)
        if number is None:
            return None  # WHATWG: a port past 65535 fails the URL
        port = "" if not digits or str(number) == DEFAULT_PORTS[name] else str(number)
        host = host_of(hostname)
    if not host or any(c.isspace() or c in FORBIDDEN for c in host):
        return None
    return Url(name, host, port, slash + path + mark + after)


def _port(digits: str) -> int | None:
    """The port ASCII `digits` name (leading zeros allowed), or None past 65535. At most five
    digits reach `int`, which refuses a string of thousands (an agent may send one)."""
    significant = digits.lstrip("0")
    if len(significant) > 5:
        return None
    number = int(significant or "0")
    return number if number <= 65535 else None


def _written_host(host: str) -> bool:
    """Whether a host typed without a scheme is written as hosts are (see the module)."""
    if host.lower() == "localhost":
        return True
    labels = host.split(".")
    return len(labels) >= 2 and all(label and all(_label_char(c) for c in label)
                                    for label in labels)


def _label_char(char: str) -> bool:
    return char in LABEL_ASCII or (not char.isascii() and char.isalnum()
                                   and unicodedata.normalize("NFKC", char) == char)


def sent(text: str) -> Sent:
    """What Safari does with `text` sent from its address field (the rule in the module)."""
    typed = text.strip(C0_AND_SPACE)
    if not typed:
        return Sent("nothing")
    if any(c.isspace() for c in typed):
        return Sent("search", words=typed)
    if SCHEME.match(typed):
        # One no URL parser reads (`http://[example.com/`) is searched for, never tried.
        return Sent("load", url=typed) if split(typed) else Sent("search", words=typed)
    if TYPED_SCHEME.match(typed):
        return Sent("cannot", url=typed)
    authority = PATH_START.split(typed, maxsplit=1)[0]
    host, colon, port = authority.rpartition(":") if ":" in authority else (authority, "", "")
    port_ok = not colon or (port.isascii() and port.isdigit())
    if port_ok and _written_host(host) and split(typed) is not None:
        return Sent("load", url="https://" + typed)
    return Sent("search", words=typed)


def shown_host(value: str) -> str | None:
    """The host an address field's `value` (after Safari's mark) names, when it is written as
    Safari writes a page's host there: lower case, no escape, no trailing dot, no path
    (`example.com`; a port, which a page of the tasks never has, stays: `example.com:8080`);
    None for anything else, a search's words among them."""
    if sent(value).does != "load":
        return None
    got = split(value)
    return got.site if got is not None and got.site == value and not got.rest else None


__all__ = ["Sent", "Url", "host_of", "sent", "shown_host", "split"]
