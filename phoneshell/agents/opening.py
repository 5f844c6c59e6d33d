"""Which app a model's `open_app` call names, found by reads alone: never acts on the phone.

A tool call is one turn, and the log's count of actions is what every agent path is held to
(`runner.turn.measured`), so `open_app` may act once at most, and only on a name it can place:
one of Apple's apps (`apps.APPLE_APPS`), by its name or its bundle id, in any case, with or
without ".app", is launched; another name is the icon of that name on the home-screen page
showing, tapped. A search through the home-screen pages (one drag a page) is the model's to
make, a swipe a call. Anything else, another bundle id too, is answered with the names close to
it, and nothing is done: WDA cannot say which apps a phone has, and a launch of one it lacks is
a logged action that fails (red team 112: "Calculator.app" and "com.apple.Calculator" each cost
one), so an app not Apple's opens from its icon, as a person opens it.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from phoneshell.apps import APPLE_APPS
from phoneshell.device import Phone
from phoneshell.device.steps import is_home_screen
from phoneshell.tree import Element

CLOSE_MATCHES = 3
"""The most names a miss suggests."""
APPLE_IDS = {bundle.lower(): bundle for bundle in APPLE_APPS.values()}
"""Apple's apps' bundle ids by their lower case."""
ID_CUTOFF = 0.85
"""How alike a bundle id must be to one of Apple's to be suggested: closer than names, since
every id shares its "com." (difflib's ratio; "com.example.shop" is 0.73 from "com.apple.Home")."""


@dataclass(frozen=True)
class AppChoice:
    """What `open_app` does for a name: launch a bundle id, tap an icon, or nothing (why)."""

    bundle_id: str = ""
    icon: Element | None = None
    problem: str = ""
    """Why nothing is done, for the model ("" when something is)."""


def choose_app(phone: Phone, name: str) -> AppChoice:
    """What opening `name` takes, read off the phone (the screen only when the name is not
    one of Apple's apps)."""
    bundle = apple_app(name)
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
    close = close_names(_app_name(name), [*APPLE_APPS, *(e.label for e in icons)])
    if "." in name:  # a bundle id mistyped ("com.apple.calculatr"): ids alike but for a slip
        ids = difflib.get_close_matches(wanted, APPLE_IDS, CLOSE_MATCHES, ID_CUTOFF)
        close = list(dict.fromkeys([*close, *(APPLE_IDS[i] for i in ids)]))[:CLOSE_MATCHES]
    suggestion = (f"did you mean {' or '.join(repr(c) for c in close)}? " if close else "")
    where = "" if home else (" (an app known only by its icon opens from the home screen: "
                             "press home, swipe to its page, then open_app it)")
    return AppChoice(problem=f"no app is called {name!r}; {suggestion}open_app takes Apple's "
                             f"apps by name or bundle id, and an icon's name on the home-screen "
                             f"page showing{where}; nothing was done")


def apple_app(name: str) -> str | None:
    """The bundle id of the Apple app `name` names, by its home-screen name or its bundle id,
    in any case, with or without ".app" ("calculator", "Calculator.app", "com.apple.Calculator":
    com.apple.calculator); None when it names none."""
    wanted = _app_name(name).lower()
    by_name = {label.lower(): bundle for label, bundle in APPLE_APPS.items()}
    return by_name.get(wanted) or APPLE_IDS.get(wanted)


def _app_name(name: str) -> str:
    """`name` without the white space around it, nor a ".app" after it (as Finder shows one)."""
    wanted = name.strip()
    return wanted[:-len(".app")].strip() if wanted.lower().endswith(".app") else wanted


def close_names(name: str, known: list[str]) -> list[str]:
    """Up to `CLOSE_MATCHES` of `known` that `name` may have meant: spelt alike, or one holding
    the other ("Calculator app", "Calc": "Calculator"), any case."""
    wanted = name.strip().lower()
    by_lower = {k.lower(): k for k in known}
    holding = [k for low, k in by_lower.items()
               if len(wanted) >= 3 and (low in wanted or wanted in low)]
    alike = [by_lower[m] for m in difflib.get_close_matches(wanted, by_lower, CLOSE_MATCHES)]
    return list(dict.fromkeys([*holding, *alike]))[:CLOSE_MATCHES]
