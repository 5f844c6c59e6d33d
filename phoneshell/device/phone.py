"""A phone reached by its WDA URL: what the harness reads off it and does on it.

Reads (foreground app, page source, screenshot, lock state) use only session-free routes:
creating a WDA session kills the one before it (`wda_link.py`, where WDA's errors are
translated), so a read must never create one. Actions need a session; when none exists one is
created that adopts the app already in front, without relaunching it.

Every read costs a real phone a round trip (a source 160-210 ms), so inside `keeping_reads` a
read is asked once and reused until something could have changed its answer: any action sent
(launch, tap, keys...), and any wait (`poll` forgets between its tries, `forget` does it by
hand). Outside that block every read goes to the phone.
"""

from __future__ import annotations

import base64
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from phoneshell.device.banners import clear_of_banner
from phoneshell.device.screen_reads import TextInput, app_of_source, inputs_of, sole_input
from phoneshell.device.wda_link import WdaHiccup, WdaLink
from phoneshell.errors import DeviceError, DeviceLocked, shown_url
from phoneshell.evidence import Foreground
from phoneshell.patience import patiently
from phoneshell.tree import PageSource
from phoneshell.xcui import SPRINGBOARD

T = TypeVar("T")
NOT_RUNNING = 1
"""XCUIApplicationState.notRunning."""


W3C_ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
"""The key a W3C reply names a found element by (WDA also sends "ELEMENT")."""


