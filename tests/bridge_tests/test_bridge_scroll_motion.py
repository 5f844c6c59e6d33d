"""WDA's scroll (`/wda/element/:id/scroll`) is judged by the motion WDA makes for it, never
taken for a swipe (red team 95, RT95-1): facebook-wda's `el.scroll()` (`toVisible`) on a
Settings row, and WDA's scroll to a child by `name` or `predicateString`, drag the list up or
down until the row shows, and were refused as "it would swipe <row> left". A scroll by
direction is judged by the drags WDA computes (`scroll_drags`): "right" drags the finger left,
and so does "left" by a negative distance, and those stay refused on a row. Driven by
facebook-wda through the bridge to the simulated iPhone."""

from __future__ import annotations

import pytest
import wda
from bridge_rig import Rig

from phoneshell.xcui import SETTINGS

LEFT = "left in Settings"


def _refused(rig: Rig) -> list[str]:
    return [e.error for e in rig.events("R") if e.stage == "refused"]


def _scroll(session: wda.Session, element: wda.Element, body: dict[str, object]) -> object:
    return session._session_http.post(f"/wda/element/{element.id}/scroll", body)


def test_scrolls_to_an_element_are_not_swipes(guarded: Rig) -> None:
    session = wda.Client(guarded.bridge.grant_agent()).session(SETTINGS)
    session(label="General").get(timeout=5).scroll()  # on screen: nothing to do
    session(name="com.apple.settings.camera").get(timeout=5).scroll()  # under the toolbar
    rows = session(type="XCUIElementTypeCollectionView").get(timeout=5)
    _scroll(session, rows, {"name": "com.apple.settings.camera"})
    _scroll(session, rows, {"predicateString": "label == 'General'"})
    general = session(label="General").get(timeout=5)
    _scroll(session, general, {"direction": "up", "distance": 0})  # WDA makes no drag
    _scroll(session, general, {"direction": "down"})
    assert _refused(guarded) == []


@pytest.mark.parametrize("body", [{"direction": "right"},
                                  {"direction": "left", "distance": -0.5}])
def test_a_scroll_whose_drags_go_left_on_a_row_is_refused(guarded: Rig,
                                                           body: dict[str, object]) -> None:
    session = wda.Client(guarded.bridge.grant_agent()).session(SETTINGS)
    with pytest.raises(wda.WDAError, match="phoneshell bridge refused"):
        _scroll(session, session(label="General").get(timeout=5), body)
    assert [why for why in _refused(guarded) if LEFT in why], _refused(guarded)
