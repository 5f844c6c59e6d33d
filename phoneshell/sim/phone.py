"""The simulated iPhone's state: installed and running apps, the front app, stores, lock, focus.

`Phone` is what WDA routes act on and what app models see as their `Host`. It owns the truth a
real phone would: which app is in front (SpringBoard is the home screen and its overlays), each
running app's UI state (dropped on terminate, kept in the background), each app's persistent
store (kept across terminate, for the whole process), the lock, and which text field has focus.
Touch and key input live in `gestures.py`; the phone exposes them as methods so callers have
one object to drive. How it is held and set to look and sound (orientation, volume, appearance)
is its base's, `posture.py`. What shows is composed in `on_screen.py`, pids are drawn in
`processes.py`, and the `--state` file is `state_file.py`'s. Not thread-safe: the server holds
one lock around it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from phoneshell.errors import PhoneshellError
from phoneshell.sim import editing, gestures, urls
from phoneshell.sim.apps import RESTORED, AppModel, Drag, builtin_apps, installs
from phoneshell.sim.apps import springboard as sb
from phoneshell.sim.apps.app_switcher import RUNNER_BUNDLE
from phoneshell.sim.apps.settings import BUNDLE_ID as SETTINGS
from phoneshell.sim.apps.settings import auto_lock_s
from phoneshell.sim.facts import DeviceFacts
from phoneshell.sim.keyboard import KeyboardState
from phoneshell.sim.on_screen import Shown
from phoneshell.sim.posture import Posture
from phoneshell.sim.processes import SPRINGBOARD_PID, Pids, Process
from phoneshell.sim.store import Store
from phoneshell.sim.ui import EditText, Screen

SPRINGBOARD = sb.BUNDLE_ID
PASTEBOARD = "com.apple.pasteboard"
"""The store of the system pasteboard, which every app shares (`text`, and `image` base64)."""


class AppNotInstalled(PhoneshellError):
    """A launch, activate or URL named an app the phone does not have installed (one the
    simulator does not model, or one deleted or offloaded)."""


class Phone(Posture):
    """One simulated iPhone (see the module docstring). Implements the apps' `Host` protocol.

    Args:
        facts: device identity and geometry (defaults: iPhone 17 Pro, iOS 26.2).
        apps: the installed app models (default: every built-in one); must include SpringBoard.
    """

    def __init__(self, facts: DeviceFacts | None = None,
                 apps: Sequence[AppModel[Any]] | None = None) -> None:
        self._hold(facts or DeviceFacts())
        models = list(apps) if apps is not None else list(builtin_apps())
        if all(a.bundle_id != SPRINGBOARD for a in models):
            models.insert(0, sb.APP)
        self._apps = {a.bundle_id: a for a in models}
        self.stores: dict[str, Store] = {}
        self.powered_off = False
        """Turned off (the power-off slider): the server stops answering until `power_on`."""
        self.wda_stopped = False
        """WDA's runner was closed (its App Switcher card swiped up, or terminated): the phone
        stays on, and the server stops answering until `start_wda`."""
        self._boot()

    def _boot(self) -> None:
        self.running: dict[str, Process] = {}
        self.foreground = SPRINGBOARD
        self.locked = False
        self.device_orientation = "PORTRAIT"
        self.simulated_location: tuple[float, float] | None = None
        """The latitude and longitude XCTest makes the phone report (`/wda/simulatedLocation`);
        None: its own."""
        self._clock_s = 0.0
        self._in_request = False
        self._touched_s = 0.0
        """The clock's reading at the last touch or key (Auto-Lock counts from it)."""
        self._focused: EditText | None = None
        self._shown = Shown()
        self.keyboard = KeyboardState()
        self._pids = Pids(self.facts.udid)
        self.running[SPRINGBOARD] = Process(SPRINGBOARD_PID, sb.APP.new_state())
        self.changed()

    def reset(self) -> None:
        """Back to a freshly booted phone with empty stores (facts are kept)."""
        self.stores.clear()
        self._boot()

    def changed(self) -> None:
        """Note that state changed: the cached screen (and all derived from it) is stale."""
        self._shown.stale()

    # -- the Host protocol -------------------------------------------------------------------


    @property
    def focused(self) -> EditText | None:
        """The text field with keyboard focus, if any."""
        return self._focused

    @property
    def clock_s(self) -> float:
        """Seconds on the phone's running clock since boot (stopwatches and timers read it)."""
        return self._clock_s

    def advance_clock(self, seconds: float) -> None:
        """Move the running clock forward.

        It moves only when told (the control route, `SimServer.advance_clock`), so a running
        stopwatch or timer shows the same time on every read until a test advances it: a
        ticking display would look like an effect to a harness comparing sources. When it
        moves past Settings' Auto-Lock time since the last touch, the phone locks, as a phone
        left alone does (a phone set up for phoneshell, as this one is, says Never).

        Raises:
            ValueError: `seconds` is negative.
        """
        if seconds < 0:
            raise ValueError(f"the clock only moves forward, not by {seconds} s")
        self._clock_s += seconds
        idle_s = auto_lock_s(self.store(SETTINGS))
        if idle_s is not None and self._clock_s - self._touched_s >= idle_s:
            self.lock()  # Auto-Lock: as long untouched as Settings allows
        self.changed()

    def store(self, bundle_id: str) -> Store:
        """The persistent store of an app (created empty on first use)."""
        return self.stores.setdefault(bundle_id, Store())

    def apps(self) -> Sequence[AppModel[Any]]:
        """Every installed app model (not deleted, not offloaded: `installs.py`)."""
        return installs.installed(self)

    def models(self) -> Sequence[AppModel[Any]]:
        """Every app model the phone was made with, installed or not."""
        return list(self._apps.values())

    def launch(self, bundle_id: str) -> None:
        """Bring an app to the front, starting it if needed (as WDA's launch and activate do).

        Raises:
            AppNotInstalled: the bundle id names no installed app.
        """
        app = self._model(bundle_id)
        if self.locked:
            return  # a locked phone stays on its lock screen
        if bundle_id == SPRINGBOARD:
            self.go_home()
            return
        if bundle_id not in self.running:
            state = app.new_state()
            saved = self.store(bundle_id).text(RESTORED)
            if app.restore is not None and saved:
                app.restore(state, saved)  # the screen it stopped on (state restoration)
            pid = self._pids.new({p.pid for p in self.running.values()})
            self.running[bundle_id] = Process(pid, state)
        if self.foreground != bundle_id:
            self.focus(None)
            self.foreground = bundle_id
            # `running` lists apps least recently in front first (the edge swipe's order).
            self.running[bundle_id] = self.running.pop(bundle_id)
            sb.close_overlays(self._springboard())
        self.changed()

    def relaunch(self, bundle_id: str) -> None:
        """Start an app afresh in front, dropping its UI state (WDA's `forceAppLaunch`).

        A locked phone changes nothing: the app is neither terminated nor started, as no
        launch works on a lock screen.

        Raises:
            AppNotInstalled: the bundle id names no installed app.
        """
        self._model(bundle_id)
        if self.locked:
            return
        self.terminate(bundle_id)
        self.launch(bundle_id)

    def go_home(self) -> None:
        """Show the home screen (closing Spotlight or Notification Center)."""
        if self.locked:
            return
        self.focus(None)
        if self.foreground != SPRINGBOARD:
            # Coming back from an app lands on the page that was showing, not the first page.
            sb.close_overlays(self._springboard())
        else:
            sb.show_home(self._springboard())
        self.foreground = SPRINGBOARD
        self.changed()

    def deactivate(self) -> None:
        """Send the front app to the background and bring it back, as XCTest's deactivate does
        (the phone's clock moves only when told, so the time away is not modelled)."""
        bundle = self.foreground
        self.go_home()
        if bundle != SPRINGBOARD:
            self.launch(bundle)

    def open_url(self, url: str) -> None:
        """Open a URL in the app iOS routes it to (`urls.py`): the app that claims its scheme
        (http and https: Safari), or the Apple app of a scheme or universal link in the
        system's table (maps.apple.com: Maps). The app opens as a launch does, and shows the
        URL if it handles it (`on_url`).

        Raises:
            AppNotInstalled: no installed app handles the scheme.
        """
        app = urls.opener(url, [a for a in self.apps() if a.bundle_id != SPRINGBOARD])
        if app is None:
            raise AppNotInstalled(f"no installed app opens {urls.scheme_of(url)}: URLs ({url})",
                                  hint="the schemes the simulator routes are listed in "
                                       "docs/simulator.md")
        self.launch(app.bundle_id)
        if self.foreground == app.bundle_id and app.on_url is not None:
            app.on_url(self.running[app.bundle_id].state, self, url)
        self.changed()

    def focus(self, field: EditText | None) -> None:
        """Give `field` keyboard focus (None: dismiss the keyboard). A field losing the focus
        loses its selection, and one given it (again: a tap on the text) has the caret at the
        end of its text, where the simulator types; an app selects after focusing (Safari's
        address, a note's Select All)."""
        if self._focused is not None:
            self._focused.focused = False
            self._focused.selection = None
        self._focused = field
        if field is not None:
            field.focused, field.selection = True, None
            self.keyboard = KeyboardState()
        self.changed()

    # -- app lifecycle (WDA's apps/* routes) --------------------------------------------------

    def terminate(self, bundle_id: str) -> bool:
        """Stop an app, dropping its UI state (its store stays); return whether it was running.
        WDA's runner stops WDA (`wda_stopped`): what answers every request is gone."""
        if bundle_id == RUNNER_BUNDLE:
            self.wda_stopped = True
            return True
        self._model(bundle_id)
        if bundle_id == SPRINGBOARD:
            self.running[SPRINGBOARD] = Process(SPRINGBOARD_PID, sb.APP.new_state())
            self.focus(None)
            self.changed()
            return True
        process = self.running.pop(bundle_id, None)
        if process is None:
            return False
        app = self._apps[bundle_id]
        if app.keep is not None:
            self.store(bundle_id).put(RESTORED, app.keep(process.state))
        if self.foreground == bundle_id:
            self.focus(None)
            self.foreground = SPRINGBOARD
        self.changed()
        return True

    def app_state(self, bundle_id: str) -> int:
        """XCUIApplicationState: 1 not running, 3 running in the background, 4 in front."""
        if bundle_id not in self.running:
            return 1
        return 4 if self.active()[0] == bundle_id else 3

    def active(self) -> tuple[str, int]:
        """Bundle id and pid of what is in front (SpringBoard while locked)."""
        bundle = SPRINGBOARD if self.locked else self.foreground
        return bundle, self.running[bundle].pid

    def lock(self) -> None:
        """Lock the phone: the lock screen shows and gestures do nothing."""
        self.locked = True
        self.focus(None)

    def unlock(self) -> None:
        """Unlock: back to whatever was in front."""
        self.locked = False
        self.changed()

    # -- input (see gestures.py) -------------------------------------------------------------

    def tap(self, x: float, y: float) -> None:
        """Tap a point: the topmost visible element there reacts (after a focused field
        that ends editing on a tap outside it has, `editing.tap`)."""
        self._touched_s = self._clock_s
        editing.tap(self, x, y)

    def hold(self, x: float, y: float, duration_s: float) -> None:
        """Touch and hold a point."""
        self._touched_s = self._clock_s
        gestures.hold(self, x, y, duration_s)

    def drag(self, drag: Drag) -> None:
        """Drag a finger: scroll lists, flip pages, or make a system gesture."""
        self._touched_s = self._clock_s
        gestures.drag(self, drag)

    def type_text(self, text: str) -> bool:
        """Type into the focused field; False (and nothing typed) when no field has focus."""
        self._touched_s = self._clock_s
        return gestures.type_text(self, text)

    def press_button(self, name: str) -> None:
        """Press a hardware button: "home", "volumeUp" or "volumeDown".

        Raises:
            ValueError: any other name.
        """
        self._touched_s = self._clock_s
        gestures.press_button(self, name)

    # -- what is on screen -------------------------------------------------------------------

    def screen(self) -> Screen:
        """The current screen (cached until the next change: `on_screen.py`, or a banner
        going by itself in real time, as a phone's does, though never within one request:
        `one_request`)."""
        if not self._in_request and sb.banner_gone(self._springboard()):
            self.changed()
        return self._shown.screen(self, self._apps)

    @contextmanager
    def one_request(self) -> Iterator[None]:
        """Answer one request from one moment of the phone: a banner whose time is up in real
        time goes before the request, never between two reads of the screen inside it (a
        find's matches and the references it hands out must come from the same screen)."""
        if sb.banner_gone(self._springboard()):
            self.changed()
        self._in_request = True
        try:
            yield
        finally:
            self._in_request = False

    def keyboard_field(self) -> EditText | None:
        """The focused field if it is on screen, i.e. the field the keyboard types into."""
        field = self._focused
        if field is None or self.locked:
            return None
        return field if any(n.field is field for n in self.screen().nodes) else None

    def _model(self, bundle_id: str) -> AppModel[Any]:
        app = self._apps.get(bundle_id)
        # A deleted or offloaded app is not installed: WDA's launch fails as for any other.
        if app is None or bundle_id in installs.missing(self):
            raise AppNotInstalled(f"app {bundle_id} is not installed on the simulated iPhone",
                                  hint="the simulator's apps are listed in docs/simulator.md; "
                                       "a reset reinstalls a deleted or offloaded one")
        return app

    def _springboard(self) -> sb.SpringBoardState:
        state: sb.SpringBoardState = self.running[SPRINGBOARD].state
        return state

    def running_state(self, bundle_id: str) -> Any:
        """The UI state of a running app (for system gestures and tests), else None."""
        process = self.running.get(bundle_id)
        return None if process is None else process.state

    def post_notification(self, app: str, title: str, body: str) -> None:
        """Post a notification from an installed app: its banner shows over what is in front.

        Raises:
            ValueError: `app` is not installed, or title and body are both empty.
        """
        sb.notify(self._springboard(), self, app, title, body)
        self.changed()

    def show_power_off(self) -> None:
        """Show the power-off screen over whatever is in front."""
        self._over_front(sb.open_power_off)

    def power_off(self) -> None:
        """Turn the phone off (the server stops answering: `SimServer.power_on`)."""
        self.powered_off = True

    def start_wda(self) -> None:
        """Start WDA again (a person runs xcodebuild or tidevice): the phone as it was."""
        self.wda_stopped = False

    def power_on(self) -> None:
        """Turn the phone on: booted afresh (no app running, stores kept) and locked, as a
        phone is after a restart."""
        self.powered_off = False
        self._boot()
        self.lock()

    def open_notification_centre(self) -> None:
        """Pull Notification Center down over whatever is in front."""
        self._over_front(sb.open_notification_centre)

    def open_control_center(self) -> None:
        """Pull Control Center down over whatever is in front."""
        self._over_front(sb.open_control_center)

    def _over_front(self, open_overlay: Callable[[sb.SpringBoardState, str | None], None],
                    ) -> None:
        """Open a SpringBoard overlay over the app in front (SpringBoard comes to the front;
        the overlay keeps the app to go back to)."""
        behind = None if self.foreground == SPRINGBOARD else self.foreground
        self.focus(None)
        self.foreground = SPRINGBOARD
        open_overlay(self._springboard(), behind)
        self.changed()

    # -- a restart (the `--state` file: `state_file.py`) -------------------------------------

    def restart(self, facts: DeviceFacts, stores: dict[str, Store], clock_s: float) -> None:
        """Boot afresh with `facts` and `stores`, the running clock at `clock_s`."""
        self._hold(facts)
        self.stores = stores
        self._boot()
        self._clock_s = clock_s
