"""Every screen the simulator reaches cheaply obeys the rules every real WDA source obeys
(`fidelity.tree_rule_breaks`): no label without a name, no accessible element inside an
accessible one, `index` and `traits` on every element with the index its place, no attribute
WDA never writes.

The walk starts from each built-in app's launch screen and a few screens deeper (Add Alarm,
a loaded Safari page, Home Screen edit mode, Notification Center...), and from each start taps
every visible accessible control once, on a freshly reset phone each time, through
facebook-wda over HTTP. A red team walked ~40 screens by hand and found these rules broken on
Clock, Safari, Reminders and the App Store; this walks several hundred.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import wda
from fidelity import tree_rule_breaks
from lxml import etree

from phoneshell.sim import SimServer
from phoneshell.sim.apps import builtin_apps
from phoneshell.sim.ui import Node, Rect

Start = Callable[[wda.Client], None]
TAPPED = ("Button", "Cell", "Link", "MenuItem", "Icon", "StaticText", "Switch")
"""Short types the walk taps (each visible, enabled, accessible one, off the keyboard)."""


def _launch(bundle: str) -> Start:
    def start(session: wda.Client) -> None:
        session.app_launch(bundle)
    return start


def _then(first: Start, *names: str) -> Start:
    def start(session: wda.Client) -> None:
        first(session)
        for name in names:
            session(name=name).get(timeout=5).tap()
    return start


def _page(session: wda.Client) -> None:
    session.open_url("https://example.com/")
    session(className="XCUIElementTypeWebView").get(timeout=5)


def _edit_home(session: wda.Client) -> None:
    session(className="XCUIElementTypeIcon", name="Weather").get(timeout=5).tap_hold(1.3)
    session(label="Edit Home Screen").get(timeout=5).tap()


def _notification_center(session: wda.Client) -> None:
    session.swipe(60, 2, 60, 640)


def _control_center(session: wda.Client) -> None:
    session.swipe(380, 2, 380, 500)


CLOCK, SAFARI, SETTINGS = "com.apple.mobiletimer", "com.apple.mobilesafari", "com.apple.Preferences"
STARTS: dict[str, Start] = {
    **{bundle: _launch(bundle) for bundle in (a.bundle_id for a in builtin_apps())
       if bundle != "com.apple.springboard"},
    "Home Screen": lambda session: None,
    "Home Screen, edit mode": _edit_home,
    "Notification Center": _notification_center,
    "Control Center": _control_center,
    "Clock > Add Alarm": _then(_launch(CLOCK), "Alarms", "Add"),
    "Clock > World Clock, Edit": _then(_launch(CLOCK), "World Clock", "Edit"),
    "Safari, a page": _page,
    "Safari, a page's More menu": lambda s: (_page(s), s(name="MoreMenuButton").get(
        timeout=5).tap()),
    "Reminders > Reminders": _then(_launch("com.apple.reminders"), "Reminders"),
    "Settings > General": _then(_launch(SETTINGS), "com.apple.settings.general"),
}
"""Where the walk starts, each driven from a freshly reset phone."""


def _targets(xml: str) -> list[tuple[str, int, int]]:
    root = etree.fromstring(xml.encode())
    found = []
    for node in root.iter():
        kind = str(node.get("type", "")).removeprefix("XCUIElementType")
        if (kind not in TAPPED or node.get("accessible") != "true"
                or node.get("visible") != "true" or node.get("enabled") != "true"):
            continue
        if any(str(up.get("type")).endswith(("Keyboard", "StatusBar"))
               for up in node.iterancestors()):
            continue
        x, y, w, h = (int(node.get(k, "0")) for k in ("x", "y", "width", "height"))
        if w and h:
            found.append((f"{kind} {node.get('name')!r}", x + w // 2, y + h // 2))
    return found


def _walk(sim: SimServer) -> tuple[int, list[str]]:
    """Visit every start and every tap from it; return the count of screens and what broke."""
    client = wda.Client(sim.url)
    session = client.session()
    seen, breaks = 0, []

    def visit(where: str) -> str:
        nonlocal seen
        xml = client.source()
        seen += 1
        breaks.extend(f"{where}: {line}" for line in tree_rule_breaks(xml))
        return xml

    for name, start in STARTS.items():
        sim.reset()
        session.home()
        start(session)
        for what, x, y in _targets(visit(name)):
            sim.reset()
            session.home()
            start(session)
            session.tap(x, y)
            visit(f"{name}, tapped {what}")
    return seen, breaks


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_every_screen_walked_obeys_the_tree_rules(sim: SimServer) -> None:
    seen, breaks = _walk(sim)
    assert seen > 300, seen  # the walk went on past the launch screens
    assert breaks == [], "\n".join(breaks[:40])


def test_every_real_dump_obeys_the_rules_held_to(ios_dumps: tuple[Path, ...]) -> None:
    assert {d.name: tree_rule_breaks(d.read_bytes()) for d in ios_dumps} == {
        d.name: [] for d in ios_dumps}


@pytest.mark.parametrize(("xml", "rule"), [
    ('<A type="A" label="x" index="0" traits=""/>', "label without a name"),
    ('<A type="A" accessible="true" index="0" traits="Button"><B type="B" accessible="true" '
     'index="0" traits=""/></A>', "accessible inside accessible"),
    ('<A type="A" index="0" traits=""><B type="B" index="1" traits=""/></A>', "index 1 at place 0"),
    ('<A type="A" index="0"/>', "no index or traits"),
    ('<A type="A" index="0" traits="" hittable="true"/>', "unknown attribute 'hittable'"),
])
def test_each_rule_catches_its_break(xml: str, rule: str) -> None:
    assert any(line.startswith(rule) for line in tree_rule_breaks(xml)), tree_rule_breaks(xml)


FRAME = Rect(0, 0, 100, 40)


def test_a_cell_holding_accessible_elements_is_their_container() -> None:
    button = Node("Button", FRAME, label="Not completed")
    holder = Node("Cell", FRAME, children=(Node("Other", FRAME, children=(button,)),))
    assert (holder.is_accessible, holder.trait_text) == (False, "")
    texts = Node("Cell", FRAME, label="Row", children=(
        Node("StaticText", FRAME, label="Row", accessible=False),))
    assert (texts.is_accessible, texts.trait_text) == (True, "Button")


def test_nothing_below_an_accessible_element_is_accessible() -> None:
    title = Node("StaticText", FRAME, label="Share")
    button = Node("Button", FRAME, label="Share", children=(
        Node("Other", FRAME, children=(title,)),))
    inner = button.children[0].children[0]
    assert button.is_accessible and not inner.is_accessible
    assert (inner.type, inner.name, inner.trait_text) == ("StaticText", "Share", "StaticText")
    cell = Node("Cell", FRAME, label="Alarm", accessible=True, children=(
        Node("Switch", FRAME, label="Alarm", value="1"),))
    assert [n.is_accessible for n in (cell, cell.children[0])] == [True, False]


def test_the_privacy_report_count_reads_as_its_phrase(client: wda.Client) -> None:
    client.session(SAFARI)
    root = etree.fromstring(client.source().encode())
    (count,) = root.xpath("//*[@name='privacyReportIdentifierContent']//XCUIElementTypeStaticText"
                          "[1]")
    # As the start-page dump (line 118): the whole phrase, though the page draws "0".
    assert [count.get(k) for k in ("value", "name", "label", "accessible")] == [
        "0 blocked trackers", "0 blocked trackers", "0 blocked trackers", "true"]
