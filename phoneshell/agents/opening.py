"""Which app a model's `open_app` call names, found by reads alone: never acts on the phone.

A tool call is one turn, and the log's count of actions is what every agent path is held to
(`runner.turn.measured`), so `open_app` may act once at most: Apple's apps by name
(`apps.APPLE_APPS`) and any bundle id are launched, and another name is the icon of that name
on the home-screen page showing, tapped. A search through the home-screen pages (one drag a
page) is the model's to make, a swipe a call; a name that is neither is answered with the
names close to it, and nothing is done.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from phoneshell.apps import APPLE_APPS, bundle_for
from phoneshell.device import Phone
from phoneshell.device.steps import is_home_screen
from phoneshell.tree import Element

CLOSE_MATCHES = 3
"""The most names a miss suggests."""


@dataclass(frozen=True)
class AppChoice:
    """What `open_app` does for a name: launch a bundle id, tap an icon, or nothing (why)."""

    bundle_id: str = ""
    icon: Element | None = None
    problem: str = ""
    """Why nothing is done, for the model ("" when something is)."""


def choose_app(phone: Phone, name: str) -> AppChoice:
    """What opening `name` takes, read off the phone (the screen only when the name is not
    one of Apple's apps or a bundle id)."""
    bundle = bundle_for(name)
    if bundle is not None:
        return AppChoice(bundle_id=bundle)
    home = is_home_screen(phone)
    page = phone.page()
    # SpringBoard lists every page's icons; those of the pages not showing are not visible
    icons = [e for e in page.elements if e.short_type == "Icon" and e.label] if home else []
    wanted = name.strip().lower()
    named = [e for e in icons if e.label.strip().lower() == wanted]
    on_screen = set(page.on_screen())
    showing = next((e for e in named if e in on_screen), None)
    if showing is not None:
        return AppChoice(icon=showing)
    if named:
        return AppChoice(problem=f"the icon {name!r} is on another home-screen page: swipe left "
                                 "or right to show it, then call open_app again (nothing was "
                                 "done)")
    known = [*APPLE_APPS, *(e.label for e in icons)]
    close = close_names(name, known)
    suggestion = (f"did you mean {' or '.join(repr(c) for c in close)}? " if close else "")
    where = "" if home else (" (an app known only by its icon opens from the home screen: "
                             "press home, swipe to its page, then open_app it)")
    return AppChoice(problem=f"no app is called {name!r}; {suggestion}open_app takes Apple's "
                             f"apps by name, any app by its bundle id, and an icon's name on "
                             f"the home-screen page showing{where}; nothing was done")


def close_names(name: str, known: list[str]) -> list[str]:
    """Up to `CLOSE_MATCHES` of `known` that `name` may have meant: spelt alike, or one holding
    the other ("Calculator app", "Calc": "Calculator"), any case."""
    wanted = name.strip().lower()
    by_lower = {k.lower(): k for k in known}
    holding = [k for low, k in by_lower.items()
               if len(wanted) >= 3 and (low in wanted or wanted in low)]
    alike = [by_lower[m] for m in difflib.get_close_matches(wanted, by_lower, CLOSE_MATCHES)]
    return list(dict.fromkeys([*holding, *alike]))[:CLOSE_MATCHES]
