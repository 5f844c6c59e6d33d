"""Parse a `POST /session` body into capabilities, as WDA's `FBParseCapabilities` does.

WDA reads only the W3C `capabilities` object (the JSONWP `desiredCapabilities` beside it is
ignored): `alwaysMatch` merged with the first `firstMatch` entry that shares no key with it,
after stripping the `appium:` vendor prefix from every name. Refused, each as `session not
created`: a body without a `capabilities` object, an `appium:` prefix on a standard W3C
capability (`appium:platformName`), and `firstMatch` entries that all clash with
`alwaysMatch`.
"""

from __future__ import annotations

from phoneshell.sim.store import JSON
from phoneshell.sim.wire import described, unrecognized

APPIUM_PREFIX = "appium:"
STANDARD = ("browserName", "browserVersion", "platformName", "acceptInsecureCerts",
            "pageLoadStrategy", "proxy", "setWindowRect", "timeouts", "unhandledPromptBehavior")
"""The W3C capabilities that must not carry a vendor prefix."""


class CapabilitiesError(ValueError):
    """Capabilities WDA refuses (answered as `session not created`)."""


def _strip(caps: dict[str, JSON]) -> dict[str, JSON]:
    stripped: dict[str, JSON] = {}
    wrongly_prefixed: list[str] = []
    for name, value in caps.items():
        bare = name.removeprefix(APPIUM_PREFIX)
        if bare != name and bare in STANDARD:
            wrongly_prefixed.append(bare)
        stripped[bare] = value
    if wrongly_prefixed:
        raise CapabilitiesError(f"The capabilities {described(list(wrongly_prefixed))} are "
                                f"standard and should not have the '{APPIUM_PREFIX}' prefix")
    return stripped


def parse(body: dict[str, JSON]) -> dict[str, JSON]:
    """The capabilities a new session gets from a request body.

    Raises:
        CapabilitiesError: WDA would refuse to create the session.
    """
    caps = body.get("capabilities")
    if not isinstance(caps, dict):
        raise CapabilitiesError("'capabilities' is mandatory to create a new session")
    always = caps.get("alwaysMatch") or {}
    first = caps.get("firstMatch") or []
    if not isinstance(always, dict) or not isinstance(first, list):
        raise CapabilitiesError("'alwaysMatch' must be an object and 'firstMatch' a list of "
                                f"objects in {described(caps)}")
    required = _strip(always)
    names = set(required)  # once: a body may hold thousands of entries
    for candidate in first or [{}]:
        if not isinstance(candidate, dict):
            if candidate == []:
                candidate = {}  # enumerating an empty array finds no names: no capabilities
            else:
                raise _not_capabilities(candidate)
        extra = _strip(candidate)
        if names.isdisjoint(extra):
            return {**required, **extra}
    raise CapabilitiesError(f"Could not find matching capabilities from {described(caps)}")


def _not_capabilities(entry: JSON) -> Exception:
    """How WDA's stripPrefixes fails on a `firstMatch` entry that is no object: it enumerates
    the entry (what is not a collection lacks the selector for that), sends each name
    `hasPrefix:` and looks it up with `objectForKeyedSubscript:`, which an array lacks."""
    if not isinstance(entry, list):
        return unrecognized(entry, "countByEnumeratingWithState:objects:count:")
    if not isinstance(entry[0], str):
        return unrecognized(entry[0], "hasPrefix:")
    return unrecognized(entry, "objectForKeyedSubscript:")


def flag(caps: dict[str, JSON], name: str, default: bool) -> bool:
    """A boolean capability as WDA reads it (absent: the default; else its truth)."""
    value = caps.get(name)
    return default if value is None else bool(value)
