"""App models of the simulated iPhone, and the interface every app model implements.

An app model is a small module that registers one `AppModel`:

* `bundle_id` and `name` (the home-screen label, also the application node's name);
* `new_state()`: a fresh per-launch UI state object (any class you like, usually a mutable
  dataclass). The phone creates it on launch, keeps it while the app is in the background, and
  drops it on terminate;
* `render(state, host) -> Node`: the app's current screen, built from the state with the
  helpers in `phoneshell.sim.layout`. It is called after every change, must not change state
  (beyond `Scroll.clamp`), and returns the body the phone puts inside the app's window;
* behaviour: `on_tap` closures on the nodes, which mutate the state (and may call the `host`:
  launch another app, focus a field, read or write the app's persistent `Store`);
* optional hooks: `on_drag(state, host, drag) -> bool` for gestures lists do not handle (return
  True when handled; `host.screen()` is what the finger lands on), and
  `on_url(state, host, url)` with `url_schemes` for apps that open URLs.

Data a real app would keep on disk goes in `host.store(bundle_id)`, never in the state: the
store survives terminate and lasts for the whole simulator process (and `--state FILE`).

Example, a complete app (see `calculator.py` and `settings.py` for bigger ones)::

    @dataclass
    class CounterState:
        count: int = 0

    def render(state: CounterState, host: Host) -> Node:
        def bump() -> None:
            state.count += 1
        return layout.screen(host.facts, [
            layout.nav_bar(host.facts, "Counter"),
            layout.text(f"Count: {state.count}", Rect(16, 200, 370, 40)),
            layout.button("Add one", Rect(16, 260, 370, 50), bump),
        ])

    register(AppModel("com.example.counter", "Counter", CounterState, render))

and that is all: every module in this package is imported at start (`APP_MODULES` only fixes the
home-screen order of the built-in ones). The phone never imports an app model directly, except
SpringBoard, which is the system itself.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from phoneshell.presses import VERTICAL, Heading, heading
from phoneshell.sim.facts import DeviceFacts
from phoneshell.sim.store import Store
from phoneshell.sim.ui import EditText, Node, Screen

S = TypeVar("S")

APP_MODULES = ("springboard", "settings", "calculator", "safari", "notes", "clock", "weather",
               "reminders", "calendar", "contacts", "files", "maps", "books", "measure",
               "compass", "appstore")
"""Built-in app modules in home-screen order. Every other module of this package is imported
after them, alphabetically, so a new app is just a new file."""


@dataclass(frozen=True)
class Drag:
    """One finger drag in screen points (`dragfromtoforduration`, swipes)."""

    from_x: float
    from_y: float
    to_x: float
    to_y: float
    duration_s: float = 0.0
    """How long the finger stayed within the slop before it slid (XCTest's press in
    `pressForDuration:thenDragToCoordinate:`; a touch chain's time until it left the slop), or
    held in all when it never left it: `holds.LONG_PRESS_S` or more opens a context menu."""
    settled_s: float = 0.0
    """How long the finger stayed where it was last moved to before it lifted (a touch chain's
    pause before its pointerUp): a swipe up from the bottom edge that pauses so opens the App
    Switcher (`app_switcher`)."""
    wandered: bool = False
    """The finger went further than the slop from where it went down, whatever its ends say (a
    touch chain that came back): a scroll view around it took the touch."""
    first: tuple[float, float] | None = None
    """Where the finger first went past the slop (`presses.first_move`), for a touch chain that
    does not go straight: the phone takes the drag's way from there (`heading`). None for a
    straight drag."""

    @property
    def dx(self) -> float:
        """Horizontal travel (positive: to the right)."""
        return self.to_x - self.from_x

    @property
    def dy(self) -> float:
        """Vertical travel (positive: downwards)."""
        return self.to_y - self.from_y

    @property
    def heading(self) -> Heading:
        """Which way the phone takes the drag (`presses.heading`, the rule the bridge logs it
        by): along the axis of its first move past the slop, by where it lifted."""
        return heading((self.from_x, self.from_y), (self.to_x, self.to_y), self.first)

    @property
    def vertical(self) -> bool:
        """Whether the phone takes the drag as going up or down (a list's scroll), judged by its
        first move past the slop: one that starts sideways is a row's swipe, whatever follows."""
        return self.heading in VERTICAL


class Host(Protocol):
    """What an app model may ask of the phone it runs on (the phone implements this)."""

    @property
    def facts(self) -> DeviceFacts:
        """Device identity, screen size, battery, clock."""
        ...

    @property
    def focused(self) -> EditText | None:
        """The text field with keyboard focus, if any."""
        ...

    @property
    def running(self) -> Mapping[str, object]:
        """The apps with a process (SpringBoard too), by bundle id, in launch order."""
        ...

    @property
    def clock_s(self) -> float:
        """Seconds on the phone's running clock, for stopwatches and timers.

        It moves only when advanced (`POST /phoneshell/sim/clock`), so reads are repeatable;
        the wall time (status bar, `facts.time`) stays frozen.
        """
        ...

    @property
    def volume(self) -> int:
        """Ringer/media volume steps, 0-16 (kept in Settings' store)."""
        ...

    @volume.setter
    def volume(self, steps: int) -> None: ...

    def store(self, bundle_id: str) -> Store:
        """The persistent store of an app (created empty on first use)."""
        ...

    def running_state(self, bundle_id: str) -> Any:
        """The UI state of a running app, else None."""
        ...

    def apps(self) -> Sequence[AppModel[Any]]:
        """Every installed app, SpringBoard included, in registration order."""
        ...

    def models(self) -> Sequence[AppModel[Any]]:
        """Every app model the phone was made with, deleted or not (a reset reinstalls them);
        `installs.py` says which are installed."""
        ...

    def launch(self, bundle_id: str) -> None:
        """Bring an app to the front, starting it if it is not running."""
        ...

    def go_home(self) -> None:
        """Show the home screen, as the home button does."""
        ...

    def terminate(self, bundle_id: str) -> bool:
        """Stop an installed app, dropping its UI state (its store stays); say if it ran."""
        ...

    def open_url(self, url: str) -> None:
        """Open a URL in the app that handles its scheme."""
        ...

    def focus(self, field: EditText | None) -> None:
        """Give a text field keyboard focus (the keyboard shows), or take focus away."""
        ...

    def show_power_off(self) -> None:
        """Show the power-off screen over what is in front (Settings > General > Shut Down)."""
        ...

    def power_off(self) -> None:
        """Turn the phone off: WDA stops answering until it is turned on again."""
        ...

    def screen(self) -> Screen:
        """What is on the display now, as last rendered (for hooks that hit-test a drag).

        A hook reads it instead of calling its own `render` again: the phone has it already.
        """
        ...


@dataclass(frozen=True)
class AppModel(Generic[S]):
    """One installed app: identity, how to make its UI state, and how to draw it."""

    bundle_id: str
    name: str
    """The home-screen label and the application node's name."""
    new_state: Callable[[], S]
    """A fresh per-launch UI state; called on launch after a terminate."""
    render: Callable[[S, Host], Node]
    """The current screen's body (see the module docstring)."""
    on_drag: Callable[[S, Host, Drag], bool] | None = None
    """Drags lists and system gestures do not take; return True when handled."""
    on_url: Callable[[S, Host, str], None] | None = None
    """Open a URL whose scheme is in `url_schemes` (the app is already in front)."""
    url_schemes: tuple[str, ...] = ()
    keep: Callable[[S], str] | None = None
    """What of the screen the app saves as it stops, to open on it again (Files' tab, Calendar's
    view: iOS state restoration); the phone keeps it in the app's store (`RESTORED`)."""
    restore: Callable[[S, str], None] | None = None
    """Apply what `keep` saved to a fresh state, as the app starts again after a terminate."""
    home_icon: bool = True
    """Whether the app has a home-screen icon (SpringBoard itself does not)."""
    rotates: bool = False
    """Whether the app turns to landscape with the phone. On an iPhone Safari, Notes,
    Calculator and most document apps do; SpringBoard, Settings, Clock, Weather, Compass and
    the App Store stay portrait. The phone lays the app out turned (its `facts` swap width and
    height), so an app needs no code of its own to rotate."""


RESTORED = "restored_screen"
"""The store key where the phone keeps what an app's `keep` saved as it stopped."""

_REGISTRY: dict[str, AppModel[Any]] = {}


def register(app: AppModel[S]) -> AppModel[S]:
    """Add an app model to the built-in set (called once, at import of the app's module).

    Raises:
        ValueError: another model already registered this bundle id.
    """
    if app.bundle_id in _REGISTRY and _REGISTRY[app.bundle_id] is not app:
        raise ValueError(f"two app models claim {app.bundle_id}")
    _REGISTRY[app.bundle_id] = app
    return app


def builtin_apps() -> tuple[AppModel[Any], ...]:
    """Every built-in app model, importing this package's modules on first use."""
    present = {info.name for info in pkgutil.iter_modules(__path__)}
    ordered = [m for m in APP_MODULES if m in present] + sorted(present - set(APP_MODULES))
    for module in ordered:
        importlib.import_module(f"{__name__}.{module}")
    return tuple(_REGISTRY.values())
