"""What a modal presentation covers is reported not visible, on every modal, as on a phone.

The iOS 26 share-sheet dump (../shared/reference/ios-sources/) has every view of Safari's
window behind the popover `visible="false"` (UIKit's accessibilityViewIsModal), the page's web
content aside. A red team left Clock's Add Alarm sheet over the Alarms page and "which tab is
showing" passed on the page's hidden title. Each modal kind the simulator builds is brought up
through facebook-wda over HTTP: an element it covers must report visible and hittable false,
and nothing in its window but the modal (and what holds it) may report itself visible, while
the keyboard's window, SpringBoard's status bar and screenshots are left as they were.
"""

from __future__ import annotations

import io
import sys
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import wda
from cli_process import run_cli
from PIL import Image

from phoneshell.sim import SimServer
from phoneshell.sim.ui import Node, walk

Setup = Callable[[wda.Client], wda.Session]


@pytest.fixture
def sim() -> Iterator[SimServer]:
    with SimServer(port=0) as server:
        yield server


def _clock_add_alarm(c: wda.Client) -> wda.Session:
    s = c.session("com.apple.mobiletimer")
    s(name="Alarms", className="Button").click()
    s(name="Add", className="Button").click()
    return s


def _clock_city_chooser(c: wda.Client) -> wda.Session:
    s = c.session("com.apple.mobiletimer")
    s(name="World Clock", className="Button").click()
    s(name="Add", className="Button").click()
    return s


def _new_reminder(c: wda.Client) -> wda.Session:
    s = c.session("com.apple.reminders")
    s(label="New Reminder").get(timeout=3).click()
    return s


def _app_store_alert(c: wda.Client) -> wda.Session:
    s = c.session("com.apple.AppStore")
    s(label="Search").get(timeout=3).tap()
    s(className="SearchField").get(timeout=3).set_text("Maps\n")
    s(label="Get").get(timeout=3).tap()
    assert s.alert.exists
    return s


def _notes_action_sheet(c: wda.Client) -> wda.Session:
    s = c.session("com.apple.mobilenotes")
    s(className="XCUIElementTypeCell").get(timeout=3).click()
    s(label="More", className="XCUIElementTypeButton").get(timeout=3).click()
    assert s(className="Sheet").exists
    return s


def _safari_more_menu(c: wda.Client) -> wda.Session:
    s = c.session("com.apple.mobilesafari")
    s._session_http.post("/url", {"url": "https://example.com"})
    s(label="More", className="XCUIElementTypeButton").get(timeout=3).click()
    return s


def _safari_share_sheet(c: wda.Client) -> wda.Session:
    s = _safari_more_menu(c)
    s(label="Share\u2026").get(timeout=3).click()
    assert s(className="Popover").exists
    return s


def _home_context_menu(c: wda.Client) -> wda.Session:
    s = c.session()
    c.home()
    s(name="Weather").get(timeout=3).tap_hold(1.0)  # held by id: its menu comes up
    assert s(className="Menu").exists
    return s


@dataclass(frozen=True)
class Modal:
    """How to bring a modal up, and an element it covers (a locator facebook-wda takes)."""

    setup: Setup
    covered: dict[str, str]


MODALS = {
    "page sheet (Add Alarm)": Modal(_clock_add_alarm, {"name": "Alarms",
                                                       "className": "NavigationBar"}),
    "page sheet (city chooser)": Modal(_clock_city_chooser, {"name": "World Clock",
                                                             "className": "NavigationBar"}),
    "page sheet (New Reminder)": Modal(_new_reminder, {"name": "Lists",
                                                       "className": "NavigationBar"}),
    "alert": Modal(_app_store_alert, {"name": "Search", "className": "SearchField"}),
    "action sheet": Modal(_notes_action_sheet, {"name": "BackButton"}),
    "context menu": Modal(_safari_more_menu, {"name": "TabBarItemTitle"}),
    "popover (share sheet)": Modal(_safari_share_sheet, {"name": "MoreMenuButton"}),
    "context menu (Home Screen)": Modal(_home_context_menu, {"name": "Weather"}),
}


def _layer_window(sim: SimServer) -> tuple[Node, Node]:
    """The modal layer on screen and the window holding it."""
    with sim.lock:
        root = sim.phone.screen().root
    for window in root.children:
        layers = [n for n in walk(window) if n.modal]
        if layers:
            return layers[-1], window
    raise AssertionError("no modal layer on screen")


def _web_content(window: Node) -> set[int]:
    """Ids of the nodes WebKit reports for itself (inside a web view inside a web view)."""
    inner: set[int] = set()
    for node in walk(window):
        if node.type == "WebView":
            for child in node.children:
                if child.type == "WebView":
                    inner |= {id(n) for n in walk(child) if n is not child}
    return inner