class Phone:
    """One phone (or simulator) behind a WDA URL.

    Requests go through facebook-wda's transport (`wda.httpdo`: its HTTP, usbmux and reply
    parsing) on a `WdaLink`, which handles sessions: a stale one is re-resolved once, never in a
    loop.

    Args:
        url: `http://host:8100` or `http+usbmux://UDID:8100` (a bridge URL works the same).
        timeout_s: per-request timeout.
        effect_timeout_s: how long a step's effect may take to show before the step counts as
            not taken (animations on a real phone take a second or two).
        where: how messages name the phone (default: `errors.shown_url` of `url`).
        patience_s: how long a read WDA refused is asked again before its failure stands
            (`phoneshell.patience`; default: `effect_timeout_s`, at least 1 s: a real phone's
            5 s; a run's rig sets it, `runner.rig.open_rig`).
    """

    def __init__(self, url: str, timeout_s: float = 60.0, effect_timeout_s: float = 5.0,
                 where: str = "", patience_s: float | None = None) -> None:
        self.url = url.rstrip("/")
        self.where = where or shown_url(self.url)
        """How messages name this phone: `where` as given (a rig names the phone behind its
        bridge), else the URL's scheme, host and port, never its path (a bridge's token, an
        agent's grant, a simulator's secret routes)."""
        self.timeout_s = timeout_s
        self.effect_timeout_s = effect_timeout_s
        self.patience_s = max(1.0, effect_timeout_s) if patience_s is None else patience_s
        self.hiccups = 0
        """Reads WDA could not make so far, each ask counted (a patient read may ask again)."""
        self._link = WdaLink(self.url, self.where, timeout_s,
                             front=lambda: self.foreground().bundle_id)
        self._kept: dict[str, Any] | None = None
        """Reads kept for reuse (None: not keeping; see `keeping_reads`)."""
        self._left = ""
        """What a harness procedure said it left on screen (`leave`); "" once anything acted."""

    # -- reads asked once -------------------------------------------------------------------

    @contextmanager
    def keeping_reads(self) -> Iterator[Phone]:
        """Within this block, ask each read once and reuse it until an action is sent or time
        is let pass (`poll`, `forget`). Blocks nest; the reads are dropped when the outermost
        ends. Another client (the agent, through the bridge) acting on the phone is invisible
        here: whoever holds a block while one may act must `forget` afterwards."""
        outermost = self._kept is None
        if outermost:
            self._kept = {}
        try:
            yield self
        finally:
            if outermost:
                self._kept = None

    def forget(self) -> None:
        """Drop every kept read: the phone may have changed since it was asked."""
        self._left = ""
        if self._kept:
            self._kept.clear()

    def leave(self, what: str) -> None:
        """Say what is left on screen on purpose (a search's results, say), for a later step to
        start from instead of getting there again. It holds until the next action or wait
        through this object (`forget`), or another client's turn (the runner forgets then)."""
        self._left = what

    def left(self) -> str:
        """What `leave` said is on screen, if nothing has acted or waited since ("" if not)."""
        return self._left

    def _once(self, key: str, ask: Callable[[], T]) -> T:
        if self._kept is None:
            return ask()
        if key not in self._kept:
            self._kept[key] = ask()
        value: T = self._kept[key]
        return value

    def poll(self, holds: Callable[[], bool], timeout_s: float, interval_s: float = 0.05,
             ) -> bool:
        """Ask `holds` until it is true or the deadline passes, reading afresh each time after
        the first (the first may reuse what was read since the last action)."""
        return wait_until(holds, timeout_s, interval_s, between=self.forget)

    # -- the wire (`wda_link.py`) -----------------------------------------------------------

    def _get(self, path: str, timeout_s: float | None = None, patient: bool = True) -> Any:
        """A session-free read; one WDA could not make (`WdaHiccup`) is asked again for
        `patience_s` (a real phone fails a snapshot or a screenshot now and then:
        `phoneshell.patience`). Any other refusal stands at once (a route this WDA does not
        have), and a phone nothing answers for is `device.answers`' to wait for."""
        if not patient:
            return self._link.get(path, timeout_s)

        def ask() -> Any:
            try:
                return self._link.get(path, timeout_s)
            except WdaHiccup:
                self.hiccups += 1
                raise

        return patiently(ask, self.patience_s, (WdaHiccup,))

    def _post(self, path: str, data: dict[str, Any] | None = None) -> Any:
        return self._link.post(path, data)

    def _session_post(self, path: str, data: dict[str, Any] | None = None,
                      reads: bool = False, method: str = "POST") -> Any:
        """POST (or `method`) under the current session. Unless it only `reads`, the request
        may change the phone, so kept reads are dropped first."""
        if not reads:
            self.forget()
        return self._link.in_session(path, data, method)

    # -- reads (session-free) ----------------------------------------------------------------

    def status(self, timeout_s: float | None = None) -> dict[str, Any]:
        """WDA's /status value (ready, os, device, build), waited for `timeout_s` (default: the
        phone's per-request timeout)."""
        value = self._get("/status", timeout_s, patient=False)  # its askers wait their own way
        return value if isinstance(value, dict) else {}

    def device_info(self) -> dict[str, Any]:
        """WDA's `/wda/device/info` (name, model, its own `uuid` for the phone)."""
        value = self._get("/wda/device/info")
        return value if isinstance(value, dict) else {}

    def foreground(self) -> Foreground:
        """The app in front: named by the application node of a source kept since the last
        action (WDA reads both off its one active application), else `/wda/activeAppInfo`."""
        return self.kept_foreground() or self._once("foreground", self._foreground)

    def kept_page(self) -> PageSource | None:
        """The page read since the last action, asking nothing (None when none was)."""
        return self.page() if "source" in (self._kept or {}) else None

    def kept_foreground(self) -> Foreground | None:
        """The app in front as far as the reads kept since the last action say, asking
        nothing (None when they do not say)."""
        kept = self._kept or {}
        if "foreground" in kept:
            found: Foreground = kept["foreground"]
            return found
        return app_of_source(kept["source"]) if "source" in kept else None

    def _foreground(self) -> Foreground:
        info = self._get("/wda/activeAppInfo")
        if not isinstance(info, dict) or not info.get("bundleId"):
            raise DeviceError(f"WDA at {self.where} gave no foreground app: {info!r}")
        return Foreground(bundle_id=str(info["bundleId"]), name=str(info.get("name") or ""),
                          pid=int(info.get("pid") or 0))

    def source(self) -> str:
        """The XML page source."""
        return self._once("source", self._source)

    def page(self) -> PageSource:
        """The XML page source, parsed (once per kept read)."""
        return self._once("page", lambda: PageSource.parse(self.source()))

    def screen_size(self) -> tuple[float, float]:
        """The screen in points: from a source already read, else `/window/size` (a small
        read; a source is a big one)."""
        kept = self._kept or {}
        if "source" in kept and self.page().width > 0 and self.page().height > 0:
            return float(self.page().width), float(self.page().height)
        return self._once("size", self._window_size)

    def _window_size(self) -> tuple[float, float]:
        value = self._get("/window/size")
        try:
            width, height = float(value["width"]), float(value["height"])
        except (TypeError, KeyError, ValueError) as exc:
            raise DeviceError(f"WDA at {self.where} sent no screen size: {value!r}") from exc
        if width <= 0 or height <= 0:
            raise DeviceError(f"WDA at {self.where} sent an empty screen size: {value!r}")
        return width, height

    def _source(self) -> str:
        value = self._get("/source?format=xml")
        if not isinstance(value, str):
            raise DeviceError(f"WDA at {self.where} sent a page source that is not text")
        return value

    def fields(self) -> list[TextInput]:
        """Text inputs in the JSON page source, with which one has focus."""
        return self._once("fields", self._fields)

    def focused_input(self) -> TextInput | None:
        """The text input with focus. An XML source read since the last action tells it when
        it shows the keyboard and holds one text input in all (the keyboard is up only for an
        input with focus); otherwise the JSON source, which flags focus, is asked (a type step
        after a tap reads the screen once, not twice: 0.19 s on a real phone)."""
        if "source" in (self._kept or {}) and self.page().keyboard_up:
            only = sole_input(self.page())
            if only is not None:
                return only
        return next((f for f in self.fields() if f.focused), None)

    def input_shows(self, field: TextInput, holds: Callable[[TextInput], bool]) -> bool:
        """Whether the text input with focus, of `field`'s type, passes `holds`. When `field`
        was the screen's only text input, read off the XML source if it still holds one
        input in all, of that type, and it passes (the read then serves whatever looks at the
        screen next); else off the JSON source."""
        if field.alone:
            only = sole_input(self.page())
            if only is not None and only.type == field.type and holds(only):
                return True
        now = next((f for f in self.fields() if f.focused and f.type == field.type), None)
        return now is not None and holds(now)

    def _fields(self) -> list[TextInput]:
        return inputs_of(self._get("/source?format=json"))

    def screenshot_png(self) -> bytes:
        """The screen as PNG bytes."""
        value = self._get("/screenshot")
        try:
            return base64.b64decode(str(value))
        except ValueError as exc:
            raise DeviceError(f"WDA at {self.where} sent a screenshot that is not base64") from exc

    def locked(self) -> bool:
        """Whether the phone is locked (gestures would be dropped)."""
        return bool(self._get("/wda/locked"))

    def require_unlocked(self) -> None:
        """Raise `DeviceLocked` when the phone is locked."""
        if self.locked():
            raise DeviceLocked(f"the phone at {self.where} is locked: WDA would accept gestures "
                               "and do nothing", hint="unlock the phone and set Auto-Lock to "
                                                      "Never (Settings > Display & Brightness)")

    def unlock(self) -> None:
        """Unlock the phone (WDA can, on a phone without a passcode)."""
        self._post("/wda/unlock")

    def app_state(self, bundle_id: str) -> int:
        """XCUIApplicationState: 1 not running, 2 suspended, 3 background, 4 foreground."""
        return self._once(f"state {bundle_id}", lambda: int(self._session_post(
            "/wda/apps/state", {"bundleId": bundle_id}, reads=True) or 0))

    # -- actions (session) --------------------------------------------------------------------

    def launch(self, bundle_id: str) -> None:
        """Launch (or bring forward) an app."""
        self._session_post("/wda/apps/launch", {"bundleId": bundle_id, "arguments": [],
                                                "environment": {},
                                                "shouldWaitForQuiescence": False})

    def terminate(self, bundle_id: str) -> bool:
        """Stop an app; True if it was running. WDA answers after XCTest's `terminate`, which
        returns once the app has exited (and fails the request when it does not), so the app's
        state is known from the answer and kept as a read would be."""
        was_running = bool(self._session_post("/wda/apps/terminate", {"bundleId": bundle_id}))
        if self._kept is not None:
            self._kept[f"state {bundle_id}"] = NOT_RUNNING
        return was_running

    def home(self) -> None:
        """Press home through WDA's session-free home route."""
        self.forget()
        self._post("/wda/homescreen")

    def press(self, button: str) -> None:
        """Press a hardware button: home, volumeUp or volumeDown."""
        self._session_post("/wda/pressButton", {"name": button})

    def tap(self, x: float, y: float) -> None:
        """Tap at a point (screen points), never through a notification banner
        (`banners.clear_of_banner`)."""
        clear_of_banner(self, x, y)
        self._session_post("/wda/tap", {"x": round(x), "y": round(y)})

    def touch_and_hold(self, x: float, y: float, seconds: float) -> None:
        """Touch and hold at a point."""
        self._session_post("/wda/touchAndHold", {"x": round(x), "y": round(y),
                                                 "duration": seconds})

    def drag(self, start: tuple[float, float], end: tuple[float, float],
             press_s: float = 0.0) -> None:
        """Drag from one point to another (WDA's native drag)."""
        self._session_post("/wda/dragfromtoforduration", {
            "fromX": round(start[0]), "fromY": round(start[1]), "toX": round(end[0]),
            "toY": round(end[1]), "duration": press_s})

    def type_keys(self, text: str) -> None:
        """Type into whatever has focus (WDA wants a list of characters)."""
        self._session_post("/wda/keys", {"value": list(text)})

    def read(self, path: str) -> Any:
        """A session-free read the steps have no method for (`/wda/device/info`): its value."""
        return self._get(path)

    def act(self, path: str, data: dict[str, Any] | None, method: str = "POST",
            session: bool = True) -> Any:
        """Send a request that changes the phone and that the steps have no method for (the
        phone's own state: `/orientation`, `/wda/device/appearance`), under the session or,
        for a route WDA serves only without one, not."""
        if session:
            return self._session_post(path, data, method=method)
        self.forget()
        return self._link.request(method, path, data).value

    def renew_session(self) -> None:
        """Replace WDA's session with one of the harness's, for no app and at WDA's default
        settings (`WdaLink.renew`: ending the one before may terminate its app)."""
        self.forget()
        self._link.renew()

    def found_settings(self) -> dict[str, Any]:
        """WDA's settings in the session the harness acts in, when it found that session ({}
        when it made it, or there is none: `WdaLink.found_settings`)."""
        return self._link.found_settings()

    def set_slider(self, label: str, position: float) -> None:
        """Move the slider labelled `label` to `position` (0 to 1) by WDA's element value
        route, which moves it by XCTest's `adjust(toNormalizedSliderPosition:)` (WDA refuses a
        value outside 0..1, and reads a percentage as its number)."""
        self.set_value_of("Slider", "label", label, f"{position:.3f}")

    def set_value_of(self, kind: str, attribute: str, text: str, value: str) -> None:
        """Set the `kind` element (XCUIElementType`kind`) whose `attribute` is `text` to
        `value` by WDA's element value route: a slider by its position, a picker wheel by
        XCTest's `adjust(toPickerWheelValue:)` (one request, however many rows it turns).

        Raises:
            DeviceError: no such element, or WDA refused the value.
        """
        quoted = "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"
        found = self._session_post("/element", {
            "using": "predicate string",
            "value": f"type == 'XCUIElementType{kind}' AND {attribute} == {quoted}"}, reads=True)
        element = (found.get("ELEMENT") or found.get(W3C_ELEMENT)) if isinstance(found, dict) \
            else None
        if not element:
            raise DeviceError(f"WDA at {self.where} found no {kind} whose {attribute} is "
                              f"{text!r}")
        self._session_post(f"/element/{element}/value", {"value": value})

    def open_url(self, url: str) -> None:
        """Open a URL the way the system would."""
        self._session_post("/url", {"url": url})


def wait_until(predicate: Callable[[], bool], timeout_s: float, interval_s: float = 0.05,
               between: Callable[[], None] | None = None) -> bool:
    """Poll `predicate` until it holds or the deadline passes; return whether it held.
    `between` runs after each pause, before the next try."""
    deadline = time.monotonic() + timeout_s
    while True:
        if predicate():
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(interval_s)
        if between is not None:
            between()


__all__ = ["Phone", "SPRINGBOARD", "wait_until"]
