"""Switching apps by swiping along the bottom edge, as a Face ID iPhone does.

On a phone without a Home button, a sideways swipe along the home indicator (the bottom edge)
switches apps without the App Switcher: rightwards brings the app used before the one in front,
again the one before that; leftwards, straight after, goes forward again. iOS keeps the order
while the swipes follow one another, and once the user stays in an app (uses it, or pauses a
few seconds) that app becomes the most recent: a swipe left from it then goes nowhere, and a
swipe right goes back to the app left.

Modelled: the recency order is `Phone.running`'s (least recently in front first: a launch moves
an app to its end). A run of edge swipes keeps the order it started from while nothing else
happens on the phone: any touch, key, launch, URL or clock move (anything that changes the
screen; reads do not) ends the run, and the app shown becomes the most recent. The simulator's
time stands still between requests, so a pause alone does not end a run. The swipe needs an app
in front: on the home screen, Notification Center, Spotlight or Control Center it does nothing
(they show no home indicator), and so it does past either end of the order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from phoneshell.sim.apps.app_switcher import recent as switcher_cards
from phoneshell.sim.apps.springboard import BUNDLE_ID as SPRINGBOARD
from phoneshell.sim.ui import Screen

if TYPE_CHECKING:
    from phoneshell.sim.phone import Phone


@dataclass(frozen=True)
class Run:
    """A run of edge swipes: the order it started from (most recent first), where it is in
    that order, and the screen the last swipe left (any change to the phone replaces it)."""

    order: tuple[str, ...]
    at: int
    screen: Screen


_runs: WeakKeyDictionary[Phone, Run] = WeakKeyDictionary()


def recent(phone: Phone) -> tuple[str, ...]:
    """The running apps, most recently in front first (SpringBoard is not one): the App
    Switcher's cards (`apps/app_switcher.recent`)."""
    return tuple(a.bundle_id for a in switcher_cards(phone))


def used(phone: Phone) -> None:
    """The app in front was used (a touch that changed nothing, say): a run of edge swipes
    ends, and the app shown stays the most recent. Anything that changes the screen ends a run
    without this."""
    _runs.pop(phone, None)


def edge_swipe(phone: Phone, rightward: bool) -> None:
    """A sideways swipe along the bottom edge: the app before the one shown in the run's order
    (rightward) or after it (leftward), if there is one and an app is in front."""
    front = phone.active()[0]
    if phone.locked or front == SPRINGBOARD:
        return
    run = _runs.get(phone)
    if run is None or run.screen is not phone.screen() or run.order[run.at] != front:
        order = recent(phone)
        run = Run(order, order.index(front) if front in order else 0, phone.screen())
    at = run.at + (1 if rightward else -1)
    if not 0 <= at < len(run.order):
        _runs[phone] = run
        return
    app = run.order[at]
    phone.launch(app)
    # iOS makes only the app the run ends on the most recent: the others keep their order.
    for bundle in (*(b for b in reversed(run.order) if b != app), app):
        if bundle in phone.running:
            phone.running[bundle] = phone.running.pop(bundle)
    phone.changed()
    _runs[phone] = Run(run.order, at, phone.screen())