@pytest.mark.parametrize("kind", MODALS)
def test_what_a_modal_covers_is_not_visible_nor_hittable(sim: SimServer, kind: str) -> None:
    spec = MODALS[kind]
    s = spec.setup(wda.Client(sim.url))
    element = s(**spec.covered).get(timeout=3)
    assert element.visible is False
    hittable = s._session_http.get(f"element/{element.id}/attribute/hittable").value
    assert hittable is False
    assert not s(**spec.covered, visible=True).exists  # a predicate on visible agrees
    layer, window = _layer_window(sim)
    kept = {id(n) for n in walk(layer)} | _web_content(window)
    for node in walk(window):
        if node.visible and id(node) not in kept:
            # Only what holds the modal stays visible: a chain of containers down to it.
            assert any(n is layer for n in walk(node)), f"{node.type} {node.name!r} shows"
    assert any(n.visible and n.is_accessible for n in walk(layer)), "the modal itself shows"


def test_the_keyboard_stays_up_over_a_page_sheet(sim: SimServer) -> None:
    """The New Reminder sheet's title has focus: the keyboard is a window of its own."""
    s = _new_reminder(wda.Client(sim.url))
    assert s(className="Keyboard").get(timeout=3).visible
    assert s(className="Key", visible=True).exists
    assert s(name="Title", className="TextField").get().visible


def test_springboards_status_bar_stays_visible_under_its_context_menu(sim: SimServer) -> None:
    s = _home_context_menu(wda.Client(sim.url))
    assert s(className="StatusBar").get(timeout=3).visible
    assert s(className="Menu").get().visible and s(label="Remove App").get().visible


def test_a_modal_over_a_modal_covers_the_one_under_it(sim: SimServer) -> None:
    """Discard Changes over the New Reminder sheet: the sheet's bar is covered, the action
    sheet's buttons show; Keep Editing brings the sheet back."""
    s = _new_reminder(wda.Client(sim.url))
    s(name="Title", className="TextField").get(timeout=3).set_text("Milk")
    s(label="Cancel").get().click()
    assert s(label="Keep Editing").get(timeout=3).visible
    assert s(name="New Reminder", className="NavigationBar").get().visible is False
    s(label="Keep Editing").click()
    assert s(name="New Reminder", className="NavigationBar").get(timeout=3).visible
    assert s(name="Lists", className="NavigationBar").get().visible is False


def test_the_share_sheet_hides_safaris_views_but_not_the_pages_content(sim: SimServer,
                                                                       ) -> None:
    """As the real dump: the WebView, address and bar buttons hidden, the page's text not."""
    s = _safari_share_sheet(wda.Client(sim.url))
    for name in ("WebView", "TabBarItemTitle", "MoreMenuButton"):
        assert s(name=name).get(timeout=3).visible is False, name
    assert s(className="StaticText", label="Example Domain").get().visible


def test_the_screenshot_still_draws_what_a_modal_covers(sim: SimServer) -> None:
    """The App Store's tab bar shows behind its alert as it did before the alert came up."""
    c = wda.Client(sim.url)
    s = c.session("com.apple.AppStore")
    s(label="Search").get(timeout=3).tap()
    s(className="SearchField").get(timeout=3).set_text("Maps\n")
    bar = s(className="TabBar").get(timeout=3).bounds
    scale = Image.open(io.BytesIO(c.screenshot(format="raw"))).width / c.window_size().width
    box = tuple(round(v * scale) for v in (bar.x, bar.y, bar.x + bar.width, bar.y + bar.height))

    def tab_bar_pixels() -> bytes:
        return Image.open(io.BytesIO(c.screenshot(format="raw"))).crop(box).tobytes()

    before = tab_bar_pixels()
    s(label="Get").get(timeout=3).tap()
    assert s.alert.exists and s(className="TabBar").get().visible is False
    assert tab_bar_pixels() == before


AGENT = """\
import json, os, wda
s = wda.Client(os.environ["PHONESHELL_WDA_URL"]).session("com.apple.mobiletimer")
s(name="Alarms", className="Button").click()
s(name="Add", className="Button").click()  # the Add Alarm sheet, left over the page
print(json.dumps({"status": "done"}))
"""


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_a_page_left_under_a_sheet_does_not_pass_for_the_page_showing(tmp_path: Path) -> None:
    """The red team's finish: Alarms opened, then covered by the Add Alarm sheet. The tab's
    title check reads only what shows, so the run fails, naming the sheet it shows."""
    agent = tmp_path / "agent.py"
    agent.write_text(textwrap.dedent(AGENT))
    done = run_cli("run", "environments/clock.tab.alarms.yaml", "--runs", str(tmp_path / "runs"),
                   "--agent", f"command:{sys.executable} {agent}")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "failed" in done.stdout and "Add Alarm" in done.stdout, done.stdout
