"""On the screens of every simulated app, a tap at the centre of a control the simulator has on
top is logged by the bridge's hit test (`node_at`) as that control: the simulator's own hit
path (`phoneshell.sim.touch_paths.hit_path`) is what the phone presses. A modal layer the
bridge guessed from a shape (an app's content view has a page sheet's frame) logged every back
button below Settings' top level as a full-screen Other; an edit menu read as modal did so to
Notes' bar."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

import pytest
import wda

from bridge.targets import node_at
from phoneshell.sim.apps import builtin_apps
from phoneshell.sim.server import SimServer
from phoneshell.sim.source import to_json
from phoneshell.sim.touch_paths import hit_path
from phoneshell.sim.ui import Node
from phoneshell.xcui import walk

TAPPED = ("Button", "Cell", "Switch", "Key")
"""Short types whose centre the test taps."""
Start = Callable[[wda.Client], None]
CLOCK, NOTES, SETTINGS = "com.apple.mobiletimer", "com.apple.mobilenotes", "com.apple.Preferences"


def _then(bundle: str, *labels: str) -> Start:
    def start(session: wda.Client) -> None:
        session.app_launch(bundle)
        for label in labels:
            session(label=label).get(timeout=3).click()
    return start


def _note_menu(session: wda.Client) -> None:
    """Notes' edit menu (Select, Select All) after a hold past the end of a note's text."""
    session.app_launch(NOTES)
    session(className="XCUIElementTypeCell").get(timeout=3).click()
    session.tap_hold(200, 700, 1.0)
    session(className="XCUIElementTypeMenuItem").get(timeout=3)


def _safari_focused(session: wda.Client) -> None:
    """Safari's start page with the address field focused and nothing typed."""
    session.app_launch("com.apple.mobilesafari")
    session(name="TabBarItemTitle").get(timeout=3).click()


STARTS: dict[str, Start] = {
    **{bundle: _then(bundle) for bundle in (a.bundle_id for a in builtin_apps())
       if bundle != "com.apple.springboard"},
    "Settings > General": _then(SETTINGS, "General"),
    "Settings > General > About": _then(SETTINGS, "General", "About"),
    "Settings > Wi-Fi": _then(SETTINGS, "Wi-Fi"),
    "Clock > Add Alarm": _then(CLOCK, "Alarms", "Add"),
    "Clock > World Clock > Add (a page sheet)": _then(CLOCK, "World Clock", "Add"),
    "Weather > List": _then("com.apple.weather", "List"),
    "Notes > a note's edit menu": _note_menu,
    "Safari, address focused": _safari_focused,
}
"""The screens checked, each from a freshly reset phone."""


@pytest.fixture(scope="module")
def sim() -> Iterator[tuple[SimServer, wda.Client]]:
    server = SimServer(port=0).start()
    yield server, wda.Client(server.url)
    server.stop()


def _key(element: Mapping[str, object]) -> tuple[object, ...]:
    return tuple(element.get(k) for k in ("type", "name", "label", "rect"))


def _node_key(node: Node) -> tuple[object, ...]:
    f = node.frame
    return node.type, node.name, node.label, {"x": f.x, "y": f.y, "width": f.width,
                                              "height": f.height}


def _wrong(server: SimServer) -> tuple[int, list[str]]:
    """How many controls are on top at their centre, and those the bridge names otherwise."""
    with server.lock:
        screen = server.phone.screen()
        tree, root = to_json(screen), screen.root
    checked, wrong = 0, []
    for _, element in walk(tree):
        rect = element.get("rect")
        if (element.get("type") not in TAPPED or element.get("isVisible") != "1"
                or element.get("isAccessible") != "1" or not isinstance(rect, Mapping)
                or not rect["width"] or not rect["height"]):
            continue
        x, y = rect["x"] + rect["width"] // 2, rect["y"] + rect["height"] // 2
        path = hit_path(root, x, y)
        on_top = [i for i, n in enumerate(path) if _node_key(n) == _key(element)]
        if not on_top:
            continue  # something the simulator draws over it takes the tap
        checked += 1
        found = node_at(tree, x, y)
        if found is None or _key(found) not in [_node_key(n) for n in path[on_top[0]:]]:
            wrong.append(f"{element.get('type')} {element.get('label')!r} at ({x},{y}): bridge "
                         f"{None if found is None else (found.get('type'), found.get('label'))}")
    return checked, wrong


@pytest.mark.slow  # 3.0 s measured: the README's command stays quick
def test_a_tap_on_a_control_on_top_is_logged_as_it_on_every_screen(
        sim: tuple[SimServer, wda.Client]) -> None:
    server, client = sim
    session = client.session()
    checked, wrong = 0, []
    for where, start in STARTS.items():
        server.reset()
        session.home()
        start(session)
        count, missed = _wrong(server)
        checked += count
        wrong += [f"{where}: {line}" for line in missed]
    assert checked > 200, checked  # the screens showed their controls
    assert not wrong, "\n".join(wrong)
