"""SpringBoard's App Switcher as it shows: a card per app in the background, newest first.

A swipe up from the bottom edge that pauses on the way (or is held: `opens_switcher`) shows it
on a Face ID iPhone, from an app or from the home screen. Each card is the iOS 26 dumps' hidden
card made visible: an `Other` named "card:<bundle id>:sceneID:<bundle id>-default", labelled
with the app's name, inside "AppSwitcherContentView" in the "SBSwitcherWindow:Main" window
(`windows.switcher_window`). Where the cards lie, and that they report visible once shown, is
inferred (no dump shows the switcher up). The newest card is in the middle, older ones to its
left; a sideways drag brings older ones in. WDA's runner has the oldest card, as on a phone
under WDA (`RUNNER_BUNDLE`: running since before any app the harness opens). A tap on a card
opens its app where it was (the launch moves it to the newest); a card swiped up closes its app
(a terminate: its screen is dropped, its store kept; the runner's stops WDA, as terminating it
does: `Phone.terminate`), the switcher staying up on the cards left (the runner's outlasts the
last app's); a tap or a swipe up on empty space, the swipe up from the bottom edge and the Home
button go home. While it shows SpringBoard is in
front (`activeAppInfo`, inferred), as for Spotlight. Pure on the `Host`: never keeps a phone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from phoneshell.sim.apps import AppModel, Drag, Host
from phoneshell.sim.ui import Handler, Node, Rect, showing

if TYPE_CHECKING:
    from phoneshell.sim.apps.springboard import SpringBoardState

SPRINGBOARD = "com.apple.springboard"
RUNNER_BUNDLE = "com.facebook.WebDriverAgentRunner.xctrunner"
"""WDA's runner as the phone runs it: the XCTest host xcodebuild (or tidevice, go-ios) starts,
which answers every WDA request."""
RUNNER_NAME = "WebDriverAgentRunner-Runner"
"""The runner's display name: its Home Screen icon's name and label in the iOS 26.5 dump
(springboard-home-page2); its card's label is inferred to be that name, as every app's card is
labelled with its app's (the banner dump's hidden switcher holds no runner card)."""
SWITCHER_PAUSE_S = 0.3
"""A swipe up from the bottom edge whose finger stays this long before it lifts (or is held this
long before it slides: XCTest's press in `dragfromtoforduration`) shows the App Switcher; a
quicker one goes home. iOS's own threshold is not published: inferred from the gesture ("swipe
up and pause")."""
CARD_SCALE = 0.62
"""A card's size, as a share of the screen's (inferred from screenshots of the switcher)."""
CARD_STEP = 0.4
"""How far apart the cards lie, as a share of the screen's width: the newest in the middle, the
one before it with its middle still on the screen (inferred)."""


def opens_switcher(drag: Drag) -> bool:
    """Whether a swipe up from the bottom edge pauses (or is held) long enough to show the App
    Switcher rather than go home."""
    return max(drag.settled_s, drag.duration_s) >= SWITCHER_PAUSE_S


def recent(host: Host) -> tuple[AppModel[Any], ...]:
    """The apps in the background, most recently in front first (SpringBoard is none): the
    switcher's cards, and the bottom-edge swipe's order (`app_switch`)."""
    installed = {a.bundle_id: a for a in host.apps()}
    return tuple(installed[b] for b in reversed(list(host.running))
                 if b != SPRINGBOARD and b in installed)


def open_switcher(state: SpringBoardState) -> None:
    """Show the App Switcher (SpringBoard is in front: `gestures.drag` brings it)."""
    state.overlay, state.shown, state.banner, state.switcher_offset = \
        "switcher", showing(), None, 0


def _cards(host: Host) -> tuple[tuple[str, str], ...]:
    """(bundle id, label) of every card, newest first: the apps in the background, then WDA's
    runner, started before any of them."""
    return (*((a.bundle_id, a.name) for a in recent(host)), (RUNNER_BUNDLE, RUNNER_NAME))


def _card_frame(host: Host, index: int, offset: int) -> Rect:
    f = host.facts
    width, height = round(f.width * CARD_SCALE), round(f.height * CARD_SCALE)
    x = (f.width - width) // 2 - round(index * f.width * CARD_STEP) + offset
    return Rect(x, (f.height - height) // 2, width, height)


def _on_screen(host: Host, frame: Rect) -> bool:
    return frame.x + frame.width > 0 and frame.x < host.facts.width


def _card_at(state: SpringBoardState, host: Host, x: float, y: float) -> str | None:
    """The app whose card lies under a point (the newer card is on top), or None."""
    for index, (bundle, _) in enumerate(_cards(host)):
        frame = _card_frame(host, index, state.switcher_offset)
        if _on_screen(host, frame) and frame.x <= x < frame.x + frame.width \
                and frame.y <= y < frame.y + frame.height:
            return bundle
    return None


def close_switcher(state: SpringBoardState) -> None:
    """Back to the home screen, on the page that was showing."""
    state.overlay, state.behind = "home", None


def switcher(state: SpringBoardState, host: Host) -> Node:
    """The switcher's content: empty space that goes home, then the cards, oldest first (each
    newer card lies over the one before it)."""
    f = host.facts
    full = Rect(0, 0, f.width, f.height)
    cards: list[Node] = []
    for index, (bundle, name) in reversed(list(enumerate(_cards(host)))):
        frame = _card_frame(host, index, state.switcher_offset)
        shown = _on_screen(host, frame)
        cards.append(Node(
            "Other", frame if shown else Rect(frame.x, frame.y, 0, 0),
            name=f"card:{bundle}:sceneID:{bundle}-default", label=name,
            visible=shown, accessible=False, traits="", on_tap=_opener(state, host, bundle),
            key=f"card:{bundle}"))
    space = Node("Other", full, accessible=False, on_tap=lambda: close_switcher(state))
    return Node("Other", full, name="AppSwitcherContentView", accessible=False,
                key=f"switcher@{state.shown}", children=(space, *cards))


def _opener(state: SpringBoardState, host: Host, bundle: str) -> Handler:
    """A card's tap: its app opens; the runner's goes home (the runner's own screen, empty on a
    phone, is not modelled)."""
    if bundle == RUNNER_BUNDLE:
        return lambda: close_switcher(state)
    return lambda: host.launch(bundle)


def on_switcher_drag(state: SpringBoardState, host: Host, drag: Drag) -> bool:
    """A drag over the switcher: up on a card closes its app (the runner's stops WDA:
    `Phone.terminate`), up on empty space goes home, sideways brings older or newer cards in."""
    if drag.vertical and drag.dy < -60:
        bundle = _card_at(state, host, drag.from_x, drag.from_y)
        if bundle is None:
            close_switcher(state)
            return True
        host.terminate(bundle)
        _settle(state, host)
        return True
    if not drag.vertical and abs(drag.dx) > 10:
        state.switcher_offset += round(drag.dx)
        _settle(state, host)
        return True
    return True  # a drag down, or a short one, changes nothing here


def _settle(state: SpringBoardState, host: Host) -> None:
    """Keep the cards in reach: from the newest in the middle to the oldest there."""
    span = round(max(0, len(_cards(host)) - 1) * host.facts.width * CARD_STEP)
    state.switcher_offset = max(0, min(span, state.switcher_offset))

