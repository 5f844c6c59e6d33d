"""A large title collapses as its list scrolls (red teams 130 and 131, RT130-1/RT131-3).

UIKit's `prefersLargeTitles` navigation bar (the Settings root's dump: 62..168) shrinks to the
standard bar (62..116) as its list scrolls up past the title: the title scrolls away with the
content and shows inline in the bar. The simulator kept the large bar however far a list had
scrolled, so a row lying at 116..168 after a scroll, which a phone shows and lets be touched,
was reported hidden and its touches went to the bar: an honest finish that ended on a scrolled
list failed. Inferred from UIKit's documented behaviour (no dump of a scrolled large-title
screen). Each screen is driven with facebook-wda over HTTP on a fresh simulator.
"""

from __future__ import annotations

import pytest
import wda
from lxml import etree

from phoneshell.sim import SimServer

LARGE_TITLED = ("com.apple.Preferences", "com.apple.AppStore")
"""Apps whose first screen is a list under a large title long enough to scroll past it (the
others' first lists fit their screen and do not scroll; every list under a large title takes the
same rule, `layout.large_title_shown`)."""


def _bar(client: wda.Client) -> tuple[int, int]:
    """The top and bottom of the screen's navigation bar."""
    root = etree.fromstring(client.source().encode())
    bar = next(n for n in root.iter() if n.get("type") == "XCUIElementTypeNavigationBar")
    top = int(bar.get("y", "0"))
    return top, top + int(bar.get("height", "0"))


def _shown_in_band(client: wda.Client, top: int, bottom: int) -> list[str]:
    """The labels of visible elements of a list whose centre lies between `top` and `bottom`."""
    root = etree.fromstring(client.source().encode())
    labels = []
    for node in root.iter():
        if node.get("visible") != "true" or not node.get("label"):
            continue
        if any(a.get("type") == "XCUIElementTypeNavigationBar" for a in node.iterancestors()):
            continue
        centre = int(node.get("y", "0")) + int(node.get("height", "0")) // 2
        if top <= centre < bottom:
            labels.append(node.get("label", ""))
    return labels


@pytest.mark.parametrize("bundle", LARGE_TITLED)
def test_a_large_title_collapses_to_the_standard_bar_as_its_list_scrolls(bundle: str) -> None:
    with SimServer() as sim:
        client = wda.Client(sim.url)
        session = client.session(bundle)
        assert _bar(client) == (62, 168)
        session.swipe(200, 600, 200, 580, 0.5)  # 20 points: the bar follows the content
        assert _bar(client) == (62, 148)
        session.swipe(200, 600, 200, 300, 0.5)
        assert _bar(client) == (62, 116)
        assert _shown_in_band(client, 116, 168), "nothing shows where the large title was"
        session.swipe(200, 300, 200, 700, 0.5)  # back to the top: the large title again
        assert _bar(client) == (62, 168)


def test_a_row_scrolled_to_where_the_large_title_was_shows_and_takes_its_tap() -> None:
    with SimServer() as sim:
        client = wda.Client(sim.url)
        session = client.session("com.apple.Preferences")
        general = session(label="General", className="Button").get(timeout=2)
        centre = general.bounds.y + general.bounds.height // 2
        session.swipe(200, 700, 200, 700 - (centre - 142), 1.0)
        general = session(label="General", className="Button").get(timeout=2)
        assert general.bounds.y >= 116 and general.bounds.y + general.bounds.height <= 168
        assert general.info["visible"] is True
        session.click(200, 142)
        assert session(className="NavigationBar", name="General").wait(timeout=2)
