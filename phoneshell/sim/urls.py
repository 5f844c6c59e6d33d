"""The phone's URL routing: which installed app a URL opens (`POST /url`), as iOS routes it.

A URL opens the app that claims its scheme, or, for an https link to a host one of Apple's own
apps claims (a universal link: maps.apple.com is Maps'), that app; any other http(s) URL opens
Safari. An app model claims schemes with `url_schemes` and, when it shows something for the URL
(Safari loads the page), handles it with `on_url`; the system table below names the schemes of
Apple's apps whose models do not, and the screen each opens on is the app's own first screen
(Maps searches a `q=` query; `x-web-search:` is Safari's web search for its words; `sms:`,
`mailto:` and `message:` open Messages and Mail on their first screen, where a phone opens a
draft to the address: nothing is sent either way). Only the schemes and links whose owners are
documented or widely seen on iOS are listed (docs/simulator.md names the sources); any other
scheme answers as WDA does when no app handles it, and a link to an app the phone lacks opens
in Safari, as on a phone without it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, unquote_plus, urlsplit

from phoneshell.sim.apps.safari_pages import search_url

if TYPE_CHECKING:
    from phoneshell.sim.apps import AppModel

SCHEMES: dict[str, str] = {
    "mobilenotes": "com.apple.mobilenotes",
    "calshow": "com.apple.mobilecal",
    "x-apple-calevent": "com.apple.mobilecal",
    "x-apple-reminderkit": "com.apple.reminders",
    "maps": "com.apple.Maps",
    "itms-apps": "com.apple.AppStore",
    "itms-appss": "com.apple.AppStore",
    "ibooks": "com.apple.iBooks",
    "itms-books": "com.apple.iBooks",
    "itms-bookss": "com.apple.iBooks",
    "shareddocuments": "com.apple.DocumentsApp",
    "app-prefs": "com.apple.Preferences",
    "prefs": "com.apple.Preferences",
    "music": "com.apple.Music",
    "podcasts": "com.apple.podcasts",
    "photos-redirect": "com.apple.mobileslideshow",
    "x-apple-health": "com.apple.Health",
    "sms": "com.apple.MobileSMS",
    "mailto": "com.apple.mobilemail",
    "message": "com.apple.mobilemail",
    "x-web-search": "com.apple.mobilesafari",
}
"""Schemes of Apple's apps (lower case) and the app each opens."""

UNIVERSAL_LINKS: dict[str, str] = {
    "maps.apple.com": "com.apple.Maps",
    "apps.apple.com": "com.apple.AppStore",
    "books.apple.com": "com.apple.iBooks",
    "music.apple.com": "com.apple.Music",
    "podcasts.apple.com": "com.apple.podcasts",
    "tv.apple.com": "com.apple.tv",
}
"""Hosts whose https links open one of Apple's apps instead of Safari (universal links)."""


def scheme_of(url: str) -> str:
    """A URL's scheme, lower-cased ("" when it has none)."""
    head, colon, _ = url.partition(":")
    return head.strip().lower() if colon else ""


def routed_app(url: str) -> str | None:
    """The bundle id of the Apple app the system table sends `url` to (None: no entry, so the
    app that claims the scheme, or none)."""
    scheme = scheme_of(url)
    if scheme in ("http", "https"):
        host = (urlsplit(url.strip()).hostname or "").lower()
        return UNIVERSAL_LINKS.get(host)
    return SCHEMES.get(scheme)


def opener(url: str, installed: Sequence[AppModel[Any]]) -> AppModel[Any] | None:
    """The app of `installed` (SpringBoard left out) that opens `url`, or None: none does."""
    scheme, routed = scheme_of(url), routed_app(url)
    app = next((a for a in installed if a.bundle_id == routed), None)
    if app is None and (routed is None or scheme in ("http", "https")):
        # A universal link whose app is gone opens in Safari, as on a phone.
        app = next((a for a in installed if scheme in a.url_schemes), None)
    return app


def maps_query(url: str) -> str:
    """The search a Maps URL asks for (`q=`), or "" (maps://?q=coffee, maps.apple.com/?q=...)."""
    values = parse_qs(urlsplit(url.strip()).query).get("q", [])
    return values[0].strip() if values else ""


def delivered(url: str) -> str:
    """The URL the app that opens `url` is handed: an `x-web-search://?words` search is the
    default engine's results page for the words, as Safari shows it; any other, `url`."""
    if scheme_of(url) != "x-web-search":
        return url
    words = unquote_plus(urlsplit(url.strip()).query).strip()
    return search_url(words) if words else url


def claims(app_schemes: tuple[str, ...], bundle_id: str, url: str) -> bool:
    """Whether the app (`bundle_id`, claiming `app_schemes`) handles `url` when a URL is opened
    with it by name (WDA's `bundleId`): its own scheme, or one the system table sends it."""
    return scheme_of(url) in app_schemes or routed_app(url) == bundle_id
