"""The names a task file gives apps (bundle ids) and elements (WDA types), read where written.

Checks compare these names exactly with what the phone reports, so a name that can never match
makes a check vacuous: `never_opened app: Safari` (a home-screen name, where the audit log holds
`com.apple.mobilesafari`) passes an agent that opened Safari, and `type: navigationbar` finds
no element, so negated it always passes. The loader reads each through here, at its line:

- a WDA type is written as the short name (`NavigationBar`); the `XCUIElementType` prefix and
  the case are forgiven and the value becomes the short name, spelt as WDA spells it; a name
  that is not one of WDA's types is refused, with the closest ones;
- a bundle id must look like one (reverse-DNS); an app's home-screen name is refused with its
  bundle id, and a known id in the wrong case with the right one. A well-formed id phoneshell
  does not know is a warning, not an error: a real phone has apps the simulator lacks (the
  author's own app, one from the App Store), and phoneshell cannot list them before a phone is
  attached.
"""

from __future__ import annotations

import re

from phoneshell.apps import APPLE_APPS, bundle_for
from phoneshell.registry import close_matches
from phoneshell.xcui import SHORT_TYPES, SPRINGBOARD, TYPE_PREFIX

KNOWN_BUNDLES = (*APPLE_APPS.values(), SPRINGBOARD)
"""The bundle ids phoneshell knows: Apple's apps (the simulator has each) and SpringBoard."""
BUNDLE_ID = re.compile(r"[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
"""A bundle id's shape (Apple: alphanumerics, hyphens and periods, reverse-DNS), matched whole."""
_TYPES_BY_LOWER = {name.lower(): name for name in SHORT_TYPES}


class Refused(ValueError):
    """A name that can never match what the phone reports; the message says what to write."""


def wda_type(text: str) -> str:
    """The short WDA type `text` names (`navigationbar`, `XCUIElementTypeNavigationBar` ->
    `NavigationBar`).

    Raises:
        Refused: it is not one of WDA's element types.
    """
    short = text.strip()
    if short.lower().startswith(TYPE_PREFIX.lower()):
        short = short[len(TYPE_PREFIX):]
    found = _TYPES_BY_LOWER.get(short.lower())
    if found is not None:
        return found
    close = close_matches(short, list(SHORT_TYPES))
    hint = ""
    if close:
        *most, last = (repr(name) for name in close)
        hint = f"; did you mean {', '.join(most) + ' or ' if most else ''}{last}?"
    raise Refused(f"{text!r} is not a WDA element type{hint} (write the type without its "
                  "XCUIElementType prefix, e.g. NavigationBar, Button, Cell, StaticText)")


def bundle_id(text: str) -> tuple[str, str]:
    """`text` read as a bundle id, and a warning ("" when none) when phoneshell does not know it.

    Raises:
        Refused: it is an app's home-screen name, a known id in the wrong case, or not shaped
            like a bundle id at all.
    """
    want = text.strip()
    if want in KNOWN_BUNDLES:
        return want, ""
    named = bundle_for(want) if "." not in want else None
    if named is not None:
        raise Refused(f"{text!r} is an app's name on the home screen; checks and steps compare "
                      f"bundle ids: did you mean {named!r}?")
    same = next((b for b in KNOWN_BUNDLES if b.lower() == want.lower()), None)
    if same is not None:
        raise Refused(f"{text!r} is not spelt as the phone reports it (bundle ids compare "
                      f"exactly): did you mean {same!r}?")
    if not BUNDLE_ID.fullmatch(want):
        raise Refused(f"{text!r} is not a bundle id (reverse-DNS, e.g. "
                      "com.apple.Preferences)")
    close = close_matches(want, list(KNOWN_BUNDLES))
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return want, (f"{text!r} is not an app phoneshell knows{hint} (the simulator has Apple's "
                  "own apps; on a real phone, check that the app is installed and the id is "
                  "spelt as it reports it)")
