"""An xpath from an element runs on a document of that element alone, as WDA's FBXPath does.

WDA (`XCUIElement+FBFind` -> `FBXPath matchesWithRootElement:`) writes a fresh document whose
root element is the element searched from and makes that root the context node, so `/X`,
`(//X)[n]`, `last()` and the axes count inside the element, and nothing above it exists
(red team 116, RT116-3: from Settings' list `(//XCUIElementTypeStaticText)[3]` is "Wi-Fi" on a
phone, where the screen's whole document counted "Sign in to access..."). The rows hold WDA's
answers as its sources give them; the sweep checks the same rule on every element of a screen.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import wda

from bridge.finds import xpath_cost

SIGN_IN = "Sign in to access your iCloud data, the App Store, Apple services, and more."
ROW = "**/XCUIElementTypeButton[`label == 'General'`]"
LIST = "**/XCUIElementTypeCollectionView"

ROWS = [
    # from the General row (a button holding its icon and its title)
    (ROW, "(//XCUIElementTypeStaticText)[1]", ["General"]),
    (ROW, "/XCUIElementTypeButton", ["General"]),
    (ROW, "/*/XCUIElementTypeStaticText", ["General"]),
    (ROW, "(//*)[1]", ["General"]),
    (ROW, "/XCUIElementTypeApplication//XCUIElementTypeStaticText", []),
    (ROW, "/XCUIElementTypeCell", []),
    (ROW, "ancestor::*", []),
    (ROW, "..", []),
    (ROW, "/*[@hittable]", ["General"]),  # a document that names an optional attribute too
    # from Settings' list
    (LIST, "(//XCUIElementTypeStaticText)[1]", ["Apple Account"]),
    (LIST, "(//XCUIElementTypeStaticText)[3]", ["Wi-Fi"]),
    (LIST, "(//XCUIElementTypeSwitch)[1]", ["Airplane Mode"]),
    (LIST, "/XCUIElementTypeCollectionView/XCUIElementTypeCell[1]//XCUIElementTypeStaticText",
     ["Apple Account", SIGN_IN]),
    (LIST, "/XCUIElementTypeApplication//XCUIElementTypeCell[1]//XCUIElementTypeStaticText", []),
    (LIST, "//XCUIElementTypeNavigationBar", []),  # beside the list, not in it
]

Raw = Callable[..., Any]


@pytest.fixture
def settings(client: wda.Client) -> str:
    return client.session("com.apple.Preferences").session_id


def _under(raw: Raw, sid: str, uid: str, query: str) -> list[str]:
    reply = raw("POST", f"/session/{sid}/element/{uid}/elements",
                {"using": "xpath", "value": query})
    assert reply.status == 200, reply.value
    return [str(e["ELEMENT"]) for e in reply.value]


def _label(raw: Raw, sid: str, uid: str) -> str:
    return str(raw("GET", f"/session/{sid}/element/{uid}/attribute/label").value)


@pytest.mark.parametrize(("start", "query", "labels"), ROWS,
                         ids=[f"{'row' if s == ROW else 'list'}:{q}" for s, q, _ in ROWS])
def test_an_xpath_from_an_element_counts_inside_it(settings, raw, start, query, labels):
    uid = raw("POST", f"/session/{settings}/element",
              {"using": "class chain", "value": start}).value["ELEMENT"]
    found = _under(raw, settings, uid, query)
    assert [_label(raw, settings, e) for e in found] == labels
    assert xpath_cost(query) == ""  # the bridge forwards it as it is


def test_the_last_of_a_list_is_the_last_of_its_own(settings, raw):
    uid = raw("POST", f"/session/{settings}/element",
              {"using": "class chain", "value": LIST}).value["ELEMENT"]
    buttons = _under(raw, settings, uid, ".//XCUIElementTypeButton")
    assert len(buttons) > 3
    assert _under(raw, settings, uid, "(//XCUIElementTypeButton)[last()]") == buttons[-1:]
    assert _under(raw, settings, uid, "(//XCUIElementTypeButton)[2]") == buttons[1:2]


@pytest.mark.slow  # 3.3 s measured: the README's command stays quick
@pytest.mark.parametrize("bundle_id", ["com.apple.Preferences", "com.apple.mobilenotes"])
def test_every_element_is_the_root_of_its_own_xpath_document(client, raw, bundle_id):
    sid = client.session(bundle_id).session_id
    everything = raw("POST", f"/session/{sid}/elements",
                     {"using": "xpath", "value": "//*"}).value
    assert len(everything) > 50
    for element in everything:
        uid = str(element["ELEMENT"])
        subtree = _under(raw, sid, uid, "//*")
        assert subtree[0] == uid
        assert _under(raw, sid, uid, "/*") == [uid]
        assert _under(raw, sid, uid, "(//*)[last()]") == subtree[-1:]
        assert _under(raw, sid, uid, "/*/*") == _under(raw, sid, uid, "*")
