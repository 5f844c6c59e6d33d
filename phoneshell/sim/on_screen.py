"""What the simulated iPhone shows: the windows SpringBoard stacks over the front app's body,
composed into one `Screen`, cached until the phone changes, and each running launch's last
screen, so an element keeps its id from one read to the next."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from phoneshell.sim import covers, gestures
from phoneshell.sim.apps import AppModel
from phoneshell.sim.apps import springboard as sb
from phoneshell.sim.keyboard import keyboard
from phoneshell.sim.ui import Node, Rect, Screen, walk

if TYPE_CHECKING:
    from phoneshell.sim.phone import Phone


class Shown:
    """One phone's screen: composed on the first read after a change, then kept."""

    def __init__(self) -> None:
        self._screen: Screen | None = None
        self._last: dict[int, Screen] = {}
        """Each running process's last screen, by launch (`Screen.of`'s `before`)."""

    def stale(self) -> None:
        """Note that the phone changed: the kept screen (and all derived from it) is stale."""
        self._screen = None

    def screen(self, phone: Phone, models: Mapping[str, AppModel[Any]]) -> Screen:
        """The phone's screen now; `models` are its apps by bundle id."""
        if self._screen is None:
            self._screen = self._compose(phone, models)
        return self._screen

    def _compose(self, phone: Phone, models: Mapping[str, AppModel[Any]]) -> Screen:
        f = phone.facts
        bundle = sb.BUNDLE_ID if phone.locked else phone.foreground
        app = models[bundle]
        # SpringBoard decides the windows: the app's (or its own, or the lock screen's when
        # there is no body), the keyboard's, the system's, a banner's.
        body = None if phone.locked else app.render(phone.running[bundle].state, phone)
        focused = phone.focused
        keys = None
        if body is not None and focused is not None and any(n.field is focused
                                                            for n in walk(body)):
            keys = keyboard(f, focused, phone.keyboard, lambda key: gestures.press_key(phone, key))
        springboard: sb.SpringBoardState = phone.running[sb.BUNDLE_ID].state
        root = covers.shown(Node("Application", Rect(0, 0, f.width, f.height), label=app.name,
                                 name=app.name, children=sb.windows_of(
                                     springboard, phone, body, keys, front=bundle)))
        process = phone.running[bundle]
        launches = {p.launch for p in phone.running.values()}
        self._last = {n: s for n, s in self._last.items() if n in launches}
        screen = Screen.of(root, bundle, process.pid, before=self._last.get(process.launch),
                           launch=process.launch)
        self._last[process.launch] = screen
        return screen
