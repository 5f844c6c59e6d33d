"""A new session's capabilities and WDA's settings: what they launch, log as, and which are refused.

Pure, over a request body. `POST /session` launches the app its capabilities name (logged as a
`launch`), or nothing (an `other`); `POST S/appium/settings` is an `other` naming the settings
sent. WDA's settings are global and outlast the session that set them (the harness adopts the
session it finds), and a new session takes several of them as capabilities too, so both routes
are held to the same rule: only `xcui.HARMLESS_SETTINGS` change, `xcui.PINNED_SETTINGS` only at
WDA's default value, and `xcui.SESSION_DELAYS` not above 0. A new session's `initialUrl` is
refused too: WDA opens it as the session starts, and the line (a launch, or an `other`) would
not name it; `POST S/url` opens a URL and is logged as the `open_url` it is.
"""

from __future__ import annotations

from collections.abc import Mapping

from bridge.classified import Classified
from bridge.classified import params as _params
from bridge.gate import Refused
from phoneshell.xcui import HARMLESS_SETTINGS, PINNED_SETTINGS, SESSION_DELAYS, WDA_SETTINGS

INITIAL_URL = "initialUrl"
"""The capability with which WDA opens a URL as it creates the session."""


def _capability_sets(data: Mapping[str, object]) -> list[Mapping[str, object]]:
    """Every set of capabilities a new session's body holds (W3C alwaysMatch and firstMatch,
    JSONWP desiredCapabilities), with WDA's `appium:` prefixes taken off the names."""
    caps = data.get("capabilities")
    found: list[object] = [data.get("desiredCapabilities")]
    if isinstance(caps, Mapping):
        first = caps.get("firstMatch")
        found += [caps.get("alwaysMatch"), *(first if isinstance(first, list) else [])]
    return [{str(key).removeprefix("appium:"): value for key, value in cap.items()}
            for cap in found if isinstance(cap, Mapping)]


def _bundle_id(sets: list[Mapping[str, object]]) -> str | None:
    """The bundle id a new session asks for.

    Raises:
        Refused: a bundle id that is not a string, or two apps named (which one WDA takes
            depends on how it merges capability sets: the log cannot know).
    """
    named: list[str] = []
    for cap in sets:
        value = cap.get("bundleId")
        if value is not None and not isinstance(value, str):
            raise Refused("the capability 'bundleId' must be a string")
        if isinstance(value, str) and value and value not in named:
            named.append(value)
    if len(named) > 1:
        raise Refused(f"the capabilities name {len(named)} apps ({', '.join(named[:3])}): "
                      "name one")
    return named[0] if named else None


LAUNCH_EXTRAS: dict[str, object] = {"arguments": [], "environment": {}}
"""What WDA passes to an app it launches besides its bundle id (process arguments, environment
variables), each only at its empty default, as facebook-wda sends them."""


def check_launch_extras(values: Mapping[str, object], what: str) -> None:
    """Refuse launch arguments or environment variables (a launch's body, a session's
    capabilities): an argument such as `-AppleLanguages (fr)` or `-SomeDefault YES` overrides
    the app's settings for that launch, which the log's `launch` line would not name and no
    task needs; a person opens an app without them.

    Raises:
        Refused: either is present and not empty.
    """
    given = sorted(key for key, empty in LAUNCH_EXTRAS.items()
                   if values.get(key) not in (None, empty))
    if given:
        raise Refused(f"{what} with {' and '.join(given)}: they change how the app runs (its "
                      "settings and language for that launch), which the log's launch line "
                      "would not name; launch with the bundle id alone", 403,
                      "unsupported operation")


def kept_settings(values: Mapping[str, object], known: frozenset[str] = WDA_SETTINGS,
                  ) -> list[str]:
    """The names in `values` (settings, or a session's capabilities) that only the harness may
    set: any of `known` but the harmless ones, a pinned one away from its default, a delay
    above 0."""
    kept = {name for name in values if name in known and name not in HARMLESS_SETTINGS
            and not (name in PINNED_SETTINGS and values[name] == PINNED_SETTINGS[name])}
    delays = {name for name in SESSION_DELAYS if values.get(name) not in (None, 0, 0.0)}
    return sorted(kept | delays)


def _refuse_settings(names: list[str], how: str) -> Refused:
    pinned = ", ".join(f"{k} {v}" for k, v in PINNED_SETTINGS.items())
    return Refused(f"the WDA settings {', '.join(names)} change what the phone's reads show, "
                   "how fast WDA acts or answers, or the phone's own settings, which the "
                   f"harness grades and logs by and which outlast the run; only these may be "
                   f"{how} through the bridge: {', '.join(sorted(HARMLESS_SETTINGS))} (and "
                   f"{pinned}, WDA's default)", 403, "unsupported operation")


def session_action(data: Mapping[str, object]) -> Classified:
    """`POST /session`: a `launch` of the app it names, else an `other` (it launches nothing,
    FBSession leaves the phone as it is, but it replaces the session, whose app WDA may
    terminate).

    Raises:
        Refused: it sets a setting only the harness may, opens an `initialUrl`, or names
            two apps or a bundle id that is not a string.
    """
    sets = _capability_sets(data)
    for cap in sets:
        check_launch_extras(cap, "a session's capabilities")
    kept = sorted({name for cap in sets for name in kept_settings(cap)})
    if kept:
        raise _refuse_settings(kept, "given as a session's capabilities")
    if any(INITIAL_URL in cap for cap in sets):
        raise Refused("a session's initialUrl opens a URL that the session's line would not "
                      "name: open it with POST /session/:sid/url, which is logged as the "
                      "open_url it is", 403, "unsupported operation")
    bundle = _bundle_id(sets)
    if bundle:
        return Classified("launch", {"bundle_id": bundle, "via": "session"}, session="open")
    return Classified("other", {"route": "/session"}, session="open")


def settings_action(data: Mapping[str, object]) -> Classified:
    """`appium/settings`: an `other` naming the settings changed (their values are not kept).

    Raises:
        Refused: it changes a setting only the harness may (`kept_settings`).
    """
    settings = data.get("settings")
    names = ",".join(settings) if isinstance(settings, Mapping) else None
    # Any name WDA does not know may be a setting of a newer WDA: refused unless harmless.
    kept = kept_settings(settings, frozenset(settings)) if isinstance(settings, Mapping) else []
    if kept:
        raise _refuse_settings(kept, "changed")
    return Classified("other", _params(settings=names))
